/** Retry policies and timeouts shared by Temporal (proxyActivities) and the embedded runner. Pure data. */
import type { ActivityOptions } from './context.js';

/**
 * Sync failures a retry cannot fix (class names, as both engines match them; activities/sync/health.ts says why
 * each one is final). The run fails at once, at error level, and `ops runs --failed` / `temporal workflow list`
 * show it; /healthz/sync answers 503 with the reason until an operator resyncs or restarts the sync.
 */
export const SYNC_NON_RETRYABLE_ERRORS: readonly string[] = [
  'RollbackTooDeepError',
  'ChainDiscontinuityError',
  'IntersectionNotFoundError',
  'StoreRefusedError',
  'StoredDocumentCorruptError',
];

/**
 * Sync slices: retried without limit (a chain source that is down must not stop the indexer for good), with short
 * first retries and a 4 s cap, so the sync resumes within seconds of the source's return.
 */
export const SYNC_ACTIVITY: ActivityOptions = {
  startToCloseTimeoutMs: 10 * 60_000,
  heartbeatTimeoutMs: 60_000,
  retry: {
    initialIntervalMs: 250,
    backoffCoefficient: 2,
    maximumIntervalMs: 4_000,
    maximumAttempts: 0,
    nonRetryableErrorTypes: [...SYNC_NON_RETRYABLE_ERRORS],
  },
};

/**
 * How often the Temporal worker heartbeats every activity it runs (temporal/heartbeat.ts): well inside the heartbeat
 * timeouts below, so a beat is never late on a busy machine, while an attempt whose worker died is retried within
 * its heartbeat timeout instead of after the 10-minute start-to-close timeout.
 */
export const ACTIVITY_HEARTBEAT_EVERY_MS = 10_000;

/**
 * Recomputes: a few attempts, then the run is recorded as failed for an operator to retry. The heartbeat timeout
 * retries an attempt whose worker was killed after a minute (the embedded runner has no timeouts: its attempts
 * end with its process).
 */
export const RECOMPUTE_ACTIVITY: ActivityOptions = {
  startToCloseTimeoutMs: 10 * 60_000,
  heartbeatTimeoutMs: 60_000,
  retry: { initialIntervalMs: 1_000, backoffCoefficient: 2, maximumIntervalMs: 10_000, maximumAttempts: 3 },
};
