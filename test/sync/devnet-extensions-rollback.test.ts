/**
 * Rollbacks with every sync extension on, through both ways a RollBackward is undone: in memory (the orphaned
 * blocks are still in the slice's unwritten batch) and from the stored undo journal (they were written: one-block
 * slices write every block before the next event). Either way the store ends identical, document for document, to
 * a sync of the same devnet chain without forks: its documents, and the entries of every index (the sync names each
 * document's stored version, so the embedded store replaces index entries without reading them back; a wrong one
 * leaves a stale entry no document shows, but a list read through that index does).
 */
import assert from 'node:assert/strict';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import { defaultExtensions } from '../../activities/extensions.js';
import { createSyncActivities } from '../../activities/sync/index.js';
import { startDevnet } from '../../devnet/index.js';
import { CHAIN_COLLECTIONS } from '../../mongo/collections/chain.js';
import { canonicalJson, storeDigest } from '../../mongo/digest.js';
import type { Store } from '../../mongo/store.js';
import { tempStore } from './helpers.js';

const NOW = Date.UTC(2026, 10, 20, 12);
const extensions = defaultExtensions();
const SYNCED = [...CHAIN_COLLECTIONS, ...extensions.flatMap((e) => e.collections)];

/** Every entry of every index of the synced collections, by collection and index: what list reads walk. */
async function indexEntries(store: Store): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const spec of SYNCED)
    for (const index of spec.indexes)
      out[`${spec.name}.${index.name}`] = (await store.collection(spec).findKeys(index.name)).map(canonicalJson);
  return out;
}

async function syncDevnet(store: Store, forkRate: number, sliceBlocks: number) {
  const devnet = await startDevnet({
    seed: 'undo-ext',
    backfillHours: 1,
    blockMs: 3_600_000,
    forkRate,
    now: () => NOW,
  });
  const chain = await connectOgmios(devnet.url);
  try {
    const acts = createSyncActivities({ store, chain, k: 2160, network: 'mainnet', now: () => NOW, extensions });
    let rollbacks = 0;
    for (;;) {
      const r = await acts.syncSlice({ maxBlocks: sliceBlocks, waitMs: 0 });
      rollbacks += r.rollbacks;
      if (r.blocks === 0 && r.atTip) break;
    }
    return { rollbacks, tip: devnet.tip() };
  } finally {
    await chain.close();
    await devnet.close();
  }
}

describe('sync of the devnet with every extension: rollbacks in memory and from the undo journal', function () {
  this.timeout(240_000);

  it('a forked chain ends identical to the same chain without the orphaned blocks, whichever way it was undone', async () => {
    const clean = await tempStore();
    const inMemory = await tempStore();
    const fromStore = await tempStore();
    try {
      const c = await syncDevnet(clean.store, 0, 500);
      const m = await syncDevnet(inMemory.store, 0.15, 500);
      const s = await syncDevnet(fromStore.store, 0.15, 1);
      assert.equal(c.rollbacks, 0);
      assert.ok(m.rollbacks >= 5 && s.rollbacks >= 5, `rollbacks happened (${m.rollbacks}, ${s.rollbacks})`);
      assert.deepEqual(m.tip, c.tip);
      const want = await storeDigest(clean.store, SYNCED);
      assert.ok((want.counts.pools ?? 0) > 0 && (want.counts.holders ?? 0) > 0, 'the extensions wrote documents');
      const wantEntries = await indexEntries(clean.store);
      assert.ok((wantEntries['trades.byToken']?.length ?? 0) > 0, 'trades are listed by token');
      for (const [name, t] of [
        ['in memory', inMemory],
        ['from the undo journal', fromStore],
      ] as const) {
        const got = await storeDigest(t.store, SYNCED);
        assert.deepEqual(got.counts, want.counts, name);
        assert.deepEqual(got.perCollection, want.perCollection, name);
        const entries = await indexEntries(t.store);
        for (const [index, list] of Object.entries(wantEntries))
          assert.deepEqual(entries[index], list, `${name}: ${index}`);
      }
    } finally {
      await clean.cleanup();
      await inMemory.cleanup();
      await fromStore.cleanup();
    }
  });
});
