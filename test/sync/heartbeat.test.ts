/**
 * The activity heartbeat of the sync slices on a slow store. Temporal times an attempt out when it has not heartbeat
 * for 60 s (workflows/policies.ts) and starts a retry while the attempt still runs. On FerretDB the commit of one
 * write batch took 3 minutes (78 devnet blocks after a chain source outage, beside the recomputes): with a heartbeat
 * only per round of events and per write started, the attempt timed out while its write was committing, its retry
 * timed out waiting for it, and the sync came back minutes after the source. Scaled down here: a write takes 600 ms
 * and the heartbeat's interval is 50 ms.
 */
import assert from 'node:assert/strict';
import { createSyncActivities } from '../../activities/sync/index.js';
import type { Store, WriteOp } from '../../mongo/store.js';
import { buildChain } from './build-chain.js';
import { chainDigest, syncAll, tempStore } from './helpers.js';
import { memoryChain } from './memory-chain.js';

const WRITE_MS = 600;

/** The store, with every write taking WRITE_MS longer. */
function slowWrites(store: Store): Store {
  const wrapped = Object.create(store) as Store;
  wrapped.write = async (ops: readonly WriteOp[]) => {
    await new Promise((r) => setTimeout(r, WRITE_MS));
    return store.write(ops);
  };
  return wrapped;
}

describe('sync: the slices heartbeat while their write commits on a slow store', function () {
  this.timeout(60_000);

  it('no gap between heartbeats near the write time, also for a retry waiting for the attempt still writing', async () => {
    const { events } = buildChain({ blocks: 12, forkEvery: 0, seed: 3 });
    const clean = await tempStore();
    const slow = await tempStore();
    try {
      await syncAll(clean.store, memoryChain(events), 6);
      const beats: number[] = [];
      const acts = createSyncActivities({
        store: slowWrites(slow.store),
        chain: memoryChain(events),
        k: 2160,
        network: 'mainnet',
        heartbeat: () => beats.push(performance.now()),
        heartbeatEveryMs: 50,
      });
      const started = performance.now();
      // The attempt Temporal gave up on and its retry, in one worker: the retry waits for the attempt's write.
      await Promise.all([acts.syncSlice({ maxBlocks: 6, waitMs: 0 }), acts.syncSlice({ maxBlocks: 6, waitMs: 0 })]);
      const ended = performance.now();
      const times = [started, ...beats, ended];
      const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
      assert.ok(ended - started >= 2 * WRITE_MS, 'each slice waited for its write');
      assert.ok(Math.max(...gaps) < WRITE_MS / 2, `longest gap between heartbeats ${Math.round(Math.max(...gaps))} ms`);
      // Nothing beats once the slices are done (a finished attempt must not look alive).
      const after = beats.length;
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(beats.length, after);
      for (let i = 0; i < 10; i++) if ((await acts.syncSlice({ maxBlocks: 6, waitMs: 0 })).atTip) break;
      assert.deepEqual(await chainDigest(slow.store), await chainDigest(clean.store));
    } finally {
      await clean.cleanup();
      await slow.cleanup();
    }
  });
});
