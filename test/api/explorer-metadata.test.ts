/**
 * Transaction metadata with the keys and values the chain allows but the devnet never writes, through the
 * production Ogmios client and sync to the explorer answer. The chain is the real mainnet block 11322313 and a block
 * built on it in the same Ogmios v6 JSON (metadata in Ogmios' "no schema" form, a label that has no JSON form given
 * as its CBOR); the oracle is the metadata as written here.
 *
 * Anyone can put a map key `__proto__` or `constructor` in a transaction's metadata (CIP-25 asset names and CIP-20
 * messages are free text): the answer must carry it as data, like any other key.
 */
import assert from 'node:assert/strict';
import { blake2b } from '@noble/hashes/blake2.js';
import { hex } from '@scure/base';
import type { Transaction } from '../../cardano/chain/types.js';
import type { TestApi } from './seed.js';
import { apiOverSyncedFrames, forwardFrame, recorded } from './synced-frames.js';
import { callToolOnce } from '../mcp/call-once.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const id = (label: string) => hex.encode(blake2b(new TextEncoder().encode(label), { dkLen: 32 }));

/** A CIP-20 message map as JSON text: `JSON.parse` makes `__proto__` an own key, as Ogmios' frame holds it. */
const MESSAGE = JSON.parse(
  '{"msg":["gm"],"__proto__":{"msg":["kept as data"]},"constructor":"c","toString":["x"],"hasOwnProperty":0}',
) as Record<string, unknown>;

describe('explorer: transaction metadata with odd keys and values, as the chain holds them', function () {
  this.timeout(120_000);
  let api: TestApi;
  let tx: Transaction;

  before(async () => {
    const { block, frame } = recorded('block.mainnet-conway-11322313-slot144718597.koralabs.json');
    tx = {
      id: id('a transaction with odd metadata'),
      spends: 'inputs',
      inputs: [{ transaction: { id: id('an output before the history') }, index: 0 }],
      outputs: [],
      fee: { ada: { lovelace: 200_000n } },
      metadata: {
        hash: id('metadata'),
        labels: {
          '674': { json: MESSAGE },
          // The largest label (a word64) holding the largest metadatum integer; the smallest one in a nested list.
          '18446744073709551615': { json: 18446744073709551615n },
          '0': { json: { nested: [[-18446744073709551616n, 7n], { '': 'empty key' }] } },
          // A byte string has no "no schema" JSON form: Ogmios gives only its CBOR (bytes fb 0e).
          '6': { cbor: '42fb0e' },
          // Text chunks of 64 bytes (the chain's limit per string), one of them multi-byte UTF-8.
          '721': { json: { long: ['a'.repeat(64), 'é'.repeat(32)] } },
        },
      },
    } as unknown as Transaction;
    const next = {
      ...block,
      id: id('block after 11322313'),
      ancestor: block.id,
      height: block.height + 1,
      slot: (block.slot as number) + 20,
      transactions: [tx],
    };
    api = await apiOverSyncedFrames([frame, forwardFrame(next)]);
  });
  after(() => api?.close());

  /** The metadata of get_transaction's result (one JSON-RPC call, the short form of the older revisions). */
  async function toolMetadata(): Promise<Json> {
    const { message: body, text } = await callToolOnce(api.url, 'get_transaction', { hash: tx.id });
    assert.notEqual(body.result?.isError, true, text);
    const { structuredContent, content } = body.result as Json;
    // The text content is the same object as JSON text.
    assert.deepEqual(JSON.parse(content[0].text).metadata, structuredContent.metadata);
    return structuredContent.metadata as Json;
  }

  const surfaces: [string, () => Promise<Json>][] = [
    [
      'REST',
      async () => {
        const r = await api.get(`/api/v1/explorer/tx/${tx.id}`);
        assert.equal(r.status, 200, JSON.stringify(r.body));
        return (r.body as Json).metadata as Json;
      },
    ],
    ['MCP get_transaction', toolMetadata],
  ];

  for (const [surface, metadataOf] of surfaces)
    it(`${surface}: every label and key as written, __proto__ and constructor as data, big integers as exact strings`, async () => {
      const metadata = await metadataOf();
      assert.deepEqual(Object.keys(metadata).sort(), ['0', '18446744073709551615', '6', '674', '721']);
      const message = metadata['674'] as Json;
      assert.deepEqual(Object.keys(message).sort(), ['__proto__', 'constructor', 'hasOwnProperty', 'msg', 'toString']);
      assert.deepEqual(Object.getOwnPropertyDescriptor(message, '__proto__')?.value, { msg: ['kept as data'] });
      assert.deepEqual(
        [message.msg, message.constructor, message.toString, message.hasOwnProperty],
        [['gm'], 'c', ['x'], 0],
      );
      assert.equal(metadata['18446744073709551615'], '18446744073709551615');
      assert.deepEqual(metadata['0'], { nested: [['-18446744073709551616', 7], { '': 'empty key' }] });
      assert.deepEqual(metadata['6'], { cbor: '42fb0e' });
      assert.deepEqual(metadata['721'], { long: ['a'.repeat(64), 'é'.repeat(32)] });
    });
});
