import { lovelaceOf } from '../../activities/sync/values.js';
import assert from 'node:assert/strict';
import { baseAddress, enterpriseAddress, parseAddress, rewardAddress } from '../../cardano/address.js';
import { explorerRoutes } from '../../api/routes/explorer.js';
import { ajv } from '../../api/schema.js';
import { CHECKPOINTS } from '../../mongo/collections/sync-state.js';
import { put, type Store } from '../../mongo/store.js';
import {
  DEXHUNTER_TX,
  EARLIER,
  STAKE,
  STAKE_ACCOUNT_POOL,
  STAKE_CHANGE_ADDRESS,
  STAKE_ORDER_ADDRESS,
  TIP,
  seedChain,
  seedChainBehind,
  startTestApi,
  type TestApi,
} from './seed.js';

const validBlock = ajv.compile(explorerRoutes.block.response);
const validTx = ajv.compile(explorerRoutes.tx.response);
const validAddress = ajv.compile(explorerRoutes.address.response);
const schemaOk = (check: typeof validBlock, body: unknown) =>
  assert.ok(check(body), `response does not match its schema: ${JSON.stringify(check.errors)}`);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const FIRST_TX = '5065ab2633ae8a52d91789f8dc5c927159b2c0a0c5a832f457a04ee668089a0f';
const RECIPIENT =
  'addr1q8vg3pj2avk2h9q579qg6fakuaue2q4d0zxsq3dzle87m28rzr27g03klu862usxqsru794d03gzkk8n86ta34n85z0sazaauf';
const RSERG = '04b95368393c821f180deee8229fbd941baaf9bd748ebcdbf7adbb14' + '7273455247';

describe('explorer REST routes', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi(seedChain, { tokenDecimals: async (unit) => (unit === RSERG ? 4 : 0) });
  });
  after(() => api.close());

  describe('GET /explorer/blocks/{id}', () => {
    it('finds a block by height with whole-ADA fees and totals, confirmations and links', async () => {
      const r = await api.get(`/api/v1/explorer/blocks/${TIP.height}`);
      assert.equal(r.status, 200);
      const b = r.body as Json;
      schemaOk(validBlock, b);
      const txs = TIP.transactions ?? [];
      const fees = txs.reduce((s, t) => s + BigInt(lovelaceOf(t.fee) ?? 0), 0n);
      assert.equal(b.hash, TIP.id);
      assert.equal(b.height, 11322313);
      assert.equal(b.slot, 144718597);
      assert.equal(b.epoch, 532);
      assert.equal(b.era, 'conway');
      assert.equal(b.size, 19634);
      assert.equal(b.txCount, 16);
      assert.deepEqual(
        b.txIds,
        txs.map((t) => t.id),
      );
      assert.equal(b.feesLovelace, String(fees));
      assert.equal(b.fees, Number(fees) / 1e6);
      assert.equal(b.previousBlock, TIP.ancestor);
      assert.equal(b.nextBlock, null, 'the tip has no next block');
      assert.equal(b.confirmations, 1);
      assert.match(b.issuerPoolId, /^pool1/);
      assert.equal(b.protocolVersion, '9.1');
      assert.ok(r.headers.get('etag'));
    });

    it('finds the same block by hash, in either case', async () => {
      const byHash = await api.get(`/api/v1/explorer/blocks/${TIP.id.toUpperCase()}`);
      assert.equal(byHash.status, 200);
      assert.equal((byHash.body as Json).height, TIP.height);
    });

    it('links a block to its successor and counts confirmations from the checkpoint', async () => {
      const r = await api.get(`/api/v1/explorer/blocks/${TIP.height - 1}`);
      assert.equal(r.status, 200);
      assert.equal((r.body as Json).nextBlock, TIP.id);
      assert.equal((r.body as Json).confirmations, 2);
      const older = (await api.get(`/api/v1/explorer/blocks/${EARLIER.height}`)).body as Json;
      assert.equal(older.confirmations, TIP.height - EARLIER.height + 1);
    });

    for (const bad of ['abc', '-1', '1.5', '0110a8ab86de3795', 'g'.repeat(64), '1'.repeat(21)])
      it(`answers 400 for the malformed id ${JSON.stringify(bad)}`, async () => {
        const r = await api.get(`/api/v1/explorer/blocks/${bad}`);
        assert.equal(r.status, 400);
        assert.match((r.body as Json).error, /^invalid parameter id: must be a 64-hex block hash or a block height/);
      });

    it('answers 404 for an unknown height or hash, however far above the tip (as for a pool id)', async () => {
      for (const id of ['99999999', '1234567890123456', '9007199254740993', '9'.repeat(20), 'ab'.repeat(32)]) {
        const r = await api.get(`/api/v1/explorer/blocks/${id}`);
        assert.equal(r.status, 404);
        assert.equal(typeof (r.body as Json).error, 'string');
      }
    });
  });

  describe('GET /explorer/tx/{hash}', () => {
    it('decodes a transaction with whole-ADA amounts and exact lovelace beside them', async () => {
      const r = await api.get(`/api/v1/explorer/tx/${FIRST_TX}`);
      assert.equal(r.status, 200);
      const t = r.body as Json;
      schemaOk(validTx, t);
      assert.deepEqual(t.block, { hash: TIP.id, height: TIP.height, index: 0 });
      assert.equal(t.slot, 144718597);
      assert.equal(t.time, '2025-01-07T21:21:28.000Z');
      assert.equal(t.valid, true);
      assert.equal(t.fee, 0.174785);
      assert.equal(t.feeLovelace, '174785');
      assert.equal(t.outputs[1].address, RECIPIENT);
      assert.equal(t.outputs[1].ada, 8414.601336);
      assert.equal(t.outputs[1].lovelace, '8414601336');
      assert.equal(t.totalOutput, 8442.216708);
      assert.equal(t.confirmations, 1);
      assert.deepEqual(t.validityInterval, { invalidBefore: null, invalidAfter: 144722161 });
      // Both inputs spend outputs older than the indexed blocks: reported, never guessed.
      assert.equal(t.inputs.length, 2);
      for (const i of t.inputs) assert.deepEqual([i.resolved, i.address, i.ada, i.lovelace], [false, null, null, null]);
    });

    it('resolves an input whose output is indexed', async () => {
      const r = await api.get('/api/v1/explorer/tx/cba9fb3981f7a50e69ad6bc36739b2b303dee59b2b1db963e4ceb321ec8d8951');
      const input = ((r.body as Json).inputs as Json[]).find(
        (i) => i.txId === '91a8478f65d9e2c08a4dbccaedd7a33cf01d68608f812f859f6de0491c6c354a' && i.index === 1,
      );
      const spent = EARLIER.transactions?.find((t) => t.id.startsWith('91a8478f'))?.outputs[1];
      assert.ok(input && spent);
      assert.equal(input.resolved, true);
      assert.equal(input.address, spent.address);
      assert.equal(input.lovelace, String(spent.value.ada.lovelace));
    });

    it('lists tokens with decoded names and decimal-adjusted quantities', async () => {
      const r = await api.get('/api/v1/explorer/tx/6928e0fe47fecead17b6b14b058fd7def5194297892212fcb23a721bc916942b');
      const t = r.body as Json;
      schemaOk(validTx, t);
      assert.deepEqual(t.outputs[0].assets, [
        {
          unit: RSERG,
          policyId: '04b95368393c821f180deee8229fbd941baaf9bd748ebcdbf7adbb14',
          nameHex: '7273455247',
          name: 'rsERG',
          quantity: 50000000,
          quantityRaw: '500000000000',
          decimals: 4,
        },
      ]);
      assert.equal(t.referenceInputs.length > 0, true);
      assert.equal(t.collaterals.length > 0, true);
    });

    it('carries metadata, withdrawals and the collateral return of a script transaction', async () => {
      const r = await api.get('/api/v1/explorer/tx/0099ae82e0350929cb343d7fa0dd11ec0661102c2f56e0f66e475c4a95c39f41');
      const t = r.body as Json;
      schemaOk(validTx, t);
      assert.deepEqual(t.metadata, { '674': { msg: ['Minswap: Order Executed'] } });
      assert.deepEqual(t.withdrawals, [
        { stakeAddress: 'stake17y02a946720zw6pw50upt2arvxsvvpvaghjtl054h0f0gjsfyjz59', ada: 0, lovelace: '0' },
      ]);
      assert.equal(t.collateralReturn.ada, 897.276035);
    });

    it('answers 400 for a malformed hash and 404 for an unknown one', async () => {
      const bad = await api.get('/api/v1/explorer/tx/5065ab26');
      assert.equal(bad.status, 400);
      assert.equal((bad.body as Json).error, 'invalid parameter hash: must be 64 hex characters');
      const unknown = await api.get(`/api/v1/explorer/tx/${'0'.repeat(64)}`);
      assert.equal(unknown.status, 404);
      assert.match((unknown.body as Json).error, /not found/);
    });
  });

  describe('GET /explorer/address/{address}', () => {
    it('summarises a payment address', async () => {
      const r = await api.get(`/api/v1/explorer/address/${RECIPIENT}`);
      assert.equal(r.status, 200);
      const a = r.body as Json;
      schemaOk(validAddress, a);
      assert.equal(a.type, 'payment');
      assert.equal(a.addressType, 'base');
      assert.equal(a.script, false);
      assert.equal(a.balance, 8414.601336);
      assert.equal(a.balanceLovelace, '8414601336');
      assert.deepEqual(a.assets, []);
      assert.equal(a.stakeAddress, rewardAddress('mainnet', parseAddress(RECIPIENT).stakeCred as string));
      assert.equal(a.paymentCred, parseAddress(RECIPIENT).paymentCred);
      assert.equal(a.txCount, 1);
      assert.equal(a.utxoCount, 1);
      assert.deepEqual(a.firstActivity, { slot: 144718597, time: '2025-01-07T21:21:28.000Z', txHash: FIRST_TX });
      assert.deepEqual(a.lastActivity, a.firstActivity);
      assert.equal(a.stakeAccount, null, 'no certificate of this key in the indexed range');
    });

    it('flags a script address and shows the delegation of its stake key', async () => {
      const a = (await api.get(`/api/v1/explorer/address/${STAKE_ORDER_ADDRESS}`)).body as Json;
      schemaOk(validAddress, a);
      assert.equal(a.script, true);
      assert.equal(a.stakeAddress, STAKE);
      assert.equal(a.stakeAccount.poolId, STAKE_ACCOUNT_POOL);
      assert.equal(a.stakeAccount.deposit, 2);
    });

    it('combines every address of a stake key, counting a transaction that touches two of them once', async () => {
      const r = await api.get(`/api/v1/explorer/address/${STAKE}`);
      assert.equal(r.status, 200);
      const s = r.body as Json;
      schemaOk(validAddress, s);
      assert.equal(s.type, 'stake');
      assert.equal(s.addressCount, 2);
      assert.equal(s.complete, true);
      assert.deepEqual(
        (s.addresses as Json[]).map((a) => a.address).sort(),
        [STAKE_CHANGE_ADDRESS, STAKE_ORDER_ADDRESS].sort(),
      );
      // 304 ADA to the order script, 2 + 2610.886677 ADA of change: three unspent outputs.
      assert.equal(s.balanceLovelace, '2916886677');
      assert.equal(s.balance, 2916.886677);
      assert.equal(s.utxoCount, 3);
      assert.equal(s.txCount, 1);
      assert.equal(s.txCountExact, true);
      assert.equal(s.firstActivity.txHash, DEXHUNTER_TX);
      assert.deepEqual(s.stakeAccount, {
        registered: true,
        poolId: STAKE_ACCOUNT_POOL,
        drep: null,
        deposit: 2,
        depositLovelace: '2000000',
        withdrawn: 0,
        withdrawnLovelace: '0',
        // No staking recompute has asked a ledger for this key's reward account.
        rewards: null,
        rewardsLovelace: null,
        rewardsAsOf: null,
      });
    });

    const cred = 'ab'.repeat(28);
    const cases: { name: string; address: string; error: RegExp }[] = [
      { name: 'not an address', address: 'hello-world', error: /^invalid parameter address/ },
      { name: 'a broken bech32 checksum', address: RECIPIENT.slice(0, -1) + 'q', error: /^invalid parameter address/ },
      {
        name: 'a testnet address',
        address: baseAddress('testnet', cred, cred),
        error: /^address is for testnet, this service indexes mainnet$/,
      },
      {
        name: 'a testnet stake address',
        address: rewardAddress('testnet', cred),
        error: /^address is for testnet, this service indexes mainnet$/,
      },
    ];
    for (const c of cases)
      it(`answers 400 for ${c.name}`, async () => {
        const r = await api.get(`/api/v1/explorer/address/${encodeURIComponent(c.address)}`);
        assert.equal(r.status, 400);
        assert.match((r.body as Json).error, c.error);
      });

    it('answers 404 for well-formed addresses the index has not seen', async () => {
      const cred = 'cd'.repeat(28);
      for (const address of [
        baseAddress('mainnet', cred, cred),
        enterpriseAddress('mainnet', cred),
        rewardAddress('mainnet', cred),
      ]) {
        const r = await api.get(`/api/v1/explorer/address/${address}`);
        assert.equal(r.status, 404, address);
        assert.match((r.body as Json).error, /not found/);
      }
    });
  });

  it('accepts logos=url and rejects other values on every route', async () => {
    assert.equal((await api.get(`/api/v1/explorer/tx/${FIRST_TX}?logos=url`)).status, 200);
    const r = await api.get(`/api/v1/explorer/tx/${FIRST_TX}?logos=bogus`);
    assert.equal(r.status, 400);
    assert.equal((r.body as Json).error, 'invalid parameter logos: must be one of url');
  });
});

describe('explorer REST routes racing the sync', () => {
  it('a transaction of a block written after the checkpoint was read is confirmed once, as its block is', async () => {
    // The route reads the checkpoint and the transaction at once; the sync may commit the next block between the two
    // reads. Seen from the answer, the checkpoint still names the block before the transaction's.
    const raced = async (store: Store) => {
      await seedChain(store);
      const before = { slot: EARLIER.slot ?? 0, id: EARLIER.id, height: EARLIER.height };
      await store.write([
        put(CHECKPOINTS, {
          _id: 'sync',
          ...before,
          points: [before],
          tip: before,
          updatedAt: new Date().toISOString(),
        }),
      ]);
    };
    const api = await startTestApi(raced);
    try {
      assert.ok(EARLIER.height < TIP.height);
      const tx = (await api.get(`/api/v1/explorer/tx/${FIRST_TX}`)).body as Json;
      assert.equal(tx.block.height, TIP.height);
      const block = (await api.get(`/api/v1/explorer/blocks/${TIP.height}`)).body as Json;
      assert.equal(block.confirmations, 1);
      // It is in an indexed block: at least that block confirms it.
      assert.equal(tx.confirmations, 1);
    } finally {
      await api.close();
    }
  });
});

describe('explorer REST routes while the index is behind the chain (a first sync or a resync catching up)', () => {
  // The source reported its tip 100 blocks above the indexed one (the last slice's record): blocks up to that height
  // are on the chain, whatever the index holds yet.
  const CHAIN_TIP = TIP.height + 100;
  let api: TestApi;
  before(async () => {
    api = await startTestApi((store) => seedChainBehind(store, CHAIN_TIP));
  });
  after(() => api.close());

  it('a block height the chain holds above the indexed tip is "not indexed yet", not plainly "not found"', async () => {
    const r = await api.get(`/api/v1/explorer/blocks/${TIP.height + 50}`);
    assert.equal(r.status, 404);
    assert.equal(
      (r.body as Json).error,
      `block ${TIP.height + 50} is not indexed yet (the index reaches height ${TIP.height} of the chain's ` +
        `${CHAIN_TIP} and is catching up; retry shortly)`,
    );
    // Above the chain's tip it does not exist (yet): not found.
    const beyond = await api.get(`/api/v1/explorer/blocks/${CHAIN_TIP + 1}`);
    assert.equal(beyond.status, 404);
    assert.equal((beyond.body as Json).error, `block ${CHAIN_TIP + 1} not found`);
    // So is a height beyond 2^53 (the route takes up to 20 digits): no chain reaches it, it is not "found later"
    // and not "before the indexed history".
    for (const height of ['9007199254740993', '99999999999999999999']) {
      const huge = await api.get(`/api/v1/explorer/blocks/${height}`);
      assert.equal(huge.status, 404);
      assert.equal((huge.body as Json).error, `block ${height} not found`);
    }
  });

  it('an unknown block hash or transaction says the index has not reached the chain tip yet', async () => {
    const hash = 'cd'.repeat(32);
    const reach = `the index reaches height ${TIP.height} of the chain's ${CHAIN_TIP} and is catching up`;
    // The seeded chain starts after origin, at recorded mainnet block 11322286 (EARLIER, whose header names its
    // ancestor): older is not indexed either.
    const older = `the indexed history starts at block ${EARLIER.height}, 2025-01-07T21:13:51.000Z: anything older is not indexed`;
    const block = await api.get(`/api/v1/explorer/blocks/${hash}`);
    assert.equal(block.status, 404);
    assert.equal(
      (block.body as Json).error,
      `block ${hash} not found in the indexed chain (${reach}, so it may be found later; ${older})`,
    );
    const tx = await api.get(`/api/v1/explorer/tx/${hash}`);
    assert.equal(tx.status, 404);
    assert.equal(
      (tx.body as Json).error,
      `transaction ${hash} not found in the indexed chain (${reach}, so it may be found later; ${older})`,
    );
    // What the index holds is served as before.
    assert.equal((await api.get(`/api/v1/explorer/blocks/${TIP.height}`)).status, 200);
  });

  it('an address or stake key without indexed activity says the index has not reached the chain tip yet', async () => {
    const reach = `the index reaches height ${TIP.height} of the chain's ${CHAIN_TIP} and is catching up`;
    // Its activity before the indexed history is not seen either.
    const older = `the indexed history starts at block ${EARLIER.height}, 2025-01-07T21:13:51.000Z: anything older is not indexed`;
    const cred = 'cd'.repeat(28);
    for (const [what, address] of [
      ['address', baseAddress('mainnet', cred, cred)],
      ['address', enterpriseAddress('mainnet', cred)],
      ['stake address', rewardAddress('mainnet', cred)],
    ]) {
      const r = await api.get(`/api/v1/explorer/address/${address}`);
      assert.equal(r.status, 404, address);
      assert.equal(
        (r.body as Json).error,
        `${what} ${address} not found in the indexed chain (${reach}, so it may be found later; ${older})`,
      );
    }
  });
});
