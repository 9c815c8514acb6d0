/**
 * `npm run ops -- resync --from origin` on Temporal: the operator terminates the sync workflow, as `ops` tells them,
 * then resyncs. Temporal does not stop the terminated run's slice on the worker: it goes on and commits its write
 * batch (blocks and checkpoint). Seen on the Temporal dev server + FerretDB: the resync's clear ran first, the old
 * slice's batch landed in the cleared store, the index began at the devnet's tip (`block 5 is before the indexed
 * history, which starts at block 267`) and the sync failed for good on the first spend of an earlier output
 * (`balance 0 + -1 < 0`). The oracle is an uninterrupted sync of the same chain: a resync rebuilds it exactly.
 */
import assert from 'node:assert/strict';
import { createActivities } from '../../activities/index.js';
import { CHECKPOINTS } from '../../mongo/collections/index.js';
import type { Store, WriteOp } from '../../mongo/store.js';
import { buildChain } from './build-chain.js';
import { chainDigest, syncAll, tempStore } from './helpers.js';
import { memoryChain } from './memory-chain.js';

describe('sync: a resync requested while a terminated run’s slice still commits', function () {
  this.timeout(60_000);
  it('clears after that slice ended: the rebuilt store equals an uninterrupted sync from origin', async () => {
    const { events } = buildChain({ blocks: 40, seed: 5 });
    const clean = await tempStore();
    const env = await tempStore();
    try {
      await syncAll(clean.store, memoryChain(events), 8);
      // The next write is held until released: the old slice's write batch, committing while the resync starts.
      let hold: { reached: () => void; release: Promise<void> } | null = null;
      const store = new Proxy(env.store, {
        get(target, prop, receiver) {
          if (prop === 'write')
            return async (ops: readonly WriteOp[]) => {
              const h = hold;
              hold = null;
              if (h) {
                h.reached();
                await h.release;
              }
              return target.write(ops);
            };
          const v = Reflect.get(target, prop, receiver) as unknown;
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      }) as Store;
      const acts = createActivities({ store, chain: memoryChain(events), k: 2160, network: 'mainnet' });
      await acts.syncSlice({ maxBlocks: 8, waitMs: 0 });
      assert.equal((await env.store.collection(CHECKPOINTS).get('sync'))?.height, 8);

      let release!: () => void;
      const reached = new Promise<void>((resolve) => {
        hold = { reached: resolve, release: new Promise<void>((r) => (release = r)) };
      });
      const oldSlice = acts.syncSlice({ maxBlocks: 8, waitMs: 0 }); // the terminated workflow's slice
      await reached;
      const resync = acts.resetSync({ from: 'origin', requestedAt: new Date().toISOString() });
      await new Promise((r) => setTimeout(r, 100));
      release();
      await Promise.all([oldSlice, resync]);

      // The new run of syncChain: slices from the cleared store to the tip.
      for (let i = 0; i < 100; i++) {
        const r = await acts.syncSlice({ maxBlocks: 8, waitMs: 0 });
        if (r.blocks === 0 && r.atTip) break;
      }
      assert.deepEqual(await chainDigest(env.store), await chainDigest(clean.store));
    } finally {
      await clean.cleanup();
      await env.cleanup();
    }
  });
});
