/**
 * ADA Handles end to end on the devnet: real-format handle mints (legacy CIP-25, CIP-68, NFT and virtual
 * subhandles), transfers, a re-pointed virtual subhandle and a burn → Ogmios client → sync with the default
 * extensions (forks included) → GET /handles/{handle}, /wallet/{$handle}… and /explorer/address/{$handle}.
 *
 * The expectations come from the synced UTxO set and transaction documents, not from the extension: a handle's
 * holder is the address of the unspent output holding its holder token (for a virtual subhandle, the address in
 * that output's datum).
 */
import assert from 'node:assert/strict';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import { defaultExtensions } from '../../activities/extensions.js';
import { createHandlesExtension } from '../../activities/handles/extension.js';
import { decodeHandleDatum, handleOfAsset, HANDLE_POLICIES } from '../../cardano/handles.js';
import type { SyncExtension } from '../../activities/sync/extension.js';
import { createSyncActivities } from '../../activities/sync/index.js';
import { stakeAddressOf } from '../../cardano/address.js';
import { startDevnet } from '../../devnet/index.js';
import { TRANSACTIONS, UTXOS } from '../../mongo/collections/chain.js';
import { HANDLES, type HandleDoc } from '../../mongo/collections/handles.js';
import { storeDigest } from '../../mongo/digest.js';
import type { Store } from '../../mongo/store.js';
import { startTestApi, type TestApi } from '../api/seed.js';
import { tempStore } from '../sync/helpers.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const NOW = Date.UTC(2026, 10, 20, 12);
const SEED = 'handles-e2e';

/** Syncs two hours of the devnet into `store`; returns the number of rollbacks the sync applied. */
async function syncDevnet(store: Store, forkRate: number, extensions: SyncExtension[]): Promise<number> {
  const devnet = await startDevnet({ seed: SEED, backfillHours: 2, blockMs: 3_600_000, forkRate, now: () => NOW });
  const chain = await connectOgmios(devnet.url);
  try {
    const sync = createSyncActivities({ store, chain, k: 2160, network: 'mainnet', extensions });
    let rollbacks = 0;
    for (let i = 0; i < 10_000; i++) {
      const r = await sync.syncSlice({ maxBlocks: 97, waitMs: 0 });
      rollbacks += r.rollbacks;
      if (r.blocks === 0 && r.atTip) return rollbacks;
    }
    throw new Error('sync did not reach the tip');
  } finally {
    await chain.close();
    await devnet.close();
  }
}

interface Expected {
  address: string | null;
  utxo: string;
}

/** Every handle's holder from the UTxO set alone (the definition the extension must agree with). */
async function holdersFromUtxos(store: Store): Promise<Map<string, Expected>> {
  const out = new Map<string, Expected>();
  for await (const u of store.collection(UTXOS).scan())
    for (const unit of Object.keys(u.value.assets)) {
      const a = handleOfAsset(unit);
      if (!a || a.role === 'reference') continue;
      const address = a.role === 'virtual' ? (decodeHandleDatum(u.datum ?? '')?.resolvedAda ?? null) : u.address;
      out.set(a.handle, { address, utxo: u._id });
    }
  return out;
}

/** Per handle: the holder at its mint, and whether its holder token was burnt (from the transaction documents). */
async function mintsAndBurns(store: Store) {
  const mintedTo = new Map<string, string>();
  const burned = new Set<string>();
  const virtualMoves = new Map<string, number>();
  for await (const tx of store.collection(TRANSACTIONS).scan())
    for (const [unit, q] of Object.entries(tx.mint)) {
      const a = handleOfAsset(unit);
      if (!a || a.role === 'reference') continue;
      if (BigInt(q) < 0n) burned.add(a.handle);
      else mintedTo.set(a.handle, tx.outputs.find((o) => o.value.assets[unit])!.address);
    }
  for await (const tx of store.collection(TRANSACTIONS).scan())
    for (const o of tx.outputs)
      for (const unit of Object.keys(o.value.assets))
        if (handleOfAsset(unit)?.role === 'virtual' && !tx.mint[unit])
          virtualMoves.set(handleOfAsset(unit)!.handle, (virtualMoves.get(handleOfAsset(unit)!.handle) ?? 0) + 1);
  return { mintedTo, burned, virtualMoves };
}

describe('ADA Handles end to end on the devnet', function () {
  this.timeout(240_000);
  let api: TestApi;
  let docs: HandleDoc[];
  let rollbacks = 0;

  before(async () => {
    api = await startTestApi(async (store) => {
      rollbacks = await syncDevnet(store, 0.2, defaultExtensions());
    });
    docs = [];
    for await (const d of api.store.collection(HANDLES).scan()) docs.push(d);
  });
  after(() => api?.close());

  const get = async (p: string, status = 200): Promise<Json> => {
    const r = await api.get(`/api/v1${p}`);
    assert.equal(r.status, status, `${p}: ${JSON.stringify(r.body)}`);
    return r.body as Json;
  };
  const withoutHandle = ({ handle: _h, ...rest }: Json) => rest;

  it('indexes every handle in the UTxO set, of all four kinds, at its holder', async () => {
    const expected = await holdersFromUtxos(api.store);
    const kinds = new Set(docs.map((d) => d.kind));
    assert.deepEqual([...kinds].sort(), ['cip68', 'legacy', 'subhandle', 'virtual']);
    assert.ok(docs.length >= 20 && docs.length <= 60, `a few dozen handles (${docs.length})`);
    assert.deepEqual(
      docs.map((d) => [d._id, d.address, d.utxo]).sort(),
      [...expected].map(([h, e]) => [h, e.address, e.utxo]).sort(),
    );
    for (const d of docs) {
      assert.ok(HANDLE_POLICIES.includes(d.policyId as (typeof HANDLE_POLICIES)[number]));
      assert.equal(d.stakeAddress, d.address && stakeAddressOf(d.address));
      assert.match(d._id, /^[0-9a-z_.-]+(@[0-9a-z_.-]+)?$/);
      assert.ok(d.mintSlot !== null && d.mintSlot <= d.updatedSlot, `${d._id} minted in the indexed range`);
      if (d.kind === 'cip68' || d.kind === 'subhandle') {
        assert.ok(d.referenceUtxo, `${d._id} has its (100) reference token`);
        assert.match(d.image ?? '', /^ipfs:\/\/Qm/);
        assert.equal(typeof d.defaultHandle, 'boolean');
      }
      if (d.kind === 'legacy') assert.match(d.image ?? '', /^ipfs:\/\/Qm/, 'image from the label 721 metadata');
    }
  });

  it('a transferred handle resolves to its new owner', async () => {
    const { mintedTo } = await mintsAndBurns(api.store);
    const moved = docs.filter((d) => d.kind !== 'virtual' && d.address !== mintedTo.get(d._id));
    assert.ok(moved.length >= 5, `several handles changed hands (${moved.length})`);
    for (const d of moved.slice(0, 5)) {
      const body = await get(`/handles/%24${d._id.toUpperCase()}`);
      assert.equal(body.handle, d._id);
      assert.equal(body.name, `$${d._id}`);
      assert.equal(body.address, d.address);
      assert.notEqual(body.address, mintedTo.get(d._id));
      assert.equal(body.stakeAddress, stakeAddressOf(d.address!));
      assert.equal(body.unit, d.unit);
      assert.ok(body.updatedSlot > body.mintSlot);
      assert.ok(Date.parse(body.mintTime) < Date.parse(body.updatedTime));
    }
  });

  it('a burned handle is 404; malformed handles are 400 with the rule', async () => {
    const { burned } = await mintsAndBurns(api.store);
    assert.equal(burned.size, 1);
    const [name] = [...burned];
    const body = await get(`/handles/$${name}`, 404);
    assert.equal(body.error, `handle $${name} not found`);
    await get(`/wallet/%24${name}`, 404);
    await get('/handles/$nosuchhandle', 404);
    // The published parameter pattern states the naming rule, so these are refused before any lookup.
    for (const bad of ['a%20b', `$${'x'.repeat(29)}`, 'a@b@c', '$a$b']) {
      const r = await get(`/handles/${bad}`, 400);
      assert.match(
        r.error,
        /^invalid parameter handle: must be \$name, name \(1-28 of a-z 0-9 _ - \.\) or sub@root \(3-28/,
        bad,
      );
    }
    assert.match((await get('/wallet/$a%20b', 400)).error, /^invalid parameter address: .*ADA Handle/);
    assert.match((await get('/explorer/address/$a%20b', 400)).error, /^invalid parameter address: .*ADA Handle/);
  });

  it('a virtual subhandle resolves to the address in its datum, re-pointed since its mint', async () => {
    const { virtualMoves } = await mintsAndBurns(api.store);
    const v = docs.find((d) => d.kind === 'virtual')!;
    assert.ok((virtualMoves.get(v._id) ?? 0) >= 1, 'its datum was updated after the mint');
    const body = await get(`/handles/${v._id}`);
    assert.equal(body.kind, 'virtual');
    assert.equal(body.address, v.address);
    assert.equal(body.script, false, 'a wallet, not the script that holds the (000) token');
    assert.match(body.unit, /^[0-9a-f]{56}00000000/);
  });

  it('a handle listed at a script address is flagged script', async () => {
    const listed = docs.filter((d) => d.kind !== 'virtual' && d.script);
    assert.equal(listed.length, 1);
    const body = await get(`/handles/$${listed[0]!._id}`);
    assert.equal(body.script, true);
    assert.match(body.address, /^addr1w/);
  });

  it('/wallet/$name answers exactly as /wallet/<its stake address>, echoing the handle and listing its handles', async () => {
    const staked = docs.filter((d) => d.stakeAddress && !d.script);
    assert.ok(staked.length >= 10);
    for (const d of staked.slice(0, 3)) {
      const echo = {
        handle: d._id,
        name: `$${d._id}`,
        kind: d.kind,
        address: d.address,
        stakeAddress: d.stakeAddress,
        script: false,
      };
      for (const suffix of ['', '/trades', '/pnl']) {
        const direct = await get(`/wallet/${d.stakeAddress}${suffix}`);
        for (const param of [`$${d._id}`, `%24${d._id}`]) {
          const viaHandle = await get(`/wallet/${param}${suffix}`);
          assert.deepEqual(viaHandle.handle, echo);
          assert.deepEqual(withoutHandle(viaHandle), direct, `${param}${suffix}`);
        }
      }
      const holds = docs.filter((h) => h.stakeAddress === d.stakeAddress && h.address !== null);
      const wallet = await get(`/wallet/${d.stakeAddress}`);
      assert.deepEqual(wallet.handles, holds.map((h) => `$${h._id}`).sort());
      assert.equal(wallet.handlesTotal, holds.length);
      const page = await get(`/explorer/address/$${d._id}`);
      assert.deepEqual(withoutHandle(page), await get(`/explorer/address/${d.stakeAddress}`));
      assert.equal(page.handle.handle, d._id);
    }
  });

  it('a handle held by an address without a stake key answers for that address', async () => {
    const enterprise = docs.find((d) => d.address?.startsWith('addr1v'));
    assert.ok(enterprise, 'a handle sits at an enterprise address');
    assert.equal(enterprise.stakeAddress, null);
    const viaHandle = await get(`/wallet/$${enterprise._id}`);
    assert.deepEqual(withoutHandle(viaHandle), await get(`/wallet/${enterprise.address}`));
    assert.equal(viaHandle.address, enterprise.address);
  });

  it('rollbacks are exact: the forked devnet and the clean one index the same handle documents', async () => {
    assert.ok(rollbacks >= 5, `the forked sync rolled back (${rollbacks})`);
    const clean = await tempStore();
    try {
      assert.equal(await syncDevnet(clean.store, 0, [createHandlesExtension()]), 0);
      const [a, b] = await Promise.all([storeDigest(api.store, [HANDLES]), storeDigest(clean.store, [HANDLES])]);
      assert.equal(a.counts.handles, docs.length);
      assert.deepEqual(a, b);
    } finally {
      await clean.cleanup();
    }
  });
});
