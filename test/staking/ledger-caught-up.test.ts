/**
 * The ledger-reading runs' guard (activities/chain/ledger-caught-up.ts) at its edges, over a store whose checkpoint
 * is at slot 100,000: a ledger trailing by a short fork is read, one trailing by a replay is not, and a source that
 * cannot say where its ledger is is read as before. (The whole case, a devnet regenerating its history, is in
 * staking-devnet.test.ts.)
 */
import assert from 'node:assert/strict';
import { LedgerBehindError, assertLedgerCaughtUp } from '../../activities/chain/ledger-caught-up.js';
import type { ChainSource } from '../../activities/chain/source.js';
import { openMemoryStore } from '../../mongo/adapters/embedded.js';
import { CHECKPOINTS } from '../../mongo/collections/sync-state.js';
import { put, type Store } from '../../mongo/store.js';

const CHECKPOINT_SLOT = 100_000;

/** A chain source that only answers queryLedgerState/tip (with `tip`, or fails when it is an Error). */
const sourceAt = (tip: unknown): ChainSource =>
  ({
    query: async (method: string) => {
      assert.equal(method, 'queryLedgerState/tip');
      if (tip instanceof Error) throw tip;
      return tip;
    },
  }) as unknown as ChainSource;

describe('ledger readings wait for a ledger that is behind the index', () => {
  let store: Store;
  before(async () => {
    store = await openMemoryStore();
    await store.ensureIndexes([CHECKPOINTS]);
    const at = { slot: CHECKPOINT_SLOT, id: 'ab'.repeat(32), height: 5_000 };
    await store.write([
      put(CHECKPOINTS, { _id: 'sync', ...at, points: [at], tip: at, updatedAt: '2026-11-28T00:00:00Z' }),
    ]);
  });
  after(() => store.close());

  it('reads a ledger at or ahead of the checkpoint, or trailing it by a short fork', async () => {
    for (const slot of [CHECKPOINT_SLOT + 20, CHECKPOINT_SLOT, CHECKPOINT_SLOT - 60, CHECKPOINT_SLOT - 600])
      await assertLedgerCaughtUp(sourceAt({ slot, id: 'cd'.repeat(32) }), store);
  });

  it('refuses a ledger still more than ten minutes of slots behind after its wait, or at origin, naming both positions', async () => {
    await assert.rejects(
      assertLedgerCaughtUp(sourceAt({ slot: CHECKPOINT_SLOT - 601, id: 'cd'.repeat(32) }), store, 0),
      (e: Error) =>
        e instanceof LedgerBehindError && /slot 99399, behind the indexed chain \(slot 100000\)/.test(e.message),
    );
    await assert.rejects(assertLedgerCaughtUp(sourceAt('origin'), store, 0), /ledger is at origin/);
  });

  it('waits for a ledger that catches up within the wait (a devnet regenerating its history) and then reads it', async () => {
    // Behind by hours on the first two asks, caught up on the third (one second apart).
    const slots = [1_000, 50_000, CHECKPOINT_SLOT + 5];
    let asked = 0;
    const catchingUp = {
      query: async () => ({ slot: slots[Math.min(asked++, slots.length - 1)], id: 'cd'.repeat(32) }),
    } as unknown as ChainSource;
    await assertLedgerCaughtUp(catchingUp, store, 10_000);
    assert.equal(asked, 3);
    // The same source asked with a wait shorter than its catching up fails, having asked until the wait ran out.
    asked = 0;
    await assert.rejects(assertLedgerCaughtUp(catchingUp, store, 500), LedgerBehindError);
    assert.equal(asked, 2);
  });

  it('reads as before when the source does not answer the query, or nothing is indexed yet', async () => {
    await assertLedgerCaughtUp(sourceAt(new Error('Unknown method')), store);
    const empty = await openMemoryStore();
    try {
      await assertLedgerCaughtUp(sourceAt('origin'), empty);
    } finally {
      await empty.close();
    }
  });
});
