/**
 * Precomputed market documents, written only by the scheduled recomputes (activities/recompute/) from the
 * sync-maintained market documents (mongo/collections/market.ts). They are derived views: never rolled back, simply
 * recomputed every minute, so a rollback is reflected one recompute later.
 *
 * Units are the spec's answer units already (whole ADA, decimal-adjusted token amounts, fractions in change*), so
 * a read is a document read plus presentation of AssetRefs.
 */
import { defineCollection, type Store } from '../store.js';
import { POOLS, type PoolDoc } from './market.js';

export const STATS_WINDOWS = ['5m', '1h', '6h', '24h', '7d'] as const;
export type StatsWindow = (typeof STATS_WINDOWS)[number];
export const WINDOW_SECONDS: Record<StatsWindow, number> = {
  '5m': 300,
  '1h': 3600,
  '6h': 21_600,
  '24h': 86_400,
  '7d': 604_800,
};

/** Activity of a token over one rolling window ending at the recompute. */
export interface WindowStats {
  /** ADA side of the complete trades, whole ADA. */
  volume: number;
  txns: number;
  buys: number;
  sells: number;
  /** ADA price change over the window (fraction), null without a price at the window start. */
  change: number | null;
  /** USD price change (fraction), null while the ADA/USD history does not reach the window start. */
  changeUsd: number | null;
}

/** TokenStats of the spec plus the windows and what the rankings filter on; `_id` = unit. */
export interface TokenStatsDoc {
  _id: string;
  priceAda: number | null;
  priceUsd: number | null;
  liquidityAda: number | null;
  liquidityUsd: number | null;
  volume24h: number;
  volume7d: number;
  change1h: number | null;
  change24h: number | null;
  change7d: number | null;
  change1hUsd: number | null;
  change24hUsd: number | null;
  change7dUsd: number | null;
  txns24h: number;
  buys24h: number;
  sells24h: number;
  makers24h: number;
  mcapAda: number | null;
  mcapUsd: number | null;
  fdvUsd: number | null;
  holders: number | null;
  totalSupply: number | null;
  circulatingSupply: number | null;
  pools: number;
  firstPoolTime: string | null;
  firstPoolExact: boolean;
  updatedAt: string;
  windows: Record<StatsWindow, WindowStats>;
  /** Not in the answer: ranking inputs. */
  primaryPoolId: number | null;
  /** Price × total supply in ADA (the fdv sort; fdvUsd is this × ADA/USD). */
  fdvAda: number | null;
  /** true when `holders` is a lower bound (a capped count); the holders sort puts exact counts first. */
  holdersCapped: boolean;
  /** Lower-cased unit, ticker and name, for the `q` filter. */
  search: string;
  /**
   * The unit's CIP-14 fingerprint (asset1…, the id explorers and wallets show), which `q` matches whole: a hash
   * cannot be derived back to its unit on the request path. Absent in documents written before it was kept.
   */
  fingerprint?: string;
}
export const TOKEN_STATS = defineCollection<TokenStatsDoc>({ name: 'token_stats' });

/** Pool activity of the last 24 h; `_id` = String(poolId). */
export interface PoolStatsDoc {
  _id: string;
  poolId: number;
  /** Whole ADA. */
  volume24h: number;
  txns24h: number;
  /**
   * A token/token pool's two sides in lovelace, valued at its tokens' ADA prices when this was computed
   * (cardano/market.ts pairTvlLovelace); null for an ADA pool (its document has its TVL, live) or when neither
   * token has an ADA pool. Absent in documents written before this field.
   */
  tvlLovelace?: string | null;
  /**
   * The pool's DEX's typical batcher fee, in lovelace (cardano/dex/order-fee.ts typicalOrderFee): the median fee of
   * every order the DEX's batchers executed in the same 24 h window, the same figure on each pool of the DEX; what an
   * order placed now is likely to cost besides its amount. null when none had a fee that could be told; absent in
   * documents written before it was kept.
   */
  batcherFeeLovelace?: string | null;
  updatedAt: string;
}
export const POOL_STATS = defineCollection<PoolStatsDoc>({ name: 'pool_stats' });

/**
 * One ordered list. Token lists (`_id` = `tokens|<sort>|<period>|<quote>`) are in the sort's descending order,
 * missing values last; the reader derives ascending order (value groups reversed, ties and missing kept) and
 * applies the floors and `q` with the per-entry fields. Pool lists (`_id` = `pools|<sort>|<dex or all>`) are final.
 */
export interface RankEntry {
  unit: string;
  /** The sort value; null = missing (always last). */
  value: number | null;
  liquidityAda: number | null;
  holders: number | null;
  holdersCapped: boolean;
  search: string;
  /** TokenStatsDoc.fingerprint: `q` equal to it keeps the entry (absent on lists built before it was kept). */
  fingerprint?: string;
  /**
   * The safety assessment (activities/safety) rated the token high risk when the list was built; tools hide these
   * before paging (list_tokens hideHighRisk). Absent on lists built before it was kept.
   */
  highRisk?: boolean;
}
export interface RankingDoc {
  _id: string;
  /**
   * The list's entries, inline: lists written before `entriesId` existed. Newer token lists keep them in
   * RANKING_ENTRIES and leave this empty.
   */
  entries: RankEntry[];
  /**
   * The RANKING_ENTRIES document holding this token list's entries (`${snapshot}|${list id}|${nonce}`): written once
   * and never changed, so a reader can keep it decoded. At mainnet scale (tens of thousands of tokens with pools) a
   * list is megabytes, and decoding it took 17-32 ms per request (20,000 entries); the list document itself stays a
   * few hundred bytes.
   */
  entriesId?: string;
  poolIds: number[];
  updatedAt: string;
  /**
   * The ranking snapshot the list was built from: the token stats and pools it ranked are kept under this id
   * (RANKED_TOKEN_STATS, RANKED_POOLS), so a page presents the very figures it was ordered by. Absent on lists
   * written before snapshots existed (those read the live documents).
   */
  snapshot?: number;
}
export const RANKINGS = defineCollection<RankingDoc>({ name: 'rankings' });

/** One token list's entries as a rankings run wrote them (immutable: a later run writes a new document). */
export interface RankingEntriesDoc {
  _id: string;
  snapshot: number;
  entries: RankEntry[];
}
export const RANKING_ENTRIES = defineCollection<RankingEntriesDoc>({
  name: 'ranking_entries',
  indexes: [{ name: 'bySnapshot', fields: ['snapshot'] }],
});

/**
 * How many entries a process keeps decoded per store, over the lists requests asked for last (the newest list
 * always): ~0.7 KB of heap each (unit and search text), so ~40 MB at most — every list at devnet scale, the three
 * or four most asked-for at 20,000 tokens.
 */
const KEPT_ENTRIES = 60_000;
interface Kept {
  lists: Map<string, readonly RankEntry[]>;
  entries: number;
}
const keptEntries = new WeakMap<Store, Kept>();

/**
 * A token list's entries. Entries documents never change once written, so they are kept decoded (the lists asked
 * for last, up to KEPT_ENTRIES entries): a request reads the small list document and, after a run's first request
 * of the list, no entries.
 */
export async function rankingEntries(store: Store, list: RankingDoc | null): Promise<readonly RankEntry[]> {
  if (!list) return [];
  const id = list.entriesId;
  if (id === undefined) return list.entries;
  let kept = keptEntries.get(store);
  if (!kept) keptEntries.set(store, (kept = { lists: new Map(), entries: 0 }));
  const hit = kept.lists.get(id);
  if (hit) {
    kept.lists.delete(id);
    kept.lists.set(id, hit);
    return hit;
  }
  // Gone only when two later runs replaced it between reading the list and now: the run's list is then empty.
  const entries = (await store.collection(RANKING_ENTRIES).get(id))?.entries ?? [];
  if (kept.lists.has(id)) return entries;
  kept.lists.set(id, entries);
  kept.entries += entries.length;
  for (const [k, v] of kept.lists) {
    if (kept.entries <= KEPT_ENTRIES || k === id) break;
    kept.lists.delete(k);
    kept.entries -= v.length;
  }
  return entries;
}

/**
 * Ranking snapshots: the token stats (`_id` = `${snapshot}|${unit}`) and the pools with their 24 h stats
 * (`_id` = `${snapshot}|${poolId}`) one rankings recompute ordered. The recompute writes a new snapshot in full,
 * then the lists naming it, then deletes the snapshots before the previous one — so a request that read a list
 * finds its snapshot even while the next one is written.
 */
export interface RankedTokenStatsDoc {
  _id: string;
  snapshot: number;
  stats: TokenStatsDoc;
}
export const RANKED_TOKEN_STATS = defineCollection<RankedTokenStatsDoc>({
  name: 'ranked_token_stats',
  indexes: [{ name: 'bySnapshot', fields: ['snapshot'] }],
});
export interface RankedPoolDoc {
  _id: string;
  snapshot: number;
  pool: PoolDoc;
  stats: PoolStatsDoc | null;
}
export const RANKED_POOLS = defineCollection<RankedPoolDoc>({
  name: 'ranked_pools',
  indexes: [{ name: 'bySnapshot', fields: ['snapshot'] }],
});
export const snapshotDocId = (snapshot: number, key: string | number) => `${snapshot}|${key}`;

/** The token stats a ranking list presents: its snapshot's, in the order of `units` (missing ones left out). */
export async function rankedTokenStats(
  store: Store,
  list: RankingDoc | null,
  units: readonly string[],
): Promise<TokenStatsDoc[]> {
  const snap = list?.snapshot;
  const docs =
    snap === undefined
      ? await store.collection(TOKEN_STATS).getMany(units)
      : (await store.collection(RANKED_TOKEN_STATS).getMany(units.map((u) => snapshotDocId(snap, u)))).map(
          (d) => d?.stats ?? null,
        );
  return docs.filter((s): s is TokenStatsDoc => s !== null);
}

/** The pools (and their 24 h stats) a pool ranking presents: its snapshot's, in the order of `ids`. */
export async function rankedPools(
  store: Store,
  list: RankingDoc | null,
  ids: readonly number[],
): Promise<{ pool: PoolDoc; stats: PoolStatsDoc | null }[]> {
  const snap = list?.snapshot;
  if (snap === undefined) {
    const keys = ids.map(String);
    const [pools, stats] = await Promise.all([
      store.collection(POOLS).getMany(keys),
      store.collection(POOL_STATS).getMany(keys),
    ]);
    return pools.flatMap((pool, i) => (pool ? [{ pool, stats: stats[i] ?? null }] : []));
  }
  const docs = await store.collection(RANKED_POOLS).getMany(ids.map((id) => snapshotDocId(snap, id)));
  return docs.flatMap((d) => (d ? [{ pool: d.pool, stats: d.stats }] : []));
}

export const poolRankingId = (sort: string, dex: string | null) => `pools|${sort}|${dex ?? 'all'}`;

export interface DexOverview {
  dex: string;
  /** Whole ADA. */
  volume24h: number;
  tvlAda: number;
  pools: number;
  txns24h: number;
  /** The DEX's typical batcher fee per order (PoolStatsDoc.batcherFeeLovelace), in lovelace; absent before it was kept. */
  batcherFeeLovelace?: string | null;
}
/** The market overview (`_id` = 'market'); token lists hold units, presented as TokenRows on read. */
export interface MarketOverviewDoc {
  _id: string;
  adaUsd: number | null;
  volume24h: number;
  tvlAda: number;
  txns24h: number;
  dexes: DexOverview[];
  topGainers: string[];
  topLosers: string[];
  trending: string[];
  updatedAt: string;
  /**
   * The rankings snapshot of the same market run: its token stats are the ones the lists were ordered by (the next
   * run writes token_stats before its overview). Absent on documents written before it was kept.
   */
  snapshot?: number;
}
export const MARKET_OVERVIEW = defineCollection<MarketOverviewDoc>({ name: 'market_overview' });
export const MARKET_OVERVIEW_ID = 'market';

export const MARKET_READ_COLLECTIONS = [
  TOKEN_STATS,
  POOL_STATS,
  RANKINGS,
  RANKING_ENTRIES,
  RANKED_TOKEN_STATS,
  RANKED_POOLS,
  MARKET_OVERVIEW,
];
