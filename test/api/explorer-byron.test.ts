/**
 * A Byron block through the production Ogmios client and sync to the explorer: the real mainnet block at slot
 * 4,471,207 (../shared/fixtures/chain/cbor/mainnet/mainnet-byron-slot4471207.block.hex, PROVENANCE.md), its header
 * read from the CBOR here and given as Ogmios v6 sends a Byron block (`type: "bft"`, the issuer's extended
 * verification key). The oracle is the CBOR header and the spec: a Byron block was made by a genesis delegate, not
 * a stake pool (issuerPoolId null), and Byron slots last 20 s, 21,600 to an epoch.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Decoder } from 'cbor-x';
import type { Block } from '../../cardano/chain/types.js';
import { STAKE_POOL_REGS } from '../../mongo/collections/chain.js';
import type { TestApi } from './seed.js';
import { apiOverSyncedFrames, forwardFrame } from './synced-frames.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const FILE = new URL(
  '../../../shared/fixtures/chain/cbor/mainnet/mainnet-byron-slot4471207.block.hex',
  import.meta.url,
);
/** The block hash as PROVENANCE.md gives it (blake2b-256 of [1, header]). */
const HASH = '1451a0dbf16cfeddf4991a838961df1b08a68f43a19c0eb3b36cc4029c77a2d8';

describe('explorer: a Byron block (real mainnet, slot 4,471,207)', function () {
  this.timeout(120_000);
  let api: TestApi;
  let block: Block;
  let issuer = '';

  before(async () => {
    const bytes = Buffer.from(readFileSync(FILE, 'utf8').trim(), 'hex');
    // Byron main block: [header, body, extra]; header = [magic, prevHash, bodyProof, consensus, extra];
    // consensus = [[epoch, slot in epoch], issuer xpub (64 bytes), [difficulty = block number], signature].
    const [header] = new Decoder({ mapsAsObjects: false, useRecords: false }).decode(bytes) as unknown[][];
    const [, prev, , consensus, extra] = header as [number, Uint8Array, unknown, unknown[], unknown[]];
    const [[epoch, slotInEpoch], key, [difficulty]] = consensus as [[number, number], Uint8Array, [number]];
    const [[major, minor, patch]] = extra as [[number, number, number]];
    issuer = Buffer.from(key).toString('hex');
    block = {
      type: 'bft',
      era: 'byron',
      id: HASH,
      ancestor: Buffer.from(prev).toString('hex'),
      height: difficulty,
      slot: epoch * 21_600 + slotInEpoch,
      size: { bytes: bytes.length },
      transactions: [],
      protocol: { version: { major, minor, patch } },
      issuer: { verificationKey: issuer },
      delegate: { verificationKey: issuer },
    } as unknown as Block;
    api = await apiOverSyncedFrames([forwardFrame(block)]);
  });
  after(() => api?.close());

  it('no stake pool issued it: issuerPoolId null, no pool credited with a block; Byron time and epoch', async () => {
    assert.equal(block.slot, 4_471_207);
    assert.equal(block.height, 4_468_973);
    const r = await api.get(`/api/v1/explorer/blocks/${block.height}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const b = r.body as Json;
    assert.equal(b.hash, HASH);
    assert.equal(b.era, 'byron');
    assert.equal(b.issuerPoolId, null);
    assert.equal(b.issuerVkey, issuer);
    assert.equal(b.protocolVersion, '1.0');
    // Mainnet started 2017-09-23T21:44:51Z; slot 7 of epoch 207 is 4,471,207 × 20 s later.
    assert.equal(b.epoch, 207);
    assert.equal(b.time, new Date(Date.UTC(2017, 8, 23, 21, 44, 51) + 4_471_207 * 20_000).toISOString());
    assert.deepEqual(await api.store.collection(STAKE_POOL_REGS).find('_id', { limit: 5 }), []);
  });
});
