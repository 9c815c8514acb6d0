/**
 * A stake key's transactions and first/last activity on the explorer count what the key itself does on chain: a
 * transaction that withdraws its rewards or certifies it (registration, delegation) is one of its transactions
 * even when none of the key's addresses is touched. A DEX batcher's script stake key is the common case: Minswap V2
 * withdraws 0 ADA from it in every batch (the withdraw-zero trick that runs its batch validator once per
 * transaction) and no output carries it.
 *
 * Chain: the real mainnet block 11322286 (Ogmios v6 JSON, ../shared/fixtures/chain/ogmios/real), replayed to the
 * production client and sync. Oracle: the recorded JSON, read here with the address bytes (CIP-19), not through
 * the service's code: for each key withdrawn from or certified in the block, the transactions that withdraw from it,
 * certify it, pay one of its base addresses or spend an output the block created at one.
 */
import assert from 'node:assert/strict';
import { bech32, hex } from '@scure/base';
import type { Transaction } from '../../cardano/chain/types.js';
import type { TestApi } from './seed.js';
import { apiOverSyncedFrames, mainnetTime, recorded } from './synced-frames.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

/** stake1… of a base address (CIP-19 header types 0-3: the stake credential is bytes 29..57), else null. */
function stakeOfAddress(address: string): string | null {
  if (!address.startsWith('addr1')) return null;
  const bytes = bech32.fromWords(bech32.decode(address as `addr1${string}`, 1000).words);
  const type = bytes[0]! >> 4;
  if (type > 3) return null;
  const header = (type & 2 ? 0xf0 : 0xe0) | (bytes[0]! & 0x0f);
  return bech32.encode('stake', bech32.toWords(Uint8Array.of(header, ...bytes.slice(29, 57))), 1000);
}
/** stake1… of a certificate's credential (a key hash, or a script hash when `from` is script). */
const stakeOfCredential = (credential: string, from: unknown) =>
  bech32.encode(
    'stake',
    bech32.toWords(Uint8Array.of(from === 'script' ? 0xf1 : 0xe1, ...hex.decode(credential))),
    1000,
  );

describe('explorer: a stake key’s transactions include its withdrawals and certificates', function () {
  this.timeout(120_000);
  let api: TestApi;
  let txs: Transaction[];
  let slot: number;
  /** Each key the block withdraws from or certifies → the ids of its transactions, in block order. */
  const expected = new Map<string, string[]>();

  before(async () => {
    const { block, frame } = recorded('block.mainnet-conway-11322286-slot144718140.koralabs.json');
    txs = block.transactions ?? [];
    slot = block.slot as number;
    const acting = new Set<string>();
    for (const tx of txs) {
      for (const k of Object.keys(tx.withdrawals ?? {})) acting.add(k);
      for (const c of tx.certificates ?? [])
        if (typeof c.credential === 'string') acting.add(stakeOfCredential(c.credential, c.from));
    }
    const created = new Map<string, string>(); // txId#index → address, outputs of the block
    for (const tx of txs) {
      const keys = new Set<string>(Object.keys(tx.withdrawals ?? {}));
      for (const c of tx.certificates ?? [])
        if (typeof c.credential === 'string') keys.add(stakeOfCredential(c.credential, c.from));
      for (const i of tx.inputs) {
        const a = created.get(`${i.transaction.id}#${i.index}`);
        const s = a && stakeOfAddress(a);
        if (s) keys.add(s);
      }
      tx.outputs.forEach((o, index) => {
        created.set(`${tx.id}#${index}`, o.address);
        const s = stakeOfAddress(o.address);
        if (s) keys.add(s);
      });
      for (const k of keys) if (acting.has(k)) expected.set(k, [...(expected.get(k) ?? []), tx.id]);
    }
    api = await apiOverSyncedFrames([frame]);
  });
  after(() => api?.close());

  it('the block has a key that withdraws without any address of its own (the oracle covers the case)', () => {
    const withdrawOnly = [...expected.keys()].filter(
      (k) => !txs.some((tx) => tx.outputs.some((o) => stakeOfAddress(o.address) === k)),
    );
    assert.ok(
      withdrawOnly.some((k) => (expected.get(k) ?? []).length >= 2),
      'a key withdrawn from in several transactions, paid by none',
    );
  });

  it('every key withdrawn from or certified: txCount, firstActivity and lastActivity are its transactions', async () => {
    assert.ok(expected.size >= 7, `keys acting in the block: ${expected.size}`);
    for (const [key, ids] of expected) {
      const r = await api.get(`/api/v1/explorer/address/${key}`);
      assert.equal(r.status, 200, `${key}: ${JSON.stringify(r.body)}`);
      const s = r.body as Json;
      const at = (txId: string) => ({ slot, time: mainnetTime(slot), txHash: txId });
      assert.equal(s.txCount, ids.length, `${key}: transactions ${ids.join(', ')}`);
      assert.deepEqual(s.firstActivity, at(ids[0]!), `${key}: first activity`);
      assert.deepEqual(s.lastActivity, at(ids[ids.length - 1]!), `${key}: last activity`);
    }
  });

  it('get_address (MCP) says the same for the batcher’s script key', async () => {
    const [key, ids] = [...expected.entries()].find(([k]) => k.startsWith('stake17')) ?? [];
    assert.ok(key && ids, 'a script stake key acts in the block');
    const r = await fetch(`${api.url}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_address', arguments: { address: key } },
      }),
    });
    // The answer comes as one server-sent event (or as JSON): its data line is the JSON-RPC response.
    const text = await r.text();
    const json = text.startsWith('{') ? text : (text.split('\n').find((l) => l.startsWith('data:')) ?? '').slice(5);
    const s = (JSON.parse(json) as Json).result.structuredContent as Json;
    assert.equal(s.txCount, ids.length);
    assert.equal(s.lastActivity?.txHash, ids[ids.length - 1]);
  });
});
