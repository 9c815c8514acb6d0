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

/**
 * An epoch boundary block after it, as Ogmios v6 sends one: `type: "ebb"`, no slot (and no issuer or transactions).
 * Its id is made up here (the fixtures hold no EBB); the oracle is the Byron rule that an EBB opens its epoch at the
 * epoch's first slot, 208 × 21,600 = 4,492,800, the slot a chain point naming it carries.
 */
describe('explorer: a Byron epoch boundary block', function () {
  this.timeout(120_000);
  const EBB = 'eb'.repeat(32);
  const FIRST = 4_492_800;
  let api: TestApi;

  before(async () => {
    const bytes = Buffer.from(readFileSync(FILE, 'utf8').trim(), 'hex');
    const [header] = new Decoder({ mapsAsObjects: false, useRecords: false }).decode(bytes) as unknown[][];
    const prev = Buffer.from((header as [number, Uint8Array])[1]).toString('hex');
    const bft = (id: string, ancestor: string, height: number, slot: number) =>
      ({ type: 'bft', era: 'byron', id, ancestor, height, slot, transactions: [] }) as unknown as Block;
    const before = bft(HASH, prev, 4_468_973, 4_471_207);
    const ebb = { type: 'ebb', era: 'byron', id: EBB, ancestor: HASH, height: 4_468_974 } as unknown as Block;
    // The epoch's first main block takes the same slot as its EBB.
    const after = bft('af'.repeat(32), EBB, 4_468_975, FIRST);
    api = await apiOverSyncedFrames([before, ebb, after].map((b) => forwardFrame(b, after)));
  });
  after(() => api?.close());

  it('is stored at its epoch’s first slot: time, epoch and the links around it', async () => {
    const r = await api.get(`/api/v1/explorer/blocks/${EBB}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const b = r.body as Json;
    assert.equal(b.slot, FIRST);
    assert.equal(b.epoch, 208);
    assert.equal(b.time, new Date(Date.UTC(2017, 8, 23, 21, 44, 51) + FIRST * 20_000).toISOString());
    assert.equal(b.previousBlock, HASH);
    assert.equal(b.nextBlock, 'af'.repeat(32));
    const prev = (await api.get(`/api/v1/explorer/blocks/4468973`)).body as Json;
    assert.equal(prev.nextBlock, EBB);
  });
});
