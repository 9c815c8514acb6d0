/**
 * Reference inputs (CIP-31) in the explorer: an output a transaction reads without spending it is shown as it was
 * created (address, value, inline datum, reference script), not only as `txId#index`. The chain is the real mainnet
 * block 11322286, whose transactions reference 34 outputs created before it, and a block built on it in the same
 * Ogmios v6 JSON whose transaction reads two outputs of the recorded block (the ADA Handle CIP-68 reference token
 * with its inline datum, and a DEX order output with tokens) besides one of those older outputs. The oracle is the
 * recorded JSON: the referenced outputs as the recorded block created them.
 */
import assert from 'node:assert/strict';
import { blake2b } from '@noble/hashes/blake2.js';
import { hex } from '@scure/base';
import type { Block, OutputReference, Transaction, TxOutput } from '../../cardano/chain/types.js';
import { callToolOnce } from '../mcp/call-once.js';
import type { TestApi } from './seed.js';
import { apiOverSyncedFrames, explorerTx, forwardFrame, recorded } from './synced-frames.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const id = (label: string) => hex.encode(blake2b(new TextEncoder().encode(label), { dkLen: 32 }));
const lovelaceOf = (o: TxOutput) => (o.value.ada as { lovelace: bigint }).lovelace;
/** `[unit, quantity]` of an output's tokens, in unit order, from the recorded JSON. */
const tokensOf = (o: TxOutput) =>
  Object.entries(o.value)
    .filter(([policy]) => policy !== 'ada')
    .flatMap(([policy, names]) =>
      Object.entries(names as Record<string, bigint>).map(([n, q]) => [policy + n, String(q)]),
    )
    .sort(([a], [b]) => (a! < b! ? -1 : 1));

describe('explorer: reference inputs show the outputs they read', function () {
  this.timeout(120_000);
  let api: TestApi;
  let block: Block;
  let reader: Transaction;
  /** The recorded outputs the built transaction reads, in its reference order. */
  const read: { ref: OutputReference; out: TxOutput }[] = [];
  /** A reference input of the recorded block: its output was created before the indexed range. */
  let older: OutputReference;

  before(async () => {
    const r = recorded('block.mainnet-conway-11322286-slot144718140.koralabs.json');
    block = r.block;
    const txs = block.transactions ?? [];
    const pick = (f: (o: TxOutput) => boolean) => {
      const t = txs.find((x) => x.outputs.some(f))!;
      const index = t.outputs.findIndex(f);
      return { ref: { transaction: { id: t.id }, index }, out: t.outputs[index]! };
    };
    // The handle's CIP-68 reference token (label 100, 000643b0…) at the handle script address, with its datum.
    read.push(pick((o) => o.datum !== undefined && Object.keys(o.value).includes(HANDLE_POLICY)));
    // A script output with an inline datum and tokens of two policies.
    read.push(pick((o) => o.datum !== undefined && Object.keys(o.value).length === 3));
    older = txs.find((t) => (t.references ?? []).length > 0)!.references![0]!;
    assert.ok(!txs.some((t) => t.id === older.transaction.id), 'the older output is not created in the block');
    reader = {
      id: id('reference reader'),
      spends: 'inputs',
      inputs: [{ transaction: { id: id('unindexed input') }, index: 0 }],
      references: [...read.map((x) => x.ref), older],
      outputs: [{ address: read[0]!.out.address, value: { ada: { lovelace: 1_500_000n } } }],
      fee: { ada: { lovelace: 200_000n } },
    };
    const built: Block = {
      ...block,
      id: id('block with reference inputs'),
      ancestor: block.id,
      height: block.height + 1,
      slot: (block.slot as number) + 20,
      transactions: [reader],
    };
    api = await apiOverSyncedFrames([r.frame, forwardFrame(built)]);
  });
  after(async () => {
    await api?.close();
  });

  const tx = (hash: string): Promise<Json> => explorerTx(api, hash);

  it('an indexed output read by reference: its address, value, tokens and inline datum as created', async () => {
    const t = await tx(reader.id);
    assert.equal(t.referenceInputs.length, 3);
    read.forEach(({ ref, out }, i) => {
      const got = t.referenceInputs[i];
      assert.equal(got.txId, ref.transaction.id);
      assert.equal(got.index, ref.index);
      assert.equal(got.resolved, true, `reference ${i}`);
      assert.equal(got.address, out.address);
      assert.equal(got.lovelace, String(lovelaceOf(out)));
      assert.equal(got.ada, Number(lovelaceOf(out)) / 1e6);
      assert.deepEqual(
        got.assets.map((a: Json) => [a.unit, a.quantityRaw]),
        tokensOf(out),
      );
      assert.equal(got.datum, out.datum);
      assert.equal(got.datumHash, null);
      assert.equal(got.scriptRef, null);
    });
  });

  it('an output created before the indexed range: unresolved, never guessed', async () => {
    const got = (await tx(reader.id)).referenceInputs[2];
    assert.deepEqual(got, {
      txId: older.transaction.id,
      index: older.index,
      resolved: false,
      address: null,
      ada: null,
      lovelace: null,
      assets: [],
      datumHash: null,
      datum: null,
      scriptRef: null,
    });
  });

  it('the recorded block’s own reference inputs (all older than it) are listed in body order, unresolved', async () => {
    for (const t of (block.transactions ?? []).filter((x) => (x.references ?? []).length > 0)) {
      const got = await tx(t.id);
      assert.deepEqual(
        got.referenceInputs.map((x: Json) => [x.txId, x.index, x.resolved]),
        t.references!.map((x) => [x.transaction.id, x.index, false]),
      );
    }
  });

  it('the tool server shows the same reference inputs', async () => {
    const { message, text } = await callToolOnce(api.url, 'get_transaction', { hash: reader.id });
    assert.equal(message.result?.isError, undefined, text);
    assert.deepEqual(message.result.structuredContent.referenceInputs, (await tx(reader.id)).referenceInputs);
  });
});

const HANDLE_POLICY = 'f0ff48bbb7bbe9d59a40f1ce90e9e9d0ff5002ec48f232b49ca0fb9a';
