/**
 * Storage network (spec: Storage network and market): GET /storage-network/overview — Iagon's network-wide totals
 * and recent activity, the document of the `storage` recompute (activities/storage/, every 60 s; `computedAt`
 * says when); its IAG market figures are read afresh from the token stats of the market recompute. Before its first run the answer carries the market and supply figures read now and says the staking
 * figures are not computed yet.
 */
import Router from '@koa/router';
import { buildStorageOverview, storageMarket } from '../../activities/storage/overview.js';
import { IAG_UNIT, NO_IAGON_SCRIPTS } from '../../activities/storage/iagon.js';
import { BLOCKS, CHECKPOINTS, HOLDER_COUNTS, TOKENS, TOKEN_STATS } from '../../mongo/collections/index.js';
import { STORAGE_OVERVIEW, STORAGE_OVERVIEW_ID, type StorageOverviewDoc } from '../../mongo/collections/storage.js';
import type { TokenStatsDoc } from '../../mongo/collections/market-read.js';
import type { Store } from '../../mongo/store.js';
import type { ApiDeps } from '../deps.js';
import { defineRoute, register, type AnyRouteSpec, type RestModule } from '../route.js';
import { StorageOverviewResponse } from '../schemas/storage.js';

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

async function overviewNow(store: Store, nowMs: number, tokenStats: TokenStatsDoc | null): Promise<StorageOverviewDoc> {
  const [token, holders, first, cp] = await Promise.all([
    store.collection(TOKENS).get(IAG_UNIT),
    store.collection(HOLDER_COUNTS).get(IAG_UNIT),
    store.collection(BLOCKS).find('byHeight', { limit: 1 }),
    store.collection(CHECKPOINTS).get('sync'),
  ]);
  return buildStorageOverview({
    scripts: NO_IAGON_SCRIPTS,
    stakeOutputs: [],
    rewardPoolRaw: 0n,
    claims24h: { raw: 0n, count: 0 },
    claims7d: { raw: 0n, count: 0 },
    recentEvents: [],
    tokenStats,
    token,
    holders,
    computedAt: new Date(nowMs).toISOString(),
    coverageFrom: first[0]?.time ?? null,
    slot: cp?.slot ?? null,
    notComputed: 'The storage recompute has not run yet (it runs every 60 seconds): staking figures follow.',
  });
}

export function storageRouter(deps: ApiDeps): Router {
  const { store } = deps;
  const now = deps.now ?? Date.now;
  const router = new Router();
  register(router, storageRoutes.overview, async () => {
    const [stored, stats] = await Promise.all([
      store.collection(STORAGE_OVERVIEW).get(STORAGE_OVERVIEW_ID),
      store.collection(TOKEN_STATS).get(IAG_UNIT),
    ]);
    const { _id, ...body } = stored ?? (await overviewNow(store, now(), stats));
    void _id;
    return { ...body, market: storageMarket(stats) };
  });
  return router;
}

export const storageModule: RestModule = { routes: Object.values(storageRoutes), router: storageRouter };
