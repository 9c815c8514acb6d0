/**
 * The search recompute (every 60 s, temporal/schedules.ts `search`): rebuilds `search_terms`, one document per name,
 * ticker or identifier of every token with a DEX pool, DEX pool, NFT collection, stake pool and handle (each a hit the
 * tool it names answers for: tokens without a pool, LP tokens and pool NFTs are left out), so the `search` tool answers
 * with a prefix scan over one index (api/read/search.ts) instead of scanning collections per request. Transactions,
 * blocks, addresses and epochs are not indexed here: their identifiers are exact keys the read resolves with point
 * reads.
 *
 * Also rebuilds `nft_rarity` (rarity.ts) from the NFT assets' traits.
 */
import {
  HANDLES,
  NFT_COLLECTIONS,
  NFT_COLLECTION_STATS,
  POOLS,
  POOL_STATS,
  SEARCH_TERMS,
  STAKE_POOLS,
  TOKENS,
  TOKEN_META,
  TOKEN_STATS,
  normaliseTerm,
  type HandleDoc,
  type NftCollectionDoc,
  type PoolDoc,
  type SearchKind,
  type SearchTermDoc,
  type StakePoolDoc,
  type TokenDoc,
} from '../../mongo/collections/index.js';
import { assetFingerprint, decodeAssetName } from '../../cardano/units.js';
import { displayName, tokenMetadata } from '../../cardano/token-metadata.js';
import { replaceAll } from '../../mongo/replace-all.js';
import type { Store } from '../../mongo/store.js';
import { recomputeNftRarity } from './rarity.js';

export interface SearchDeps {
  store: Store;
}

/**
 * The terms of one name: the whole name and every word-suffix of it ("chain golems" → "chain golems", "golems"),
 * so a query matches the start of any word.
 */
export function termsOf(...names: (string | null | undefined)[]): string[] {
  const out = new Set<string>();
  for (const n of names) {
    if (!n) continue;
    const t = normaliseTerm(n);
    if (!t) continue;
    out.add(t);
    const words = t.split(' ');
    for (let i = 1; i < words.length; i++) out.add(words.slice(i).join(' '));
  }
  return [...out].map((t) => t.slice(0, 200));
}

const fmt = (n: number) => (Math.abs(n) >= 100 ? Math.round(n).toLocaleString('en-US') : String(+n.toPrecision(6)));

export interface SearchEntity {
  kind: SearchKind;
  id: string;
  label: string;
  detail: string | null;
  weight: number;
  terms: string[];
}

/**
 * An entity's terms with its label as one more whole term: the label is what the hit, and the Markdown view's title,
 * show ("Snek (SNEK)", "ADA/SNEK on minswap-v2", "[ALPHA] Alpha Stake Pool"), so an agent that copies it and searches
 * again finds that entity. Whole only: word-suffixes of a label ("on minswap-v2") would match every pool.
 */
const withLabel = (e: SearchEntity): string[] => {
  const label = normaliseTerm(e.label).slice(0, 200);
  return label && !e.terms.includes(label) ? [...e.terms, label] : e.terms;
};

export const entityDocs = (e: SearchEntity): SearchTermDoc[] =>
  withLabel(e).map((term, n) => ({
    _id: `${e.kind}|${e.id}|${n}`,
    term,
    kind: e.kind,
    id: e.id,
    label: e.label,
    detail: e.detail,
    weight: e.weight,
  }));

async function collect<D extends { _id: string }>(store: Store, spec: Parameters<Store['collection']>[0]) {
  const out: D[] = [];
  for await (const d of store.collection(spec).scan(500)) out.push(d as unknown as D);
  return out;
}

/**
 * The units that mark a DEX pool rather than a token people trade: each pool's LP token and every unit its pool
 * output holds besides the pair (pool NFT, identity token, unissued LP tokens).
 */
export function poolMarkerUnits(pools: readonly PoolDoc[]): Set<string> {
  const out = new Set<string>();
  for (const p of pools) {
    if (p.lpToken) out.add(p.lpToken);
    for (const unit of Object.keys(p.poolOutput?.value ?? {}))
      if (unit !== 'lovelace' && unit !== p.tokenA && unit !== p.tokenB) out.add(unit);
  }
  return out;
}

/**
 * Whether a token is a search hit: `get_token` (the tool its hits name) answers only for a token with an indexed
 * DEX pool (api/read/tokens.ts: "has no indexed DEX pool, so no market data" otherwise), and no other tool answers
 * for a token, so tokens without a pool are left out; so are LP tokens and pool NFTs, which name a pool, not a token.
 */
export const isSearchToken = (t: Pick<TokenDoc, '_id' | 'poolIds'>, poolMarkers: ReadonlySet<string>): boolean =>
  t.poolIds.length > 0 && !poolMarkers.has(t._id);

export async function searchEntities(store: Store): Promise<SearchEntity[]> {
  const entities: SearchEntity[] = [];
  const pools = await collect<PoolDoc>(store, POOLS);
  const poolMarkers = poolMarkerUnits(pools);
  const tokens = await collect<TokenDoc>(store, TOKENS);
  const metas = await store.collection(TOKEN_META).getMany(tokens.map((t) => t._id));
  const stats = await store.collection(TOKEN_STATS).getMany(tokens.map((t) => t._id));
  const tickerOf = new Map<string, string>([['lovelace', 'ADA']]);
  tokens.forEach((t, i) => {
    const meta = metas[i];
    const s = stats[i];
    // The names every other surface shows (cardano/token-metadata.ts: registry, then CIP-68, then the asset name
    // decoded as UTF-8 without its CIP-67 label), so a hit's label is the token's displayName and title.
    const m = tokenMetadata(t._id, meta ?? null, t);
    const { ticker, name } = m;
    const display = displayName(m);
    tickerOf.set(t._id, display);
    if (!isSearchToken(t, poolMarkers)) return;
    entities.push({
      kind: 'token',
      id: t._id,
      // "Snek (SNEK)", as the token's Markdown view is titled; a name that is its ticker once ("NIGHT", not
      // "NIGHT (NIGHT)").
      label: name && ticker && name !== ticker ? `${name} (${ticker})` : (name ?? display),
      detail: s
        ? `price ${s.priceAda === null ? 'unknown' : `${fmt(s.priceAda)} ADA`}, liquidity ${fmt(s.liquidityAda ?? 0)} ADA`
        : null,
      weight: s?.liquidityAda ?? 0,
      terms: termsOf(
        ticker,
        name,
        t.cip68?.ticker,
        t.cip68?.name,
        // The asset name itself (the registry may name the token otherwise), as UTF-8 text without a CIP-67 label.
        decodeAssetName(t.nameHex),
        t._id,
        // The CIP-14 fingerprint (asset1…), the id explorers and wallets show: an agent pasting it finds the token.
        assetFingerprint(t._id),
      ),
    });
  });

  const poolStats = await store.collection(POOL_STATS).getMany(pools.map((p) => p._id));
  pools.forEach((p, i) => {
    const a = tickerOf.get(p.tokenA) ?? p.tokenA.slice(0, 12);
    const b = tickerOf.get(p.tokenB) ?? p.tokenB.slice(0, 12);
    const vol = poolStats[i]?.volume24h ?? 0;
    entities.push({
      kind: 'pool',
      id: String(p.id),
      label: `${a}/${b} on ${p.dex}`,
      detail: `pool ${p.id}, 24 h volume ${fmt(vol)} ADA`,
      weight: vol,
      // The pair both ways, the numeric id ("13", "pool 13": the id get_pool takes and the detail shows) and the
      // DEX's own identifier (pool NFT name, identity token, ident; hex).
      terms: termsOf(`${a}/${b}`, `${b}/${a}`, `${a}-${b}`, `${b}-${a}`, `pool ${p.id}`, p.identifier),
    });
  });

  const collections = await collect<NftCollectionDoc>(store, NFT_COLLECTIONS);
  const nftStats = await store.collection(NFT_COLLECTION_STATS).getMany(collections.map((c) => c._id));
  collections.forEach((c, i) => {
    const s = nftStats[i];
    entities.push({
      kind: 'nft_collection',
      id: c.policyId,
      label: c.name,
      detail: `${c.supply} NFTs, ${c.owners} holders${s ? `, all-time volume ${fmt(s.volumeAll)} ADA` : ''}`,
      weight: s?.volumeAll ?? 0,
      terms: termsOf(c.name, c.policyId),
    });
  });

  const stakePools = await collect<StakePoolDoc>(store, STAKE_POOLS);
  for (const p of stakePools) {
    const stakeAda = Number(BigInt(p.liveStake) / 1_000_000n);
    entities.push({
      kind: 'stake_pool',
      id: p._id,
      label: [p.meta.ticker ? `[${p.meta.ticker}]` : null, p.meta.name].filter(Boolean).join(' ') || p._id,
      detail: `live stake ${fmt(stakeAda)} ADA, margin ${fmt(p.margin * 100)} %, ${p.status}`,
      weight: stakeAda,
      terms: termsOf(p.meta.ticker, p.meta.name, p._id, p.hash),
    });
  }

  const handles = await collect<HandleDoc>(store, HANDLES);
  for (const h of handles) {
    // A handle whose holder is unknown (only its (100) token seen in the indexed range) is no hit: resolve_handle,
    // the tool its hit names, answers "not found" for it (mongo/collections/handles-read.ts).
    if (h.address === null) continue;
    entities.push({
      kind: 'handle',
      id: h._id,
      label: `$${h._id}`,
      detail: `held at ${h.address.slice(0, 20)}…`,
      weight: 0,
      terms: termsOf(h._id),
    });
  }
  return entities;
}

export function createSearchActivities(deps: SearchDeps) {
  const { store } = deps;
  return {
    /** Rebuild the search index; returns the number of entities and terms. */
    async recomputeSearchIndex(): Promise<{ entities: number; terms: number }> {
      const entities = await searchEntities(store);
      const docs = entities.flatMap(entityDocs);
      await replaceAll(store, SEARCH_TERMS, docs, 500);
      return { entities: entities.length, terms: docs.length };
    },
    /** Rebuild the NFT rarity ranks; returns the number of ranked NFTs and collections. */
    recomputeNftRarity: () => recomputeNftRarity(store),
  };
}
export type SearchActivities = ReturnType<typeof createSearchActivities>;
