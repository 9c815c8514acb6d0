/**
 * The search recompute (`search`, every 60 s, temporal/schedules.ts): rebuilds the tool server's search index
 * (search_terms) from tokens, pools, NFT collections, stake pools and handles, then the NFT rarity ranks
 * (nft_rarity) from the NFT assets' traits (activities/search/). Idempotent: a repeated run writes the same documents.
 */
import type { SearchActivities } from '../activities/search/index.js';
import type { WorkflowContext } from './context.js';

export async function recomputeSearchBody(
  ctx: WorkflowContext<SearchActivities>,
  _input: null,
): Promise<{ entities: number; terms: number; rankedNfts: number }> {
  const index = await ctx.activities.recomputeSearchIndex();
  const rarity = await ctx.activities.recomputeNftRarity();
  return { ...index, rankedNfts: rarity.ranked };
}
