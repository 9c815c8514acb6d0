/** Retry policies and timeouts shared by Temporal (proxyActivities) and the embedded runner. Pure data. */
import type { ActivityOptions } from './context.js';

/** Sync slices: retried without limit (a chain source that is down must not stop the indexer for good). */
export const SYNC_ACTIVITY: ActivityOptions = {
  startToCloseTimeoutMs: 10 * 60_000,
  heartbeatTimeoutMs: 60_000,
  retry: { initialIntervalMs: 1_000, backoffCoefficient: 2, maximumIntervalMs: 30_000, maximumAttempts: 0 },
};

/** Recomputes: a few attempts, then the run is recorded as failed for an operator to retry. */
export const RECOMPUTE_ACTIVITY: ActivityOptions = {
  startToCloseTimeoutMs: 10 * 60_000,
  retry: { initialIntervalMs: 1_000, backoffCoefficient: 2, maximumIntervalMs: 10_000, maximumAttempts: 3 },
};
