/**
 * GET /market/overview (spec: market overview): the precomputed overview (activities/recompute/overview.ts) with
 * its token lists presented as TokenRows, and the sync lag read live from the checkpoint at answer time.
 */
import Router from '@koa/router';
import type { ApiDeps } from '../deps.js';
import { defineRoute, register, type AnyRouteSpec, type RestModule } from '../route.js';
import { MarketOverviewResponse } from '../schemas/market.js';
import { getMarketOverview } from '../read/market.js';

export const marketRoutes = {
  overview: defineRoute({
    operationId: 'getMarketOverview',
    path: '/market/overview',
    summary: 'Market overview: ADA/USD, volume, TVL, DEXes, gainers, losers, trending, sync lag',
    tags: ['Market'],
    response: MarketOverviewResponse,
  }),
} satisfies Record<string, AnyRouteSpec>;

export function marketRouter(deps: ApiDeps): Router {
  const router = new Router();
  register(router, marketRoutes.overview, (_ctx, { params, query }) =>
    getMarketOverview(deps, { ...params, ...query }),
  );
  return router;
}

export const marketModule: RestModule = { routes: Object.values(marketRoutes), router: marketRouter };
