/**
 * get_transaction's net change per address (outputs received minus inputs spent) when the transaction spends an
 * output older than the indexed history, as most transactions do on a deployment whose sync started mid-chain:
 * that input's address and value are unknown, so no address's net change can be stated. The chain is the real
 * mainnet block 11322286 and a block built on it in the same Ogmios v6 JSON, replayed to the production client and
 * sync; the oracle is the built transactions (hand-computed changes).
 */
import assert from 'node:assert/strict';
import { blake2b } from '@noble/hashes/blake2.js';
import { hex } from '@scure/base';
import type { Client } from '@modelcontextprotocol/client';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Transaction, TxOutput } from '../../cardano/chain/types.js';
import type { TestApi } from '../api/seed.js';
import { apiOverSyncedFrames, forwardFrame, recorded } from '../api/synced-frames.js';
import { connect } from './world.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tool results

const id = (label: string) => hex.encode(blake2b(new TextEncoder().encode(label), { dkLen: 32 }));
const lovelaceOf = (o: TxOutput) => (o.value.ada as { lovelace: bigint }).lovelace;
const ada = (lovelace: bigint) => ({ ada: { lovelace } });
const text = (r: Json) => (r.content as { text: string }[]).map((c) => c.text).join('');

const FEE = 200_000n;

describe('MCP get_transaction: net changes per address only when every spent output is known', function () {
  this.timeout(120_000);
  let api: TestApi;
  let client: Client;
  let validateTx: (v: unknown) => boolean;
  let ajv: Ajv2020;
  /** Spends an output before the indexed history and one the recorded block made, paying the second's owner back. */
  let partly: Transaction;
  /** Spends only outputs the recorded block made. */
  let known: Transaction;
  let owner = '';
  let other = '';
  let spentOwn = 0n;

  before(async () => {
    const { block, frame } = recorded('block.mainnet-conway-11322286-slot144718140.koralabs.json');
    const txs = block.transactions ?? [];
    const spent = new Set(txs.flatMap((t) => t.inputs.map((i) => `${i.transaction.id}#${i.index}`)));
    // Two unspent ADA-only outputs of the recorded block at distinct real base addresses.
    const unspent = txs.flatMap((t) =>
      t.outputs.flatMap((o, index) =>
        o.address.startsWith('addr1q') && Object.keys(o.value).length === 1 && !spent.has(`${t.id}#${index}`)
          ? [{ ref: { transaction: { id: t.id }, index }, out: o }]
          : [],
      ),
    );
    const first = unspent[0]!;
    const second = unspent.find((u) => u.out.address !== first.out.address)!;
    owner = first.out.address;
    other = second.out.address;
    spentOwn = lovelaceOf(first.out);
    partly = {
      id: id('spends an output older than the history'),
      spends: 'inputs',
      // 100 ADA from an output created before the indexed range (whose address the index cannot know) and the
      // owner's recorded output; the owner gets its own output back plus 98 ADA, the other address 1.8 ADA.
      inputs: [{ transaction: { id: id('before the history') }, index: 3 }, first.ref],
      outputs: [
        { address: owner, value: ada(spentOwn + 98_000_000n) },
        { address: other, value: ada(1_800_000n) },
      ],
      fee: { ada: { lovelace: FEE } },
    };
    known = {
      id: id('spends known outputs only'),
      spends: 'inputs',
      inputs: [second.ref],
      outputs: [
        { address: owner, value: ada(5_000_000n) },
        { address: other, value: ada(lovelaceOf(second.out) - 5_000_000n - FEE) },
      ],
      fee: { ada: { lovelace: FEE } },
    };
    const next = {
      ...block,
      id: id('block after the recorded one'),
      ancestor: block.id,
      height: block.height + 1,
      slot: (block.slot as number) + 20,
      transactions: [partly, known],
    };
    api = await apiOverSyncedFrames([frame, forwardFrame(next)]);
    client = await connect(`${api.url}/api/mcp`, 'modern');
    const { tools } = await client.listTools();
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    validateTx = ajv.compile(tools.find((t) => t.name === 'get_transaction')!.outputSchema as Json);
  });
  after(async () => {
    await client?.close();
    await api?.close();
  });

  const call = async (hash: string): Promise<Json> => {
    const r = (await client.callTool({ name: 'get_transaction', arguments: { hash } })) as Json;
    assert.notEqual(r.isError, true, text(r));
    const sc = r.structuredContent as Json;
    assert.ok(validateTx(sc), ajv.errorsText((validateTx as unknown as { errors: never }).errors));
    return sc;
  };

  it('an input older than the indexed history: no net changes (they would show the owner +98 ADA), and why', async () => {
    const sc = await call(partly.id);
    assert.deepEqual(
      sc.inputs.map((i: Json) => i.resolved),
      [false, true],
    );
    // The owner's true change is unknown: it is −2 ADA if the old output was its own, +98 ADA if not.
    assert.equal(sc.netChanges, null);
    assert.match(sc.netChangesNote, /1 of the 2 inputs/);
    assert.match(sc.netChangesNote, /before the indexed history/);
  });

  it('every input known: the changes computed by hand, summing to minus the fee', async () => {
    const sc = await call(known.id);
    assert.equal(sc.netChangesNote, null);
    assert.deepEqual(
      (sc.netChanges as Json[]).map((c) => [c.address, c.lovelace, c.ada]).sort(),
      [
        [owner, '5000000', 5],
        [other, String(-(5_000_000n + FEE)), -Number(5_000_000n + FEE) / 1e6],
      ].sort(),
    );
  });
});
