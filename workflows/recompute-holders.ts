/**
 * The holders series snapshot (`holders-series`, temporal/schedules.ts): copies every token's live holder count into
 * today's point of the daily series. What it reads and writes: activities/holders/series.ts (reads holder_counts,
 * checkpoints; writes holder_series). Idempotent: a repeated run rewrites the same day's points.
 */
import type { HoldersActivities } from '../activities/holders/series.js';
import type { WorkflowContext } from './context.js';

export async function recomputeHoldersBody(
  ctx: WorkflowContext<HoldersActivities>,
  _input: null,
): Promise<{ tokens: number; day: number }> {
  return ctx.activities.snapshotHolderSeries();
}
