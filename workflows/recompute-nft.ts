/**
 * The NFT collection stats recompute (`nft`, every 60 s, temporal/schedules.ts): one activity, recomputeNftStats —
 * reads nft_collections, nft_listings, nft_sales, checkpoints, blocks, market_overview (ADA/USD), pools; writes
 * nft_collection_stats (activities/nft/stats.ts). Idempotent: a repeated run rewrites the same documents.
 */
import type { NftActivities } from '../activities/nft/stats.js';
import type { WorkflowContext } from './context.js';

export async function recomputeNftBody(
  ctx: WorkflowContext<NftActivities>,
  _input: null,
): Promise<{ collections: number; slot: number | null }> {
  return ctx.activities.recomputeNftStats();
}
