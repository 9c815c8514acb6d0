/**
 * Recompute bodies wrapped so their documents carry the sync generation they were built in (DERIVED_RUNS): the
 * generation and chain point are read when the run starts, and recorded when it completes. A rollback deeper than a
 * few blocks starts a new generation; until the job completed a run started after it, the API withholds the job's
 * answers (api/sync-guard.ts) instead of serving documents of the abandoned chain.
 */
import type { DerivedActivities } from '../activities/derived/index.js';
import type { WorkflowBody } from './context.js';

export function derived<A, I, R>(
  workflow: string,
  body: WorkflowBody<A, I, R>,
): WorkflowBody<A & DerivedActivities, I, R> {
  return async (ctx, input) => {
    const mark = await ctx.activities.derivedRunStarted({ workflow });
    const result = await body(ctx, input);
    await ctx.activities.derivedRunCompleted(mark);
    return result;
  };
}
