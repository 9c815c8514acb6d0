/**
 * The holders series seed (`holders-series`, temporal/schedules.ts): the holders sync extension writes the daily
 * series; this gives a token of a store synced before it did, one without any point, its indexed tip day's count.
 * What it reads and writes: activities/holders/series.ts (reads holder_counts, holder_series, checkpoints; writes
 * holder_series). Idempotent: a repeated run finds the points it wrote.
 */
import type { HoldersActivities } from '../activities/holders/series.js';
import type { WorkflowContext } from './context.js';

export async function recomputeHoldersBody(
  ctx: WorkflowContext<HoldersActivities>,
  _input: null,
): Promise<{ tokens: number; day: number }> {
  return ctx.activities.snapshotHolderSeries();
}
