/**
 * Real recorded mainnet blocks (Ogmios v6 JSON, fixtures/chain/ogmios/real) go through the production chain
 * adapter (served by a stand-in Ogmios) and the sync, and come out as transaction documents whose ids, inputs,
 * outputs, fees, mints and withdrawals match the recording exactly.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import { parseOgmiosJson } from '../../activities/chain/json.js';
import type { AdaAmount, Block, Transaction } from '../../cardano/chain/types.js';
import { BLOCKS, TRANSACTIONS } from '../../mongo/collections/chain.js';
import { startFakeOgmios } from '../chain/fake-ogmios.js';
import { syncAll, tempStore } from './helpers.js';

const REAL = new URL('../../../shared/fixtures/chain/ogmios/real/', import.meta.url);
const SYSTEM_START = Date.UTC(2017, 8, 23, 21, 44, 51);
/** Mainnet's Shelley-and-later era: slot 4,492,800 began 89,856,000 s after system start, epoch 208. */
const MAINNET_TIME = {
  'queryLedgerState/eraSummaries': () => ({
    result: [
      {
        start: { time: { seconds: 89_856_000 }, slot: 4_492_800, epoch: 208 },
        end: null,
        parameters: { epochLength: 432_000, slotLength: { milliseconds: 1000 }, safeZone: 129_600 },
      },
    ],
  }),
  'queryNetwork/startTime': () => ({ result: new Date(SYSTEM_START).toISOString() }),
};

const cases: { file: string; height: number; txs: number }[] = [
  { file: 'nextBlock.rollForward.mainnet-mary-5567164.kupo-golden-1.json', height: 5567164, txs: 11 },
  { file: 'block.mainnet-conway-11321965-slot144711632.koralabs.json', height: 11321965, txs: 14 },
  { file: 'block.mainnet-conway-11322286-slot144718140.koralabs.json', height: 11322286, txs: 59 },
  { file: 'block.mainnet-conway-11322313-slot144718597.koralabs.json', height: 11322313, txs: 16 },
];

function recorded(file: string): { block: Block; frame: string | object } {
  const text = readFileSync(new URL(file, REAL), 'utf8');
  const parsed = parseOgmiosJson(text) as { result?: { block: Block }; id?: string };
  if (parsed.result) return { block: parsed.result.block, frame: text }; // a full RollForward envelope
  const block = parsed as unknown as Block;
  return {
    block,
    frame: { direction: 'forward', block, tip: { slot: block.slot, id: block.id, height: block.height } },
  };
}

const lovelace = (x: AdaAmount | undefined) => String(x ? ('ada' in x ? x.ada.lovelace : x.lovelace) : 0n);

describe('sync of real recorded mainnet blocks', function () {
  this.timeout(60_000);
  for (const c of cases) {
    it(`block ${c.height}: ${c.txs} transactions with the recorded ids, inputs, outputs and amounts`, async () => {
      const { block, frame } = recorded(c.file);
      const fake = await startFakeOgmios([frame], { queries: MAINNET_TIME });
      const client = await connectOgmios(fake.url);
      const t = await tempStore();
      try {
        await syncAll(t.store, client, 10);
        const b = await t.store.collection(BLOCKS).get(block.id);
        assert.ok(b, 'block indexed');
        assert.equal(b.height, c.height);
        assert.equal(b.slot, block.slot);
        assert.equal(
          b.time,
          new Date((block.slot as number) * 1000 + SYSTEM_START + (89_856_000 - 4_492_800) * 1000).toISOString(),
        );
        assert.equal(b.txCount, c.txs);
        const txs = block.transactions as Transaction[];
        assert.deepEqual(
          b.txIds,
          txs.map((tx) => tx.id),
        );
        const docs = await t.store.collection(TRANSACTIONS).getMany(txs.map((tx) => tx.id));
        txs.forEach((tx, i) => {
          const doc = docs[i];
          assert.ok(doc, `tx ${tx.id} indexed`);
          assert.equal(doc.blockIndex, i);
          assert.deepEqual(
            doc.inputs.map((x) => `${x.txId}#${x.index}`),
            tx.inputs.map((r) => `${r.transaction.id}#${r.index}`),
          );
          assert.equal(doc.outputs.length, tx.outputs.length);
          tx.outputs.forEach((o, j) => {
            assert.equal(doc.outputs[j]?.address, o.address);
            assert.equal(doc.outputs[j]?.value.lovelace, String(o.value.ada.lovelace));
            assert.equal(doc.outputs[j]?.datum, o.datum ?? null);
            for (const [policy, names] of Object.entries(o.value)) {
              if (policy === 'ada') continue;
              for (const [name, q] of Object.entries(names as Record<string, bigint>))
                assert.equal(doc.outputs[j]?.value.assets[policy + name], String(q), 'asset quantities stay exact');
            }
          });
          assert.equal(doc.fee, lovelace(tx.fee));
          assert.deepEqual(Object.keys(doc.withdrawals).sort(), Object.keys(tx.withdrawals ?? {}).sort());
          assert.equal(doc.certificates.length, tx.certificates?.length ?? 0);
          assert.deepEqual(Object.keys(doc.metadata ?? {}).sort(), Object.keys(tx.metadata?.labels ?? {}).sort());
          const minted = Object.entries(tx.mint ?? {}).flatMap(([p, names]) => Object.keys(names).map((n) => p + n));
          assert.deepEqual(Object.keys(doc.mint).sort(), minted.sort());
        });
      } finally {
        await client.close();
        await fake.close();
        await t.cleanup();
      }
    });
  }

  it('keeps quantities above 2^53 exact (DEX share tokens in block 11322286)', async () => {
    const { block, frame } = recorded('block.mainnet-conway-11322286-slot144718140.koralabs.json');
    const fake = await startFakeOgmios([frame], { queries: MAINNET_TIME });
    const client = await connectOgmios(fake.url);
    const t = await tempStore();
    try {
      await syncAll(t.store, client, 10);
      const docs = await t.store.collection(TRANSACTIONS).getMany((block.transactions ?? []).map((tx) => tx.id));
      const quantities = docs.flatMap((d) => d?.outputs.flatMap((o) => Object.values(o.value.assets)) ?? []);
      assert.ok(quantities.includes('9223372035074422338'));
    } finally {
      await client.close();
      await fake.close();
      await t.cleanup();
    }
  });
});
