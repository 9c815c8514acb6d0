/**
 * Stake pools on the devnet through the production Ogmios client: sync, recompute, then the issue's invariant — a
 * pool's live stake equals the stake delegated to it, exactly. The ledger's live stake of a pool (Conway) is, over
 * the registered stake keys delegating to it, the lovelace of every UTxO whose address has that key as its stake part
 * (a base address with a key or a script payment part: DEX orders count for the trader; pointer addresses count for
 * nothing) plus the keys' unwithdrawn rewards; deposits are not stake. The UTxO part is recomputed here from the
 * indexed documents (stake_accounts, addresses), the rewards from queryLedgerState/rewardAccountSummaries (rewards
 * are credited at epoch boundaries and appear in no block).
 *
 * Pool metadata: the devnet serves each operator's JSON at the URL of its certificate; the recompute fetches it
 * through the devnet's HTTP server and checks it against the registered hash. The operators the devnet has edit
 * their file after registering (devnet/pool-metadata.ts) are rejected with a reason.
 */
import assert from 'node:assert/strict';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import { createDerivedActivities } from '../../activities/derived/index.js';
import type { ChainSource } from '../../activities/chain/source.js';
import { createStakingActivities } from '../../activities/staking/index.js';
import { createGovernanceActivities } from '../../activities/governance/index.js';
import { lovelace, ratio } from '../../activities/staking/compute.js';
import { httpMetadataFetcher } from '../../activities/staking/metadata.js';
import { explorerRoutes } from '../../api/routes/explorer.js';
import { stakingRoutes } from '../../api/routes/staking.js';
import { walletRoutes } from '../../api/routes/wallet.js';
import { ajv } from '../../api/schema.js';
import { hash256, rewardAddress } from '../../cardano/address.js';
import { startDevnet, type Devnet } from '../../devnet/index.js';
import { devnetHostResolver, editedAfterRegistration } from '../../devnet/pool-metadata.js';
import { DESIRED_STAKE_POOLS, GENESIS_FUNDS, MAX_LOVELACE_SUPPLY, REWARD_PER_BLOCK } from '../../devnet/params.js';
import { ADDRESSES, BLOCKS, STAKE_ACCOUNTS } from '../../mongo/collections/chain.js';
import { STAKE_POOLS, type StakePoolDoc } from '../../mongo/collections/staking.js';
import { put, type CollectionSpec, type Store, type WriteOp } from '../../mongo/store.js';
import { WORKFLOWS } from '../../workflows/registry.js';
import { serveTestApp, startTestApi } from '../api/seed.js';
import { syncedDevnet, type tempStore } from '../sync/helpers.js';
import { callToolOnce } from '../mcp/call-once.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies
const NOW = Date.UTC(2026, 10, 20, 12);

/** The store and chain source as a recompute sees them, noting the collections it opens and writes and its queries. */
function recording(store: Store, chain: ChainSource) {
  const seen = { opened: new Set<string>(), written: new Set<string>(), queries: new Set<string>() };
  const method = (t: object, p: string | symbol) => {
    const v: unknown = Reflect.get(t, p, t);
    return typeof v === 'function' ? v.bind(t) : v;
  };
  const s = new Proxy(store, {
    get: (t, p) =>
      p === 'collection'
        ? <D extends { _id: string }>(spec: CollectionSpec<D>) => (seen.opened.add(spec.name), t.collection(spec))
        : p === 'write'
          ? (ops: readonly WriteOp[]) => (ops.forEach((o) => seen.written.add(o.coll)), t.write(ops))
          : method(t, p),
  });
  const c = new Proxy(chain, {
    get: (t, p) =>
      p === 'query'
        ? (m: string, params?: Record<string, unknown>) => (seen.queries.add(m), t.query(m, params))
        : method(t, p),
  });
  return { store: s, chain: c, seen };
}

/** What `ops -- jobs` shows for the workflow covers what its run did: collections read and written, ledger queries. */
function assertDeclared(
  workflow: 'recomputeStaking' | 'recomputeGovernance',
  seen: ReturnType<typeof recording>['seen'],
) {
  const { reads, writes } = WORKFLOWS[workflow] as { reads: readonly string[]; writes: readonly string[] };
  const ledger = (reads.find((r) => r.startsWith('ledger:')) ?? 'ledger:')
    .slice(7)
    .split(',')
    .map((q) => q.trim());
  assert.ok(seen.written.size > 0 && seen.queries.size > 0, `${workflow} wrote and asked the ledger`);
  for (const c of seen.written) assert.ok(writes.includes(c), `${workflow} writes ${c}, undeclared`);
  for (const c of seen.opened) assert.ok(reads.includes(c) || writes.includes(c), `${workflow} reads ${c}, undeclared`);
  for (const q of seen.queries) assert.ok(ledger.includes(q.split('/')[1] ?? q), `${workflow} asks ${q}, undeclared`);
}

describe('stake pools on the devnet', function () {
  this.timeout(120_000);
  let devnet: Devnet;
  let chain: ChainSource;
  let env: Awaited<ReturnType<typeof tempStore>>;
  let close: () => Promise<void>;
  let docs: StakePoolDoc[];
  let ledgerPools: Record<string, Record<string, unknown>>;
  let firstRun: ReturnType<typeof recording>['seen'];

  before(async () => {
    ({ devnet, chain, env, close } = await syncedDevnet({ seed: 'staking-test', backfillHours: 4, now: () => NOW }));
    const fetchMetadata = httpMetadataFetcher({ resolve: devnetHostResolver(devnet.url), timeoutMs: 5000 });
    const rec = recording(env.store, chain);
    firstRun = rec.seen;
    await createStakingActivities({ ...rec, fetchMetadata, now: () => NOW }).recomputeStakePools();
    docs = [];
    for await (const d of env.store.collection(STAKE_POOLS).scan()) docs.push(d);
    ledgerPools = await chain.query('queryLedgerState/stakePools', { includeStake: true });
  });
  after(() => close?.());

  it('has one document per ledger pool with its ledger live stake and an active status', () => {
    assert.ok(Object.keys(ledgerPools).length >= 3, 'the devnet registered pools');
    for (const [id, p] of Object.entries(ledgerPools)) {
      const d = docs.find((x) => x._id === id);
      assert.ok(d, `document for ${id}`);
      assert.equal(d.liveStake, String(lovelace(p.stake)));
      assert.notEqual(d.status, 'retired');
      assert.ok(d.saturation > 0 && d.saturation < 1000);
    }
  });

  it('saturation is live stake over circulation / nOpt, as the ledger counts the saturation point', async () => {
    const perf = await chain.query<Record<string, unknown>>('queryLedgerState/stakePoolsPerformances');
    const pp = await chain.query<Record<string, unknown>>('queryLedgerState/protocolParameters');
    const circulation = Number(lovelace(perf.totalStakeInEpoch));
    const tr = await chain.query<Record<string, unknown>>('queryLedgerState/treasuryAndReserves');
    // Circulation of the last boundary: genesis funds plus the rewards paid before it (the ones paid at it since).
    assert.ok(BigInt(circulation) > GENESIS_FUNDS);
    assert.ok(BigInt(circulation) <= MAX_LOVELACE_SUPPLY - (lovelace(tr.reserves) as bigint));
    for (const d of docs.filter((x) => x.status !== 'retired')) {
      const expected = (Number(d.liveStake) * Number(pp.desiredNumberOfStakePools)) / circulation;
      assert.ok(Math.abs(d.saturation - expected) < 1e-12, `${d._id}: ${d.saturation} vs ${expected}`);
    }
  });

  it("realised return = what the devnet's reward rule paid the delegators last epoch, per lovelace of active stake", async () => {
    const [epochDoc] = await env.store.collection(BLOCKS).find('byHeight', { reverse: true, limit: 1 });
    const last = (epochDoc?.epoch as number) - 1;
    const blocksOf = new Map<string, number>();
    for await (const b of env.store.collection(BLOCKS).scan())
      if (b.epoch === last && b.poolId) blocksOf.set(b.poolId, (blocksOf.get(b.poolId) ?? 0) + 1);
    const epochsPerYear = (365 * 86400) / 3600;
    const perf = await chain.query<Record<string, unknown>>('queryLedgerState/stakePoolsPerformances');
    const circulation = lovelace(perf.totalStakeInEpoch) as bigint;
    let checked = 0;
    for (const d of docs.filter((x) => x.status !== 'retired' && x.activeStake !== null)) {
      // The devnet pays a pool REWARD_PER_BLOCK per block, scaled down to the saturation point (circulation / k)
      // when its stake is above it, and nothing when its owners' stake was below its pledge; the operator takes the
      // cost and the margin of the rest.
      // The terms are those the devnet paid the epoch by (the answer's parameters), not a later update's.
      const line = (perf.stakePools as Record<string, { ownerStake: unknown; parameters: Record<string, unknown> }>)[
        d._id
      ];
      const [pledge, costTerm] = [lovelace(line?.parameters.pledge), lovelace(line?.parameters.cost)] as bigint[];
      const margin = ratio(line?.parameters.margin) as number;
      const pledgeMet = (lovelace(line?.ownerStake) ?? 0n) >= (pledge as bigint);
      const uncapped = pledgeMet ? REWARD_PER_BLOCK * BigInt(blocksOf.get(d._id) ?? 0) : 0n;
      const stakeK = BigInt(d.activeStake as string) * BigInt(DESIRED_STAKE_POOLS);
      const total = stakeK > circulation ? (uncapped * circulation) / stakeK : uncapped;
      const cost = (costTerm as bigint) < total ? (costTerm as bigint) : total;
      const toDelegators = Number(total - cost) * (1 - margin);
      const expected = (toDelegators / Number(d.activeStake)) * epochsPerYear;
      assert.ok(d.realisedRoa !== null, `${d._id} has a realised return`);
      assert.ok(
        Math.abs(d.realisedRoa - expected) <= 1e-9 * Math.max(1, expected),
        `${d._id}: ${d.realisedRoa} vs ${expected}`,
      );
      assert.ok(d.estimatedRoa !== null && d.estimatedRoa >= 0, `${d._id} has an estimated return`);
      if (toDelegators > 0) checked++;
    }
    assert.ok(checked >= 3, 'several pools paid their delegators last epoch');
  });

  it("live stake = Σ delegators' address balances (any payment part) + their unwithdrawn rewards, exactly", async () => {
    const summaries = await chain.query<{ credential: string; stakePool?: { id: string }; rewards: unknown }[]>(
      'queryLedgerState/rewardAccountSummaries',
    );
    const rewardsOf = new Map(summaries.map((r) => [rewardAddress('mainnet', r.credential), lovelace(r.rewards)]));
    let withDelegators = 0;
    let withScriptStake = 0;
    for (const id of Object.keys(ledgerPools)) {
      const d = docs.find((x) => x._id === id) as StakePoolDoc;
      const accounts = await env.store.collection(STAKE_ACCOUNTS).find('byPool', { eq: [id] });
      let utxo = 0n;
      let script = 0n;
      let rewards = 0n;
      let delegators = 0;
      for (const a of accounts.filter((x) => x.registered)) {
        delegators++;
        for (const addr of await env.store.collection(ADDRESSES).find('byStake', { eq: [a._id] })) {
          utxo += BigInt(addr.balance.lovelace);
          if (addr.script) script += BigInt(addr.balance.lovelace);
        }
        const r = rewardsOf.get(a._id);
        assert.ok(r !== undefined && r !== null, `the ledger knows the reward account ${a._id}`);
        rewards += r;
      }
      assert.equal(BigInt(d.liveStake), utxo + rewards, `pool ${id}: ledger live stake = documents`);
      assert.equal(d.delegatedUtxoStake, String(utxo));
      assert.equal(d.delegatorRewards, String(rewards));
      assert.equal(d.delegators, delegators, `delegators of ${id}`);
      assert.equal(d.delegators, summaries.filter((r) => r.stakePool?.id === id).length);
      if (delegators > 0) withDelegators++;
      if (script > 0n) withScriptStake++;
    }
    assert.ok(withDelegators >= 3);
    assert.ok(withScriptStake >= 1, 'some delegator has lovelace in a DEX order at a script address');
  });

  it('counts the blocks of the current epoch by issuer', () => {
    const total = docs.reduce((s, d) => s + d.blocksThisEpoch, 0);
    assert.ok(total > 0);
    for (const d of docs) assert.ok(d.blocksThisEpoch <= d.blocksMinted);
  });

  it("serves each certificate's metadata JSON at its URL, hashing to the registered hash", async () => {
    const pool = devnet.world.pools.find((p) => !editedAfterRegistration(p) && ledgerPools[p.id]);
    assert.ok(pool);
    const md = ledgerPools[pool.id]!.metadata as { url: string; hash: string };
    assert.match(md.url, /^https:\/\/[a-z0-9]+\.stakepool\.devnet\/v[0-9]+\/poolMetadata\.json$/);
    const res = await fetch(devnet.hostedUrl(md.url) as string);
    assert.equal(res.status, 200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    assert.equal(hash256(bytes), md.hash);
    assert.equal((JSON.parse(new TextDecoder().decode(bytes)) as Json).ticker, pool.ticker);
    const missing = await fetch(devnet.hostedUrl('https://nobody.stakepool.devnet/v1/poolMetadata.json') as string);
    assert.equal(missing.status, 404);
    assert.equal(devnet.hostedUrl('https://example.com/pool.json'), null, 'only .devnet hosts are the devnet’s');
  });

  it('takes verified tickers and names; a JSON edited after registration is rejected with a reason', () => {
    let verified = 0;
    let rejected = 0;
    for (const d of docs) {
      const pool = devnet.world.pools.find((p) => p.id === d._id);
      assert.ok(pool);
      if (editedAfterRegistration(pool)) {
        assert.equal(d.meta.verified, false, `${d._id}: edited file`);
        assert.equal(d.meta.ticker, null);
        assert.equal(d.meta.name, null);
        assert.match(d.meta.reason ?? '', /hash/);
        rejected++;
      } else {
        assert.equal(d.meta.verified, true, `${d._id}: ${d.meta.reason}`);
        assert.equal(d.meta.ticker, pool.ticker);
        assert.match(d.meta.name ?? '', /Stake Pool$/);
        assert.equal(d.meta.reason, null);
        verified++;
      }
    }
    assert.ok(verified >= 3 && rejected >= 1, `${verified} verified, ${rejected} rejected`);
  });

  it("an address answer shows its key's unwithdrawn rewards as the ledger reports them, read by the recompute", async () => {
    // The run's bookkeeping, as the workflow wrapper records it (workflows/derived.ts): the answer's rewardsAsOf.
    const derived = createDerivedActivities({ store: env.store, now: () => NOW });
    await derived.derivedRunCompleted(await derived.derivedRunStarted({ workflow: 'recomputeStaking' }));
    const summaries = await chain.query<{ credential: string; rewards: unknown }[]>(
      'queryLedgerState/rewardAccountSummaries',
    );
    const ledger = new Map(summaries.map((r) => [rewardAddress('mainnet', r.credential), String(lovelace(r.rewards))]));
    const api = await serveTestApp(env.store);
    const get = async (address: string) => {
      const res = await api.get(`/api/v1/explorer/address/${address}`);
      assert.equal(res.status, 200, address);
      const body = res.body as Json;
      assert.ok(ajv.validate(explorerRoutes.address.response, body), JSON.stringify(ajv.errors));
      return body;
    };
    const wallet = async (address: string) => {
      const res = await api.get(`/api/v1/wallet/${address}`);
      const body = res.body as Json;
      if (res.status === 200)
        assert.ok(ajv.validate(walletRoutes.portfolio.response, body), JSON.stringify(ajv.errors));
      return { status: res.status, body };
    };
    try {
      let positive = 0;
      let checked = 0;
      let wallets = 0;
      for await (const a of env.store.collection(STAKE_ACCOUNTS).scan()) {
        if (checked >= 40) break;
        const account = (await get(a._id)).stakeAccount as Json;
        if (!a.registered) {
          assert.equal(account.rewardsLovelace, null, `${a._id} is deregistered: no reward account`);
          continue;
        }
        assert.equal(account.rewardsLovelace, ledger.get(a._id), `${a._id}: the ledger's balance`);
        assert.equal(account.rewards, Number(ledger.get(a._id)) / 1e6);
        assert.equal(account.rewardsAsOf, new Date(NOW).toISOString());
        if (BigInt(account.rewardsLovelace as string) > 0n) positive++;
        checked++;
        // The stake key's wallet portfolio counts the same ledger balance in its total (a key holding no output
        // has no portfolio: 404).
        const w = await wallet(a._id);
        if (w.status === 200) {
          assert.equal(w.body.rewardsLovelace, ledger.get(a._id), `${a._id}: wallet rewards = the ledger's balance`);
          const { adaBalance, rewards, totals } = w.body;
          assert.ok(Math.abs(totals.ada - (adaBalance + rewards + totals.tokensAda)) < 1e-6, `${a._id} total`);
          if (rewards > 0) wallets++;
        } else assert.equal(w.status, 404, a._id);
        // A payment address carrying the key shows the same account.
        const [addr] = await env.store.collection(ADDRESSES).find('byStake', { eq: [a._id], limit: 1 });
        if (addr) assert.deepEqual((await get(addr._id)).stakeAccount, account);
      }
      assert.ok(checked >= 10 && positive >= 3, `${checked} registered keys checked, ${positive} with rewards`);
      assert.ok(wallets >= 3, `${wallets} wallet portfolios with rewards checked`);
    } finally {
      await api.close();
    }
  });

  it('GET /staking/pools lists the devnet pools with their tickers; the detail says why one has none', async () => {
    const api = await startTestApi(async (store) => {
      await store.write(docs.map((d) => put(STAKE_POOLS, d)));
    });
    try {
      const r = await api.get('/api/v1/staking/pools?pageSize=200');
      assert.equal(r.status, 200);
      assert.ok(ajv.validate(stakingRoutes.list.response, r.body), JSON.stringify(ajv.errors));
      const items = (r.body as Json).items as Json[];
      assert.equal(items.length, docs.length);
      const tickers = new Set(devnet.world.pools.map((p) => p.ticker));
      const withTicker = items.filter((i) => i.ticker !== null);
      assert.ok(withTicker.length >= items.length - 2, 'every pool but the edited ones has its ticker');
      for (const i of withTicker) assert.ok(tickers.has(i.ticker), i.ticker);
      const edited = items.find((i) => i.ticker === null) as Json;
      assert.ok(edited, 'the edited pool is listed without a ticker');
      const detail = (await api.get(`/api/v1/staking/pools/${edited.id}`)).body as Json;
      assert.ok(ajv.validate(stakingRoutes.detail.response, detail), JSON.stringify(ajv.errors));
      assert.equal(detail.metadata.verified, false);
      assert.match(detail.metadata.reason, /hash does not match/);
      assert.equal(
        BigInt(detail.delegatorsSummary.delegatedStakeLovelace) +
          BigInt(detail.delegatorsSummary.delegatedRewardsLovelace),
        BigInt(detail.liveStakeLovelace),
      );
    } finally {
      await api.close();
    }
  });
  it('the staking and governance runs touch only what `ops -- jobs` says they read and write', async () => {
    assertDeclared('recomputeStaking', firstRun);
    const rec = recording(env.store, chain);
    await createGovernanceActivities({ ...rec, now: () => NOW }).recomputeGovernance();
    assertDeclared('recomputeGovernance', rec.seen);
  });

  it('keeps its figures when the source’s ledger is behind the index (a devnet regenerating its history)', async () => {
    // The same network an hour into regenerating its history: its ledger holds a quarter of the indexed chain.
    const behind = await startDevnet({ seed: 'staking-test', backfillHours: 1, blockMs: 0, forkRate: 0, now: () => NOW - 3 * 3600_000, epochLength: 3600 }); // prettier-ignore
    const partial = await connectOgmios(behind.url);
    try {
      const tip = await partial.query<{ slot: number }>('queryLedgerState/tip');
      const [indexed] = await env.store.collection(BLOCKS).find('byHeight', { reverse: true, limit: 1 });
      assert.ok(indexed && Number(tip.slot) < indexed.slot, 'the second devnet’s ledger is behind the index');
      const run = createStakingActivities({
        store: env.store,
        chain: partial,
        now: () => NOW + 60_000,
        ledgerWaitMs: 0,
      });
      await assert.rejects(run.recomputeStakePools(), /behind the indexed chain/);
      const after: StakePoolDoc[] = [];
      for await (const d of env.store.collection(STAKE_POOLS).scan()) after.push(d);
      assert.deepEqual(after, docs, 'the complete reading stays');
      const gov = createGovernanceActivities({
        store: env.store,
        chain: partial,
        now: () => NOW + 60_000,
        ledgerWaitMs: 0,
      });
      await assert.rejects(gov.recomputeGovernance(), /behind the indexed chain/);
    } finally {
      await partial.close();
      await behind.close();
    }
  });
});

describe('stake key delegations on the devnet after a pool retired', function () {
  this.timeout(120_000);
  let chain: ChainSource;
  let env: Awaited<ReturnType<typeof tempStore>>;
  let close: () => Promise<void>;

  before(async () => {
    // This seed's devnet retires a pool (certificate at height 570, retirement epoch 5) within the history.
    ({ chain, env, close } = await syncedDevnet({ seed: 'retire-c', backfillHours: 6, now: () => NOW }));
  });
  after(() => close?.());

  it("an address answer's delegation is the ledger's: none once the pool has retired", async () => {
    const summaries = await chain.query<{ credential: string; from: string; stakePool?: { id: string } }[]>(
      'queryLedgerState/rewardAccountSummaries',
    );
    const api = await serveTestApp(env.store);
    try {
      let checked = 0;
      let dropped = 0;
      for (const r of summaries) {
        const stake = rewardAddress('mainnet', r.credential, r.from === 'script');
        const account = await env.store.collection(STAKE_ACCOUNTS).get(stake);
        if (!account) continue;
        const res = await api.get(`/api/v1/explorer/address/${stake}`);
        assert.equal(res.status, 200, stake);
        const shown = ((res.body as Json).stakeAccount as Json).poolId;
        assert.equal(shown, r.stakePool?.id ?? null, `${stake}: the ledger's delegation`);
        // The key's last certificate named a pool the ledger no longer holds it at: its retirement dropped it.
        if (account.poolId !== null && r.stakePool === undefined) dropped++;
        checked++;
      }
      assert.ok(checked >= 20 && dropped >= 1, `${checked} keys, ${dropped} delegations dropped by a retirement`);
    } finally {
      await api.close();
    }
  });

  it('list_stake_pools capped by saturation or margin leaves the retired pool out: it cannot be delegated to', async () => {
    await createStakingActivities({ store: env.store, chain, now: () => NOW }).recomputeStakePools();
    const ledger = await chain.query<Record<string, unknown>>('queryLedgerState/stakePools');
    const api = await serveTestApp(env.store);
    try {
      const listed = ((await api.get('/api/v1/staking/pools?pageSize=100')).body as Json).items as Json[];
      // The ledger no longer holds the retired pool; the list still shows it, marked, with saturation 0.
      const retired = listed.filter((p) => p.status === 'retired');
      assert.ok(retired.length >= 1 && retired.every((p) => !(String(p.id) in ledger) && p.saturation === 0));
      for (const args of [{ maxSaturationPct: 100 }, { maxMarginPct: 100 }]) {
        const { message } = await callToolOnce(api.url, 'list_stake_pools', { ...args, limit: 100 });
        const result = message.result.structuredContent as Json;
        const ids = (result.items as Json[]).map((p) => p.id).sort();
        const delegatable = listed.filter((p) => p.status !== 'retired').map((p) => p.id);
        assert.deepEqual(ids, delegatable.sort(), JSON.stringify(args));
      }
    } finally {
      await api.close();
    }
  });
});
