/**
 * The token safety recompute (`safety`, every 5 minutes, temporal/schedules.ts): one activity, recomputeTokenSafety
 * — reads checkpoints, blocks, tokens, pools, token_stats, holders, holder_counts, policy_scripts; writes
 * token_safety (activities/safety/). Idempotent.
 */
import type { SafetyActivities } from '../activities/safety/index.js';
import type { WorkflowContext } from './context.js';

export async function recomputeSafetyBody(
  ctx: WorkflowContext<SafetyActivities>,
  _input: null,
): Promise<{ tokens: number; high: number }> {
  return ctx.activities.recomputeTokenSafety();
}
