/**
 * Staking (spec: Staking): the stake pool list by live stake, largest first, and one pool. Both read the
 * stake_pools documents of the staking recompute (every 5 minutes; `computedAt` says when).
 */
import Router from '@koa/router';
import type { ApiDeps } from '../deps.js';
import { defineRoute, register, type AnyRouteSpec, type CommonQuery, type RestModule } from '../route.js';
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
  }),
} satisfies Record<string, AnyRouteSpec>;

export function stakingRouter(deps: ApiDeps): Router {
  const router = new Router();

  register(router, stakingRoutes.list, (_ctx, { params, query }) => listStakePools(deps, { ...params, ...query }));

  register(router, stakingRoutes.detail, (_ctx, { params, query }) => getStakePool(deps, { ...params, ...query }));

  return router;
}

export const stakingModule: RestModule = { routes: Object.values(stakingRoutes), router: stakingRouter };
