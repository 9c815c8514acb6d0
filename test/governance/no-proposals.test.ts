/**
 * A governance run over a ledger that lists no proposal writes no proposal document, yet it ran: the proposal list
 * (REST and the tool server) say when (the job's last success), not "never computed", and at which epoch (the one it
 * read the ledger at). The oracle is the devnet's own ledger (no proposal listed, none in its blocks, its epoch) and
 * the embedded runner's record of the real governance job's run.
 */
import assert from 'node:assert/strict';
import { createDerivedActivities } from '../../activities/derived/index.js';
import { createGovernanceActivities } from '../../activities/governance/index.js';
import { RUNS } from '../../mongo/collections/runs.js';
import { createRunner, type Runner } from '../../temporal/runner.js';
import { WORKFLOWS } from '../../workflows/registry.js';
import { callTool2026 } from '../mcp/call-once.js';
import { serveTestApp, type TestApi } from '../api/seed.js';
import { syncedDevnet } from '../sync/helpers.js';
import { canonicalBlocks, expectedFrom } from './chain-expected.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

describe('governance with no proposal on the ledger', function () {
  this.timeout(120_000);
  let net: Awaited<ReturnType<typeof syncedDevnet>>;
  let runner: Runner | null = null;
  let api: TestApi;

  before(async () => {
    // One hour of devnet history: no proposal has been submitted yet.
    net = await syncedDevnet({ seed: 'governance-none', backfillHours: 1, now: Date.now });
    api = await serveTestApp(net.env.store);
  });
  after(async () => {
    await runner?.stop();
    await api?.close();
    await net?.close();
  });

  it('the proposal list (REST and MCP) names the run that found none, not a missing computation', async () => {
    const { store } = net.env;
    assert.deepEqual(await net.chain.query('queryLedgerState/governanceProposals'), []);
    assert.equal(expectedFrom(canonicalBlocks(net.devnet)).proposals.size, 0);

    // Before the recompute's first run there is nothing to name.
    const before = (await api.get('/api/v1/governance/proposals')).body as Json;
    assert.equal(before.total, 0);
    assert.equal(before.computedAt, null);

    runner = createRunner({
      store,
      activities: { ...createDerivedActivities({ store }), ...createGovernanceActivities({ store, chain: net.chain }) },
      workflows: { recomputeGovernance: WORKFLOWS.recomputeGovernance },
      pollMs: 10,
    });
    runner.schedule([
      { id: 'governance', workflow: 'recomputeGovernance', everyMs: 3_600_000, input: null, overlap: 'skip' },
    ]);
    let run;
    for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((r) => setTimeout(r, 20))) {
      [run] = await store.collection(RUNS).find('byWorkflow', { eq: ['recomputeGovernance'] });
      if (run?.status === 'completed') break;
    }
    assert.equal(run?.status, 'completed', JSON.stringify(run));

    const list = (await api.get('/api/v1/governance/proposals')).body as Json;
    assert.equal(list.total, 0);
    assert.ok(list.computedAt, 'the run is named');
    // The epoch the run read the ledger at is known too (the ledger's own answer), not null.
    const epoch = Number(await net.chain.query('queryLedgerState/epoch'));
    assert.equal(list.epoch, epoch);
    assert.equal(((await api.get('/api/v1/governance/proposals?status=active')).body as Json).epoch, epoch);
    // The run's own record brackets the time the list names.
    assert.ok(list.computedAt >= run!.startedAt! && list.computedAt <= run!.finishedAt!, JSON.stringify({ list, run }));

    // An agent reads the same time from the tool server.
    const { sc } = await callTool2026(api.url, 'list_governance_actions', {});
    assert.equal(sc.total, 0);
    assert.equal(sc.computedAt, list.computedAt);
    assert.equal(sc.epoch, epoch);
  });
});
