import assert from 'node:assert/strict';
import { createSyncActivities } from '../../activities/sync/index.js';
import { buildChain } from './build-chain.js';
import { chainDigest, syncAll, tempStore } from './helpers.js';
import { memoryChain } from './memory-chain.js';
import { partialSliceRetried } from './partial-write.js';

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
