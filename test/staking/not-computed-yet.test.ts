/**
 * A stake pool the ledger lists, asked before the staking recompute's first run: the 404 says the figures are not
 * computed yet (retry), not a bare "not found" that reads as "no such pool". After the run the pool answers, and an
 * id the ledger does not list names the run it is missing from. The oracle is the devnet's own ledger
 * (queryLedgerState/stakePools and epoch) and the embedded runner's record of the real recomputeStaking run.
 */
import assert from 'node:assert/strict';
import { createDerivedActivities } from '../../activities/derived/index.js';
import { createStakingActivities } from '../../activities/staking/index.js';
import { poolIdFromHash } from '../../cardano/address.js';
import { RUNS } from '../../mongo/collections/runs.js';
import { createRunner, type Runner } from '../../temporal/runner.js';
import { WORKFLOWS } from '../../workflows/registry.js';
import { callToolOnce } from '../mcp/call-once.js';
import { serveTestApp, type TestApi } from '../api/seed.js';
import { syncedDevnet } from '../sync/helpers.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

describe('a stake pool asked before the staking recompute ran', function () {
  this.timeout(120_000);
  let net: Awaited<ReturnType<typeof syncedDevnet>>;
  let runner: Runner | null = null;
  let api: TestApi;

  before(async () => {
    net = await syncedDevnet({ seed: 'staking-not-yet', backfillHours: 1, now: Date.now });
    api = await serveTestApp(net.env.store);
  });
  after(async () => {
    await runner?.stop();
    await api?.close();
    await net?.close();
  });

  it('says the figures are not computed yet, then answers the pool; an unknown id names the run', async () => {
    const { store } = net.env;
    const ledger = await net.chain.query<Record<string, unknown>>('queryLedgerState/stakePools', {
      includeStake: true,
    });
    const id = Object.keys(ledger).sort()[0] as string;
    assert.ok(id?.startsWith('pool1'), 'the ledger lists a pool');

    // Before the first run: the pool exists on the ledger, so the answer must not read as "no such pool".
    const early = await api.get(`/api/v1/staking/pools/${id}`);
    assert.equal(early.status, 404);
    assert.match((early.body as Json).error, /not computed yet.*retry/, (early.body as Json).error);
    const tool = await callToolOnce(api.url, 'get_stake_pool', { poolId: id });
    assert.equal(tool.message.result.isError, true);
    assert.match(tool.text, /not computed yet/, tool.text);

    runner = createRunner({
      store,
      activities: { ...createDerivedActivities({ store }), ...createStakingActivities({ store, chain: net.chain }) },
      workflows: { recomputeStaking: WORKFLOWS.recomputeStaking },
      pollMs: 10,
    });
    runner.schedule([
      { id: 'staking', workflow: 'recomputeStaking', everyMs: 3_600_000, input: null, overlap: 'skip' },
    ]);
    let run;
    for (const until = Date.now() + 60_000; Date.now() < until; await new Promise((r) => setTimeout(r, 20))) {
      [run] = await store.collection(RUNS).find('byWorkflow', { eq: ['recomputeStaking'] });
      if (run?.status === 'completed') break;
    }
    assert.equal(run?.status, 'completed', JSON.stringify(run));

    const pool = await api.get(`/api/v1/staking/pools/${id}`);
    assert.equal(pool.status, 200);
    assert.equal((pool.body as Json).id, id);

    // An id the ledger does not list (the key hash of 28 zero bytes) is not found in the run that read the ledger.
    const none = poolIdFromHash('00'.repeat(28));
    assert.equal(ledger[none], undefined);
    const epoch = Number(await net.chain.query('queryLedgerState/epoch'));
    const missing = await api.get(`/api/v1/staking/pools/${none}`);
    assert.equal(missing.status, 404);
    const msg = (missing.body as Json).error as string;
    assert.ok(msg.includes(`in epoch ${epoch} (computed at ${(pool.body as Json).computedAt}`), msg);
    assert.doesNotMatch(msg, /not computed yet/);
  });
});
