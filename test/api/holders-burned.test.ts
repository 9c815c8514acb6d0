/**
 * Holders of a token nobody holds any more, on real preprod blocks (../shared/fixtures/chain/cbor/chunks: the
 * ImmutableDB chunk of 913 consecutive blocks 1405105–1406017), given to the production Ogmios client and sync as an
 * Ogmios v6 node would send them (test/chain/cbor-block.ts). Block 1405795 mints one `hvMIN` token of policy
 * ebe691a3… to an address and block 1405796 burns it. The oracle is the blocks' CBOR: the token's outputs and mints.
 * The spec's holders answer is items, total, partial, fetchedAt; a token whose outputs were indexed is known, with no
 * holders once all of it is burned, not "not found" as a token never seen is.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHoldersExtension } from '../../activities/holders/extension.js';
import type { Block } from '../../cardano/chain/types.js';
import { decodeAt, ogmiosBlock } from '../chain/cbor-block.js';
import type { TestApi } from './seed.js';
import { apiOverSyncedFrames, forwardFrame } from './synced-frames.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const CHUNK = new URL(
  '../../../shared/fixtures/chain/cbor/chunks/preprod-babbage-1405105..1406017.01836.chunk',
  import.meta.url,
);
const POLICY = 'ebe691a343665487dbca5d1853cfb798b68e5ab3e1f699240e2cf999';
const UNIT = `${POLICY}${Buffer.from('hvMIN').toString('hex')}`;
const BURN_HEIGHT = 1_405_796;

/** The chunk's blocks up to the burn: concatenated [era tag, block] CBOR items. */
function blocksToBurn(): Block[] {
  const bytes = new Uint8Array(readFileSync(CHUNK));
  const blocks: Block[] = [];
  for (let p = 0; p < bytes.length && blocks.at(-1)?.height !== BURN_HEIGHT;) {
    const [, end] = decodeAt(bytes, p);
    blocks.push(ogmiosBlock(bytes.subarray(p, end)));
    p = end;
  }
  return blocks;
}

describe('token holders: a token minted and then all burned (real preprod blocks)', function () {
  this.timeout(180_000);
  const blocks = blocksToBurn();
  const tip = blocks.at(-1) as Block;
  let api: TestApi;
  before(async () => {
    const config = { SITE_URL: 'http://api.test', CARDANO_NETWORK: 'testnet' as const, TRUST_PROXY: false };
    api = await apiOverSyncedFrames(
      blocks.map((b) => forwardFrame(b, tip)),
      { config } as never,
      { network: 'testnet', extensions: [createHoldersExtension()] },
    );
  });
  after(() => api?.close());

  it('the chain: one minted to an address, burned in the next block, no output holds it after', () => {
    const mints: [number, bigint][] = [];
    const outputs: number[] = [];
    for (const b of blocks)
      for (const tx of b.transactions ?? []) {
        for (const [name, q] of Object.entries(tx.mint?.[POLICY] ?? {}))
          if (POLICY + name === UNIT) mints.push([b.height, q]);
        for (const o of tx.outputs) if (o.value[POLICY]?.[UNIT.slice(56)]) outputs.push(b.height);
      }
    assert.deepEqual(mints, [
      [BURN_HEIGHT - 1, 1n],
      [BURN_HEIGHT, -1n],
    ]);
    assert.deepEqual(outputs, [BURN_HEIGHT - 1]);
    assert.equal(tip.height, BURN_HEIGHT);
  });

  it('GET /tokens/{unit}/holders: known, no holders, on-chain quantity 0 (not "not found")', async () => {
    const r = await api.get(`/api/v1/tokens/${UNIT}/holders`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const body = r.body as Json;
    assert.deepEqual([body.items, body.total, body.partial, body.onChainQuantityRaw], [[], 0, false, '0']);
  });

  it('GET /tokens/{unit}/series/holders: the holder count ends at 0', async () => {
    const r = await api.get(`/api/v1/tokens/${UNIT}/series/holders?days=7`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const points = (r.body as Json).points as { value: number }[];
    assert.ok(points.length > 0);
    assert.equal(points.at(-1)?.value, 0);
  });

  it('a token of the same policy never seen on chain is still 404', async () => {
    const r = await api.get(`/api/v1/tokens/${POLICY}${Buffer.from('other').toString('hex')}/holders`);
    assert.equal(r.status, 404);
    assert.match((r.body as Json).error, /not found/);
  });
});
