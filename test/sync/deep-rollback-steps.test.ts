/**
 * A deep rollback is undone in bounded steps that each commit, and says so while it runs (r18 operator audit: on
 * FerretDB a chain switch of hundreds of blocks was one 13-minute write; /healthz/sync read ok, chain answers were
 * served, and the slice outran its activity's 10-minute timeout).
 *
 * The source switches chains (devnet A, then devnet B of another seed: a rollback of every indexed block). Each
 * slice may undo one write's worth (rollbackChunkPriors) before its time limit (sliceMaxMs 0) ends it. Oracles: the
 * height devnet A's sync reached, and a fresh sync of devnet B into an empty store.
 */
import assert from 'node:assert/strict';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import { defaultExtensions } from '../../activities/extensions.js';
import { createSyncActivities, type SliceResult } from '../../activities/sync/index.js';
import { syncGate } from '../../api/sync-guard.js';
import { startDevnet, type Devnet } from '../../devnet/index.js';
import { BLOCKS, CHAIN_COLLECTIONS } from '../../mongo/collections/chain.js';
import { CHECKPOINTS, readSyncHealth, readSyncLag, syncCondition } from '../../mongo/collections/sync-state.js';
import { storeDigest } from '../../mongo/digest.js';
import type { Store } from '../../mongo/store.js';
import { tempStore } from './helpers.js';

const NOW = Date.UTC(2026, 10, 20, 12);
const extensions = defaultExtensions();
const SYNCED = [
  ...new Map([...CHAIN_COLLECTIONS, ...extensions.flatMap((e) => e.collections)].map((c) => [c.name, c])).values(),
];

const devnetOf = (seed: string) =>
  startDevnet({ seed, backfillHours: 0.5, blockMs: 3_600_000, forkRate: 0, now: () => NOW });

async function syncToTip(store: Store, devnet: Devnet) {
  const chain = await connectOgmios(devnet.url);
  try {
    const acts = createSyncActivities({ store, chain, k: 2160, network: 'mainnet', now: () => NOW, extensions });
    for (;;) {
      const r = await acts.syncSlice({ maxBlocks: 500, waitMs: 0 });
      if (r.blocks === 0 && r.atTip) return;
    }
  } finally {
    await chain.close();
  }
}

describe('sync: a deep rollback in bounded steps', function () {
  this.timeout(300_000);

  it('undoes a chain switch write by write, each at a block of the old chain, withheld and reported, then equals a fresh sync', async () => {
    const a = await devnetOf('steps-a');
    const b = await devnetOf('steps-b');
    const env = await tempStore();
    const fresh = await tempStore();
    try {
      await syncToTip(env.store, a);
      await syncToTip(fresh.store, b);
      const oldHeight = a.tip().height;
      assert.ok(oldHeight > 50, `devnet A has ${oldHeight} blocks`);
      const generation = (await readSyncHealth(env.store))?.generation ?? 0;

      const chain = await connectOgmios(b.url);
      const gate = syncGate({ store: env.store, ttlMs: 0 });
      const results: SliceResult[] = [];
      try {
        // Small writes and no time to spare: every slice ends after one write of the rollback.
        const acts = createSyncActivities({
          store: env.store,
          chain,
          k: 2160,
          network: 'mainnet',
          now: () => NOW,
          extensions,
          sliceMaxMs: 0,
          rollbackChunkPriors: 400,
        });
        for (let i = 0; i < 1000; i++) {
          const r = await acts.syncSlice({ maxBlocks: 500, waitMs: 0 });
          results.push(r);
          const health = await readSyncHealth(env.store);
          if (!health?.rollingBack) break;
          // Between two writes: the store is at a block of chain A, every block below it indexed, the checkpoint there.
          const cp = await env.store.collection(CHECKPOINTS).get('sync');
          assert.ok(cp && cp.height > 0 && cp.height < oldHeight, `slice ${i} stopped part-way (at ${cp?.height})`);
          assert.equal(cp.height, r.height);
          assert.equal(
            (await env.store.collection(BLOCKS).get(cp.id))?.height,
            cp.height,
            'the checkpoint names a stored block',
          );
          assert.equal(
            (await env.store.collection(BLOCKS).find('_id')).length,
            cp.height,
            'no block above the checkpoint',
          );
          assert.deepEqual(
            { ...health.rollingBack, since: null },
            { fromHeight: oldHeight, to: 'origin', toHeight: 0, undone: oldHeight - cp.height, since: null },
          );
          assert.equal(health.generation, generation + 1, 'one new generation for the whole rollback');
          assert.equal(r.deepRollback, false, 'the recomputes run once it completed, not on a half-undone store');
          // Monitors and readers are told: 503 with the rollback's depth; chain answers withheld.
          const c = syncCondition(await readSyncLag(env.store, NOW), NOW);
          assert.equal(c.status, 'rolling-back');
          assert.match(
            c.reason ?? '',
            new RegExp(
              `^sync rolling back ${oldHeight} blocks \\(height ${oldHeight} to 0; ${oldHeight - cp.height} undone`,
            ),
          );
          const w = await gate.withheld('/explorer/blocks/1');
          assert.match(w?.reason ?? '', new RegExp(`^sync rolling back ${oldHeight} blocks to height 0`));
        }
      } finally {
        await chain.close();
      }
      assert.ok(results.length > 2, `the rollback took ${results.length} slices`);
      const last = results[results.length - 1] as SliceResult;
      assert.equal(last.deepRollback, true);
      assert.equal(last.deepestRollback, oldHeight, 'reported at its whole depth');
      assert.equal(
        results.reduce((n, r) => n + (r.rolledBackBlocks ?? 0), 0),
        oldHeight,
        'every block of chain A undone once',
      );

      // The sync goes on along chain B: the store equals a fresh sync of it, and reads healthy again.
      await syncToTip(env.store, b);
      const got = await storeDigest(env.store, SYNCED);
      const want = await storeDigest(fresh.store, SYNCED);
      assert.deepEqual(got.counts, want.counts);
      assert.equal(got.digest, want.digest);
      const health = await readSyncHealth(env.store);
      assert.equal(health?.rollingBack ?? null, null);
      assert.equal(health?.generation, generation + 1);
      assert.equal(syncCondition(await readSyncLag(env.store, NOW), NOW).status, 'ok');
      assert.equal(await syncGate({ store: env.store, ttlMs: 0 }).withheld('/explorer/blocks/1'), null);
    } finally {
      await a.close();
      await b.close();
      await env.cleanup();
      await fresh.cleanup();
    }
  });
});
