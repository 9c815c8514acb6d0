/**
 * The write batches of a slice on a store that commits slowly. On FerretDB a slice's batch of 425 devnet blocks took
 * 9 min 17 s to commit, near the activity's 10-minute start-to-close timeout: a slice bounded only the time it spent
 * taking blocks (60 s), not the commit of what it took. A batch now ends once its commit would take longer than the
 * write budget at the speed the store committed the previous batch. Scaled down here: every statement takes 1 ms to
 * commit, the budget is 400 ms. Those milliseconds are the sync's elapsed-time clock (`elapsedMs`), advanced by the
 * store's commits alone: the batches and their sizes do not depend on how busy the machine is.
 */
import assert from 'node:assert/strict';
import { createSyncActivities } from '../../activities/sync/index.js';
import { CHECKPOINTS } from '../../mongo/collections/sync-state.js';
import type { Store, WriteOp } from '../../mongo/store.js';
import { buildChain } from './build-chain.js';
import { chainDigest, syncAll, tempStore } from './helpers.js';
import { memoryChain } from './memory-chain.js';

const MS_PER_OP = 1;
const BUDGET_MS = 400;

/**
 * The store as a server store (MongoDB, FerretDB), each write taking `msPerOp(n)` per statement for its n-th write
 * (MS_PER_OP by default) on `clock`, the sync's elapsed time; logs each write.
 */
function slowServerStore(
  store: Store,
  clock: { ms: number },
  writes: { ops: number; ms: number }[],
  msPerOp: (n: number) => number = () => MS_PER_OP,
): Store {
  const wrapped = Object.create(store) as Store & { kind: string };
  Object.defineProperty(wrapped, 'kind', { value: 'mongodb' });
  let n = 0;
  wrapped.write = async (ops: readonly WriteOp[]) => {
    const t0 = clock.ms;
    clock.ms += ops.length * msPerOp(n++);
    await store.write(ops);
    writes.push({ ops: ops.length, ms: clock.ms - t0 });
  };
  return wrapped;
}

describe('sync: write batches on a slow store stay within the write budget', function () {
  this.timeout(120_000);

  it('commits a 300-block slice in batches that each take about the budget, the chain as a clean sync', async () => {
    const { events } = buildChain({ blocks: 300, forkEvery: 0, seed: 5 });
    const clean = await tempStore();
    const slow = await tempStore();
    try {
      await syncAll(clean.store, memoryChain(events), 500);
      const writes: { ops: number; ms: number }[] = [];
      const clock = { ms: 0 };
      const acts = createSyncActivities({
        store: slowServerStore(slow.store, clock, writes),
        chain: memoryChain(events),
        k: 2160,
        network: 'mainnet',
        writeBudgetMs: BUDGET_MS,
        elapsedMs: () => clock.ms,
      });
      const r = await acts.syncSlice({ maxBlocks: 500, waitMs: 0 });
      assert.equal(r.blocks, 300, 'the slice took every block (its 60 s for taking blocks never ran out)');
      const statements = writes.reduce((n, w) => n + w.ops, 0);
      // Before: one batch of all 300 blocks, a commit of `statements` ms.
      assert.ok(statements * MS_PER_OP > 4 * BUDGET_MS, `${statements} statements: the test would show nothing`);
      assert.ok(writes.length >= 4, `${writes.length} writes`);
      for (const w of writes)
        assert.ok(w.ms < 2 * BUDGET_MS, `a write of ${w.ops} statements took ${Math.round(w.ms)} ms`);
      assert.deepEqual(await chainDigest(slow.store), await chainDigest(clean.store));
    } finally {
      await clean.cleanup();
      await slow.cleanup();
    }
  });

  it('a store that commits its first batch 5 times faster than the next ones: no commit takes over twice the budget', async () => {
    // As FerretDB: the first batch inserts into empty collections (455 statements/s), later ones update what it wrote
    // (109, 94, 71/s). The third batch, sized from the first commit while the second committed, took 124 s.
    const { events } = buildChain({ blocks: 300, forkEvery: 0, seed: 5 });
    const t = await tempStore();
    try {
      const writes: { ops: number; ms: number }[] = [];
      const clock = { ms: 0 };
      const store = slowServerStore(t.store, clock, writes, (n) => (n === 0 ? MS_PER_OP / 5 : MS_PER_OP));
      const acts = createSyncActivities({
        store,
        chain: memoryChain(events),
        k: 2160,
        network: 'mainnet',
        writeBudgetMs: BUDGET_MS,
        elapsedMs: () => clock.ms,
      });
      assert.equal((await acts.syncSlice({ maxBlocks: 500, waitMs: 0 })).blocks, 300);
      for (const w of writes)
        assert.ok(w.ms < 2 * BUDGET_MS, `a write of ${w.ops} statements took ${Math.round(w.ms)} ms`);
    } finally {
      await t.cleanup();
    }
  });

  it('the embedded store keeps its batches of 500 blocks (its commits never reach the budget)', async () => {
    const { events } = buildChain({ blocks: 1_100, forkEvery: 0, seed: 9 });
    const t = await tempStore();
    try {
      const blocks: number[] = [];
      const counting = Object.create(t.store) as Store;
      counting.write = async (ops: readonly WriteOp[]) => {
        const n = ops.filter((o) => 'put' in o && o.coll === 'checkpoints').length;
        if (n) blocks.push((await t.store.collection(CHECKPOINTS).get('sync'))?.height ?? 0);
        return t.store.write(ops);
      };
      const acts = createSyncActivities({ store: counting, chain: memoryChain(events), k: 2160, network: 'mainnet' });
      assert.equal((await acts.syncSlice({ maxBlocks: 1_100, waitMs: 0 })).blocks, 1_100);
      // The checkpoint height before each batch's write: batches of 500, 500 and the last 100.
      assert.deepEqual(blocks, [0, 500, 1_000]);
    } finally {
      await t.cleanup();
    }
  });

  it('a slice failing while its write is in flight leaves no unhandled rejection when that write fails too', async () => {
    // Seen on FerretDB stopped while the worker stopped: the slice failed on the chain source, then its write batch in
    // flight failed, nobody awaited it, and Node crashed the worker process (unhandled MongoBulkWriteError).
    const { events } = buildChain({ blocks: 60, forkEvery: 0, seed: 7 });
    const t = await tempStore();
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const failing = Object.create(t.store) as Store;
      Object.defineProperty(failing, 'kind', { value: 'mongodb' }); // batches of 20 blocks: one in flight early
      failing.write = async () => {
        await new Promise((r) => setTimeout(r, 100));
        throw new Error('connection 3 to 127.0.0.1:27017 closed');
      };
      const chain = memoryChain(events);
      let calls = 0;
      const next = chain.nextEvents.bind(chain);
      chain.nextEvents = async (max, waitMs) => {
        if (++calls > 2) throw new Error('ECONNREFUSED 127.0.0.1:1337');
        return next(max, waitMs);
      };
      const acts = createSyncActivities({ store: failing, chain, k: 2160, network: 'mainnet' });
      await assert.rejects(acts.syncSlice({ maxBlocks: 500, waitMs: 0 }), /ECONNREFUSED/);
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await t.cleanup();
    }
  });
});
