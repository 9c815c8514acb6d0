/**
 * Every activity the Temporal worker runs tells Temporal it is alive, and every workflow's policy has a heartbeat
 * timeout, so an attempt whose worker was killed is retried within a minute. Seen on the production composition: the
 * worker SIGKILLed while recomputeTokenStats ran; the market run stayed `running` on attempt 1 (pending activity
 * `Started`, last worker the dead one) for the 10-minute start-to-close timeout, its Schedule's firings skipped and
 * `ops trigger market` queued behind it.
 */
import assert from 'node:assert/strict';
import { withHeartbeat } from '../../temporal/heartbeat.js';
import { toTemporalActivityOptions } from '../../workflows/temporal-options.js';
import { ACTIVITY_HEARTBEAT_EVERY_MS } from '../../workflows/policies.js';
import { WORKFLOWS } from '../../workflows/registry.js';

describe('activity heartbeats (Temporal worker)', () => {
  it('every workflow’s activities have a heartbeat timeout the worker’s beat keeps, shorter than start-to-close', () => {
    for (const [name, w] of Object.entries(WORKFLOWS)) {
      const o = toTemporalActivityOptions(w.activityOptions);
      assert.equal(typeof o.heartbeatTimeout, 'number', `${name}: a killed worker's attempt is noticed`);
      const timeout = o.heartbeatTimeout as number;
      // Several beats fit in the timeout (a beat late on a loaded machine does not fail a live attempt) …
      assert.ok(timeout >= 3 * ACTIVITY_HEARTBEAT_EVERY_MS, `${name}: ${timeout} ms`);
      // … and it is what retries a dead worker's attempt first.
      assert.ok(timeout < (o.startToCloseTimeout as number), `${name}: ${timeout} ms`);
    }
  });

  it('beats while the activity runs, and stops when it ends (answers and errors pass through)', async () => {
    let beats = 0;
    let contexts = 0;
    let finish!: (v: string) => void;
    const acts = withHeartbeat(
      {
        slow: () => new Promise<string>((r) => (finish = r)),
        fails: async (why: string) => {
          throw new Error(why);
        },
      },
      () => {
        contexts++; // asked once per call, inside the activity's context
        return () => beats++;
      },
      2,
    );
    const answer = acts.slow();
    while (beats < 3) await new Promise((r) => setTimeout(r, 2));
    finish('done');
    assert.equal(await answer, 'done');
    const after = beats;
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(beats, after, 'no beat after the activity ended');
    await assert.rejects(acts.fails('refused'), /^Error: refused$/);
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(beats, after, 'no beat after a failed activity either');
    assert.equal(contexts, 2);
  });
});
