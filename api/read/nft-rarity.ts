/**
 * NFT rarity ranks (activities/search/rarity.ts: statistical rarity from trait frequencies, 1 = rarest), as the
 * `search` recompute stored them, for the listings the get_nft_listings tool shows.
 */
import { NFT_RARITY } from '../../mongo/collections/index.js';
import type { Store } from '../../mongo/store.js';

export async function rarityOf(
  deps: { store: Store },
  policyId: string,
  units: readonly string[],
): Promise<{ ranks: Map<string, number>; of: number | null }> {
  const ranks = new Map<string, number>();
  let of: number | null = null;
  const docs = await deps.store.collection(NFT_RARITY).getMany(units);
  for (const d of docs) {
    if (!d || d.policyId !== policyId.toLowerCase()) continue;
    ranks.set(d._id, d.rank);
    of = d.of;
  }
  if (of === null) {
    const [any] = await deps.store.collection(NFT_RARITY).find('byPolicy', { eq: [policyId.toLowerCase()], limit: 1 });
    of = any?.of ?? null;
  }
  return { ranks, of };
}
