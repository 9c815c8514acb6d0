/**
 * NFT rarity ranks from trait frequencies (statistical rarity, the method rarity tools call "trait rarity score"):
 * for a collection of N NFTs with traits, each NFT scores Σ over the collection's trait types of N / (number of
 * NFTs sharing its value of that type); an NFT without a type counts as having the value "none" of it, so a
 * missing trait that is rare is rare too. Rank 1 = highest score; equal scores share a rank (1, 2, 2, 4).
 *
 * Traits are the CIP-25 `attributes`/trait fields or the CIP-68 (100) datum's, as the NFT extension stored them
 * (`nft_assets.attributes`, pairs of trait type and value). A collection with no traits, or fewer than two NFTs,
 * is not ranked.
 */
import {
  NFT_ASSETS,
  NFT_COLLECTIONS,
  NFT_RARITY,
  type NftAssetDoc,
  type NftRarityDoc,
} from '../../mongo/collections/index.js';
import { replaceAll } from '../../mongo/replace-all.js';
import type { Store } from '../../mongo/store.js';

/** Ranks of one collection's NFTs (pure). `traits` = the NFT's trait type → value. */
export function rarityRanks(
  nfts: readonly { unit: string; traits: ReadonlyMap<string, string> }[],
): Map<string, { rank: number; score: number }> {
  const out = new Map<string, { rank: number; score: number }>();
  const types = new Set<string>();
  for (const n of nfts) for (const t of n.traits.keys()) types.add(t);
  if (types.size === 0 || nfts.length < 2) return out;
  const counts = new Map<string, number>();
  const key = (t: string, v: string) => JSON.stringify([t, v]);
  for (const n of nfts)
    for (const t of types) {
      const k = key(t, n.traits.get(t) ?? '\u0000none');
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
  const N = nfts.length;
  const scored = nfts.map((n) => {
    let score = 0;
    for (const t of types) score += N / (counts.get(key(t, n.traits.get(t) ?? '\u0000none')) ?? 1);
    return { unit: n.unit, score: Math.round(score * 1e9) / 1e9 };
  });
  scored.sort((a, b) => b.score - a.score || a.unit.localeCompare(b.unit));
  let rank = 0;
  scored.forEach((s, i) => {
    if (i === 0 || s.score !== scored[i - 1]!.score) rank = i + 1;
    out.set(s.unit, { rank, score: s.score });
  });
  return out;
}

/**
 * Trait type → value of an NFT, from its stored attributes (non-scalar values as their JSON text). The NFT extension
 * stores them as `{ name, value }` pairs (mongo/collections/nft.ts); `[name, value]` pairs and a plain map are read too.
 */
export function traitsOf(asset: Pick<NftAssetDoc, 'attributes'>): Map<string, string> {
  const m = new Map<string, string>();
  const attrs = asset.attributes as unknown;
  const put = (name: unknown, value: unknown) =>
    m.set(String(name), typeof value === 'string' ? value : JSON.stringify(value));
  if (Array.isArray(attrs)) {
    for (const a of attrs)
      if (Array.isArray(a) && a.length >= 2) put(a[0], a[1]);
      else if (a && typeof a === 'object' && 'name' in a && 'value' in a) put(a.name, a.value);
  } else if (attrs && typeof attrs === 'object') {
    for (const [k, v] of Object.entries(attrs)) m.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return m;
}

export async function recomputeNftRarity(store: Store): Promise<{ ranked: number; collections: number }> {
  const docs: NftRarityDoc[] = [];
  let collections = 0;
  for await (const c of store.collection(NFT_COLLECTIONS).scan(200)) {
    const assets = await store.collection(NFT_ASSETS).find('byPolicy', { eq: [c.policyId] });
    const nfts = assets
      .filter((a) => !a.fungible && BigInt(a.quantity) > 0n)
      .map((a) => ({ unit: a.unit, traits: traitsOf(a) }));
    const ranks = rarityRanks(nfts);
    if (ranks.size) collections++;
    for (const [unit, r] of ranks)
      docs.push({ _id: unit, policyId: c.policyId, rank: r.rank, score: r.score, of: ranks.size });
  }
  await replaceAll(store, NFT_RARITY, docs, 500);
  return { ranked: docs.length, collections };
}
