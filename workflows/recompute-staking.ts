/**
 * The stake pool recompute (every 5 minutes, temporal/schedules.ts `staking`): one activity,
 * recomputeStakePools — reads stake_pool_regs, stake_accounts, addresses, blocks, stake_pools and the ledger state
 * through the chain source; writes stake_pools (activities/staking/index.ts).
 */
import type { StakingActivities } from '../activities/staking/index.js';
import type { WorkflowContext } from './context.js';

export async function recomputeStakingBody(
  ctx: WorkflowContext<StakingActivities>,
  _input: null,
): Promise<{ pools: number; epoch: number }> {
  return ctx.activities.recomputeStakePools();
}
