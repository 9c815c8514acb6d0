/**
 * Staking (spec: Staking): the stake pool list by live stake, largest first, and one pool. Both read the
 * stake_pools documents of the staking recompute (every 5 minutes; `computedAt` says when).
 */
import Router from '@koa/router';
import { poolHashFromId } from '../../cardano/address.js';
import { STAKE_POOLS } from '../../mongo/collections/staking.js';
import type { ApiDeps } from '../deps.js';
import { BadRequestError, NotFoundError } from '../errors.js';
import { presentStakePool, presentStakePoolRow } from '../present/staking.js';
import { defineRoute, register, type AnyRouteSpec, type CommonQuery, type RestModule } from '../route.js';
import {
  StakePoolDetailResponse,
  StakePoolIdParams,
  StakePoolListResponse,
  StakePoolsQuery,
} from '../schemas/staking.js';

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
  const pools = deps.store.collection(STAKE_POOLS);
  const router = new Router();

  register(router, stakingRoutes.list, async (_ctx, { query }) => {
    const [docs, total] = await Promise.all([
      pools.find('byStake', { reverse: true, offset: (query.page - 1) * query.pageSize, limit: query.pageSize }),
      pools.count('byStake'),
    ]);
    const first = docs[0];
    return {
      items: docs.map(presentStakePoolRow),
      page: query.page,
      pageSize: query.pageSize,
      total,
      epoch: first?.epoch ?? null,
      computedAt: first?.computedAt ?? null,
    };
  });

  register(router, stakingRoutes.detail, async (_ctx, { params }) => {
    try {
      poolHashFromId(params.id); // checksum and length, beyond the schema's pattern
    } catch (e) {
      throw new BadRequestError(`invalid parameter id: must be a bech32 pool id (pool1…): ${(e as Error).message}`);
    }
    const doc = await pools.get(params.id);
    if (!doc) throw new NotFoundError(`stake pool ${params.id} not found`);
    return presentStakePool(doc);
  });

  return router;
}

export const stakingModule: RestModule = { routes: Object.values(stakingRoutes), router: stakingRouter };
