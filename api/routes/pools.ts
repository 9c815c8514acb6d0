/**
 * Pools (spec: Pools): the list (precomputed orders by TVL or 24 h volume, per DEX), one pool, its candles and
 * trades. Pool documents are maintained by the market sync; 24 h figures come from the pool_stats recompute.
 */
import Router from '@koa/router';
import type { ApiDeps } from '../deps.js';
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
import { type CandleQuery } from '../read/tokens.js';
import { listPools, getPool, getPoolCandles, getPoolTrades } from '../read/pools.js';

const TAGS = ['Pools'];

export const poolRoutes = {
  list: defineRoute<
    Record<string, never>,
    CommonQuery & { dex?: string; sort: 'tvl' | 'volume24h'; page: number; pageSize: number }
  >({
    operationId: 'listPools',
    path: '/pools',
    summary: 'DEX liquidity pools by TVL or 24 h volume',
    // A token/token pool is valued through its tokens' ADA prices (Pool.tvlAda) and ranked by it: only a pool neither
    // of whose tokens has an ADA pool has no TVL. "no ADA side" told readers every token/token pool sorts last.
    description:
      'Pools with unknown TVL come last: those neither of whose tokens has an ADA pool. A token/token pool is ranked by its TVL, each side at its token’s ADA price (tvlAda).',
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
    summary: 'Price candles of a pool (the price of tokenB)',
    description:
      'Prices of tokenB, decimal-adjusted: in ADA (tokenA per tokenB for an ADA pair; for a token/token pair, tokenA per tokenB × the ADA price of tokenA at the bucket) or in USD (× ADA/USD of the bucket); volume in ADA.',
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

export function poolsRouter(deps: ApiDeps): Router {
  const router = new Router();

  register(router, poolRoutes.list, (_ctx, { params, query }) => listPools(deps, { ...params, ...query }));

  register(router, poolRoutes.detail, (_ctx, { params, query }) => getPool(deps, { ...params, ...query }));

  register(router, poolRoutes.candles, (_ctx, { params, query }) => getPoolCandles(deps, { ...params, ...query }));

  register(router, poolRoutes.trades, (_ctx, { params, query }) => getPoolTrades(deps, { ...params, ...query }));

  return router;
}

export const poolsModule: RestModule = { routes: Object.values(poolRoutes), router: poolsRouter };
