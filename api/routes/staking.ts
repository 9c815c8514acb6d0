/**
 * Staking (spec: Staking): the stake pool list by live stake, largest first, and one pool. Both read the
 * stake_pools documents of the staking recompute (every 5 minutes; `computedAt` says when).
 */
import Router from '@koa/router';
import { bech32PoolId, poolHashFromId } from '../../cardano/address.js';
import type { ApiDeps } from '../deps.js';
import {
  defineRoute,
  lowercaseIdHint,
  register,
  type AnyRouteSpec,
  type CommonQuery,
  type RestModule,
} from '../route.js';
import {
  StakePoolDetailResponse,
  StakePoolIdParams,
  StakePoolListResponse,
  StakePoolsQuery,
} from '../schemas/staking.js';
import { listStakePools, getStakePool } from '../read/staking.js';

const TAGS = ['Staking'];

export const stakingRoutes = {
  list: defineRoute<Record<string, never>, CommonQuery & { page: number; pageSize: number }>({
    operationId: 'listStakePools',
    path: '/staking/pools',
    summary: 'Stake pools by live stake, largest first',
    tags: TAGS,
    query: StakePoolsQuery,
    response: StakePoolListResponse,
  }),
  detail: defineRoute<{ id: string }>({
    operationId: 'getStakePool',
    path: '/staking/pools/{id}',
    summary: 'One stake pool: metadata, performance, delegators summary',
    tags: TAGS,
    params: StakePoolIdParams,
    response: StakePoolDetailResponse,
    paramHints: { id: stakePoolIdHint },
  }),
} satisfies Record<string, AnyRouteSpec>;

/**
 * What to send instead of a pool id in another form: the pool's 28-byte key hash (56 hex, as explorers and the
 * ledger show it) is its pool1… id; a pool1… id in capitals is the same id in lowercase (bech32 is one case), when
 * that lowercase text is a pool id (prefix, checksum, 28-byte hash).
 */
export function stakePoolIdHint(raw: string): string | null {
  const bech32 = bech32PoolId(raw);
  if (bech32 !== raw) return `this key hash is stake pool ${bech32}`;
  return lowercaseIdHint(raw, isPoolId);
}

/** Whether `id` is a bech32 pool id: the prefix, a valid checksum and a 28-byte key hash. */
function isPoolId(id: string): boolean {
  try {
    poolHashFromId(id);
    return true;
  } catch {
    return false;
  }
}

export function stakingRouter(deps: ApiDeps): Router {
  const router = new Router();

  register(router, stakingRoutes.list, (_ctx, { params, query }) => listStakePools(deps, { ...params, ...query }));

  register(router, stakingRoutes.detail, (_ctx, { params, query }) => getStakePool(deps, { ...params, ...query }));

  return router;
}

export const stakingModule: RestModule = { routes: Object.values(stakingRoutes), router: stakingRouter };
