/**
 * A first start (or a resync) fires every recompute at once, before the sync has committed its first write batch.
 * Those runs must not publish figures of an empty store as computed: measured on `npm start`, the market overview
 * answered 200 with 0 ADA of TVL and volume, list_tokens an empty list, the pools list none, and each stake pool 0
 * delegators and 0 blocks, until each job's next run (5 minutes for staking). The oracle is the devnet's own ledger
 * (queryLedgerState/stakePools: the pools exist) and its blocks (pools and trades once synced), with the real
 * registry's recomputeMarket and recomputeStaking on the embedded runner.
 */
import assert from 'node:assert/strict';
import { createDerivedActivities } from '../../activities/derived/index.js';
import { createRecomputeActivities } from '../../activities/recompute/index.js';
import { createStakingActivities } from '../../activities/staking/index.js';
import { defaultExtensions } from '../../activities/extensions.js';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import { startDevnet, type Devnet } from '../../devnet/index.js';
import { POOLS } from '../../mongo/collections/market.js';
import { RUNS } from '../../mongo/collections/runs.js';
import { createRunner, type Runner } from '../../temporal/runner.js';
import { WORKFLOWS } from '../../workflows/registry.js';
import { serveTestApp, type TestApi } from '../api/seed.js';
import { callToolOnce } from '../mcp/call-once.js';
import { syncAll, tempStore } from '../sync/helpers.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

describe('recomputes fired before the sync indexed its first block', function () {
  this.timeout(180_000);
  let devnet: Devnet;
  let chain: Awaited<ReturnType<typeof connectOgmios>>;
  let env: Awaited<ReturnType<typeof tempStore>>;
  let api: TestApi;
  let runner: Runner | null = null;

  before(async () => {
    devnet = await startDevnet({
      seed: 'no-block-yet',
      backfillHours: 2,
      now: Date.now,
      blockMs: 0,
      forkRate: 0,
      epochLength: 3600,
    });
    chain = await connectOgmios(devnet.url);
    env = await tempStore();
    api = await serveTestApp(env.store);
  });
  after(async () => {
    await runner?.stop();
    await api?.close();
    await chain?.close();
    await devnet?.close();
    await env?.cleanup();
  });

  /** One run of each job, as `npm start`'s schedules fire them at start; resolves when both ended. */
  async function runJobs(): Promise<void> {
    const { store } = env;
    await runner?.stop();
    const before = new Set<string>();
    for await (const r of store.collection(RUNS).scan()) before.add(r._id);
    runner = createRunner({
      store,
      activities: {
        ...createDerivedActivities({ store }),
        ...createRecomputeActivities({ store }),
        ...createStakingActivities({ store, chain }),
      },
      workflows: { recomputeMarket: WORKFLOWS.recomputeMarket, recomputeStaking: WORKFLOWS.recomputeStaking },
      pollMs: 10,
    });
    runner.schedule([
      { id: 'market', workflow: 'recomputeMarket', everyMs: 3_600_000, input: null, overlap: 'skip' },
      { id: 'staking', workflow: 'recomputeStaking', everyMs: 3_600_000, input: null, overlap: 'skip' },
    ]);
    for (const until = Date.now() + 90_000; ; await new Promise((r) => setTimeout(r, 20))) {
      const runs = [];
      for await (const r of store.collection(RUNS).scan()) if (!before.has(r._id)) runs.push(r);
      if (runs.length === 2 && runs.every((r) => r.status !== 'running')) {
        for (const r of runs) assert.equal(r.status, 'completed', JSON.stringify(r));
        return;
      }
      assert.ok(Date.now() < until, 'both runs ended');
    }
  }

  it('says not computed yet on REST, MCP and Markdown until a run over indexed blocks, then answers', async () => {
    const ledger = await chain.query<Record<string, unknown>>('queryLedgerState/stakePools', { includeStake: true });
    const poolId = Object.keys(ledger).sort()[0] as string;
    assert.ok(poolId?.startsWith('pool1'), 'the ledger lists a stake pool');

    await runJobs();

    // Nothing is indexed: the figures are not computed, whatever the runs found in an empty store.
    const overview = await api.get('/api/v1/market/overview');
    assert.equal(overview.status, 503, JSON.stringify(overview.body));
    assert.match((overview.body as Json).error, /not computed yet/);
    const tokens = await api.get('/api/v1/tokens');
    assert.equal((tokens.body as Json).updatedAt, null, 'no ranking is dated');
    const tool = await callToolOnce(api.url, 'list_tokens', {});
    assert.equal(tool.message.result.isError, true, tool.text);
    assert.match(tool.text, /Not ready yet/);
    const md = await api.get('/api/md/tokens');
    assert.doesNotMatch(String(md.body), /Top 0 of 0/);
    const stakePools = await api.get('/api/v1/staking/pools');
    assert.equal((stakePools.body as Json).computedAt, null, 'no staking figures are dated');
    const stakePool = await api.get(`/api/v1/staking/pools/${poolId}`);
    assert.equal(stakePool.status, 404);
    assert.match((stakePool.body as Json).error, /not computed yet/);
    // A run that had nothing to work on is no failure.
    const jobs = await api.get('/healthz/jobs');
    assert.equal((jobs.body as Json).status, 'ok', JSON.stringify(jobs.body));

    // With the market extension, as the service's sync runs: it keeps the DEX pools and trades from the blocks.
    await syncAll(env.store, chain, 97, 2160, { extensions: defaultExtensions() });
    const pools = [];
    for await (const p of env.store.collection(POOLS).scan()) pools.push(p);
    assert.ok(pools.length > 0, 'the devnet’s blocks create DEX pools');

    await runJobs();
    const after = await api.get('/api/v1/market/overview');
    assert.equal(after.status, 200, JSON.stringify(after.body));
    assert.ok((after.body as Json).tvlAda > 0);
    const dexPools = (after.body as Json).dexes.reduce((n: number, d: Json) => n + d.pools, 0);
    assert.equal(dexPools, pools.length, 'every indexed DEX pool is counted');
    const pool = await api.get(`/api/v1/staking/pools/${poolId}`);
    assert.equal(pool.status, 200, JSON.stringify(pool.body));
    assert.notEqual((pool.body as Json).computedAt, null);
  });
});
