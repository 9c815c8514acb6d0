/**
 * Storage network (spec: Storage network and market): GET /storage-network/overview — Iagon's network-wide totals
 * and recent activity, the document of the `storage` recompute (activities/storage/, every 60 s; `computedAt`
 * says when); its IAG market figures are read afresh from the token stats of the market recompute. Before its first run the answer
 * is 503 with Retry-After (api/read/storage.ts): no figure is computed on the request path.
 */
import Router from '@koa/router';
import type { ApiDeps } from '../deps.js';
import { defineRoute, register, type AnyRouteSpec, type RestModule } from '../route.js';
import { StorageOverviewResponse } from '../schemas/storage.js';
import { getStorageNetworkOverview } from '../read/storage.js';

export const storageRoutes = {
  overview: defineRoute({
    operationId: 'getStorageNetworkOverview',
    path: '/storage-network/overview',
    summary: 'Storage network (Iagon): IAG market and supply, provider staking totals, rewards, recent activity',
    description:
      'What is observable on chain: the IAG token (price, volume and liquidity from DEX pools; supply and holders ' +
      'from the UTxO set) and the storage-provider staking and reward scripts (IAGON_STAKE_SCRIPTS, ' +
      'IAGON_REWARD_SCRIPTS). Each figure carries a one-line description. Node registration and storage proofs are ' +
      'off chain and not shown.',
    tags: ['Storage network'],
    response: StorageOverviewResponse,
  }),
} satisfies Record<string, AnyRouteSpec>;

export function storageRouter(deps: ApiDeps): Router {
  const router = new Router();
  register(router, storageRoutes.overview, (_ctx, { params, query }) =>
    getStorageNetworkOverview(deps, { ...params, ...query }),
  );
  return router;
}

export const storageModule: RestModule = { routes: Object.values(storageRoutes), router: storageRouter };
