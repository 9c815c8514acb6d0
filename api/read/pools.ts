/**
 * Read functions of pools (REST, MCP and Markdown present their results).
 */
import { storeClock } from '../../mongo/collections/clock.js';
import { poolSeries } from '../../cardano/market.js';
import { POOL_STATS, RANKINGS, poolRankingId, rankedPools } from '../../mongo/collections/market-read.js';
import { POOLS, type PoolDoc } from '../../mongo/collections/market.js';
import { NotFoundError } from '../errors.js';
import { loadAssets, presentPool } from '../present/market.js';
import { candleLegOf, logoMode, readCandles, tradesPage } from './tokens.js';
import type { poolRoutes } from '../routes/pools.js';
import type { ReadDeps, RouteInput } from './deps.js';
import { notIndexedYet, withAsOf } from './freshness.js';
async function poolOr404(deps: ReadDeps, id: string): Promise<PoolDoc> {
  const pool = await deps.store.collection(POOLS).get(String(Number(id)));
  // A pool is created by a block: while the index is behind the chain (a first sync, a resync) it may be in a block
  // not indexed yet, and a bare "not found" read as "no such pool".
  if (!pool) throw new NotFoundError(await notIndexedYet(deps, `pool ${id}`));
  return pool;
}

async function listPoolsAnswer(deps: ReadDeps, input: RouteInput<typeof poolRoutes.list>) {
  const { store } = deps;
  const site = deps.config.SITE_URL;
  const doc = await store.collection(RANKINGS).get(poolRankingId(input.sort, input.dex ?? null));
  const ids = doc?.poolIds ?? [];
  const start = (input.page - 1) * input.pageSize;
  // The ranking's own snapshot: the pools and figures the page was ordered by.
  const [ranked, { clock }] = await Promise.all([
    rankedPools(store, doc, ids.slice(start, start + input.pageSize)),
    storeClock(store),
  ]);
  const present = ranked.map(({ pool, stats }) => ({ p: pool, s: stats }));
  const assets = await loadAssets(
    store,
    present.flatMap(({ p }) => [p.tokenA, p.tokenB]),
    site,
    logoMode(input),
  );
  return {
    items: present.map(({ p, s }) => presentPool(p, assets, s, clock)),
    page: input.page,
    pageSize: input.pageSize,
    total: ids.length,
    // The pools as the ranking copied them (a market run, every 20 s), not as of the answer's asOf.
    updatedAt: doc?.updatedAt ?? null,
  };
}

async function getPoolAnswer(deps: ReadDeps, input: RouteInput<typeof poolRoutes.detail>) {
  const { store } = deps;
  const site = deps.config.SITE_URL;
  const pool = await poolOr404(deps, input.id);
  const [stats, { clock }, assets] = await Promise.all([
    store.collection(POOL_STATS).get(String(pool.id)),
    storeClock(store),
    loadAssets(store, [pool.tokenA, pool.tokenB], site, logoMode(input)),
  ]);
  return presentPool(pool, assets, stats, clock);
}

async function getPoolCandlesAnswer(deps: ReadDeps, input: RouteInput<typeof poolRoutes.candles>) {
  const { store } = deps;
  const site = deps.config.SITE_URL;
  const now = deps.now ?? Date.now;
  const pool = await poolOr404(deps, input.id);
  // tokenB's price, as Pool.price gives it: in ADA (through tokenA's ADA price for a token/token pool), or in USD.
  const assets = await loadAssets(store, [pool.tokenB], site, 'url');
  const scale = 10 ** assets.decimals(pool.tokenB) / 1e6;
  const leg = candleLegOf(pool, pool.tokenB);
  const page = await readCandles(store, poolSeries(pool.id), input, scale, now(), leg);
  return { poolId: pool.id, interval: input.interval, quote: input.quote, ...page };
}

async function getPoolTradesAnswer(deps: ReadDeps, input: RouteInput<typeof poolRoutes.trades>) {
  const { store } = deps;
  const site = deps.config.SITE_URL;
  const pool = await poolOr404(deps, input.id);
  return tradesPage(store, { poolId: pool.id }, input.limit, input.cursor, site, logoMode(input));
}

export const listPools = withAsOf(listPoolsAnswer);
export const getPool = withAsOf(getPoolAnswer);
export const getPoolCandles = withAsOf(getPoolCandlesAnswer);
export const getPoolTrades = withAsOf(getPoolTradesAnswer);
