/**
 * SYNC_START_POINT: an empty store starts after a given block instead of at origin (how a mainnet deployment starts
 * from a recent slot); a restart resumes from its checkpoint, never from origin.
 */
import assert from 'node:assert/strict';
import { createSyncActivities } from '../../activities/sync/index.js';
import { BLOCKS, CHECKPOINTS, TRANSACTIONS } from '../../mongo/collections/index.js';
import { buildChain } from './build-chain.js';
import { tempStore } from './helpers.js';
import { memoryChain } from './memory-chain.js';

describe('sync from a start point (SYNC_START_POINT)', function () {
  it('indexes exactly the blocks after the start point, and resumes from its checkpoint after a restart', async () => {
    const { events, canonical } = buildChain({ blocks: 30 });
    const start = canonical[9]!; // height 10
    const t = await tempStore();
    try {
      const run = async (slices: number) => {
        const acts = createSyncActivities({
          store: t.store,
          chain: memoryChain(events),
          k: 2160,
          network: 'mainnet',
          startPoint: { slot: start.slot!, id: start.id },
        });
        for (let i = 0; i < slices; i++) {
          const r = await acts.syncSlice({ maxBlocks: 7, waitMs: 0 });
          if (r.blocks === 0 && r.atTip) return;
        }
      };
      await run(1); // a first process: one slice, then it stops
      assert.equal((await t.store.collection(CHECKPOINTS).get('sync'))?.height, 17);
      await run(100); // a restart
      const heights = (await t.store.collection(BLOCKS).find('byHeight')).map((b) => b.height);
      assert.deepEqual(
        heights,
        canonical.slice(10).map((b) => b.height),
      );
      assert.equal(await t.store.collection(BLOCKS).get(start.id), null, 'the start block itself is not indexed');
      const txIds = canonical.slice(10).flatMap((b) => (b.transactions ?? []).map((tx) => tx.id));
      assert.ok(txIds.length > 0);
      assert.ok((await t.store.collection(TRANSACTIONS).getMany(txIds)).every((d) => d !== null));
    } finally {
      await t.cleanup();
    }
  });
});
