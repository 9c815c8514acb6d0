/**
 * A governance proposal and a DRep the ledger lists, asked before the governance recompute's first run: the 404 says
 * the figures are not computed yet (retry), not a bare "not found" that reads as "no such proposal". After the run
 * both answer, and ids the ledger does not list name the run they are missing from. The oracle is the devnet's own
 * ledger (queryLedgerState/governanceProposals, delegateRepresentatives and epoch) and the embedded runner's record of
 * the real recomputeGovernance run.
 */
import assert from 'node:assert/strict';
import { createDerivedActivities } from '../../activities/derived/index.js';
import { createGovernanceActivities } from '../../activities/governance/index.js';
import { drepBech32 } from '../../cardano/governance-ids.js';
import { RUNS } from '../../mongo/collections/runs.js';
import { createRunner, type Runner } from '../../temporal/runner.js';
import { WORKFLOWS } from '../../workflows/registry.js';
import { serveTestApp, type TestApi } from '../api/seed.js';
import { syncedDevnet } from '../sync/helpers.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

describe('a governance proposal or DRep asked before the governance recompute ran', function () {
  this.timeout(120_000);
  let net: Awaited<ReturnType<typeof syncedDevnet>>;
  let runner: Runner | null = null;
  let api: TestApi;

  before(async () => {
    net = await syncedDevnet({ seed: 'governance-not-yet', backfillHours: 6, now: Date.now });
    api = await serveTestApp(net.env.store);
  });
  after(async () => {
    await runner?.stop();
    await api?.close();
    await net?.close();
  });

  it('says the figures are not computed yet, then answers; unknown ids name the run', async () => {
    const { store } = net.env;
    const proposals = await net.chain.query<Json[]>('queryLedgerState/governanceProposals');
    const dreps = await net.chain.query<Json[]>('queryLedgerState/delegateRepresentatives');
    const p = proposals[0];
    const d = dreps.find((x) => x.type === 'registered');
    assert.ok(p && d, 'the ledger lists a proposal and a registered DRep');
    const proposal = `/api/v1/governance/proposals/${p.proposal.transaction.id}:${p.proposal.index}`;
    const drep = `/api/v1/governance/dreps/${drepBech32({ hash: d.id, script: d.from === 'script' })}`;

    // Before the first run: both exist on the ledger, so the answers must not read as "no such proposal / DRep".
    for (const path of [proposal, drep]) {
      const early = await api.get(path);
      assert.equal(early.status, 404, path);
      assert.match((early.body as Json).error, /not computed yet.*retry/, (early.body as Json).error);
    }

    runner = createRunner({
      store,
      activities: {
        ...createDerivedActivities({ store }),
        ...createGovernanceActivities({ store, chain: net.chain }),
      },
      workflows: { recomputeGovernance: WORKFLOWS.recomputeGovernance },
      pollMs: 10,
    });
    runner.schedule([
      { id: 'governance', workflow: 'recomputeGovernance', everyMs: 3_600_000, input: null, overlap: 'skip' },
    ]);
    let run;
    for (const until = Date.now() + 60_000; Date.now() < until; await new Promise((r) => setTimeout(r, 20))) {
      [run] = await store.collection(RUNS).find('byWorkflow', { eq: ['recomputeGovernance'] });
      if (run?.status === 'completed') break;
    }
    assert.equal(run?.status, 'completed', JSON.stringify(run));

    const found = await api.get(proposal);
    assert.equal(found.status, 200);
    assert.equal((await api.get(drep)).status, 200);

    // Ids the ledger does not list (an all-zero transaction id; the DRep key hash of 28 zero bytes) are not found in
    // the run that read the ledger.
    const epoch = Number(await net.chain.query('queryLedgerState/epoch'));
    const computedAt = (found.body as Json).computedAt as string;
    const noDRep = drepBech32({ hash: '00'.repeat(28), script: false });
    assert.ok(!dreps.some((x) => x.id === '00'.repeat(28)));
    for (const path of [`/api/v1/governance/proposals/${'0'.repeat(64)}:0`, `/api/v1/governance/dreps/${noDRep}`]) {
      const missing = await api.get(path);
      assert.equal(missing.status, 404, path);
      const msg = (missing.body as Json).error as string;
      assert.ok(msg.includes(`of epoch ${epoch} (computed at ${computedAt}`), msg);
      assert.doesNotMatch(msg, /not computed yet/);
    }
  });
});
