/**
 * Transaction metadata nested as deep as a transaction can carry it, through the production Ogmios client and sync.
 * The ledger bounds a metadatum's leaves (64-byte strings) but not its nesting: a one-element list costs one CBOR
 * byte (0x81), so a 16 KiB transaction holds about 16,000 levels, and a reference script's native-script clauses nest
 * the same way (Ogmios sends both as nested JSON). Anyone can submit such a transaction for a normal fee.
 *
 * The chain is the real mainnet block 11322313 and two blocks built on it in the same Ogmios v6 JSON: the first holds
 * a transaction whose metadata label 674 nests 12,000 lists around "gm" and whose output carries a native reference
 * script nested 6,000 clauses deep; the second is an ordinary block after it. The oracle is the chain as written here:
 * both blocks and the transaction are indexed, and the metadata is shown as written down to the depth kept.
 */
import assert from 'node:assert/strict';
import { blake2b } from '@noble/hashes/blake2.js';
import { hex } from '@scure/base';
import { safeJSON } from '@cardano-ogmios/client';
import type { Block } from '../../cardano/chain/types.js';
import { MAX_METADATUM_DEPTH } from '../../activities/sync/values.js';
import type { TestApi } from './seed.js';
import { apiOverSyncedFrames, forwardFrame, recorded } from './synced-frames.js';
import { callToolOnce } from '../mcp/call-once.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const id = (label: string) => hex.encode(blake2b(new TextEncoder().encode(label), { dkLen: 32 }));
const LEVELS = 12_000;
const SCRIPT_LEVELS = 6_000;
const ADDRESS =
  'addr1q9jzsz3889qwdncvkzh4wlxk6jl4gz9cwt3uuxhv94jw6kdrk2fvy8hhydy22k0gcxkvf7m0jue6s8ywam9qsfjxctjsqkrn7k';

describe('sync: transaction metadata and reference scripts nested as deep as a transaction allows', function () {
  this.timeout(120_000);
  let api: TestApi;
  let block: Block;
  const txId = id('a transaction with deeply nested metadata');

  before(async () => {
    const first = recorded('block.mainnet-conway-11322313-slot144718597.koralabs.json');
    const tx = {
      id: txId,
      spends: 'inputs',
      inputs: [{ transaction: { id: id('an output before the history') }, index: 0 }],
      outputs: [
        {
          address: ADDRESS,
          value: { ada: { lovelace: 5_000_000n } },
          script: { language: 'native', json: '@SCRIPT@' },
        },
      ],
      fee: { ada: { lovelace: 200_000n } },
      metadata: { hash: id('metadata'), labels: { '674': { json: '@DEEP@' } } },
    };
    block = {
      ...first.block,
      id: id('block after 11322313'),
      ancestor: first.block.id,
      height: first.block.height + 1,
      slot: (first.block.slot as number) + 20,
      transactions: [tx],
    } as unknown as Block;
    const after = {
      ...first.block,
      id: id('second block after 11322313'),
      ancestor: block.id,
      height: block.height + 1,
      slot: (block.slot as number) + 20,
      transactions: [],
    } as unknown as Block;
    // The nesting goes in as JSON text, as Ogmios sends it (a JS serialiser would itself overflow its stack).
    const deep = `${'['.repeat(LEVELS)}"gm"${']'.repeat(LEVELS)}`;
    const sig = { clause: 'signature', from: 'ab'.repeat(28) };
    const script = `${'{"clause":"all","from":['.repeat(SCRIPT_LEVELS)}${JSON.stringify(sig)}${']}'.repeat(SCRIPT_LEVELS)}`;
    const text =
      `{"jsonrpc":"2.0","method":"nextBlock","result":${safeJSON.stringify(forwardFrame(block, after))},"id":null}`
        .replace('"@DEEP@"', deep)
        .replace('"@SCRIPT@"', script);
    api = await apiOverSyncedFrames([first.frame, text, forwardFrame(after)]);
  });
  after(() => api?.close());

  it('indexes the block, its transaction and the block after it', async () => {
    for (const h of [block.height, block.height + 1]) {
      const r = await api.get(`/api/v1/explorer/blocks/${h}`);
      assert.equal(r.status, 200, `block ${h}: ${JSON.stringify(r.body)}`);
    }
    const r = await api.get(`/api/v1/explorer/tx/${txId}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const body = r.body as Json;
    assert.equal(body.outputs.length, 1);
    assert.equal(body.outputs[0].address, ADDRESS);
  });

  const metadataOf: [string, () => Promise<Json>][] = [
    ['REST', async () => ((await api.get(`/api/v1/explorer/tx/${txId}`)).body as Json).metadata],
    [
      'MCP get_transaction',
      async () => {
        const { message, text } = await callToolOnce(api.url, 'get_transaction', { hash: txId });
        assert.notEqual(message.result?.isError, true, text);
        return (message.result as Json).structuredContent.metadata;
      },
    ],
  ];
  for (const [surface, read] of metadataOf)
    it(`${surface}: the metadata as written down to ${MAX_METADATUM_DEPTH} levels, saying where it stops`, async () => {
      let v = (await read())['674'] as unknown;
      let depth = 0;
      while (Array.isArray(v)) {
        assert.equal(v.length, 1);
        v = v[0];
        depth++;
      }
      assert.equal(depth, MAX_METADATUM_DEPTH);
      assert.equal(typeof v, 'string');
      assert.match(v as string, /nested deeper than/);
    });

  it('the served OpenAPI says where metadata stops and names the text that stands there', async () => {
    // Oracle: the answer itself. A client reading the document must be able to tell the service's marker from a
    // metadatum string of the chain, and know the depth past which a list or map is not the chain's.
    let v = ((await api.get(`/api/v1/explorer/tx/${txId}`)).body as Json).metadata['674'] as unknown;
    while (Array.isArray(v)) v = v[0];
    const doc = (await api.get('/api/v1/openapi.json')).body as Json;
    const tx = doc.paths['/explorer/tx/{hash}'].get.responses['200'].content['application/json'].schema;
    const metadatum = tx.properties.metadata.additionalProperties.description as string;
    assert.ok(metadatum.includes(`"${v as string}"`), metadatum);
    assert.ok(metadatum.includes(`nested deeper than ${MAX_METADATUM_DEPTH} levels is not kept`), metadatum);
  });
});
