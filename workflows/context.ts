/**
 * One definition of every workflow, two engines. A workflow body is a function of a `WorkflowContext` and one
 * serialisable input. `workflows/index.ts` builds the context from `@temporalio/workflow` (proxyActivities, sleep,
 * continueAsNew); `temporal/runner.ts` builds it from the activity functions directly with the same retry policies.
 * Bodies must stay deterministic: no I/O, no clock but `ctx.now()`, no randomness.
 */

export interface RetryPolicy {
  initialIntervalMs: number;
  backoffCoefficient: number;
  maximumIntervalMs: number;
  /** 0 = unlimited. */
  maximumAttempts: number;
  nonRetryableErrorTypes?: string[];
}

export interface ActivityOptions {
  startToCloseTimeoutMs: number;
  heartbeatTimeoutMs?: number;
  retry: RetryPolicy;
}

export interface WorkflowContext<A> {
  activities: A;
  sleep(ms: number): Promise<void>;
  now(): number;
  /** Ends this run and starts a fresh one with `input` (bounded history under Temporal). Never returns. */
  continueAsNew(input: unknown): Promise<never>;
}

export type WorkflowBody<A, I, R> = (ctx: WorkflowContext<A>, input: I) => Promise<R>;
