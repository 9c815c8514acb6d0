/**
 * A Byron block through the production Ogmios client and sync to the explorer: the real mainnet block at slot
 * 4,471,207 (../shared/fixtures/chain/cbor/mainnet/mainnet-byron-slot4471207.block.hex, PROVENANCE.md), its header
 * read from the CBOR here and given as Ogmios v6 sends a Byron block (`type: "bft"`, the issuer's extended
 * verification key). The oracle is the CBOR header and the spec: a Byron block was made by a genesis delegate, not
 * a stake pool (issuerPoolId null), and Byron slots last 20 s, 21,600 to an epoch.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { base58 } from '@scure/base';
import { Decoder, type Tag } from 'cbor-x';
import type { Block } from '../../cardano/chain/types.js';
import { STAKE_POOL_REGS } from '../../mongo/collections/chain.js';
import type { TestApi } from './seed.js';
import { apiOverSyncedFrames, explorerTx, forwardFrame } from './synced-frames.js';

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

/**
 * The two transactions of the real Byron block at slot 4,471,207, as Ogmios v6 sends a Byron transaction: inputs,
 * outputs and signatories, and no `fee` (a Byron body declares none; Ogmios server/src/Ogmios/Data/Json/Byron.hs
 * encodeATxAux). Their inputs, output addresses and amounts are read from the block's CBOR here; the outputs they
 * spend are created by a block built before it (its id is the real block's ancestor), with values chosen here, since
 * the fixtures hold no earlier block. The oracle is the Byron ledger's balance rule, by hand: a Byron transaction's
 * only sink is its fee, so the fee is what its inputs hold beyond its outputs.
 */
describe('explorer: the fee of a Byron transaction (real mainnet block at slot 4,471,207)', function () {
  this.timeout(120_000);
  let api: TestApi;
  const ids = ['b1'.repeat(32), 'b2'.repeat(32)]; // the block's transactions (their real ids are not needed here)
  // Lovelace the built block gives each spent output (`txId#index`).
  const SPENT: Record<string, bigint> = {
    'b0a7782d21f37e9d98f4cbdc23bf2677d93eca1ac0fb3f79923863a698d53f8f#1': 5_000_000_000n,
    '5bd3e8385d2ecdd17d3b602263e8a5e7aa0edb4dd00221f369c2720f7d85940d#0': 100_000_000n,
    '1e4a77f8375548e5bc409a518dbcb4a8437b539682f4e840f4a1056f01cea566#0': 50_000_000n,
    '5e83b53253f705c214d904f65fdaaa2f153db59a229a9cee1da6c329b5432361#0': 23_000_000n,
    '779a319e0d64b80eaff5ed13d08062b8672fc71ac27e7b30574c1c7972764de2#2': 99_634_374_000n,
  };
  // By hand: 5,173,000,000 in, 5,172,024,689 + 805,067 = 5,172,829,756 out; 99,634,374,000 in,
  // 1,990,000,000 + 97,644,203,079 = 99,634,203,079 out.
  const FEES = ['170244', '170921'];
  let firstAddress = '';

  before(async () => {
    const bytes = Buffer.from(readFileSync(FILE, 'utf8').trim(), 'hex');
    const dec = new Decoder({ mapsAsObjects: false, useRecords: false });
    const [header, body] = dec.decode(bytes) as [unknown[], unknown[][]];
    const prev = Buffer.from(header[1] as Uint8Array).toString('hex');
    // A Byron address is the base58 of CBOR [tag 24 (bytes), CRC-32]: written back here from its decoded parts.
    const head = (major: number, n: number) =>
      n < 24
        ? [(major << 5) | n]
        : n < 0x100
          ? [(major << 5) | 24, n]
          : n < 0x10000
            ? [(major << 5) | 25, n >> 8, n & 0xff]
            : [(major << 5) | 26, (n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
    const address = (a: [Tag, number]) => {
      const inner = a[0].value as Uint8Array;
      return base58.encode(Uint8Array.from([0x82, 0xd8, 0x18, ...head(2, inner.length), ...inner, ...head(0, a[1])]));
    };
    const txs = (body[0] as [[unknown[], unknown[]]][]).map(([[ins, outs]], i) => ({
      id: ids[i],
      spends: 'inputs',
      inputs: (ins as [number, Tag][]).map(([, ref]) => {
        const [id, index] = dec.decode(ref.value as Uint8Array) as [Uint8Array, number];
        return { transaction: { id: Buffer.from(id).toString('hex') }, index };
      }),
      outputs: (outs as [[Tag, number], number | bigint][]).map(([a, q]) => ({
        address: address(a),
        value: { ada: { lovelace: BigInt(q) } },
      })),
      signatories: [],
    }));
    firstAddress = txs[0]!.outputs[0]!.address;
    // The block before it creates every output they spend, each in a transaction of the spent output's id.
    const creators = new Map<string, { index: number; lovelace: bigint }[]>();
    for (const [ref, lovelace] of Object.entries(SPENT)) {
      const [id, index] = ref.split('#') as [string, string];
      creators.set(id, [...(creators.get(id) ?? []), { index: Number(index), lovelace }]);
    }
    const created = [...creators].map(([id, outs]) => ({
      id,
      spends: 'inputs',
      inputs: [{ transaction: { id: 'ee'.repeat(32) }, index: 0 }], // before the indexed history
      outputs: Array.from({ length: Math.max(...outs.map((o) => o.index)) + 1 }, (_, i) => ({
        address: firstAddress,
        value: { ada: { lovelace: outs.find((o) => o.index === i)?.lovelace ?? 1_000_000n } },
      })),
      signatories: [],
    }));
    const bft = (id: string, ancestor: string, height: number, slot: number, transactions: unknown[]) =>
      ({ type: 'bft', era: 'byron', id, ancestor, height, slot, transactions }) as unknown as Block;
    const real = bft(HASH, prev, 4_468_973, 4_471_207, txs);
    const before = bft(prev, 'aa'.repeat(32), 4_468_972, 4_471_206, created);
    api = await apiOverSyncedFrames([before, real].map((b) => forwardFrame(b, real)));
  });
  after(() => api?.close());

  it('each transaction’s fee is its inputs less its outputs, and the block’s fees their sum', async () => {
    assert.ok(/^(Ae2|Ddz)/.test(firstAddress), firstAddress);
    for (const [i, id] of ids.entries()) {
      const t = await explorerTx(api, id!);
      assert.equal(
        t.inputs.every((x: Json) => x.resolved),
        true,
      );
      assert.equal(t.feeLovelace, FEES[i]);
      assert.equal(t.fee, Number(FEES[i]) / 1e6);
    }
    const b = (await api.get(`/api/v1/explorer/blocks/${HASH}`)).body as Json;
    assert.equal(b.feesLovelace, '341165');
    assert.equal(b.fees, 0.341165);
  });

  it('a Byron transaction spending an output from before the indexed history has an unknown fee, shown as 0', async () => {
    const t = await explorerTx(api, 'b0a7782d21f37e9d98f4cbdc23bf2677d93eca1ac0fb3f79923863a698d53f8f');
    assert.equal(t.inputs[0].resolved, false);
    assert.equal(t.feeLovelace, '0');
  });
});
