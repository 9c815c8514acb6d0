import assert from 'node:assert/strict';
import { createSyncActivities } from '../../activities/sync/index.js';
import { OgmiosConnectionError } from '../../activities/chain/ogmios-client.js';
import type { ChainSource } from '../../activities/chain/source.js';
import { CHECKPOINTS } from '../../mongo/collections/sync-state.js';
import type { Store, WriteOp } from '../../mongo/store.js';
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

describe('sync: the chain source fails while a write batch is still committing (MongoDB, FerretDB)', function () {
  this.timeout(60_000);
  it('the retry starts after that commit settled: the store equals an uninterrupted sync', async () => {
    // On a server store a batch commits for up to a minute (FerretDB) while the slice goes on taking blocks; a frozen
    // chain source fails the slice meanwhile (its keepalive), and Temporal retries it 250 ms later in the same worker.
    // The retry first repairs a half-written batch (recoverIncomplete) from the undo records above the checkpoint: it
    // must not do so while that batch is still being written, or the batch's last statements and its checkpoint land
    // on documents the retry restored to their prior values.
    const { events } = buildChain({ blocks: 60, forkEvery: 13, seed: 3 });
    const clean = await tempStore();
    const target = await tempStore();
    try {
      await syncAll(clean.store, memoryChain(events), 100);
      let batches = 0;
      let paused = false;
      let sourceFailed = false;
      let landed: Promise<void> = Promise.resolve();
      const slow = Object.create(target.store) as Store;
      // A server store: the first write batches hold 20 blocks and are committed while the slice goes on.
      Object.defineProperty(slow, 'kind', { value: 'mongodb' });
      slow.write = async (ops: readonly WriteOp[]) => {
        if (!ops.some((op) => op.coll === CHECKPOINTS.name) || ++batches !== 2) return target.store.write(ops);
        // MongoDB applies a batch's statements in order, without a transaction: the first half is in, the rest
        // (and the checkpoint, last) lands a second later, once a retry that did not wait has synced to the tip.
        const half = Math.floor(ops.length / 2);
        paused = true;
        await target.store.write(ops.slice(0, half));
        landed = new Promise((resolve) => setTimeout(resolve, 1_000)).then(() => target.store.write(ops.slice(half)));
        await landed;
        paused = false;
      };
      const source = memoryChain(events);
      const chain: ChainSource = {
        ...source,
        async nextEvents(max, waitMs) {
          if (paused && !sourceFailed) {
            sourceFailed = true;
            throw new OgmiosConnectionError('Ogmios connection ws://node:1337 silent for 20000 ms (no pong)');
          }
          return source.nextEvents(max, waitMs);
        },
      };
      const acts = createSyncActivities({ store: slow, chain, k: 2160, network: 'mainnet' });
      let failures = 0;
      for (let i = 0; i < 50; i++) {
        let r;
        try {
          r = await acts.syncSlice({ maxBlocks: 100, waitMs: 0 });
        } catch (e) {
          failures++;
          assert.match(String(e), /silent for 20000 ms/);
          continue; // Temporal's retry, at once
        }
        if (r.blocks === 0 && r.atTip) break;
      }
      await landed;
      assert.ok(sourceFailed, 'the source failed while the second batch was committing');
      assert.equal(failures, 1, 'the source outage only, and the retry succeeds');
      assert.deepEqual(await chainDigest(target.store), await chainDigest(clean.store));
    } finally {
      await clean.cleanup();
      await target.cleanup();
    }
  });
});
