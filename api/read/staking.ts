/**
 * Read functions of staking (REST, MCP and Markdown present their results).
 */
import { poolHashFromId } from '../../cardano/address.js';
import { BadRequestError, NotFoundError } from '../errors.js';
import { presentStakePool, presentStakePoolRow } from '../present/staking.js';
import { STAKE_POOLS, countStakePools, stakePoolsByStake } from '../../mongo/collections/staking.js';
import { jobLastSuccessAt } from '../../mongo/collections/sync-state.js';
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
  if (!doc) throw new NotFoundError(await stakePoolNotFound(deps, input.id));
  return presentStakePool(doc);
}

/**
 * Why a pool id is not answered. The pools are the staking recompute's documents (every 5 minutes), not the chain
 * itself: before its first run none is listed, and "not found" alone read as "no such pool" for every pool of the
 * ledger in a fresh deployment's first minutes (the list said computedAt null, the detail nothing). After a run,
 * the answer names it: a pool registered in a later block is listed by the next run.
 */
async function stakePoolNotFound(deps: ReadDeps, id: string): Promise<string> {
  const [first] = await stakePoolsByStake(deps.store, { offset: 0, limit: 1 });
  if (first)
    return (
      `stake pool ${id} not found among the pools the ledger listed in epoch ${first.epoch} (computed at ` +
      `${first.computedAt}; a pool registered since is listed by the next run, every 5 minutes)`
    );
  if ((await jobLastSuccessAt(deps.store, 'recomputeStaking')) === null)
    return `stake pool ${id} not found: the stake pool figures are not computed yet (the staking recompute runs every 5 minutes); retry in a few minutes`;
  return `stake pool ${id} not found`;
}

export const listStakePools = withAsOf(listStakePoolsAnswer);
export const getStakePool = withAsOf(withCoverage(getStakePoolAnswer));
