/**
 * Read functions of staking (REST, MCP and Markdown present their results).
 */
import { poolHashFromId } from '../../cardano/address.js';
import { BadRequestError, NotFoundError } from '../errors.js';
import { presentStakePool, presentStakePoolRow } from '../present/staking.js';
import { STAKE_POOLS, countStakePools, stakePoolsByStake } from '../../mongo/collections/staking.js';
import type { stakingRoutes } from '../routes/staking.js';
import type { ReadDeps, RouteInput } from './deps.js';
import { withAsOf, withCoverage } from './freshness.js';

async function listStakePoolsAnswer(deps: ReadDeps, input: RouteInput<typeof stakingRoutes.list>) {
  const [docs, total] = await Promise.all([
    stakePoolsByStake(deps.store, { offset: (input.page - 1) * input.pageSize, limit: input.pageSize }),
    countStakePools(deps.store),
  ]);
  // The snapshot the page belongs to: its first pool, or on a page past the end the list's first pool (every pool
  // of one recompute carries the same epoch and computedAt), so an empty page still says what it is empty of.
  const first = docs[0] ?? (await stakePoolsByStake(deps.store, { offset: 0, limit: 1 }))[0];
  return {
    items: docs.map(presentStakePoolRow),
    page: input.page,
    pageSize: input.pageSize,
    total,
    epoch: first?.epoch ?? null,
    computedAt: first?.computedAt ?? null,
  };
}

async function getStakePoolAnswer(deps: ReadDeps, input: RouteInput<typeof stakingRoutes.detail>) {
  const pools = deps.store.collection(STAKE_POOLS);
  try {
    poolHashFromId(input.id); // checksum and length, beyond the schema's pattern
  } catch (e) {
    throw new BadRequestError(`invalid parameter id: must be a bech32 pool id (pool1…): ${(e as Error).message}`);
  }
  const doc = await pools.get(input.id);
  if (!doc) throw new NotFoundError(`stake pool ${input.id} not found`);
  return presentStakePool(doc);
}

export const listStakePools = withAsOf(listStakePoolsAnswer);
export const getStakePool = withAsOf(withCoverage(getStakePoolAnswer));
