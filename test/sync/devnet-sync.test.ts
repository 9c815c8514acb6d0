/**
 * The sync against the devnet through the production Ogmios client: a devnet chain with forks indexes exactly like
 * the same chain without the orphaned blocks, and every address's balance equals the sum of its unspent outputs.
 */
import assert from 'node:assert/strict';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import { addValues, ZERO } from '../../activities/sync/values.js';
import { startDevnet } from '../../devnet/index.js';
import { ADDRESSES, UTXOS, type AddressDoc, type UtxoDoc } from '../../mongo/collections/chain.js';
import type { Store } from '../../mongo/store.js';
import { chainDigest, syncAll, tempStore } from './helpers.js';

const NOW = Date.UTC(2026, 10, 20, 12);

async function syncDevnet(store: Store, forkRate: number) {
  const devnet = await startDevnet({
    seed: 'sync-test',
    backfillHours: 3,
    blockMs: 3_600_000,
    forkRate,
    now: () => NOW,
  });
  const chain = await connectOgmios(devnet.url);
  try {
    const results = await syncAll(store, chain, 97);
    return { rollbacks: results.reduce((n, r) => n + r.rollbacks, 0), tip: devnet.tip() };
  } finally {
    await chain.close();
    await devnet.close();
  }
}

describe('sync of the devnet', function () {
  this.timeout(120_000);

  it('with forks ends identical to the same chain without the orphaned blocks', async () => {
    const forked = await tempStore();
    const clean = await tempStore();
    try {
      const a = await syncDevnet(forked.store, 0.2);
      const b = await syncDevnet(clean.store, 0);
      assert.ok(a.rollbacks >= 10, `rollbacks happened (${a.rollbacks})`);
      assert.equal(b.rollbacks, 0);
      assert.deepEqual(a.tip, b.tip);
      const da = await chainDigest(forked.store);
      const db = await chainDigest(clean.store);
      assert.equal(da.at, `${b.tip.height}:${b.tip.id}`);
      assert.deepEqual(da.counts, db.counts);
      assert.deepEqual(da.perCollection, db.perCollection);
    } finally {
      await forked.cleanup();
      await clean.cleanup();
    }
  });

  it("every address's balance equals the sum of its unspent outputs", async () => {
    const t = await tempStore();
    try {
      await syncDevnet(t.store, 0.1);
      const sums = new Map<string, typeof ZERO>();
      const counts = new Map<string, number>();
      for await (const u of t.store.collection<UtxoDoc>(UTXOS).scan()) {
        sums.set(u.address, addValues(sums.get(u.address) ?? ZERO, u.value));
        counts.set(u.address, (counts.get(u.address) ?? 0) + 1);
      }
      let n = 0;
      for await (const a of t.store.collection<AddressDoc>(ADDRESSES).scan()) {
        assert.deepEqual(a.balance, sums.get(a._id) ?? ZERO, `balance of ${a._id}`);
        assert.equal(a.utxoCount, counts.get(a._id) ?? 0);
        n++;
      }
      assert.ok(n > 300, `many addresses (${n})`);
    } finally {
      await t.cleanup();
    }
  });
});
