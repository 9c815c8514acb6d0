/**
 * Activities that tell Temporal they are alive while they run. Without a heartbeat, an activity whose worker process
 * died (a SIGKILL, an out-of-memory kill) is retried only when its start-to-close timeout (10 minutes) runs out:
 * meanwhile its run shows `running`, the job's Schedule skips its firings (overlap BUFFER_ONE) and `ops trigger`
 * queues behind it. With a heartbeat every `everyMs` and the policy's heartbeat timeout (workflows/policies.ts),
 * Temporal retries it on another worker within that timeout.
 *
 * The beat proves the worker process and its event loop are alive, not that the activity progresses: the
 * start-to-close timeout still bounds an attempt that hangs.
 */
type Activity = (...args: never[]) => Promise<unknown>;

export function withHeartbeat<A extends Record<string, Activity>>(
  activities: A,
  /** Returns the beat of the activity that calls it (Temporal's `Context.current().heartbeat`, bound to it). */
  beatOfCurrent: () => () => void,
  everyMs: number,
): A {
  const out: Record<string, Activity> = {};
  for (const [name, fn] of Object.entries(activities))
    out[name] = async (...args: never[]) => {
      const beat = beatOfCurrent();
      const timer = setInterval(beat, everyMs);
      try {
        return await fn(...args);
      } finally {
        clearInterval(timer);
      }
    };
  return out as A;
}
