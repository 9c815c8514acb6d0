/**
 * The shared activity options (workflows/policies.ts, in milliseconds) in the form `proxyActivities` takes. Pure.
 * Temporal reads a number `Duration` as milliseconds. Our `maximumAttempts: 0` ("unlimited", as the embedded runner
 * reads it) is left out here: the SDK rejects 0 and treats a missing value as unlimited.
 */
import type { ActivityOptions as TemporalActivityOptions } from '@temporalio/common';
import type { ActivityOptions } from './context.js';

export function toTemporalActivityOptions(o: ActivityOptions): TemporalActivityOptions {
  const r = o.retry;
  return {
    startToCloseTimeout: o.startToCloseTimeoutMs,
    ...(o.heartbeatTimeoutMs === undefined ? {} : { heartbeatTimeout: o.heartbeatTimeoutMs }),
    retry: {
      initialInterval: r.initialIntervalMs,
      backoffCoefficient: r.backoffCoefficient,
      maximumInterval: r.maximumIntervalMs,
      ...(r.maximumAttempts > 0 ? { maximumAttempts: r.maximumAttempts } : {}),
      ...(r.nonRetryableErrorTypes ? { nonRetryableErrorTypes: [...r.nonRetryableErrorTypes] } : {}),
    },
  };
}
