/**
 * Recompute bodies wrapped so their documents carry the sync generation they were built in (DERIVED_RUNS): the
 * generation and chain point are read when the run starts, and recorded when it completes. A rollback deeper than a
 * few blocks starts a new generation; until the job completed a run started after it, the API withholds the job's
 * answers (api/sync-guard.ts) instead of serving documents of the abandoned chain. Every scheduled job also records
 * how its runs end (`recorded`). A job reading another job's documents (workflows/registry.ts `upstreamOf`) waits,
 * within bounds, while that job runs and until it has run in its generation.
 */
import type { DerivedActivities } from '../activities/derived/index.js';
import type { WorkflowBody, WorkflowContext } from './context.js';

/**
 * How long a run waits for the recomputes whose documents it reads (`upstream`), and how often it looks. It waits
 * while one of them has a run in progress, and until each has run in its sync generation: at the tip of a first
 * sync, a resync or a deep rollback every job is started at once (workflows/sync-chain.ts), and the safety run read
 * the token stats of the backfill (or of the abandoned chain) while the market run was still computing the new
 * ones. The first look is one interval after the start, so an upstream run started at the same moment is seen.
 * A job whose upstream does not catch up in time still runs, but records its inputs' older generation, so its
 * answers stay withheld until a later run.
 */
export const UPSTREAM_WAIT_MS = 120_000;
export const UPSTREAM_POLL_MS = 2_000;

/**
 * A run before the sync indexed any block (a first start, or a resync, before its first write batch committed) does
 * not run its body: its documents would describe an empty chain (no pools, no trades, no delegators, no blocks made)
 * and be served as computed figures (a market overview of 0 ADA, a token list of 0 tokens, stake pools with no
 * delegator). Writing none keeps every answer at "not computed yet" until the job's next firing over indexed blocks
 * (or the run the sync starts at the tip). Such a run returns null.
 */
const NOT_RUN: unique symbol = Symbol('no block indexed yet');

export function derived<A, I, R>(
  workflow: string,
  body: WorkflowBody<A, I, R>,
  upstream: () => readonly string[] = () => [],
): WorkflowBody<A & DerivedActivities, I, R | null> {
  const run = recorded<A & DerivedActivities, I, R | typeof NOT_RUN>(
    workflow,
    async (ctx, input) => {
      const mark = await ctx.activities.derivedRunStarted({ workflow });
      if (mark.from === null) {
        // Neither a derived run (the API's gate keeps withholding the documents of an abandoned chain after a
        // resync) nor a success (staking and governance date their answers by the job's last success).
        await ctx.activities.derivedRunSkipped({ workflow });
        return NOT_RUN;
      }
      const inputs = await upstreamGeneration(ctx, upstream(), mark.generation);
      const result = await body(ctx, input);
      // Documents built from older inputs are of those inputs' generation (a rollback's abandoned chain).
      await ctx.activities.derivedRunCompleted({ ...mark, generation: Math.min(mark.generation, inputs) });
      return result;
    },
    (result) => result !== NOT_RUN,
  );
  return async (ctx, input) => {
    const result = await run(ctx, input);
    return result === NOT_RUN ? null : result;
  };
}

/** The generation of the upstream jobs' documents, once none runs and it reached `generation`, or the wait ran out. */
async function upstreamGeneration(
  ctx: WorkflowContext<DerivedActivities>,
  upstream: readonly string[],
  generation: number,
): Promise<number> {
  if (upstream.length === 0) return generation;
  const deadline = ctx.now() + UPSTREAM_WAIT_MS;
  for (;;) {
    await ctx.sleep(UPSTREAM_POLL_MS);
    const inputs = await ctx.activities.derivedInputs({ workflows: upstream });
    if ((inputs.generation >= generation && inputs.running.length === 0) || ctx.now() >= deadline)
      return inputs.generation;
  }
}

/**
 * A scheduled job that records how each run ended (JOB_HEALTH), so every API replica reports a job whose retries ran
 * out (/readyz, /healthz/jobs, /metrics) whichever engine ran it. The run still fails as before.
 */
export function recorded<A, I, R>(
  workflow: string,
  body: WorkflowBody<A, I, R>,
  /** Whether the run did its work (a success); false: it is only no longer running (derived's NOT_RUN). */
  ran: (result: R) => boolean = () => true,
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
    if (ran(result)) await ctx.activities.jobSucceeded({ workflow });
    return result;
  };
}

/** The innermost cause's message: Temporal wraps an activity's error as ActivityFailure → ApplicationFailure. */
function rootMessage(e: unknown): string {
  let cur: unknown = e;
  for (let i = 0; i < 10 && cur && typeof cur === 'object' && 'cause' in cur && cur.cause; i++) cur = cur.cause;
  return cur instanceof Error ? cur.message : String(cur);
}
