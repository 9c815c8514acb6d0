/**
 * Read functions of tokens (REST, MCP and Markdown present their results).
 */
import { ADAUSD_SERIES, adaUsdHistory, adaUsdOfRaw, currentAdaUsd } from '../../mongo/collections/ada-usd.js';
import { asOfMs, storeClock, type SlotClock } from '../../mongo/collections/clock.js';
import { appliedFloors, readRanking, resolveRanking, type Order, type RankingFilters } from '../../cardano/rankings.js';
import { poolSeries, primaryAdaPool, shownTvlLovelace, tokenSeries } from '../../cardano/market.js';
import { firstHolderSeriesDay, readHolderSeries } from '../../mongo/collections/holders.js';
import { holderTokenOr404 } from './holders.js';
import { LOVELACE } from '../../cardano/token-metadata.js';
import { cip68FtOfReference } from '../../cardano/units.js';
import { firstIndexedBlock } from '../../mongo/collections/chain.js';
import {
  POOL_STATS,
  RANKINGS,
  TOKEN_STATS,
  rankedTokenStats,
  rankingEntries,
  type RankEntry,
  type TokenStatsDoc,
} from '../../mongo/collections/market-read.js';
import {
  candleBefore,
  candlesInRange,
  poolStateAt,
  tradesNewestFirst,
  type TradesOf,
  CANDLE_INTERVALS,
  POOLS,
  TOKENS,
  type CandleInterval,
  type PoolDoc,
  type TokenDoc,
  type TradePosition,
} from '../../mongo/collections/market.js';
import type { Store } from '../../mongo/store.js';
import { BadRequestError, NotFoundError, NotReadyError } from '../errors.js';
import {
  loadAssets,
  presentPool,
  presentTokenRow,
  presentStats,
  presentTrade,
  type AssetBook,
  type LogoMode,
} from '../present/market.js';
import { type CommonQuery } from '../route.js';
import type { tokenRoutes } from '../routes/tokens.js';
import type { ReadDeps, RouteInput } from './deps.js';
import { openCursor, sealCursor } from './cursor.js';
import { notFoundWhileBehind, withAsOf } from './freshness.js';
/** Candles per answer at most (the latest ones of the range). */
export const MAX_CANDLES = 1000;
/** ADA pools summed per day in the liquidity series (the deepest ones). */
export const SERIES_MAX_POOLS = 10;

export interface CandleQuery extends CommonQuery {
  interval: CandleInterval;
  quote: 'ADA' | 'USD';
  from?: number;
  to?: number;
}

// ---- shared read helpers ---------------------------------------------------------------------------------------

export const logoMode = (q: CommonQuery): LogoMode => (q.logos === 'url' ? 'url' : 'data');

export interface Candle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  trades: number;
}

/**
 * `coverageFrom` of a bounded answer: the time of the first indexed block when the asked range (starting at unix
 * second `fromSec`) begins before it, else null (the answer covers the whole range).
 */
export async function coverageFrom(store: Store, fromSec: number): Promise<string | null> {
  const first = await firstIndexedBlock(store);
  if (!first) return null;
  return fromSec * 1000 < Date.parse(first.time) ? first.time : null;
}

/** Unix seconds from a from/to parameter (milliseconds when > 1e11). */
export const toSeconds = (v: number) => Math.floor(v > 1e11 ? v / 1000 : v);

/**
 * How a token/token pool's candles (tokenA base units per tokenB base unit) become one token's ADA price: through
 * the other token's ADA price (its `token:<unit>` series, lovelace per base unit), inverted when the token is tokenA.
 */
export interface CandleLeg {
  via: string;
  invert: boolean;
}

/**
 * The leg that turns a pool's candles into `unit`'s ADA price: none for an ADA pool (its candles are lovelace per
 * token base unit); for a token/token pool, the other token's ADA price.
 */
export const candleLegOf = (pool: PoolDoc, unit: string): CandleLeg | null =>
  pool.tokenA === LOVELACE
    ? null
    : { via: tokenSeries(pool.tokenA === unit ? pool.tokenB : pool.tokenA), invert: pool.tokenA === unit };

/**
 * A step function of time over one candle series: at unix second `t`, `map(close)` of the last candle starting at or
 * before `t` (the one before the range included), null before the first.
 */
async function stepRates(
  store: Store,
  series: string,
  interval: CandleInterval,
  range: { from: number; to: number },
  map: (close: number) => number,
): Promise<(t: number) => number | null> {
  const [before, within] = await Promise.all([
    candleBefore(store, series, interval, range.from),
    candlesInRange(store, series, interval, range),
  ]);
  const steps = [...(before ? [before] : []), ...within];
  return (t) => {
    let r: number | null = null;
    for (const c of steps) {
      if (c.time > t) break;
      r = map(c.close);
    }
    return r;
  };
}

/**
 * Candles of one series in [from, to] (latest MAX_CANDLES), prices × `scale` (raw → decimal-adjusted); for a
 * token/token pool through `leg` into ADA; in USD through the adausd series of the same interval when asked. A
 * bucket before the first known rate (ADA/USD, the other token's ADA price) is left out of the answer.
 */
export async function readCandles(
  store: Store,
  series: string,
  q: CandleQuery,
  scale: number,
  nowMs: number,
  leg: CandleLeg | null = null,
): Promise<{ candles: Candle[]; coverageFrom: string | null; truncated: boolean; nextTo: number | null }> {
  const sec = CANDLE_INTERVALS[q.interval];
  const to = q.to === undefined ? Math.floor(nowMs / 1000) : toSeconds(q.to);
  // The default range is the MAX_CANDLES intervals ending at `to`, or, without `to`, at the indexed tip: an index
  // behind the clock (a catch-up, a chain source down) has no candle after its tip, and 1000 minutes before now
  // would hold none of them once it is 17 h behind. Its first second is one after a whole number of intervals
  // before that end, so only an asked `from` can hold more candles than an answer carries.
  const end = q.to === undefined ? Math.floor(asOfMs((await storeClock(store)).tipMs, nowMs) / 1000) : to;
  const from = q.from === undefined ? end - sec * MAX_CANDLES + 1 : toSeconds(q.from);
  if (from > to)
    throw new BadRequestError(
      q.to === undefined
        ? `invalid parameter from: must not be after now (${to}, unix seconds), the default of to`
        : 'invalid parameters: from must not be after to',
    );
  // One more than an answer carries tells whether the range holds older candles than the latest MAX_CANDLES.
  const docs = await candlesInRange(store, series, q.interval, { from, to, limit: MAX_CANDLES + 1 });
  const truncated = docs.length > MAX_CANDLES;
  if (truncated) docs.shift();
  const first = docs[0]?.time ?? to;
  const [usd, via] = await Promise.all([
    q.quote === 'USD' && docs.length
      ? stepRates(store, ADAUSD_SERIES, q.interval, { from: first, to }, adaUsdOfRaw)
      : null,
    leg && docs.length ? stepRates(store, leg.via, q.interval, { from: first, to }, (close) => close) : null,
  ]);
  const candles: Candle[] = [];
  for (const c of docs) {
    const u = usd ? usd(c.time) : 1;
    const v = via ? via(c.time) : 1;
    if (u === null || v === null) continue;
    const k = scale * u * v;
    // The inverse of a bucket's rates: its highest rate becomes its lowest price.
    const [open, high, low, close] = leg?.invert
      ? [1 / c.open, 1 / c.low, 1 / c.high, 1 / c.close]
      : [c.open, c.high, c.low, c.close];
    candles.push({
      time: c.time,
      open: open * k,
      high: high * k,
      low: low * k,
      close: close * k,
      volume: Number(BigInt(c.volumeLovelace)) / 1e6,
      trades: c.trades,
    });
  }
  return {
    candles,
    coverageFrom: await coverageFrom(store, from),
    truncated,
    // The `to` that reads the older candles of the same range: one second before the oldest bucket answered.
    nextTo: truncated && docs[0] ? docs[0].time - 1 : null,
  };
}

/** The identity a trade list's cursors are sealed to (api/read/cursor.ts). */
const tradeListOf = (by: TradesOf): string =>
  'token' in by ? `token:${by.token}` : 'poolId' in by ? `pool:${by.poolId}` : `maker:${by.maker}`;
const encodeCursor = (by: TradesOf, p: TradePosition) => sealCursor(tradeListOf(by), `t${p.seq}.${p.id}`);
function decodeCursor(by: TradesOf, cursor: string): TradePosition {
  const m = /^t([0-9]{1,15})\.([0-9]{1,15})$/.exec(openCursor(tradeListOf(by), cursor));
  if (!m) throw new BadRequestError('invalid parameter cursor: not a cursor of this list');
  return { seq: Number(m[1]), id: Number(m[2]) };
}

/** One page of trades over `byToken`, `byPool` or `byMaker` (a wallet), newest first, with the cursor of the next page. */
export async function tradesPage(
  store: Store,
  by: TradesOf,
  limit: number,
  cursor: string | undefined,
  siteUrl: string,
  mode: LogoMode,
) {
  // Chain order (TradeDoc.seq), newest first.
  const after = cursor === undefined ? undefined : decodeCursor(by, cursor);
  const docs = await tradesNewestFirst(store, by, limit + 1, after);
  const page = docs.slice(0, limit);
  const { clock } = await storeClock(store);
  const assets = await loadAssets(
    store,
    page.flatMap((t) => [t.tokenIn, t.tokenOut, t.token]),
    siteUrl,
    mode,
  );
  const times = page.map((t) => clock.slotToMs(t.slot));
  const rateAt = await adaUsdHistory(store, times);
  const last = page[page.length - 1];
  const nextCursor = docs.length > limit && last ? encodeCursor(by, last) : null;
  // The last page reaches the start of the indexed history: older trades, if any, were never indexed.
  const first = nextCursor === null ? await firstIndexedBlock(store) : null;
  return {
    items: page.map((t) => presentTrade(t, assets, clock, rateAt, 'token' in by ? by.token : undefined)),
    nextCursor,
    coverageFrom: first?.time ?? null,
  };
}

/** Presented pools with their 24 h stats, deepest first. */
export async function presentPools(store: Store, pools: readonly PoolDoc[], assets: AssetBook, clock: SlotClock) {
  const stats = await store.collection(POOL_STATS).getMany(pools.map((p) => String(p.id)));
  return pools
    .map((p, i) => ({ p, s: stats[i] ?? null, tvl: shownTvlLovelace(p, stats[i] ?? null) ?? -1n }))
    .sort((a, b) => (a.tvl === b.tvl ? a.p.id - b.p.id : a.tvl > b.tvl ? -1 : 1))
    .map(({ p, s }) => presentPool(p, assets, s, clock));
}

// ---- handlers --------------------------------------------------------------------------------------------------

const normUnit = (u: string) => u.toLowerCase();

/** The token document, or 404 (ADA is not a token of this list). */
async function tokenOr404(deps: ReadDeps, unit: string): Promise<TokenDoc> {
  const { store } = deps;
  const token = await store.collection(TOKENS).get(unit);
  if (token) return token;
  // A CIP-68 reference NFT (label 100) is no token: it holds the metadata datum of the fungible token (label 333) of
  // its policy and name, the unit a caller who found it in a mint or at the metadata address is looking for.
  const ft = cip68FtOfReference(unit);
  if (ft && (await store.collection(TOKENS).get(ft)))
    throw new NotFoundError(
      `token ${unit} not found: it is the CIP-68 reference NFT (label 100) holding the metadata of token ${ft}; ask for that unit`,
    );
  // A token's document is written by the block that mints it or creates its first pool: while the index is behind the
  // chain (a first sync, a resync) that block may not be indexed yet, so the 404 says so, as the 404 of the pool that
  // block creates does; "no DEX pool of it is indexed" alone read as "this token has no DEX pool".
  throw new NotFoundError(
    await notFoundWhileBehind(deps, `token ${unit}`, `token ${unit} not found (no DEX pool of it is indexed)`),
  );
}

/** The 404 of a token with a document but no DEX pool (only minted): no stats, candles, trades or liquidity. */
const noMarketData = (unit: string) => new NotFoundError(`token ${unit} has no indexed DEX pool, so no market data`);

/**
 * The token document of a token in a DEX pool, or 404: the sync also keeps a document for a fungible token that was
 * only minted (its supply), and such a token has no candles, trades or liquidity, as `GET /tokens/{unit}` says of it.
 */
async function pooledTokenOr404(deps: ReadDeps, unit: string): Promise<TokenDoc> {
  const token = await tokenOr404(deps, unit);
  if (token.poolIds.length === 0) throw noMarketData(unit);
  return token;
}

/** The pool whose candles a token answer shows: the one asked for (404 unless it trades the token), else the primary. */
async function candlePool(store: Store, token: TokenDoc, asked: string | undefined): Promise<PoolDoc | null> {
  const pools = store.collection(POOLS);
  if (asked !== undefined) {
    const pool = await pools.get(String(Number(asked)));
    if (!pool || (pool.tokenA !== token._id && pool.tokenB !== token._id))
      throw new NotFoundError(`pool ${asked} of token ${token._id} not found`);
    return pool;
  }
  const stats = await store.collection(TOKEN_STATS).get(token._id);
  const id = stats?.primaryPoolId ?? token.primaryPoolId;
  const primary = id === null ? null : await pools.get(String(id));
  if (primary) return primary;
  const all = (await pools.getMany(token.poolIds.map(String))).filter((p): p is PoolDoc => p !== null);
  return primaryAdaPool(token, all);
}

/** The token's stats as the last market recompute wrote them (never computed on the request path). */
async function statsOf(store: Store, token: TokenDoc): Promise<TokenStatsDoc> {
  const stored = await store.collection(TOKEN_STATS).get(token._id);
  if (stored) return stored;
  // Minted but never pooled: the market recompute values pooled tokens only, so no stats will ever come (not a 503).
  if (token.poolIds.length === 0) throw noMarketData(token._id);
  throw new NotReadyError(
    `token ${token._id} is newer than the last market recompute (it runs every 20 s); retry shortly`,
    20,
  );
}

const DAY = 86_400;

/** First day (unix seconds) of a daily series of `days` days up to today. */
const seriesStart = (days: number, nowMs: number) => (Math.floor(nowMs / 1000 / DAY) - (days - 1)) * DAY;

/** coverageFrom of a daily series of `days` days up to today. */
const seriesCoverage = (store: Store, days: number, nowMs: number) => coverageFrom(store, seriesStart(days, nowMs));

/**
 * coverageFrom of a token's holders series. Its points are written by the holders sync extension from the first
 * indexed day the token was held (a store synced before that: from the day the holders-series job seeded it). A
 * range starting before the token's first point says so: its coverage starts there, or at the first indexed block
 * when that is later.
 */
async function holderSeriesCoverage(store: Store, unit: string, days: number, nowMs: number) {
  const from = seriesStart(days, nowMs);
  const [first, indexed] = await Promise.all([firstHolderSeriesDay(store, unit), coverageFrom(store, from)]);
  if (first === null || from >= first) return indexed;
  const firstDay = new Date(first * 1000).toISOString();
  return indexed !== null && Date.parse(indexed) > Date.parse(firstDay) ? indexed : firstDay;
}

/** Both sides of the pools at the end of each UTC day (today: now), whole ADA; from the first day any pool existed. */
async function liquiditySeries(store: Store, pools: readonly PoolDoc[], days: number, nowMs: number) {
  if (!pools.length) return [];
  const { clock } = await storeClock(store);
  const today = Math.floor(nowMs / 1000 / DAY) * DAY;
  const firstDay = Math.max(
    today - (days - 1) * DAY,
    Math.floor(Math.min(...pools.map((p) => clock.slotToMs(p.createdSlot))) / 1000 / DAY) * DAY,
  );
  const points: { time: number; value: number }[] = [];
  for (let day = firstDay; day <= today; day += DAY) {
    const endSlot = clock.msToSlot(Math.min((day + DAY) * 1000 - 1, nowMs));
    const lasts = await Promise.all(pools.map((p) => poolStateAt(store, p.id, endSlot)));
    let lovelace = 0n;
    for (const s of lasts)
      if (s) lovelace += s.tvlLovelace !== null ? BigInt(s.tvlLovelace) : 2n * BigInt(s.reserveARaw);
    points.push({ time: day, value: Number(lovelace) / 1e6 });
  }
  return points;
}

/** The most filtered orders kept per list entries (floors, search and direction a request asked for). */
const KEPT_READS = 32;
const keptReads = new WeakMap<readonly RankEntry[], Map<string, RankEntry[]>>();

/**
 * `readRanking` of entries `rankingEntries` keeps decoded, itself kept per filter while those entries are: the
 * same list, floors and direction are the same order until the next rankings run writes new entries (a pass over
 * every entry otherwise: ~20,000 of them at mainnet scale).
 */
function readKeptRanking(
  entries: readonly RankEntry[],
  list: string,
  order: Order,
  f: RankingFilters,
): readonly RankEntry[] {
  let reads = keptReads.get(entries);
  if (!reads) keptReads.set(entries, (reads = new Map()));
  const key = JSON.stringify([list, order, f.minLiquidity, f.minHolders, f.q, f.hideHighRisk === true]);
  let read = reads.get(key);
  if (read) reads.delete(key);
  else read = readRanking(entries, list, order, f);
  reads.set(key, read);
  if (reads.size > KEPT_READS) reads.delete(reads.keys().next().value!);
  return read;
}

/**
 * `hideHighRisk` (the tool server's list_tokens; not a REST parameter): tokens the safety assessment rated high risk
 * when the ranking was built are left out before paging, so a page is full and `total` counts what is left; the
 * answer then also says how many were left out (`hiddenHighRisk`, outside the REST schema).
 */
async function listTokensAnswer(
  deps: ReadDeps,
  input: RouteInput<typeof tokenRoutes.list> & { hideHighRisk?: boolean },
) {
  const { store } = deps;
  const site = deps.config.SITE_URL;
  const r = resolveRanking(input);
  const filters = appliedFloors(r, input);
  const [doc, adaUsd] = await Promise.all([store.collection(RANKINGS).get(r.listId), currentAdaUsd(store)]);
  const entries = await rankingEntries(store, doc);
  const shown = { ...filters, q: input.q ?? null };
  const ranked = readKeptRanking(entries, r.list, r.order, {
    ...shown,
    hideHighRisk: input.hideHighRisk === true,
  });
  const hidden = input.hideHighRisk
    ? { hiddenHighRisk: readKeptRanking(entries, r.list, r.order, shown).length - ranked.length }
    : {};
  const start = (input.page - 1) * input.pageSize;
  const units = ranked.slice(start, start + input.pageSize).map((e) => e.unit);
  // The ranking's own snapshot: the figures the page was ordered by.
  const stats = await rankedTokenStats(store, doc, units);
  const assets = await loadAssets(store, units, site, logoMode(input));
  return {
    items: stats.map((s) => presentTokenRow(s, assets)),
    page: input.page,
    pageSize: input.pageSize,
    total: ranked.length,
    adaUsd,
    quote: input.quote,
    sort: input.sort,
    period: r.period,
    order: r.order,
    filters,
    updatedAt: doc?.updatedAt ?? null,
    ...hidden,
  };
}

async function getTokenAnswer(deps: ReadDeps, input: RouteInput<typeof tokenRoutes.detail>) {
  const { store } = deps;
  const site = deps.config.SITE_URL;
  const unit = normUnit(input.unit);
  const token = await tokenOr404(deps, unit);
  const pools = (await store.collection(POOLS).getMany(token.poolIds.map(String))).filter(
    (p): p is PoolDoc => p !== null,
  );
  const [stats, adaUsd, { clock }] = await Promise.all([
    statsOf(store, token),
    currentAdaUsd(store),
    storeClock(store),
  ]);
  const assets = await loadAssets(store, [unit, ...pools.flatMap((p) => [p.tokenA, p.tokenB])], site, logoMode(input));
  const meta = assets.meta(unit);
  return {
    asset: assets.ref(unit),
    stats: presentStats(stats),
    primaryPoolId: stats.primaryPoolId,
    description: meta.description,
    url: meta.url,
    pools: await presentPools(store, pools, assets, clock),
    adaUsd,
  };
}

async function getTokenCandlesAnswer(deps: ReadDeps, input: RouteInput<typeof tokenRoutes.candles>) {
  const { store } = deps;
  const site = deps.config.SITE_URL;
  const now = deps.now ?? Date.now;
  const unit = normUnit(input.unit);
  const token = await pooledTokenOr404(deps, unit);
  const assets = await loadAssets(store, [unit], site, 'url');
  let poolId = 0;
  let series = tokenSeries(unit);
  const scale = 10 ** assets.decimals(unit) / 1e6;
  let leg: CandleLeg | null = null;
  if (input.pool !== 'all') {
    const pool = await candlePool(store, token, input.pool);
    if (pool) {
      poolId = pool.id;
      series = poolSeries(pool.id);
      leg = candleLegOf(pool, unit);
    }
  }
  const page = await readCandles(store, series, input, scale, now(), leg);
  return { poolId, interval: input.interval, quote: input.quote, ...page };
}

async function getTokenTradesAnswer(deps: ReadDeps, input: RouteInput<typeof tokenRoutes.trades>) {
  const { store } = deps;
  const site = deps.config.SITE_URL;
  const unit = normUnit(input.unit);
  await pooledTokenOr404(deps, unit);
  return tradesPage(store, { token: unit }, input.limit, input.cursor, site, logoMode(input));
}

async function getTokenSeriesAnswer(deps: ReadDeps, input: RouteInput<typeof tokenRoutes.series>) {
  const { store } = deps;
  const now = deps.now ?? Date.now;
  const unit = normUnit(input.unit);
  // Both series end on the day of the indexed tip, as the answer's asOf says (the market's windows end there too:
  // asOfMs). An index behind the clock (a catch-up, a chain source down) knows no later day: the wall clock's days
  // would each show its tip's figure as if known, while its real earlier days fell out of the range.
  const endMs = asOfMs((await storeClock(store)).tipMs, now());
  // The count at each day's end, kept by the holders sync extension. Known like /tokens/{unit}/holders: a token
  // held on chain has a holders series without any DEX pool.
  if (input.metric === 'holders') {
    await holderTokenOr404(deps, unit);
    return {
      metric: 'holders',
      points: await readHolderSeries(store, unit, input.days, endMs),
      coverageFrom: await holderSeriesCoverage(store, unit, input.days, endMs),
    };
  }
  const token = await pooledTokenOr404(deps, unit);
  const pools = (await store.collection(POOLS).getMany(token.poolIds.map(String)))
    .filter((p): p is PoolDoc => p !== null && p.tokenA === LOVELACE)
    .sort((a, b) => (BigInt(b.reserveARaw) > BigInt(a.reserveARaw) ? 1 : -1))
    .slice(0, SERIES_MAX_POOLS);
  return {
    metric: 'liquidity',
    points: await liquiditySeries(store, pools, input.days, endMs),
    coverageFrom: await seriesCoverage(store, input.days, endMs),
  };
}

export const listTokens = withAsOf(listTokensAnswer);
export const getToken = withAsOf(getTokenAnswer);
export const getTokenCandles = withAsOf(getTokenCandlesAnswer);
export const getTokenTrades = withAsOf(getTokenTradesAnswer);
export const getTokenSeries = withAsOf(getTokenSeriesAnswer);
