/**
 * SYNC_START_POINT: an empty store starts after a given block instead of at origin (how a mainnet deployment starts
 * from a recent slot); a restart resumes from its checkpoint, never from origin.
 */
import assert from 'node:assert/strict';
import { IntersectionNotFoundError } from '../../activities/chain/ogmios-client.js';
import { createSyncActivities } from '../../activities/sync/index.js';
import { readSyncHealth } from '../../mongo/collections/sync-state.js';
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
  it('a SYNC_START_POINT the source does not have: the stall names SYNC_START_POINT, not a chain switch to resync from', async () => {
    const { events, canonical } = buildChain({ blocks: 10 });
    const chain = memoryChain(events);
    // As the Ogmios client answers a findIntersection none of whose points it has.
    const findIntersection = chain.findIntersection.bind(chain);
    chain.findIntersection = (points) =>
      findIntersection(points).catch(() => {
        throw new IntersectionNotFoundError('No intersection found.', 'origin');
      });
    const wrong = { slot: canonical[4]!.slot!, id: 'ee'.repeat(32) }; // a slot of the chain, a hash it does not have
    assert.ok(canonical.every((b) => b.id !== wrong.id));
    const t = await tempStore();
    try {
      const acts = createSyncActivities({ store: t.store, chain, k: 2160, network: 'mainnet', startPoint: wrong });
      await assert.rejects(acts.syncSlice({ maxBlocks: 7, waitMs: 0 }), { name: 'IntersectionNotFoundError' });
      const stall = (await readSyncHealth(t.store))?.stall;
      assert.equal(stall?.kind, 'chain-disconnected');
      assert.equal(
        stall?.reason,
        `sync stalled: SYNC_START_POINT ${wrong.slot}.${wrong.id} is not a block of the chain source's chain`,
      );
      assert.match(
        stall?.action ?? '',
        /^set SYNC_START_POINT to slot\.blockHash of a block the source at OGMIOS_URL has/,
      );
      assert.doesNotMatch(stall?.action ?? '', /resync/);
    } finally {
      await t.cleanup();
    }
  });
});
