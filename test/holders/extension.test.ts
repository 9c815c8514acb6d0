/**
 * The holders sync extension on a chain of transfers with forks: after every rollback the holder documents equal a
 * fresh recompute from the UTxO set, the per-token counts and supplies agree with them, and the sum of holders'
 * quantities equals the token quantity in unspent outputs.
 */
import assert from 'node:assert/strict';
import { blockAddressChanges } from '../../activities/holders/block-changes.js';
import { createHoldersExtension } from '../../activities/holders/extension.js';
import type { Block } from '../../cardano/chain/types.js';
import type { UtxoDoc } from '../../mongo/collections/chain.js';
import { HOLDERS, HOLDER_COUNTS } from '../../mongo/collections/holders.js';
import { storeDigest } from '../../mongo/digest.js';
import { enterpriseAddress, baseAddress, stakeAddressOf } from '../../cardano/address.js';
import { buildChain } from '../sync/build-chain.js';
import { tempStore } from '../sync/helpers.js';
import { memoryChain } from '../sync/memory-chain.js';
import { recomputedHolders, storedCounts, storedHolders, syncWith, utxoSupply } from './sync-holders.js';

describe('holders sync extension', function () {
  this.timeout(60_000);

  it('a forked chain: holders equal a fresh recompute, counts and supplies agree, Σ holders = Σ unspent', async () => {
    const { events, canonical } = buildChain({ blocks: 60, forkEvery: 7 });
    assert.ok(
      events.some((e) => e.direction === 'backward'),
      'the stream has rollbacks',
    );
    const t = await tempStore();
    try {
      await syncWith(t.store, memoryChain(events), [createHoldersExtension()]);
      const holders = await storedHolders(t.store);
      assert.ok(holders.length >= 3, 'several holders of the token');
      assert.deepEqual(holders, await recomputedHolders(t.store));
      // Every holder of this chain's wallets is a stake address (base addresses combined by stake key).
      for (const [id] of holders) assert.match(id.split('|')[1] as string, /^stake1/);

      const unit = Object.entries(canonical[0]!.transactions![0]!.mint!).map(([p, n]) => p + Object.keys(n)[0])[0]!;
      const supply = await utxoSupply(t.store);
      const counts = await storedCounts(t.store);
      assert.deepEqual(Object.keys(counts), [unit]);
      assert.equal(counts[unit]!.supplyRaw, String(supply.get(unit)));
      assert.equal(counts[unit]!.supplyRaw, '3000000', 'nothing burned: the whole mint is in unspent outputs');
      const sum = holders.reduce((s, [, q]) => s + BigInt(q), 0n);
      assert.equal(sum, supply.get(unit));
      assert.equal(counts[unit]!.count, holders.length);
    } finally {
      await t.cleanup();
    }
  });

  it('a forked stream and the clean chain index identical holder documents', async () => {
    const forked = buildChain({ blocks: 50, forkEvery: 6 });
    const clean = buildChain({ blocks: 50 });
    const [a, b] = await Promise.all([tempStore(), tempStore()]);
    try {
      await syncWith(a.store, memoryChain(forked.events), [createHoldersExtension()], 3);
      await syncWith(b.store, memoryChain(clean.events), [createHoldersExtension()], 50);
      const specs = [HOLDERS, HOLDER_COUNTS];
      const [da, db] = await Promise.all([storeDigest(a.store, specs), storeDigest(b.store, specs)]);
      assert.ok((da.counts.holders ?? 0) > 0);
      assert.deepEqual(da, db);
    } finally {
      await Promise.all([a.cleanup(), b.cleanup()]);
    }
  });

  it('block changes: failed transactions create only their collateral return; addresses without a stake key', () => {
    const unit = 'ab'.repeat(28) + '4e4654';
    const cred = (b: string) => b.repeat(28);
    const wallet = baseAddress('mainnet', cred('01'), cred('02'));
    const enterprise = enterpriseAddress('mainnet', cred('03'));
    const spentUtxo: UtxoDoc = {
      _id: `${'11'.repeat(32)}#0`,
      txId: '11'.repeat(32),
      index: 0,
      address: wallet,
      paymentCred: cred('01'),
      stakeAddress: stakeAddressOf(wallet),
      value: { lovelace: '5000000', assets: { [unit]: '70' } },
      datumHash: null,
      datum: null,
      slot: 1,
    };
    const block = {
      id: '22'.repeat(32),
      height: 2,
      slot: 2,
      transactions: [
        {
          id: '33'.repeat(32),
          spends: 'collaterals',
          inputs: [],
          collaterals: [{ transaction: { id: '11'.repeat(32) }, index: 0 }],
          // Never created: the script failed.
          outputs: [
            { address: enterprise, value: { ada: { lovelace: 2_000_000n }, [unit.slice(0, 56)]: { '4e4654': 70n } } },
          ],
          collateralReturn: {
            address: enterprise,
            value: { ada: { lovelace: 4_000_000n }, [unit.slice(0, 56)]: { '4e4654': 70n } },
          },
        },
      ],
    } as unknown as Block;
    const changes = blockAddressChanges(block, new Map([[spentUtxo._id, spentUtxo]]));
    assert.deepEqual(
      changes.map((c) => [c.address, c.stakeAddress, [...c.deltas]]),
      [
        [wallet, stakeAddressOf(wallet), [[unit, -70n]]],
        [enterprise, null, [[unit, 70n]]],
      ],
    );
  });
});
