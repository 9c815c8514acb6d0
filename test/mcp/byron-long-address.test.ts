/**
 * A Byron address longer than 200 characters through `get_address`. Byron addresses carry attributes (the
 * encrypted HD derivation path, a network magic) inside their CBOR, so some on mainnet run to hundreds of base58
 * characters; REST takes any address up to 1023 characters, and the tool must take the same ones.
 *
 * The address is built here as the Byron format defines it: base58(CBOR [#6.24(bytes(CBOR [root, attributes,
 * type])), crc32 of those bytes]). It replaces the first Byron output of the recorded mainnet block (Mary, slot
 * 5567164 of the kupo golden set), so the oracle is that output's lovelace.
 */
import assert from 'node:assert/strict';
import { crc32 } from 'node:zlib';
import { base58 } from '@scure/base';
import type { Client } from '@modelcontextprotocol/client';
import { Encoder, Tag } from 'cbor-x';
import type { Block } from '../../cardano/chain/types.js';
import type { TestApi } from '../api/seed.js';
import { apiOverSyncedFrames, forwardFrame, recorded } from '../api/synced-frames.js';
import { connect } from './world.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

function longByronAddress(): string {
  const cbor = new Encoder({ useRecords: false, mapsAsObjects: false, tagUint8Array: false });
  const root = Buffer.alloc(28, 7);
  // Attribute 1: the HD payload (bytes of CBOR bytes), here 160 bytes, as a wallet with a deep path writes it.
  const attributes = new Map<number, Uint8Array>([[1, cbor.encode(Buffer.alloc(160, 0xab))]]);
  const payload = cbor.encode([root, attributes, 0]);
  return base58.encode(cbor.encode([new Tag(payload, 24), crc32(payload)]));
}

describe('get_address: a Byron address longer than 200 characters', function () {
  this.timeout(120_000);
  let api: TestApi;
  let client: Client;
  let address = '';
  let lovelace = 0n;

  before(async () => {
    const { block } = recorded('nextBlock.rollForward.mainnet-mary-5567164.kupo-golden-1.json');
    const changed = structuredClone(block) as Block;
    address = longByronAddress();
    const output = changed.transactions!.flatMap((t) => t.outputs).find((o) => !o.address.startsWith('addr'))!;
    output.address = address;
    lovelace = (output.value.ada as { lovelace: bigint }).lovelace;
    api = await apiOverSyncedFrames([forwardFrame(changed)]);
    client = await connect(`${api.url}/api/mcp`, 'modern');
  });
  after(async () => {
    await client?.close();
    await api?.close();
  });

  it('answers its balance on the tool as on REST', async () => {
    assert.ok(address.length > 200 && address.length < 1023, `${address.length} characters`);
    const rest = await api.get(`/api/v1/explorer/address/${address}`);
    assert.equal(rest.status, 200, JSON.stringify(rest.body));
    assert.equal((rest.body as Json).balanceLovelace, String(lovelace));
    const r = (await client.callTool({ name: 'get_address', arguments: { address } })) as Json;
    assert.notEqual(r.isError, true, JSON.stringify(r.content));
    assert.equal((r.structuredContent as Json).balanceLovelace, String(lovelace));
  });

  it('search finds it and names get_address with it', async () => {
    const r = (await client.callTool({ name: 'search', arguments: { query: address } })) as Json;
    assert.notEqual(r.isError, true, JSON.stringify(r.content));
    assert.deepEqual(
      ((r.structuredContent as Json).hits as Json[]).map((h) => [h.kind, h.tool, h.arguments]),
      [['address', 'get_address', { address }]],
    );
  });
});
