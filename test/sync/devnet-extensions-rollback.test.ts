/**
 * Rollbacks with every sync extension on, through both ways a RollBackward is undone: in memory (the orphaned
 * blocks are still in the slice's unwritten batch) and from the stored undo journal (they were written: one-block
 * slices write every block before the next event). Either way the store ends identical, document for document, to
 * a sync of the same devnet chain without forks: its documents, and the entries of every index (the sync names each
 * document's stored version, so the embedded store replaces index entries without reading them back; a wrong one
 * leaves a stale entry no document shows, but a list read through that index does). The Iagon storage extension
 * follows the devnet's own scripts (inert without them, it was checked here with nothing to undo), and a devnet
 * with forks deeper than 3 blocks (DEVNET_FORK_DEPTH 6) is undone the same way.
 */
import assert from 'node:assert/strict';
import { parseOgmiosJson } from '../../activities/chain/json.js';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import type { Block, ChainEvent } from '../../cardano/chain/types.js';
import { defaultExtensions } from '../../activities/extensions.js';
import { createSyncActivities } from '../../activities/sync/index.js';
import { devnetIagonScripts } from '../../cardano/iagon.js';
import { startDevnet } from '../../devnet/index.js';
import { CHAIN_COLLECTIONS } from '../../mongo/collections/chain.js';
import { canonicalJson, storeDigest } from '../../mongo/digest.js';
import type { Store } from '../../mongo/store.js';
import { syncWith } from '../holders/sync-holders.js';
import { tempStore } from './helpers.js';
import { memoryChain } from './memory-chain.js';

const NOW = Date.UTC(2026, 10, 20, 12);
const SEED = 'undo-ext';
const extensions = defaultExtensions({ iagon: devnetIagonScripts(SEED) });
const SYNCED = [...CHAIN_COLLECTIONS, ...extensions.flatMap((e) => e.collections)];

/** Every entry of every index of the synced collections, by collection and index: what list reads walk. */
async function indexEntries(store: Store): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const spec of SYNCED)
    for (const index of spec.indexes)
      out[`${spec.name}.${index.name}`] = (await store.collection(spec).findKeys(index.name)).map(canonicalJson);
  return out;
}

async function syncDevnet(store: Store, forkRate: number, sliceBlocks: number, forkDepth = 3) {
  const devnet = await startDevnet({
    seed: SEED,
    backfillHours: 1,
    blockMs: 3_600_000,
    forkRate,
    forkDepth,
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
    const deep = await tempStore();
    try {
      const c = await syncDevnet(clean.store, 0, 500);
      const m = await syncDevnet(inMemory.store, 0.15, 500);
      const s = await syncDevnet(fromStore.store, 0.15, 1);
      const d = await syncDevnet(deep.store, 0.15, 1, 6);
      assert.equal(c.rollbacks, 0);
      for (const r of [m, s, d]) assert.ok(r.rollbacks >= 5, `rollbacks happened (${r.rollbacks})`);
      assert.deepEqual(m.tip, c.tip);
      assert.deepEqual(d.tip, c.tip);
      const want = await storeDigest(clean.store, SYNCED);
      for (const name of [
        'pools',
        'holders',
        'handles',
        'nft_listings',
        'nft_sales',
        'storage_events',
        'policy_scripts',
      ])
        assert.ok((want.counts[name] ?? 0) > 0, `the extensions wrote ${name}`);
      const wantEntries = await indexEntries(clean.store);
      assert.ok((wantEntries['trades.byToken']?.length ?? 0) > 0, 'trades are listed by token');
      for (const [name, t] of [
        ['in memory', inMemory],
        ['from the undo journal', fromStore],
        ['forks up to 6 blocks deep, from the undo journal', deep],
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
      await deep.cleanup();
    }
  });

  it('rolling back canonical blocks (DEX trades, NFT sales, handles, Iagon events…) restores every document as before them', async () => {
    // The devnet's orphan blocks carry only payments, so a forked devnet never rolls back what the extensions index.
    // Here canonical blocks themselves are rolled back: 1 to 6 at a time and applied again all along (a re-applied
    // block rewrites the same documents, so this checks the undo does no harm), then the last TAIL blocks for good,
    // to end as a sync that never saw them.
    const devnet = await startDevnet({ seed: SEED, backfillHours: 1, blockMs: 3_600_000, forkRate: 0, now: () => NOW });
    const blocks = devnet
      .events()
      .filter((e) => e.kind === 'forward')
      .map((e) => parseOgmiosJson(devnet.blockJson(e as Parameters<typeof devnet.blockJson>[0])) as Block);
    await devnet.close();
    const TAIL = 60;
    const forward = (upTo: number): ChainEvent[] => {
      const last = blocks[upTo - 1] as Block;
      const tip = { slot: last.slot ?? 0, id: last.id, height: last.height };
      return blocks.slice(0, upTo).map((block) => ({ direction: 'forward', block, tip }));
    };
    const cut = blocks[blocks.length - 1 - TAIL] as Block;
    const tip = { slot: cut.slot ?? 0, id: cut.id, height: cut.height };
    const replayed: ChainEvent[] = [];
    blocks.forEach((block, i) => {
      replayed.push({ direction: 'forward', block, tip });
      const depth = 1 + ((i / 3) % 6);
      if (i % 3 !== 0 || i < depth) return;
      const to = blocks[i - depth] as Block;
      replayed.push({ direction: 'backward', point: { slot: to.slot ?? 0, id: to.id }, tip });
      for (let j = i - depth + 1; j <= i; j++) replayed.push({ direction: 'forward', block: blocks[j] as Block, tip });
    });
    replayed.push({ direction: 'backward', point: { slot: cut.slot ?? 0, id: cut.id }, tip });
    const full = await tempStore();
    const want = await tempStore();
    const inMemory = await tempStore();
    const fromStore = await tempStore();
    try {
      await syncWith(full.store, memoryChain(forward(blocks.length)), extensions, 500);
      await syncWith(want.store, memoryChain(forward(blocks.length - TAIL)), extensions, 500);
      await syncWith(inMemory.store, memoryChain(replayed), extensions, 500);
      await syncWith(fromStore.store, memoryChain(replayed), extensions, 1);
      const all = await storeDigest(full.store, SYNCED);
      const digest = await storeDigest(want.store, SYNCED);
      for (const name of ['trades', 'holders', 'handles', 'nft_sales', 'storage_events', 'policy_scripts'])
        assert.notDeepEqual(
          all.perCollection[name],
          digest.perCollection[name],
          `the rolled-back blocks wrote ${name}`,
        );
      const entries = await indexEntries(want.store);
      for (const [name, t] of [
        ['in memory', inMemory],
        ['from the undo journal', fromStore],
      ] as const) {
        const got = await storeDigest(t.store, SYNCED);
        assert.deepEqual(got.counts, digest.counts, name);
        assert.deepEqual(got.perCollection, digest.perCollection, name);
        const gotEntries = await indexEntries(t.store);
        for (const [index, list] of Object.entries(entries))
          assert.deepEqual(gotEntries[index], list, `${name}: ${index}`);
      }
    } finally {
      await full.cleanup();
      await want.cleanup();
      await inMemory.cleanup();
      await fromStore.cleanup();
    }
  });
});
