/**
 * GET /market/overview (spec: market overview): the precomputed overview (activities/recompute/overview.ts) with
 * its token lists presented as TokenRows, and the sync lag read live from the checkpoint at answer time.
 */
import Router from '@koa/router';
import { lagSeconds, storeClock } from '../../mongo/collections/clock.js';
import { buildOverview } from '../../activities/recompute/overview.js';
import {
  MARKET_OVERVIEW,
  MARKET_OVERVIEW_ID,
  POOL_STATS,
  TOKEN_STATS,
  type MarketOverviewDoc,
  type PoolStatsDoc,
  type TokenStatsDoc,
} from '../../mongo/collections/market-read.js';
import { POOLS, type PoolDoc } from '../../mongo/collections/market.js';
import type { Store } from '../../mongo/store.js';
import type { ApiDeps } from '../deps.js';
import { loadAssets, presentTokenRow } from '../present/market.js';
import { defineRoute, register, type AnyRouteSpec, type RestModule } from '../route.js';
import { MarketOverviewResponse } from '../schemas/market.js';
import { currentAdaUsd } from '../../mongo/collections/ada-usd.js';
import { logoMode } from './tokens.js';

export const marketRoutes = {
  overview: defineRoute({
    operationId: 'getMarketOverview',
    path: '/market/overview',
    summary: 'Market overview: ADA/USD, volume, TVL, DEXes, gainers, losers, trending, sync lag',
    tags: ['Market'],
    response: MarketOverviewResponse,
  }),
} satisfies Record<string, AnyRouteSpec>;

async function all<D extends { _id: string }>(it: AsyncIterable<D>): Promise<D[]> {
  const out: D[] = [];
  for await (const d of it) out.push(d);
  return out;
}

/** Before the first recompute: the same overview computed now from whatever stats exist. */
async function overviewNow(store: Store, nowMs: number): Promise<MarketOverviewDoc> {
  const [pools, poolStats, stats, adaUsd] = await Promise.all([
    all<PoolDoc>(store.collection(POOLS).scan()),
    all<PoolStatsDoc>(store.collection(POOL_STATS).scan()),
    all<TokenStatsDoc>(store.collection(TOKEN_STATS).scan()),
    currentAdaUsd(store),
  ]);
  return buildOverview(pools, new Map(poolStats.map((s) => [s.poolId, s])), stats, adaUsd, nowMs);
}

export function marketRouter(deps: ApiDeps): Router {
  const { store } = deps;
  const now = deps.now ?? Date.now;
  const router = new Router();
  register(router, marketRoutes.overview, async (_ctx, { query }) => {
    const [stored, { checkpoint }] = await Promise.all([
      store.collection(MARKET_OVERVIEW).get(MARKET_OVERVIEW_ID),
      storeClock(store),
    ]);
    const o = stored ?? (await overviewNow(store, now()));
    const units = [...new Set([...o.topGainers, ...o.topLosers, ...o.trending])];
    const stats = await store.collection(TOKEN_STATS).getMany(units);
    const byUnit = new Map(stats.filter((s): s is TokenStatsDoc => s !== null).map((s) => [s._id, s]));
    const assets = await loadAssets(store, byUnit.keys(), deps.config.SITE_URL, logoMode(query));
    const rows = (list: string[]) =>
      list.flatMap((u) => {
        const s = byUnit.get(u);
        return s ? [presentTokenRow(s, assets)] : [];
      });
    return {
      adaUsd: o.adaUsd,
      volume24h: o.volume24h,
      tvlAda: o.tvlAda,
      txns24h: o.txns24h,
      dexes: o.dexes,
      topGainers: rows(o.topGainers),
      topLosers: rows(o.topLosers),
      trending: rows(o.trending),
      sync: {
        lagSeconds: lagSeconds(checkpoint),
        height: checkpoint?.height ?? null,
        tipHeight: checkpoint?.tip?.height ?? checkpoint?.height ?? null,
      },
      updatedAt: stored?.updatedAt ?? null,
    };
  });
  return router;
}

export const marketModule: RestModule = { routes: Object.values(marketRoutes), router: marketRouter };
