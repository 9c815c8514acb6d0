import assert from 'node:assert/strict';
import { createSyncActivities } from '../../activities/sync/index.js';
import { buildChain } from './build-chain.js';
import { chainDigest, syncAll, tempStore } from './helpers.js';
import { memoryChain } from './memory-chain.js';
import { failingPartway, partialSliceRetried } from './partial-write.js';

describe('sync: a slice whose write fails part-way (embedded store)', function () {
  this.timeout(60_000);
  for (const failAt of [2, 4]) {
    it(`write #${failAt} half-applied, then retried: the store equals an uninterrupted sync`, async () => {
      const clean = await tempStore();
      const broken = await tempStore();
      try {
        await partialSliceRetried(clean.store, broken.store, failAt);
      } finally {
        await clean.cleanup();
        await broken.cleanup();
      }
    });
  }
});

describe('sync: an attempt Temporal gave up on still runs when its retry starts', function () {
  this.timeout(60_000);
  it('overlapping slices of one worker run one after the other and index the chain as one sync does', async () => {
    const { events } = buildChain({ blocks: 40, forkEvery: 9, seed: 7 });
    const clean = await tempStore();
    const overlapped = await tempStore();
    try {
      await syncAll(clean.store, memoryChain(events), 6);
      const acts = createSyncActivities({
        store: overlapped.store,
        chain: memoryChain(events),
        k: 2160,
        network: 'mainnet',
      });
      for (let i = 0; i < 20; i++) {
        // The timed-out attempt and its retry, started together on the same activities (one chain cursor).
        const [a, b] = await Promise.all([
          acts.syncSlice({ maxBlocks: 6, waitMs: 0 }),
          acts.syncSlice({ maxBlocks: 6, waitMs: 0 }),
        ]);
        if (a.blocks + b.blocks === 0 && b.atTip) break;
      }
      assert.deepEqual(await chainDigest(overlapped.store), await chainDigest(clean.store));
    } finally {
      await clean.cleanup();
      await overlapped.cleanup();
    }
  });
});

describe('sync: a worker dies half-way through a write and another worker takes the next slice', function () {
  this.timeout(60_000);
  it('the other worker first restores the partial slice: the store equals an uninterrupted sync', async () => {
    // Two `npm run worker` processes on one task queue: Temporal hands each slice to either of them, and the retry
    // of a slice whose worker died mid-write (SIGKILL, out of memory) to the one still alive, which has synced
    // slices of its own before (no failure of its own to tell it a batch was left half-written).
    const { events } = buildChain({ blocks: 40, forkEvery: 9, seed: 11 });
    const clean = await tempStore();
    const shared = await tempStore();
    try {
      await syncAll(clean.store, memoryChain(events), 6);
      const dying = failingPartway(shared.store, 2, 0.5); // worker A's second batch
      const workerA = createSyncActivities({ store: dying, chain: memoryChain(events), k: 2160, network: 'mainnet' });
      const workerB = createSyncActivities({
        store: shared.store,
        chain: memoryChain(events),
        k: 2160,
        network: 'mainnet',
      });
      await workerB.syncSlice({ maxBlocks: 6, waitMs: 0 });
      await workerA.syncSlice({ maxBlocks: 6, waitMs: 0 });
      await assert.rejects(workerA.syncSlice({ maxBlocks: 6, waitMs: 0 }), /injected/); // worker A is gone now
      assert.ok(dying.failed());
      for (let i = 0; i < 100; i++) {
        const r = await workerB.syncSlice({ maxBlocks: 6, waitMs: 0 });
        if (r.blocks === 0 && r.atTip) break;
      }
      assert.deepEqual(await chainDigest(shared.store), await chainDigest(clean.store));
    } finally {
      await clean.cleanup();
      await shared.cleanup();
    }
  });
});
