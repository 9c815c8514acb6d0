/**
 * Recompute bodies wrapped so their documents carry the sync generation they were built in (DERIVED_RUNS): the
 * generation and chain point are read when the run starts, and recorded when it completes. A rollback deeper than a
 * few blocks starts a new generation; until the job completed a run started after it, the API withholds the job's
 * answers (api/sync-guard.ts) instead of serving documents of the abandoned chain. Every scheduled job also records
 * how its runs end (`recorded`).
 */
import type { DerivedActivities } from '../activities/derived/index.js';
import type { WorkflowBody } from './context.js';

export function derived<A, I, R>(
  workflow: string,
  body: WorkflowBody<A, I, R>,
): WorkflowBody<A & DerivedActivities, I, R> {
  return recorded<A & DerivedActivities, I, R>(workflow, async (ctx, input) => {
    const mark = await ctx.activities.derivedRunStarted({ workflow });
    const result = await body(ctx, input);
    await ctx.activities.derivedRunCompleted(mark);
    return result;
  });
}

/**
 * A scheduled job that records how each run ended (JOB_HEALTH), so every API replica reports a job whose retries ran
 * out (/readyz, /healthz/jobs, /metrics) whichever engine ran it. The run still fails as before.
 */
export function recorded<A, I, R>(
  workflow: string,
  body: WorkflowBody<A, I, R>,
): WorkflowBody<A & DerivedActivities, I, R> {
  return async (ctx, input) => {
    let result: R;
    try {
      result = await body(ctx, input);
    } catch (e) {
      // Best effort: a store that does not answer must not hide the run's own failure.
      await ctx.activities.jobFailed({ workflow, error: rootMessage(e) }).catch(() => undefined);
      throw e;
    }
    await ctx.activities.jobSucceeded({ workflow });
    return result;
  };
}

/** The innermost cause's message: Temporal wraps an activity's error as ActivityFailure → ApplicationFailure. */
function rootMessage(e: unknown): string {
  let cur: unknown = e;
  for (let i = 0; i < 10 && cur && typeof cur === 'object' && 'cause' in cur && cur.cause; i++) cur = cur.cause;
  return cur instanceof Error ? cur.message : String(cur);
}
