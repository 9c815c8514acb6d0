/**
 * Pools (spec: Pools): the list (precomputed orders by TVL or 24 h volume, per DEX), one pool, its candles and
 * trades. Pool documents are maintained by the market sync; 24 h figures come from the pool_stats recompute.
 */
import Router from '@koa/router';
import { storeClock } from '../../mongo/collections/clock.js';
import { poolSeries } from '../../activities/recompute/token-stats.js';
import { LOVELACE } from '../../cardano/token-metadata.js';
import { POOL_STATS, RANKINGS, poolRankingId, rankedPools } from '../../mongo/collections/market-read.js';
import { POOLS, type PoolDoc } from '../../mongo/collections/market.js';
import type { Store } from '../../mongo/store.js';
import type { ApiDeps } from '../deps.js';
import { BadRequestError, NotFoundError } from '../errors.js';
import { loadAssets, presentPool } from '../present/market.js';
import { defineRoute, register, type AnyRouteSpec, type CommonQuery, type RestModule } from '../route.js';
import {
  CandlesResponse,
  CursorQuery,
  PoolCandlesQuery,
  PoolIdParams,
  PoolListResponse,
  PoolsQuery,
  TradesResponse,
} from '../schemas/market.js';
import { Pool } from '../schemas/market.js';
import { logoMode, readCandles, tradesPage, type CandleQuery } from './tokens.js';

const TAGS = ['Pools'];

export const poolRoutes = {
  list: defineRoute<
    Record<string, never>,
    CommonQuery & { dex?: string; sort: 'tvl' | 'volume24h'; page: number; pageSize: number }
  >({
    operationId: 'listPools',
    path: '/pools',
    summary: 'DEX liquidity pools by TVL or 24 h volume',
    description: 'Pools with unknown TVL (no ADA side) come last.',
    tags: TAGS,
    query: PoolsQuery,
    response: PoolListResponse,
  }),
  detail: defineRoute<{ id: string }>({
    operationId: 'getPool',
    path: '/pools/{id}',
    summary: 'One pool',
    tags: TAGS,
    params: PoolIdParams,
    response: Pool,
  }),
  candles: defineRoute<{ id: string }, CandleQuery>({
    operationId: 'getPoolCandles',
    path: '/pools/{id}/candles',
    summary: 'Price candles of a pool (tokenA per tokenB)',
    description: 'Prices decimal-adjusted, in tokenA per tokenB (ADA for ADA pairs) or USD; volume in ADA.',
    tags: TAGS,
    params: PoolIdParams,
    query: PoolCandlesQuery,
    response: CandlesResponse,
  }),
  trades: defineRoute<{ id: string }, CommonQuery & { limit: number; cursor?: string }>({
    operationId: 'getPoolTrades',
    path: '/pools/{id}/trades',
    summary: 'Trades of a pool, newest first',
    tags: TAGS,
    params: PoolIdParams,
    query: CursorQuery,
    response: TradesResponse,
  }),
} satisfies Record<string, AnyRouteSpec>;

async function poolOr404(store: Store, id: string): Promise<PoolDoc> {
  const pool = await store.collection(POOLS).get(String(Number(id)));
  if (!pool) throw new NotFoundError(`pool ${id} not found`);
  return pool;
}

export function poolsRouter(deps: ApiDeps): Router {
  const { store } = deps;
  const site = deps.config.SITE_URL;
  const now = deps.now ?? Date.now;
  const router = new Router();

  register(router, poolRoutes.list, async (_ctx, { query }) => {
    const doc = await store.collection(RANKINGS).get(poolRankingId(query.sort, query.dex ?? null));
    const ids = doc?.poolIds ?? [];
    const start = (query.page - 1) * query.pageSize;
    // The ranking's own snapshot: the pools and figures the page was ordered by.
    const [ranked, { clock }] = await Promise.all([
      rankedPools(store, doc, ids.slice(start, start + query.pageSize)),
      storeClock(store),
    ]);
    const present = ranked.map(({ pool, stats }) => ({ p: pool, s: stats }));
    const assets = await loadAssets(
      store,
      present.flatMap(({ p }) => [p.tokenA, p.tokenB]),
      site,
      logoMode(query),
    );
    return {
      items: present.map(({ p, s }) => presentPool(p, assets, s, clock)),
      page: query.page,
      pageSize: query.pageSize,
      total: ids.length,
    };
  });

  register(router, poolRoutes.detail, async (_ctx, { params, query }) => {
    const pool = await poolOr404(store, params.id);
    const [stats, { clock }, assets] = await Promise.all([
      store.collection(POOL_STATS).get(String(pool.id)),
      storeClock(store),
      loadAssets(store, [pool.tokenA, pool.tokenB], site, logoMode(query)),
    ]);
    return presentPool(pool, assets, stats, clock);
  });

  register(router, poolRoutes.candles, async (_ctx, { params, query }) => {
    const pool = await poolOr404(store, params.id);
    if (query.quote === 'USD' && pool.tokenA !== LOVELACE)
      throw new BadRequestError(`invalid parameter quote: pool ${pool.id} has no ADA side, USD is not available`);
    const assets = await loadAssets(store, [pool.tokenA, pool.tokenB], site, 'url');
    const scale = 10 ** assets.decimals(pool.tokenB) / 10 ** assets.decimals(pool.tokenA);
    const candles = await readCandles(store, poolSeries(pool.id), query, scale, now());
    return { poolId: pool.id, interval: query.interval, quote: query.quote, candles };
  });

  register(router, poolRoutes.trades, async (_ctx, { params, query }) => {
    const pool = await poolOr404(store, params.id);
    return tradesPage(store, { index: 'byPool', poolId: pool.id }, query.limit, query.cursor, site, logoMode(query));
  });

  return router;
}

export const poolsModule: RestModule = { routes: Object.values(poolRoutes), router: poolsRouter };
