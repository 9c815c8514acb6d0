/**
 * The storage-network recompute (every 60 s, temporal/schedules.ts `storage`): one activity,
 * recomputeStorageOverview — reads storage_script_addresses, utxos, storage_events, token_stats, tokens,
 * holder_counts, blocks, checkpoints; writes storage_overview (activities/storage/index.ts). Idempotent.
 */
import type { StorageActivities } from '../activities/storage/index.js';
import type { WorkflowContext } from './context.js';

export async function recomputeStorageBody(
  ctx: WorkflowContext<StorageActivities>,
  _input: null,
): Promise<{ providers: number | null; stakeOutputs: number; events: number }> {
  return ctx.activities.recomputeStorageOverview();
}
