/**
 * The /tokens sort semantics (spec "/tokens sort semantics" 1-9), pure: the recompute builds one descending list
 * per (sort, period, quote) from the token stats; a request reads one list, applies the floors and `q`, derives
 * ascending order when asked, and slices a page.
 *
 * Order of a list: the sort value descending; ties by the tie-break value descending (liquidity for mcap, fdv and
 * volume; volume for every other sort), then by unit ascending; missing values (null) after all present ones in
 * either direction, themselves ordered by the tie-breaks. Ascending order reverses the groups of equal values and
 * keeps everything else (tie order, missing last). For `holders`, exact counts come before capped ones.
 */
import type { RankEntry, RankingDoc, StatsWindow, TokenStatsDoc } from '../mongo/collections/market-read.js';
import { foldText } from './text.js';

/** Id of the stored ranking of one sort, period and quote (`-` where the list has none). */
export const tokenRankingId = (sort: string, period: string, quote: string) => `tokens|${sort}|${period}|${quote}`;

export const TOKEN_SORTS = [
  'volume',
  'volume24h',
  'mcap',
  'gainers',
  'losers',
  'change',
  'age',
  'new',
  'txns',
  'txns24h',
  'makers',
  'liquidity',
  'fdv',
  'holders',
  'rank',
  'trending',
] as const;
export type TokenSort = (typeof TOKEN_SORTS)[number];
export const RANK_PERIODS = ['5m', '1h', '6h', '24h'] as const;
export type RankPeriod = (typeof RANK_PERIODS)[number] & StatsWindow;
export const QUOTES = ['USD', 'ADA'] as const;
export type Quote = (typeof QUOTES)[number];
export type Order = 'asc' | 'desc';

/** The lists the recompute stores (a request's sort maps onto one of them). */
type ListSort =
  | 'volume'
  | 'txns'
  | 'change'
  | 'mcap'
  | 'fdv'
  | 'age'
  | 'new'
  | 'makers'
  | 'liquidity'
  | 'holders'
  | 'rank'
  | 'trending';
const PERIOD_SORTS: readonly ListSort[] = ['volume', 'txns', 'change'];

/** Liquidity floor (ADA) and holders floor each sort applies unless the request gives its own. */
export const DEFAULT_FLOORS: Record<ListSort, { minLiquidity: number | null; minHolders: number | null }> = {
  volume: { minLiquidity: null, minHolders: null },
  txns: { minLiquidity: null, minHolders: null },
  change: { minLiquidity: 10_000, minHolders: null },
  mcap: { minLiquidity: 10_000, minHolders: 100 },
  fdv: { minLiquidity: 10_000, minHolders: 100 },
  age: { minLiquidity: null, minHolders: null },
  new: { minLiquidity: null, minHolders: null },
  makers: { minLiquidity: null, minHolders: null },
  liquidity: { minLiquidity: null, minHolders: null },
  holders: { minLiquidity: 1_000, minHolders: null },
  rank: { minLiquidity: 100, minHolders: null },
  trending: { minLiquidity: null, minHolders: null },
};

export interface RankingRequest {
  sort: TokenSort;
  period: RankPeriod;
  order?: Order;
  quote: Quote;
}

/** What a request resolves to: the stored list, its effective direction and period, and the default floors. */
export interface ResolvedRanking {
  list: ListSort;
  listId: string;
  period: RankPeriod;
  order: Order;
  defaults: { minLiquidity: number | null; minHolders: number | null };
}

export function resolveRanking(r: RankingRequest): ResolvedRanking {
  let list: ListSort;
  let period = r.period;
  let order: Order = r.order ?? 'desc';
  switch (r.sort) {
    case 'volume24h':
      list = 'volume';
      period = '24h';
      break;
    case 'txns24h':
      list = 'txns';
      period = '24h';
      break;
    case 'gainers':
      list = 'change';
      order = 'desc';
      break;
    case 'losers':
      list = 'change';
      order = 'asc';
      break;
    case 'age':
      list = 'age';
      order = r.order ?? 'asc';
      break;
    case 'new':
      list = 'new';
      order = 'asc';
      break;
    case 'rank':
    case 'trending':
      list = r.sort;
      order = 'desc';
      break;
    default:
      list = r.sort;
  }
  const quote = list === 'change' ? r.quote : '-';
  const p = PERIOD_SORTS.includes(list) ? period : '-';
  return { list, listId: tokenRankingId(list, p, quote), period, order, defaults: DEFAULT_FLOORS[list] };
}

// ---- building (recompute) ------------------------------------------------------------------------------------

interface ListDef {
  value: (s: TokenStatsDoc) => number | null;
  tie: (s: TokenStatsDoc) => number | null;
  include?: (s: TokenStatsDoc) => boolean;
}

function listDefs(nowMs: number): { id: string; list: ListSort; def: ListDef }[] {
  const age = (s: TokenStatsDoc) => (s.firstPoolTime === null ? null : (nowMs - Date.parse(s.firstPoolTime)) / 1000);
  const liq = (s: TokenStatsDoc) => s.liquidityAda;
  const vol24 = (s: TokenStatsDoc) => s.volume24h;
  const out: { id: string; list: ListSort; def: ListDef }[] = [];
  for (const p of RANK_PERIODS) {
    const vol = (s: TokenStatsDoc) => s.windows[p].volume;
    out.push({ id: tokenRankingId('volume', p, '-'), list: 'volume', def: { value: vol, tie: liq } });
    out.push({ id: tokenRankingId('txns', p, '-'), list: 'txns', def: { value: (s) => s.windows[p].txns, tie: vol } });
    for (const q of QUOTES)
      out.push({
        id: tokenRankingId('change', p, q),
        list: 'change',
        def: {
          value: (s) => (q === 'USD' ? s.windows[p].changeUsd : s.windows[p].change),
          tie: vol,
          // Only tokens traded in the window (spec 3).
          include: (s) => s.windows[p].txns > 0,
        },
      });
  }
  const single = (list: ListSort, def: ListDef) => out.push({ id: tokenRankingId(list, '-', '-'), list, def });
  single('mcap', { value: (s) => s.mcapAda, tie: liq });
  single('fdv', { value: (s) => s.fdvAda, tie: liq });
  single('age', { value: age, tie: vol24 });
  single('new', { value: age, tie: vol24, include: (s) => s.firstPoolExact && s.firstPoolTime !== null });
  single('makers', { value: (s) => s.makers24h, tie: vol24 });
  single('liquidity', { value: liq, tie: vol24 });
  single('holders', { value: (s) => s.holders, tie: vol24 });
  // Market cap and liquidity combined: their geometric mean (a large cap over a thin pool ranks low).
  single('rank', {
    value: (s) => (s.mcapAda !== null && s.liquidityAda !== null ? Math.sqrt(s.mcapAda * s.liquidityAda) : null),
    tie: vol24,
  });
  single('trending', { value: (s) => s.windows['1h'].txns, tie: vol24 });
  return out;
}

const desc = (a: number | null, b: number | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : b - a);

function buildList(stats: readonly TokenStatsDoc[], def: ListDef, highRisk: ReadonlySet<string>): RankEntry[] {
  const rows = stats
    .filter((s) => def.include?.(s) ?? true)
    .map((s) => ({ s, v: finite(def.value(s)), t: finite(def.tie(s)) }));
  rows.sort((a, b) => desc(a.v, b.v) || desc(a.t, b.t) || (a.s._id < b.s._id ? -1 : a.s._id > b.s._id ? 1 : 0));
  return rows.map(({ s, v }) => ({
    unit: s._id,
    value: v,
    liquidityAda: s.liquidityAda,
    holders: s.holders,
    holdersCapped: s.holdersCapped,
    search: s.search,
    ...(s.fingerprint === undefined ? {} : { fingerprint: s.fingerprint }),
    highRisk: highRisk.has(s._id),
  }));
}

const finite = (v: number | null): number | null => (v === null || !Number.isFinite(v) ? null : v);

/** Token lists of `stats`; `highRisk`: units the safety assessment rates high risk. */
export function buildTokenRankings(
  stats: readonly TokenStatsDoc[],
  nowMs: number,
  highRisk: ReadonlySet<string> = new Set(),
): RankingDoc[] {
  const updatedAt = new Date(nowMs).toISOString();
  return listDefs(nowMs).map(({ id, def }) => ({
    _id: id,
    entries: buildList(stats, def, highRisk),
    poolIds: [],
    updatedAt,
  }));
}

// ---- reading (request) ---------------------------------------------------------------------------------------

export interface RankingFilters {
  minLiquidity: number | null;
  minHolders: number | null;
  q: string | null;
  /** Leave out entries rated high risk when the list was built (tools only; REST lists every token). */
  hideHighRisk?: boolean;
}

/** The floors applied: the given ones (0 = none), else the sort's defaults. */
export function appliedFloors(
  r: ResolvedRanking,
  given: { minLiquidity?: number; minHolders?: number },
): { minLiquidity: number | null; minHolders: number | null } {
  const pick = (g: number | undefined, d: number | null) => (g === undefined ? d : g === 0 ? null : g);
  return {
    minLiquidity: pick(given.minLiquidity, r.defaults.minLiquidity),
    minHolders: pick(given.minHolders, r.defaults.minHolders),
  };
}

/** Entries of a stored list after floors and search, in the requested direction. */
export function readRanking(entries: readonly RankEntry[], list: string, order: Order, f: RankingFilters): RankEntry[] {
  // Folded as the stored text is (token-stats `search`): full-width ＩＡＧ finds IAG.
  const q = foldText(f.q?.trim() ?? '') || null;
  const kept = entries.filter(
    (e) =>
      (f.minLiquidity === null || (e.liquidityAda !== null && e.liquidityAda >= f.minLiquidity)) &&
      // Unknown or capped ("at least N") holder counts are kept (spec: minHolders).
      (f.minHolders === null || e.holders === null || e.holdersCapped || e.holders >= f.minHolders) &&
      // A CIP-14 fingerprint (asset1…, as explorers and wallets show a token) finds its token, whole only.
      (q === null || e.search.includes(q) || e.fingerprint === q) &&
      !(f.hideHighRisk && e.highRisk === true),
  );
  const tiers: RankEntry[][] =
    list === 'holders'
      ? [
          kept.filter((e) => e.value !== null && !e.holdersCapped),
          kept.filter((e) => e.value !== null && e.holdersCapped),
        ]
      : [kept.filter((e) => e.value !== null)];
  const missing = kept.filter((e) => e.value === null);
  const ordered = order === 'desc' ? tiers : tiers.map(reverseGroups);
  return [...ordered.flat(), ...missing];
}

/** Ascending from descending: groups of equal values in reverse order, each group's tie order kept. */
function reverseGroups(desc: readonly RankEntry[]): RankEntry[] {
  const groups: RankEntry[][] = [];
  for (const e of desc) {
    const last = groups[groups.length - 1];
    if (last && last[0]?.value === e.value) last.push(e);
    else groups.push([e]);
  }
  return groups.reverse().flat();
}

// ---- pools ---------------------------------------------------------------------------------------------------

export const POOL_SORTS = ['tvl', 'volume24h'] as const;
export type PoolSort = (typeof POOL_SORTS)[number];

export interface PoolRankInput {
  id: number;
  dex: string;
  tvlAda: number | null;
  volume24h: number;
}

/** `pools|<sort>|<dex or all>` lists of pool ids: value descending (missing TVL last), the other value, then id. */
export function buildPoolRankings(pools: readonly PoolRankInput[], nowMs: number): RankingDoc[] {
  const updatedAt = new Date(nowMs).toISOString();
  const dexes = [...new Set(pools.map((p) => p.dex))].sort();
  const out: RankingDoc[] = [];
  for (const sort of POOL_SORTS) {
    const value = (p: PoolRankInput) => (sort === 'tvl' ? p.tvlAda : p.volume24h);
    const tie = (p: PoolRankInput) => (sort === 'tvl' ? p.volume24h : p.tvlAda);
    const sorted = [...pools].sort((a, b) => desc(value(a), value(b)) || desc(tie(a), tie(b)) || a.id - b.id);
    for (const dex of [null, ...dexes])
      out.push({
        _id: `pools|${sort}|${dex ?? 'all'}`,
        entries: [],
        poolIds: sorted.filter((p) => dex === null || p.dex === dex).map((p) => p.id),
        updatedAt,
      });
  }
  return out;
}
