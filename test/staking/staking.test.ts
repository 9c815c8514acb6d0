/**
 * The staking recompute on hand-built documents (no chain source: live stake = Σ delegators' address balances),
 * the metadata hash check with a fake fetcher, and the REST answers: shapes, paging, 400 and 404.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { BlockList, type AddressInfo } from 'node:net';
import { estimatedRoa, maxPoolReward, realisedRoa, type RewardModel } from '../../activities/staking/compute.js';
import { createStakingActivities, rewardBalances } from '../../activities/staking/index.js';
import { OgmiosConnectionError, OgmiosTimeoutError } from '../../activities/chain/ogmios-client.js';
import { fetchPoolMetadata, httpMetadataFetcher, MAX_METADATA_BYTES } from '../../activities/staking/metadata.js';
import { stakingRoutes } from '../../api/routes/staking.js';
import { ajv } from '../../api/schema.js';
import { hash256, poolIdFromHash, rewardAddress } from '../../cardano/address.js';
import {
  ADDRESSES,
  ALL_COLLECTIONS,
  BLOCKS,
  STAKE_ACCOUNTS,
  STAKE_POOL_REGS,
  STAKE_POOLS,
  type StakeAccountDoc,
} from '../../mongo/collections/index.js';
import { openMemoryStore } from '../../mongo/adapters/embedded.js';
import { put, type Store, type WriteOp } from '../../mongo/store.js';
import { startTestApi, type TestApi } from '../api/seed.js';
import type { ChainSource } from '../../activities/chain/source.js';
import { callToolOnce } from '../mcp/call-once.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies
const enc = new TextEncoder();
const POOLS = Array.from({ length: 5 }, (_, i) => poolIdFromHash(String(i + 1).repeat(56)));
const stake = (i: number) => rewardAddress('mainnet', (i + 10).toString(16).padStart(2, '0').repeat(28));
const META = enc.encode(JSON.stringify({ name: 'Pool Zero', ticker: 'ZERO', description: 'd', homepage: 'https://z' }));

/** A registered stake key (`credential` hex, '' when no test reads it) delegating to `poolId`. */
const delegatingKey = (stakeAddress: string, credential: string, poolId: string): WriteOp =>
  put(STAKE_ACCOUNTS, {
    _id: stakeAddress,
    credential,
    script: false,
    registered: true,
    deposit: '2000000',
    poolId,
    drep: null,
    withdrawn: '0',
    slot: 1,
  });

/** An address under `stakeAddress` holding `lovelace` and no token. */
const keyAddress = (id: string, stakeAddress: string, lovelace: bigint): WriteOp =>
  put(ADDRESSES, {
    _id: id,
    stakeAddress,
    paymentCred: null,
    script: false,
    balance: { lovelace: String(lovelace), assets: {} },
    utxoCount: 1,
    txCount: 1,
    firstSlot: 1,
    lastSlot: 1,
    slot: 1,
  });

async function seed(store: Store): Promise<void> {
  const ops: WriteOp[] = [];
  POOLS.forEach((id, i) => {
    ops.push(
      put(STAKE_POOL_REGS, {
        _id: id,
        params: {
          id,
          cost: { ada: { lovelace: '340000000' } },
          pledge: { ada: { lovelace: String((i + 1) * 1_000_000_000) } },
          margin: '1/50',
          metadata: { url: `https://p${i}.example/m.json`, hash: hash256(META) },
        },
        registeredSlot: 100,
        retiringEpoch: i === 4 ? 3 : null,
        blocksMinted: 10 + i,
        slot: 100,
      }),
    );
    // Pool i has i + 1 delegators of 1,000 ADA each (two addresses of 500 each).
    for (let j = 0; j <= i; j++) {
      const s = stake(i * 10 + j);
      ops.push(delegatingKey(s, '', id), ...[0, 1].map((k) => keyAddress(`addr_${i}_${j}_${k}`, s, 500_000_000n)));
    }
  });
  // Epoch 5: pool 0 made two blocks, pool 1 one; epoch 4 blocks do not count.
  const blocks: [number, number, string][] = [
    [1, 4, POOLS[0]!],
    [2, 5, POOLS[0]!],
    [3, 5, POOLS[1]!],
    [4, 5, POOLS[0]!],
  ];
  for (const [h, epoch, poolId] of blocks)
    ops.push(
      put(BLOCKS, {
        _id: `b${h}`,
        height: h,
        slot: h,
        time: '',
        epoch,
        era: 'conway',
        prevHash: '',
        size: 0,
        txCount: 0,
        fees: '0',
        totalOutput: '0',
        issuerVkey: null,
        poolId,
        protocolVersion: null,
        txIds: [],
      }),
    );
  await store.write(ops);
  const fetchMetadata = async (url: string) => (url.includes('p0.') ? META : enc.encode('{"ticker":"FAKE"}'));
  await createStakingActivities({ store, fetchMetadata, now: () => Date.UTC(2026, 0, 1) }).recomputeStakePools();
}

/**
 * A chain source answering the staking run's ledger queries from `ledger` (epochs of 432,000 one-second slots); an
 * Error there is thrown for its query.
 */
const ledgerChain = (ledger: Record<string, unknown>) =>
  ({
    query: async (method: string) => {
      if (ledger[method] instanceof Error) throw ledger[method];
      if (method in ledger) return ledger[method];
      throw new Error(`${method} not answered`);
    },
    networkTime: async () => ({
      startTimeMs: 0,
      startSlot: 0,
      slotLengthMs: 1000,
      epochLength: 432_000,
      startEpoch: 0,
    }),
  }) as unknown as ChainSource;

/**
 * One registered pool, its owner's 1.5 M ADA key and one other delegator (`stake(other)` holding `otherLovelace`),
 * then a staking run over `chain`'s ledger answers (at 2026-01-01).
 */
async function seedOnePool(
  store: Store,
  chain: ChainSource,
  pool: { id: string; owner: string; params: Record<string, unknown>; other: number; otherLovelace: bigint },
): Promise<void> {
  const owner = rewardAddress('mainnet', pool.owner);
  await store.write([
    put(STAKE_POOL_REGS, {
      _id: pool.id,
      params: pool.params,
      registeredSlot: 100,
      retiringEpoch: null,
      blocksMinted: 0,
      slot: 100,
    }),
    delegatingKey(owner, pool.owner, pool.id),
    keyAddress('addr_owner', owner, 1_500_000n * 1_000_000n),
    delegatingKey(stake(pool.other), '', pool.id),
    keyAddress('addr_other', stake(pool.other), pool.otherLovelace),
  ]);
  await createStakingActivities({ store, chain, now: () => Date.UTC(2026, 0, 1) }).recomputeStakePools();
}

describe('stake pools', () => {
  describe('returns (Shelley rewards model)', () => {
    // Mainnet-like figures: k = 500 (z0 = 0.002), a0 = 0.3, circulation 30 B ADA, pot R = 13 M ADA, 5-day epochs
    // (73 a year). A 30 M ADA pool (σ = 0.001) pledging 1 M ADA (s = 1/30,000):
    // maxPool = R/1.3 · (σ + s·a0·(σ − s(z0 − σ)/z0)/z0) = 10 M ADA · 0.00100491667 = 10,049.1667 ADA.
    const model: RewardModel = {
      pot: 13_000_000_000_000n,
      totalStake: 30_000_000_000_000_000n,
      nOpt: 500,
      a0: 0.3,
      epochsPerYear: 73,
    };
    const pool = { stake: 30_000_000_000_000n, pledge: 1_000_000_000_000n, cost: 340_000_000n, margin: 0.01 };

    it('pays maxPool with the pledge term, capped at saturation', () => {
      assert.ok(Math.abs((maxPoolReward(pool.stake, pool.pledge, model) as number) - 10_049_166_666.67) < 1);
      // Twice the saturation point earns what the saturation point earns.
      const sat = maxPoolReward(60_000_000_000_000n, pool.pledge, model) as number;
      assert.equal(maxPoolReward(120_000_000_000_000n, pool.pledge, model), sat);
      assert.equal(maxPoolReward(pool.stake, pool.pledge, { ...model, pot: null }), null);
    });

    it("estimates the delegators' yearly return: (maxPool − cost)(1 − margin) / stake × epochs a year", () => {
      // (10,049.1667 − 340) · 0.99 / 30 M · 73 = 0.0233894
      assert.ok(Math.abs((estimatedRoa(pool, model) as number) - 0.0233894) < 1e-6);
    });

    it('realises maxPool × performance, and nothing when the owners fall short of the pledge', () => {
      const last = { ...pool, performance: 0.9, ownerStake: 1_500_000_000_000n };
      // (10,049.1667 · 0.9 − 340) · 0.99 / 30 M · 73 = 0.0209685
      assert.ok(Math.abs((realisedRoa(last, model) as number) - 0.0209685) < 1e-6);
      assert.equal(realisedRoa({ ...last, ownerStake: 999_999_999_999n }, model), 0);
      assert.equal(realisedRoa({ ...last, performance: null }, model), null);
    });
  });

  describe('metadata', () => {
    it('takes the fields only when the bytes hash to the registered hash', async () => {
      const ok = await fetchPoolMetadata('u', hash256(META), async () => META);
      assert.deepEqual(ok, {
        verified: true,
        metadata: { ticker: 'ZERO', name: 'Pool Zero', description: 'd', homepage: 'https://z' },
      });
      const bad = await fetchPoolMetadata('u', hash256(META), async () => enc.encode('{"ticker":"EVIL"}'));
      assert.equal(bad.verified, false);
      const down = await fetchPoolMetadata('u', hash256(META), async () => Promise.reject(new Error('ECONNREFUSED')));
      assert.equal(down.verified, null);
    });

    it('fetches over HTTP with a size cap and a timeout, and only what the resolver allows', async () => {
      const server = http.createServer((req, res) => {
        if (req.url === '/big') res.end('x'.repeat(MAX_METADATA_BYTES * 4));
        else if (req.url === '/slow') setTimeout(() => res.end(META), 2000).unref();
        else res.end(META);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        const f = httpMetadataFetcher({
          timeoutMs: 300,
          resolve: (u) => (u.startsWith('https://ok/') ? base + u.slice(10) : null),
        });
        assert.equal((await fetchPoolMetadata('https://ok/m', hash256(META), f)).verified, true);
        const big = await fetchPoolMetadata('https://ok/big', hash256(META), f);
        assert.deepEqual(big, { verified: false, reason: `larger than ${MAX_METADATA_BYTES} bytes` });
        const slow = await fetchPoolMetadata('https://ok/slow', hash256(META), f);
        assert.equal(slow.verified, null);
        const refused = await fetchPoolMetadata('https://elsewhere/m', hash256(META), f);
        assert.deepEqual(refused, { verified: null, reason: 'fetch failed: URL not served on this network' });
      } finally {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });
    it('never connects to a non-public address for a URL from a certificate, also after a redirect', async () => {
      // Two loopback servers serving the registered metadata: each request they get is the worker reaching them.
      const hits: string[] = [];
      const servers = ['127.0.0.1', '127.0.0.2'].map((host) =>
        http.createServer((req, res) => {
          hits.push(`${host}${req.url}`);
          const port = (servers[1]!.address() as AddressInfo).port;
          if (req.url === '/inside') res.writeHead(302, { location: `http://127.0.0.2:${port}/m` }).end();
          else if (req.url === '/moved') res.writeHead(301, { location: '/m' }).end();
          else res.end(META);
        }),
      );
      await Promise.all(
        servers.map((s, i) => new Promise<void>((resolve) => s.listen(0, `127.0.0.${i + 1}`, resolve))),
      );
      const port = (servers[0]!.address() as AddressInfo).port;
      try {
        const f = httpMetadataFetcher({ timeoutMs: 2000 });
        for (const url of [
          `http://127.0.0.1:${port}/m`,
          `http://localhost:${port}/m`,
          `http://[::ffff:127.0.0.1]:${port}/m`,
          `http://2130706433:${port}/m`, // 127.0.0.1 as one number
          'http://169.254.169.254/latest/meta-data/',
          'http://10.0.0.1/m',
        ]) {
          const r = await fetchPoolMetadata(url, hash256(META), f);
          assert.equal(r.verified, null, url);
          assert.match((r as { reason: string }).reason, /is not a public address/, url);
        }
        assert.deepEqual(hits, []);

        // With only 127.0.0.2 out of bounds: a redirect there is refused before connecting; other hops are followed.
        const blocked = new BlockList();
        blocked.addAddress('127.0.0.2');
        const g = httpMetadataFetcher({ timeoutMs: 2000, blocked });
        assert.equal((await fetchPoolMetadata(`http://127.0.0.1:${port}/moved`, hash256(META), g)).verified, true);
        const inside = await fetchPoolMetadata(`http://127.0.0.1:${port}/inside`, hash256(META), g);
        assert.deepEqual(inside, { verified: null, reason: 'fetch failed: 127.0.0.2 is not a public address' });
        assert.deepEqual(hits, ['127.0.0.1/moved', '127.0.0.1/m', '127.0.0.1/inside']);
      } finally {
        for (const s of servers) {
          s.closeAllConnections();
          await new Promise<void>((resolve) => s.close(() => resolve()));
        }
      }
    });
  });

  describe('metadata retries', () => {
    const T = Date.UTC(2026, 0, 1);
    const MIN = 60_000;
    it('a document that could not be fetched is tried again after 5, 10, 20 … minutes; one that did not match after an hour', async () => {
      const store = await openMemoryStore();
      await store.ensureIndexes(ALL_COLLECTIONS);
      try {
        // The seed's run at T verified pool 0 and found pools 1-4 serving other bytes (hash mismatch).
        await seed(store);
        const fetched: string[] = [];
        let p1: 'down' | 'up' = 'down';
        const fetchMetadata = async (url: string) => {
          fetched.push(url);
          if (url.includes('p1.') && p1 === 'down') throw new Error('The operation was aborted');
          return url.includes('p1.') || url.includes('p0.') ? META : enc.encode('{"ticker":"FAKE"}');
        };
        const runAt = async (ms: number) => {
          fetched.length = 0;
          await createStakingActivities({ store, fetchMetadata, now: () => ms }).recomputeStakePools();
          return fetched.map((u) => /p(\d)\./.exec(u)?.[1]).sort();
        };
        const meta = async (i: number) => (await store.collection(STAKE_POOLS).get(POOLS[i]!))?.meta;
        // An hour after the mismatches every one is fetched again; pool 1's host now times out.
        assert.deepEqual(await runAt(T + 60 * MIN), ['1', '2', '3', '4']);
        assert.deepEqual(
          [(await meta(1))?.verified, (await meta(1))?.reason],
          [null, 'fetch failed: The operation was aborted'],
        );
        assert.deepEqual(await runAt(T + 64 * MIN), [], 'nothing is due 4 minutes later');
        assert.deepEqual(await runAt(T + 65 * MIN), ['1'], 'the unreachable one, 5 minutes after it failed');
        assert.deepEqual(await runAt(T + 74 * MIN), [], 'a second miss in a row waits 10 minutes');
        p1 = 'up';
        assert.deepEqual(await runAt(T + 75 * MIN), ['1']);
        assert.deepEqual([(await meta(1))?.verified, (await meta(1))?.name], [true, 'Pool Zero']);
        // The mismatches are fetched again an hour after their last fetch, not sooner.
        assert.deepEqual(await runAt(T + 119 * MIN), []);
        assert.deepEqual(await runAt(T + 120 * MIN), ['2', '3', '4']);
      } finally {
        await store.close();
      }
    });
  });

  describe('REST', () => {
    let api: TestApi;
    before(async () => {
      api = await startTestApi(seed);
    });
    after(() => api.close());

    it('lists pools by live stake with whole ADA and fractions, paged', async () => {
      const r = await api.get('/api/v1/staking/pools?pageSize=2&page=1');
      assert.equal(r.status, 200);
      assert.ok(ajv.validate(stakingRoutes.list.response, r.body), JSON.stringify(ajv.errors));
      const b = r.body as Json;
      assert.equal(b.total, 5);
      // Pool 4 retired at epoch 3: the ledger dropped its delegations then, so it has no live stake and ranks last.
      assert.deepEqual(
        b.items.map((x: Json) => x.id),
        [POOLS[3], POOLS[2]],
      );
      assert.equal(b.items[0].liveStake, 4000);
      assert.equal(b.items[0].delegators, 4);
      assert.equal(b.items[0].margin, 0.02);
      assert.equal(b.items[0].fixedCost, 340);
      assert.equal(b.items[0].pledge, 4000);
      const p3 = (await api.get('/api/v1/staking/pools?pageSize=2&page=3')).body as Json;
      assert.deepEqual(
        p3.items.map((x: Json) => x.id),
        [POOLS[4]],
      );
      assert.equal(p3.items[0].liveStake, 0);
      assert.equal(p3.items[0].delegators, 0);
      // A page past the end is empty but still names the snapshot it is empty of, as page 1 does.
      const p9 = (await api.get('/api/v1/staking/pools?pageSize=2&page=9')).body as Json;
      assert.deepEqual(p9.items, []);
      assert.equal(p9.total, 5);
      assert.deepEqual([p9.epoch, p9.computedAt], [b.epoch, b.computedAt]);
      assert.ok(p9.epoch !== null && p9.computedAt !== null);
      assert.equal((await api.get('/api/v1/staking/pools?pageSize=201')).status, 400);
    });

    it('answers one pool with verified metadata, performance and top delegators', async () => {
      const r = await api.get(`/api/v1/staking/pools/${POOLS[0]}`);
      assert.equal(r.status, 200);
      assert.ok(ajv.validate(stakingRoutes.detail.response, r.body), JSON.stringify(ajv.errors));
      const b = r.body as Json;
      assert.equal(b.ticker, 'ZERO');
      assert.equal(b.metadata.verified, true);
      assert.equal(b.performance.blocksThisEpoch, 2);
      assert.equal(b.performance.blocksMinted, 10);
      assert.equal(b.delegatorsSummary.count, 1);
      assert.equal(b.delegatorsSummary.delegatedStake, 1000);
      assert.equal(b.status, 'active');
      const other = (await api.get(`/api/v1/staking/pools/${POOLS[1]}`)).body as Json;
      assert.equal(other.ticker, null, 'metadata that does not match its hash is not shown');
      assert.equal(other.metadata.verified, false);
      assert.equal(((await api.get(`/api/v1/staking/pools/${POOLS[4]}`)).body as Json).status, 'retired');
    });

    it('list_stake_pools ranks the retired pool after every pool one can delegate to, in each order', async () => {
      // Pool 4 retired at epoch 3 and pledged the most (5,000 ADA against 1,000-4,000): sorted by pledge it came first,
      // so an agent asking for the pools with the most pledge was offered one nobody can delegate to.
      for (const sort of ['pledge', 'margin', 'fixedCost', 'liveStake', 'roa']) {
        const { message } = await callToolOnce(api.url, 'list_stake_pools', { sort, limit: 20 });
        const items = (message.result.structuredContent as Json).items as Json[];
        assert.equal(items.length, 5, sort);
        assert.equal(items[4]?.id, POOLS[4], `${sort}: ${items.map((p) => p.id).join(', ')}`);
        assert.equal(items[4]?.status, 'retired');
      }
      const { message } = await callToolOnce(api.url, 'list_stake_pools', { sort: 'pledge', limit: 20 });
      const pledges = ((message.result.structuredContent as Json).items as Json[]).map((p) => p.pledge);
      assert.deepEqual(pledges, [4_000, 3_000, 2_000, 1_000, 5_000]);
    });

    it('rejects a malformed pool id with 400 and an unknown one with 404', async () => {
      for (const bad of [
        'abc',
        'stake1uxt4uu2d5l4f7amgv75rauk3stxmx69pwfwmum9vtyjww2g7uhk22',
        POOLS[0]!.slice(0, -1) + 'q',
      ]) {
        const r = await api.get(`/api/v1/staking/pools/${bad}`);
        assert.equal(r.status, 400, bad);
        assert.equal(typeof (r.body as Json).error, 'string');
      }
      const r = await api.get(`/api/v1/staking/pools/${poolIdFromHash('ab'.repeat(28))}`);
      assert.equal(r.status, 404);
    });

    it('a pool id in another form is refused with the pool1… id to send instead', async () => {
      // The key hash as the detail answer (and explorers) show it, and the id in capitals.
      const { hash } = (await api.get(`/api/v1/staking/pools/${POOLS[0]}`)).body as Json;
      for (const [given, hint] of [
        [hash as string, `this key hash is stake pool ${POOLS[0]}`],
        [(hash as string).toUpperCase(), `this key hash is stake pool ${POOLS[0]}`],
        [POOLS[0]!.toUpperCase(), `write it in lowercase: ${POOLS[0]}`],
      ] as const) {
        const r = await api.get(`/api/v1/staking/pools/${given}`);
        assert.equal(r.status, 400, given);
        assert.equal((r.body as Json).error, `invalid parameter id: must be a bech32 pool id (pool1…); ${hint}`);
      }
      // A mistyped id in capitals (its last character changed: the checksum fails in either case) gets no hint: its
      // lowercase text is no pool id either, so naming it would send the caller to a second 400.
      const typo = (POOLS[0]!.slice(0, -1) + (POOLS[0]!.endsWith('q') ? 'p' : 'q')).toUpperCase();
      const r = await api.get(`/api/v1/staking/pools/${typo}`);
      assert.equal(r.status, 400);
      assert.doesNotMatch((r.body as Json).error, /write it in lowercase/, (r.body as Json).error);
      const sent = await api.get(`/api/v1/staking/pools/${typo.toLowerCase()}`);
      assert.equal(sent.status, 400, 'the lowercase text is no pool id');
    });
  });
  describe("a pool whose owners' live stake is below its pledge", () => {
    // Mainnet-like ledger answers (k = 500, a0 = 0, circulation 30 B ADA, pot R = 13 M ADA, 5-day epochs: 73 a
    // year). Two pools of 30 M ADA live stake pledging 1 M ADA, cost 340 ADA, margin 1 %; the owner of MET holds
    // 1.5 M ADA delegated to it, the owner of SHORT 999,999 ADA. The Shelley reward rule pays a pool nothing when its
    // owners' stake is below the pledge (maxPool is 0), so its delegators' estimated return is 0, not the 3 % of MET:
    // (13 M · 0.001 − 340) · 0.99 / 30 M · 73 = 0.030498.
    const ADA = 1_000_000n;
    const MET = poolIdFromHash('a1'.repeat(28));
    const SHORT = poolIdFromHash('b2'.repeat(28));
    const ownerOf = { [MET]: 'c3'.repeat(28), [SHORT]: 'd4'.repeat(28) };
    const ownerAda = { [MET]: 1_500_000n, [SHORT]: 999_999n };
    const params = (id: string) => ({
      id,
      owners: [ownerOf[id]],
      cost: { ada: { lovelace: String(340n * ADA) } },
      pledge: { ada: { lovelace: String(1_000_000n * ADA) } },
      margin: '1/100',
    });
    const ledger: Record<string, unknown> = {
      'queryLedgerState/epoch': 5,
      'queryLedgerState/stakePools': Object.fromEntries(
        [MET, SHORT].map((id) => [id, { ...params(id), stake: { ada: { lovelace: String(30_000_000n * ADA) } } }]),
      ),
      'queryLedgerState/protocolParameters': { desiredNumberOfStakePools: 500 },
      'queryLedgerState/stakePoolsPerformances': {
        stakePoolPledgeInfluence: '0/1',
        totalRewardsInEpoch: { ada: { lovelace: String(13_000_000n * ADA) } },
        totalStakeInEpoch: { ada: { lovelace: String(30_000_000_000n * ADA) } },
        stakePools: {},
      },
      'queryLedgerState/rewardAccountSummaries': [],
    };
    const chain = ledgerChain(ledger);

    async function seedPledges(store: Store): Promise<void> {
      const ops: WriteOp[] = [];
      for (const id of [MET, SHORT]) {
        ops.push(
          put(STAKE_POOL_REGS, {
            _id: id,
            params: params(id),
            registeredSlot: 100,
            retiringEpoch: null,
            blocksMinted: 0,
            slot: 100,
          }),
        );
        // The owner's key and one other delegator, together the 30 M ADA the ledger reports.
        const owner = ownerOf[id] as string;
        const other = id === MET ? 'e5'.repeat(28) : 'f6'.repeat(28);
        for (const [cred, ada] of [
          [owner, ownerAda[id] as bigint],
          [other, 30_000_000n - (ownerAda[id] as bigint)],
        ] as const) {
          const s = rewardAddress('mainnet', cred);
          ops.push(delegatingKey(s, cred, id), keyAddress(`addr_${cred}`, s, ada * ADA));
        }
      }
      await store.write(ops);
      await createStakingActivities({ store, chain, now: () => Date.UTC(2026, 0, 1) }).recomputeStakePools();
    }

    let api: TestApi;
    before(async () => {
      api = await startTestApi(seedPledges);
    });
    after(() => api.close());

    it('estimates 0 for its delegators and says the pledge is not met; the other pool keeps its estimate', async () => {
      const met = (await api.get(`/api/v1/staking/pools/${MET}`)).body as Json;
      const short = (await api.get(`/api/v1/staking/pools/${SHORT}`)).body as Json;
      assert.ok(ajv.validate(stakingRoutes.detail.response, short), JSON.stringify(ajv.errors));
      assert.equal(short.liveStake, met.liveStake);
      assert.equal(short.roa, 0);
      assert.equal(short.performance.estimatedRoa, 0);
      assert.ok(Math.abs(met.roa - 0.0304982) < 1e-6, String(met.roa));
      assert.equal(met.pledgeMet, true);
      assert.equal(met.ownerStake, 1_500_000);
      assert.equal(short.pledgeMet, false);
      assert.equal(short.ownerStakeLovelace, String(999_999n * ADA));
      const md = await fetch(`${api.url}/api/md/stake-pool/${SHORT}`).then((r) => r.text());
      assert.match(md, /Owners' live stake \(ADA\) \| 999,999 \(below the pledge/);
    });
  });
  describe('a pool that registered new parameters since the last completed epoch', () => {
    // Mainnet-like ledger answers (k = 500, a0 = 0, circulation 30 B ADA, pot R = 13 M ADA, 5-day epochs: 73 a year).
    // The pool had 30 M ADA of active stake and produced its ideal share (performance 1) under cost 170 ADA, margin
    // 1 %, pledge 1 M ADA, its owner's 1.5 M ADA meeting it; since then it registered cost 340 ADA, margin 5 % and a
    // 2 M ADA pledge, in force from the next epoch. What the ledger paid its delegators for the epoch, annualised:
    // maxPool = 13 M · min(30 M / 30 B, 1/500) = 13,000 ADA; (13,000 − 170) · 0.99 / 30 M · 73 = 0.0309075.
    const ADA = 1_000_000n;
    const ID = poolIdFromHash('a7'.repeat(28));
    const OWNER = 'c8'.repeat(28);
    const updated = {
      id: ID,
      owners: [OWNER],
      cost: { ada: { lovelace: String(340n * ADA) } },
      pledge: { ada: { lovelace: String(2_000_000n * ADA) } },
      margin: '1/20',
    };
    const ledger: Record<string, unknown> = {
      'queryLedgerState/epoch': 5,
      'queryLedgerState/stakePools': { [ID]: { ...updated, stake: { ada: { lovelace: String(30_000_000n * ADA) } } } },
      'queryLedgerState/protocolParameters': { desiredNumberOfStakePools: 500 },
      'queryLedgerState/stakePoolsPerformances': {
        stakePoolPledgeInfluence: '0/1',
        totalRewardsInEpoch: { ada: { lovelace: String(13_000_000n * ADA) } },
        totalStakeInEpoch: { ada: { lovelace: String(30_000_000_000n * ADA) } },
        stakePools: {
          [ID]: {
            id: ID,
            stake: { ada: { lovelace: String(30_000_000n * ADA) } },
            ownerStake: { ada: { lovelace: String(1_500_000n * ADA) } },
            approximatePerformance: 1,
            parameters: {
              cost: { ada: { lovelace: String(170n * ADA) } },
              margin: '1/100',
              pledge: { ada: { lovelace: String(1_000_000n * ADA) } },
            },
          },
        },
      },
      'queryLedgerState/rewardAccountSummaries': [],
    };
    const chain = ledgerChain(ledger);

    let api: TestApi;
    before(async () => {
      api = await startTestApi((store) =>
        seedOnePool(store, chain, {
          id: ID,
          owner: OWNER,
          params: updated,
          other: 90,
          otherLovelace: 28_500_000n * ADA,
        }),
      );
    });
    after(() => api.close());

    it("realises the last epoch's return under the terms it was paid by, not the update's", async () => {
      const body = (await api.get(`/api/v1/staking/pools/${ID}`)).body as Json;
      // Before, the update's 2 M pledge (above the owner's 1.5 M) made it 0, and its cost and margin would have
      // priced the epoch at (13,000 − 340) · 0.95 / 30 M · 73 = 0.0292702.
      assert.ok(Math.abs(body.performance.realisedRoa - 0.0309075) < 1e-6, String(body.performance.realisedRoa));
      // The pool's terms and the estimate going forward are the update's: its owner no longer meets the pledge.
      assert.equal(body.margin, 0.05);
      assert.equal(body.fixedCost, 340);
      assert.equal(body.pledgeMet, false);
      assert.equal(body.performance.estimatedRoa, 0);
    });
  });
  describe('a desired number of pools (k) changed at the last epoch boundary', () => {
    // The last completed epoch was paid at k = 500 (stakePoolsPerformances says so); a parameter change enacted at the
    // boundary since made it 1,000 (protocolParameters). The pool had 60 M ADA of active stake, exactly saturated at
    // k = 500 (circulation 30 B / 500), performance 1, cost 170 ADA, margin 1 %, its pledge met; R = 13 M ADA, 73
    // epochs a year. What the ledger paid its delegators for that epoch, annualised (Shelley maxPool, a0 = 0):
    // 13 M · min(60 M / 30 B, 1/500) = 26,000 ADA; (26,000 − 170) · 0.99 / 60 M · 73 = 0.03111224. Priced at the new
    // k the pool would be capped at 1/1,000: (13,000 − 170) · 0.99 / 60 M · 73 = 0.01545374.
    const ADA = 1_000_000n;
    const ID = poolIdFromHash('b9'.repeat(28));
    const OWNER = 'd4'.repeat(28);
    const params = {
      id: ID,
      owners: [OWNER],
      cost: { ada: { lovelace: String(170n * ADA) } },
      pledge: { ada: { lovelace: String(1_000_000n * ADA) } },
      margin: '1/100',
    };
    const ledger: Record<string, unknown> = {
      'queryLedgerState/epoch': 5,
      'queryLedgerState/stakePools': { [ID]: { ...params, stake: { ada: { lovelace: String(60_000_000n * ADA) } } } },
      'queryLedgerState/protocolParameters': { desiredNumberOfStakePools: 1000, stakePoolPledgeInfluence: '0/1' },
      'queryLedgerState/stakePoolsPerformances': {
        desiredNumberOfStakePools: 500,
        stakePoolPledgeInfluence: '0/1',
        totalRewardsInEpoch: { ada: { lovelace: String(13_000_000n * ADA) } },
        totalStakeInEpoch: { ada: { lovelace: String(30_000_000_000n * ADA) } },
        stakePools: {
          [ID]: {
            id: ID,
            stake: { ada: { lovelace: String(60_000_000n * ADA) } },
            ownerStake: { ada: { lovelace: String(1_500_000n * ADA) } },
            approximatePerformance: 1,
            parameters: { cost: params.cost, margin: params.margin, pledge: params.pledge },
          },
        },
      },
      'queryLedgerState/rewardAccountSummaries': [],
    };

    let api: TestApi;
    before(async () => {
      api = await startTestApi((store) =>
        seedOnePool(store, ledgerChain(ledger), {
          id: ID,
          owner: OWNER,
          params,
          other: 91,
          otherLovelace: 58_500_000n * ADA,
        }),
      );
    });
    after(() => api.close());

    it("realises the last epoch's return at the k it was paid by; saturation and the estimate use the k in force", async () => {
      const body = (await api.get(`/api/v1/staking/pools/${ID}`)).body as Json;
      assert.ok(Math.abs(body.performance.realisedRoa - 0.031112235) < 1e-8, String(body.performance.realisedRoa));
      // Going forward the pool is twice saturated (60 M over 30 B / 1,000), and paid for 30 M of it.
      assert.ok(Math.abs(body.saturation - 2) < 1e-12, String(body.saturation));
      assert.ok(Math.abs(body.performance.estimatedRoa - 0.015453735) < 1e-8, String(body.performance.estimatedRoa));
    });
  });
  describe('a pool registered in a block after the ledger reading', () => {
    // The ledger is read at slot 1,000 (queryLedgerState/tip, asked before the pools) and lists OLD only. NEW's
    // registration certificate, and its one delegator's, are in blocks at slots 1,200 and 1,210, which the sync
    // indexed while the run read the ledger (the run takes the ledger up to 600 slots behind the index): a reading
    // at slot 1,000 cannot hold them, so NEW is new, not retired. GONE registered at slot 100 and is missing from
    // the reading: the ledger dropped it, so it is retired.
    const ADA = 1_000_000n;
    const OLD = poolIdFromHash('a3'.repeat(28));
    const NEW = poolIdFromHash('b4'.repeat(28));
    const GONE = poolIdFromHash('c5'.repeat(28));
    const terms = (id: string) => ({
      id,
      owners: [],
      cost: { ada: { lovelace: String(340n * ADA) } },
      pledge: { ada: { lovelace: '0' } },
      margin: '1/100',
    });
    const ledger: Record<string, unknown> = {
      'queryLedgerState/tip': { slot: 1_000, id: 'ab'.repeat(32) },
      'queryLedgerState/epoch': 5,
      'queryLedgerState/stakePools': {
        [OLD]: { ...terms(OLD), stake: { ada: { lovelace: String(30_000_000n * ADA) } } },
      },
      'queryLedgerState/protocolParameters': { desiredNumberOfStakePools: 500 },
      'queryLedgerState/stakePoolsPerformances': {
        stakePoolPledgeInfluence: '0/1',
        totalRewardsInEpoch: { ada: { lovelace: String(13_000_000n * ADA) } },
        totalStakeInEpoch: { ada: { lovelace: String(30_000_000_000n * ADA) } },
        stakePools: {},
      },
      'queryLedgerState/rewardAccountSummaries': [],
    };

    let api: TestApi;
    before(async () => {
      api = await startTestApi(async (store) => {
        const reg = (id: string, slot: number): WriteOp =>
          put(STAKE_POOL_REGS, {
            _id: id,
            params: terms(id),
            registeredSlot: slot,
            retiringEpoch: null,
            blocksMinted: 0,
            slot,
          });
        await store.write([
          reg(OLD, 100),
          reg(NEW, 1_200),
          reg(GONE, 100),
          put(STAKE_ACCOUNTS, {
            _id: stake(91),
            credential: '',
            script: false,
            registered: true,
            deposit: '2000000',
            poolId: NEW,
            drep: null,
            withdrawn: '0',
            slot: 1_210,
          }),
          keyAddress('addr_new', stake(91), 1_000n * ADA),
        ]);
        await createStakingActivities({
          store,
          chain: ledgerChain(ledger),
          now: () => Date.UTC(2026, 0, 1),
        }).recomputeStakePools();
      });
    });
    after(() => api.close());

    it('is listed as active with its delegator, not as retired; a pool the reading dropped is retired', async () => {
      const fresh = (await api.get(`/api/v1/staking/pools/${NEW}`)).body as Json;
      assert.equal(fresh.status, 'active');
      assert.equal(fresh.delegators, 1);
      // Its live stake as the ledger will count it: the delegator's 1,000 ADA (no rewards yet).
      assert.equal(fresh.liveStakeLovelace, String(1_000n * ADA));
      assert.notEqual(fresh.roa, null);
      const gone = (await api.get(`/api/v1/staking/pools/${GONE}`)).body as Json;
      assert.equal(gone.status, 'retired');
      assert.equal(gone.liveStakeLovelace, '0');
      // An agent looking for a pool to delegate to is offered it (retired pools are left out).
      const { message } = await callToolOnce(api.url, 'list_stake_pools', { maxMarginPct: 5 });
      const ids = ((message.result.structuredContent as Json).items as Json[]).map((p) => p.id as string);
      assert.deepEqual(ids.sort(), [NEW, OLD].sort());
    });
  });

  describe('a pool that retired and registered again', () => {
    // BACK registered at slot 100 and retired at the start of epoch 3 (the ledger dropped every delegation to it
    // then); its operator registered it again at slot 2,600,000. OLD delegated to it at slot 200, before it retired,
    // and never since: its account still names BACK, but the ledger has it delegate to no pool. NEW delegated to the
    // registered pool at slot 2,700,000. The ledger is read at slot 3,100,000 and reports BACK's live stake as NEW's
    // 1,000 ADA. LATER delegated at slot 3,200,000, after the reading (which lists its key without a pool): its
    // certificate is newer than the reading, so it counts.
    const ADA = 1_000_000n;
    const BACK = poolIdFromHash('a8'.repeat(28));
    const creds = { old: 'd1'.repeat(28), fresh: 'd2'.repeat(28), later: 'd3'.repeat(28) };
    const terms = {
      id: BACK,
      owners: [],
      cost: { ada: { lovelace: String(340n * ADA) } },
      pledge: { ada: { lovelace: '0' } },
      margin: '1/100',
    };
    const row = (credential: string, pool?: string) => ({
      from: 'verificationKey',
      credential,
      ...(pool ? { stakePool: { id: pool } } : {}),
      rewards: { ada: { lovelace: 0n } },
      deposit: { ada: { lovelace: 2_000_000n } },
    });
    const ledger: Record<string, unknown> = {
      'queryLedgerState/tip': { slot: 3_100_000, id: 'cd'.repeat(32) },
      'queryLedgerState/epoch': 7,
      'queryLedgerState/stakePools': { [BACK]: { ...terms, stake: { ada: { lovelace: String(1_000n * ADA) } } } },
      'queryLedgerState/protocolParameters': { desiredNumberOfStakePools: 500 },
      'queryLedgerState/rewardAccountSummaries': [row(creds.old), row(creds.fresh, BACK), row(creds.later)],
    };

    let api: TestApi;
    before(async () => {
      api = await startTestApi(async (store) => {
        const account = (cred: string, slot: number, ada: bigint): WriteOp[] => {
          const s = rewardAddress('mainnet', cred);
          return [
            put(STAKE_ACCOUNTS, {
              _id: s,
              credential: cred,
              script: false,
              registered: true,
              deposit: '2000000',
              poolId: BACK,
              drep: null,
              withdrawn: '0',
              slot,
            }),
            keyAddress(`addr_${cred}`, s, ada * ADA),
          ];
        };
        await store.write([
          put(STAKE_POOL_REGS, {
            _id: BACK,
            params: terms,
            registeredSlot: 100,
            retiringEpoch: null,
            blocksMinted: 0,
            slot: 2_600_000,
          }),
          ...account(creds.old, 200, 5_000n),
          ...account(creds.fresh, 2_700_000, 1_000n),
          ...account(creds.later, 3_200_000, 2_000n),
        ]);
        await createStakingActivities({
          store,
          chain: ledgerChain(ledger),
          now: () => Date.UTC(2026, 0, 1),
        }).recomputeStakePools();
      });
    });
    after(() => api.close());

    it('counts only the keys the ledger has delegate to it now, not those whose delegation lapsed when it retired', async () => {
      const back = (await api.get(`/api/v1/staking/pools/${BACK}`)).body as Json;
      assert.equal(back.status, 'active');
      assert.equal(back.liveStakeLovelace, String(1_000n * ADA));
      assert.equal(back.delegators, 2);
      assert.deepEqual(
        (back.delegatorsSummary.top as Json[]).map((t) => t.stakeAddress),
        [rewardAddress('mainnet', creds.later), rewardAddress('mainnet', creds.fresh)],
      );
      assert.equal(back.delegatorsSummary.delegatedStakeLovelace, String(3_000n * ADA));
    });
  });

  describe('a chain source that stops answering during the reading', () => {
    const ledger: Record<string, unknown> = {
      'queryLedgerState/tip': { slot: 1_000, id: 'ab'.repeat(32) },
      'queryLedgerState/epoch': 5,
      'queryLedgerState/stakePools': {},
      'queryLedgerState/protocolParameters': { desiredNumberOfStakePools: 500 },
      'queryLedgerState/stakePoolsPerformances': {},
      'queryLedgerState/rewardAccountSummaries': [],
    };
    // What the Ogmios client throws for a frozen source (its keepalive) and for a request past its timeout.
    const frozen = () => new OgmiosConnectionError('Ogmios connection ws://127.0.0.1:1337 silent for 60000 ms');
    const late = () => new OgmiosTimeoutError('Ogmios gave no answer to a query within 120000 ms');

    it('fails the run with the outage, writing nothing, where a query the source lacks is only left out', async () => {
      const store = await openMemoryStore();
      await store.ensureIndexes(ALL_COLLECTIONS);
      try {
        await seed(store);
        const before = await store.collection(STAKE_POOLS).get(POOLS[0]!);
        const run = (l: Record<string, unknown>) =>
          createStakingActivities({
            store,
            chain: ledgerChain(l),
            now: () => Date.UTC(2026, 0, 2),
          }).recomputeStakePools();
        // Before, each of these was read as "the source does not answer this query": the run went on (and with the
        // ledger tip's query, on to wait out the next query's timeout too) and wrote figures with parts unknown.
        for (const [method, error] of [
          ['queryLedgerState/stakePoolsPerformances', late()],
          ['queryLedgerState/treasuryAndReserves', frozen()],
          ['queryLedgerState/tip', frozen()],
        ] as const) {
          await assert.rejects(run({ ...ledger, [method]: error }), (e: Error) => e === error, method);
          assert.deepEqual(await store.collection(STAKE_POOLS).get(POOLS[0]!), before, method);
        }
        // A source that refuses those queries (an older Ogmios): the run reads the rest.
        await run(ledger);
      } finally {
        await store.close();
      }
    });

    it('reward balances: an outage fails the reading; a source without the query gives none', async () => {
      const account = { _id: stake(7), credential: 'ab'.repeat(28), script: false } as StakeAccountDoc;
      const withRewards = (answer: unknown) =>
        ledgerChain({ ...ledger, 'queryLedgerState/rewardAccountSummaries': answer });
      const error = frozen();
      await assert.rejects(rewardBalances(withRewards(error), [account]), (e: Error) => e === error);
      assert.equal(await rewardBalances(withRewards(new Error('Unknown method')), [account]), null);
      const read = await rewardBalances(
        withRewards([{ from: 'verificationKey', credential: 'ab'.repeat(28), rewards: { ada: { lovelace: 5n } } }]),
        [account],
      );
      assert.equal(read?.balances.get(stake(7)), 5n);
      assert.equal(read?.slots.get(stake(7)), 1_000);
    });
  });
});
