/**
 * A tool result about one subject is as large as the chain makes it, and an agent's host refuses or silently cuts a
 * result above about 25,000 tokens. Here the subject is an NFT consolidation on mainnet addresses: 30 UTxOs of a
 * collector, 50 NFTs each, spent in one transaction into 10 outputs of 120 NFTs and a change output of 300. The
 * chain is the real mainnet block 11322286 and a block built on it in the same Ogmios JSON, replayed to the
 * production client and sync; the oracle is that built transaction.
 */
import assert from 'node:assert/strict';
import { blake2b } from '@noble/hashes/blake2.js';
import { hex } from '@scure/base';
import type { Client } from '@modelcontextprotocol/client';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Block, Transaction, TxOutput } from '../../cardano/chain/types.js';
import type { TestApi } from '../api/seed.js';
import { apiOverSyncedFrames, forwardFrame, recorded } from '../api/synced-frames.js';
import { connect } from './world.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tool results

const id = (label: string) => hex.encode(blake2b(new TextEncoder().encode(label), { dkLen: 32 }));
/** A CIP-25 collection's policy (a native script hash, 28 bytes) and its token names, `Piece0001`… as hex. */
const POLICY = id('collection policy').slice(0, 56);
const pieceName = (n: number) => hex.encode(new TextEncoder().encode(`Piece${String(n).padStart(4, '0')}`));

const UTXOS = 30;
const PER_UTXO = 50;
const OUTPUTS = 10;
const PER_OUTPUT = 120;
const NFTS = UTXOS * PER_UTXO;
const CHANGE_NFTS = NFTS - OUTPUTS * PER_OUTPUT;
const FEE = 1_200_000n;

const nfts = (from: number, count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [pieceName(from + i), 1n]));

/** The block after the recorded one: six mints of 250 NFTs (five UTxOs each), then the consolidation. */
function consolidationBlock(prev: Block, collector: string, buyer: string): { block: Block; tx: Transaction } {
  const mints: Transaction[] = Array.from({ length: UTXOS / 5 }, (_, m) => {
    const outputs: TxOutput[] = Array.from({ length: 5 }, (_, o) => ({
      address: collector,
      value: { ada: { lovelace: 20_000_000n }, [POLICY]: nfts((m * 5 + o) * PER_UTXO, PER_UTXO) },
    }));
    return {
      id: id(`mint ${m}`),
      spends: 'inputs',
      // An output older than the indexed range: the input stays unresolved, as in a sync that starts mid-chain.
      inputs: [{ transaction: { id: id(`funding ${m}`) }, index: 0 }],
      outputs,
      mint: { [POLICY]: nfts(m * 5 * PER_UTXO, 5 * PER_UTXO) },
      fee: { ada: { lovelace: 400_000n } },
    };
  });
  const inputs = mints.flatMap((t) => t.outputs.map((_, index) => ({ transaction: { id: t.id }, index })));
  const sent: TxOutput[] = Array.from({ length: OUTPUTS }, (_, o) => ({
    address: buyer,
    value: { ada: { lovelace: 30_000_000n }, [POLICY]: nfts(o * PER_OUTPUT, PER_OUTPUT) },
  }));
  const spent = 20_000_000n * BigInt(UTXOS);
  const change: TxOutput = {
    address: collector,
    value: {
      ada: { lovelace: spent - 30_000_000n * BigInt(OUTPUTS) - FEE },
      [POLICY]: nfts(NFTS - CHANGE_NFTS, CHANGE_NFTS),
    },
  };
  const tx: Transaction = {
    id: id('consolidation'),
    spends: 'inputs',
    inputs,
    outputs: [...sent, change],
    fee: { ada: { lovelace: FEE } },
  };
  const block: Block = {
    ...prev,
    id: id('consolidation block'),
    ancestor: prev.id,
    height: prev.height + 1,
    slot: (prev.slot as number) + 20,
    transactions: [...mints, tx],
  };
  return { block, tx };
}

const text = (r: Json) => (r.content as { text: string }[]).map((c) => c.text).join('');
const at = (root: Json, path: string): unknown =>
  path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .reduce((v: Json, k) => v[k], root);

describe('MCP: a result the chain makes too large is cut to fit, and says where', function () {
  this.timeout(120_000);
  let api: TestApi;
  let client: Client;
  let tx: Transaction;
  let recordedTxs: Transaction[] = [];
  let collector = '';
  let buyer = '';

  before(async () => {
    const { block, frame } = recorded('block.mainnet-conway-11322286-slot144718140.koralabs.json');
    // Two real mainnet base addresses the recorded block pays.
    const paid = [...new Set((block.transactions ?? []).flatMap((t) => t.outputs.map((o) => o.address)))].filter((a) =>
      a.startsWith('addr1q'),
    );
    [collector, buyer] = paid as [string, string];
    recordedTxs = block.transactions ?? [];
    const built = consolidationBlock(block, collector, buyer);
    tx = built.tx;
    api = await apiOverSyncedFrames([frame, forwardFrame(built.block)]);
    client = await connect(`${api.url}/api/mcp`, 'modern');
  });
  after(async () => {
    await client?.close();
    await api?.close();
  });

  it('REST answers the whole transaction', async () => {
    const r = await api.get(`/api/v1/explorer/tx/${tx.id}`);
    assert.equal(r.status, 200);
    const body = r.body as Json;
    assert.equal(body.inputs.length, UTXOS);
    assert.equal(
      body.inputs.reduce((s: number, i: Json) => s + i.assets.length, 0),
      NFTS,
    );
    assert.ok(JSON.stringify(body).length / 4 > 25_000, 'the whole answer is beyond an agent’s result budget');
  });

  it('get_transaction: under 25,000 tokens, every input and output listed with its ADA, asset lists cut and said so', async () => {
    const { tools } = await client.listTools();
    const schema = tools.find((t) => t.name === 'get_transaction')!.outputSchema as Json;
    const r = (await client.callTool({ name: 'get_transaction', arguments: { hash: tx.id } })) as Json;
    assert.notEqual(r.isError, true, text(r));
    assert.ok(text(r).length / 4 < 25_000, `${Math.round(text(r).length / 4)} tokens`);
    const sc = r.structuredContent as Json;
    assert.deepEqual(JSON.parse(text(r)), sc);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const validate = ajv.compile(schema);
    assert.ok(validate(sc), ajv.errorsText(validate.errors));

    // The transaction itself, as built: the fee and every input and output with its address and ADA.
    assert.equal(sc.fee, Number(FEE) / 1e6);
    assert.equal(sc.inputs.length, UTXOS);
    for (const i of sc.inputs) assert.deepEqual([i.address, i.ada], [collector, 20]);
    assert.deepEqual(
      sc.outputs.map((o: Json) => [o.address, o.ada]),
      tx.outputs.map((o) => [o.address, Number((o.value.ada as { lovelace: bigint }).lovelace) / 1e6]),
    );
    // Net change per address: the buyer gains 300 ADA and 1,200 NFTs; the collector loses them and the fee.
    const net = new Map((sc.netChanges as Json[]).map((c) => [c.address, c]));
    assert.equal(net.get(buyer)!.ada, 300);
    assert.equal(net.get(collector)!.ada, -300 - Number(FEE) / 1e6);

    // Each cut list: what is left is the first `shown` items, `total` is the list's length on chain.
    const cuts = sc.truncated as Json[];
    assert.ok(cuts.length > 0);
    const totals: Record<string, number> = {
      ...Object.fromEntries(Array.from({ length: UTXOS }, (_, i) => [`inputs[${i}].assets`, PER_UTXO])),
      ...Object.fromEntries(
        tx.outputs.map((o, i) => [`outputs[${i}].assets`, Object.keys(o.value[POLICY] as object).length]),
      ),
      [`netChanges[${[...net.keys()].indexOf(buyer)}].assets`]: OUTPUTS * PER_OUTPUT,
      [`netChanges[${[...net.keys()].indexOf(collector)}].assets`]: OUTPUTS * PER_OUTPUT,
    };
    for (const c of cuts) {
      assert.ok(c.shown < c.total, `${c.path}: cut`);
      assert.equal(c.total, totals[c.path], `${c.path}: total`);
      const list = at(sc, c.path) as Json[];
      assert.equal(list.length, c.shown, `${c.path}: shown`);
    }
    // The kept assets are the list's first ones, with the exact quantities.
    const firstCut = cuts.find((c) => c.path.startsWith('inputs['))!;
    const kept = at(sc, firstCut.path) as Json[];
    const input = Number(/\[(\d+)\]/.exec(firstCut.path)![1]);
    assert.deepEqual(
      kept.map((a) => [a.unit, a.quantityRaw]),
      Object.keys(nfts(input * PER_UTXO, PER_UTXO))
        .sort()
        .slice(0, kept.length)
        .map((name) => [POLICY + name, '1']),
    );
  });

  it('get_address: the buyer’s 1,200 NFTs cut to the first ones, its balance whole', async () => {
    const rest = (await api.get(`/api/v1/explorer/address/${buyer}`)).body as Json;
    assert.equal(rest.assets.filter((a: Json) => a.policyId === POLICY).length, OUTPUTS * PER_OUTPUT);
    const r = (await client.callTool({ name: 'get_address', arguments: { address: buyer } })) as Json;
    assert.ok(text(r).length / 4 < 25_000);
    const sc = r.structuredContent as Json;
    assert.deepEqual(sc.truncated, [{ path: 'assets', shown: sc.assets.length, total: rest.assets.length }]);
    assert.ok(sc.assets.length > 1 && sc.assets.length < rest.assets.length);
    assert.deepEqual(sc.assets, rest.assets.slice(0, sc.assets.length));
    assert.deepEqual([sc.balanceLovelace, sc.utxoCount], [rest.balanceLovelace, rest.utxoCount]);
  });

  it('a result within the budget is whole, with no truncated field: every transaction of the recorded block', async () => {
    for (const t of recordedTxs) {
      const r = (await client.callTool({ name: 'get_transaction', arguments: { hash: t.id } })) as Json;
      const sc = r.structuredContent as Json;
      assert.equal(sc.truncated, undefined, t.id);
      assert.equal(sc.inputs.length, t.inputs.length, t.id);
      assert.deepEqual(
        sc.outputs.map((o: Json) => o.assets.length),
        t.outputs.map((o) =>
          Object.entries(o.value).reduce((n, [p, a]) => n + (p === 'ada' ? 0 : Object.keys(a).length), 0),
        ),
        t.id,
      );
    }
  });
});
