/**
 * After a deep rollback, and at the tip of a first sync or a resync, the sync starts every recompute at once
 * (workflows/sync-chain.ts → fireWorkflows). The token safety run reads the token stats the market run writes: it
 * must assess tokens on the stats the market run is computing, not on those of the abandoned chain or of the
 * backfill that are still there while it runs. The real registry's
 * bodies run on the embedded runner over an embedded store; the recompute activities are fakes that stand for the
 * documents they write ("stats of the abandoned chain" / "of the new chain").
 */
import assert from 'node:assert/strict';
import { createDerivedActivities } from '../../activities/derived/index.js';
import { syncGate } from '../../api/sync-guard.js';
import {
  CHECKPOINTS,
  DERIVED_RUNS,
  SYNC_HEALTH,
  SYNC_HEALTH_ID,
  readSyncHealth,
} from '../../mongo/collections/sync-state.js';
import { RUNS } from '../../mongo/collections/runs.js';
import { put, type Store } from '../../mongo/store.js';
import { createRunner, type Runner } from '../../temporal/runner.js';
import type { ScheduleSpec } from '../../temporal/schedules.js';
import { WORKFLOWS, upstreamOf, type WorkflowTable } from '../../workflows/registry.js';
import { tempStore } from '../sync/helpers.js';

const JOBS: readonly ScheduleSpec[] = [
  { id: 'market', workflow: 'recomputeMarket', everyMs: 3_600_000, input: null, overlap: 'skip' },
  { id: 'safety', workflow: 'recomputeSafety', everyMs: 3_600_000, input: null, overlap: 'skip' },
];

async function waitFor(what: string, probe: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('recomputes reading another recompute’s documents, at the tip and after a deep rollback', function () {
  this.timeout(60_000);
  let store: Store;
  let cleanup: () => Promise<void>;
  let runner: Runner | null = null;
  /** Lets a market run held in its token stats finish (also when a case failed while holding it). */
  let release = () => {};

  beforeEach(async () => {
    ({ store, cleanup } = await tempStore());
    const at = new Date().toISOString();
    const tip = { slot: 2_000, id: 'ab'.repeat(32), height: 100 };
    // Both jobs last ran before a rollback of 12 blocks (generation 0); the sync is now in generation 1, at `tip`
    // (a run before any indexed block does no work: workflows/derived.ts).
    await store.write([
      put(CHECKPOINTS, { _id: 'sync', ...tip, points: [tip], tip, updatedAt: at }),
      put(SYNC_HEALTH, {
        _id: SYNC_HEALTH_ID,
        contactAt: at,
        tip,
        failing: null,
        stall: null,
        generation: 1,
        lastDeepRollback: { depth: 12, toHeight: 88, at },
        updatedAt: at,
      }),
      ...['recomputeMarket', 'recomputeSafety'].map((w) =>
        put(DERIVED_RUNS, { _id: w, generation: 0, from: tip, startedAt: at, finishedAt: at }),
      ),
    ]);
  });
  afterEach(async () => {
    release();
    await runner?.stop();
    runner = null;
    await cleanup();
  });

  /** The market and safety jobs of the real registry over fake recompute activities. */
  function start(market: { tokenStats: () => Promise<void> }, now?: () => number) {
    let stats = 'stats of the abandoned chain';
    const assessedOn: string[] = [];
    const activities = {
      ...createDerivedActivities({ store }),
      recomputeTokenStats: async () => {
        await market.tokenStats();
        stats = 'stats of the new chain';
        return { tokens: 1, pools: 1 };
      },
      recomputeRankings: async () => ({ lists: 1 }),
      recomputeMarketOverview: async () => undefined,
      recomputeTokenSafety: async () => {
        assessedOn.push(stats);
        return { tokens: 1, high: 0 };
      },
    };
    const workflows: WorkflowTable = {
      recomputeMarket: WORKFLOWS.recomputeMarket,
      recomputeSafety: WORKFLOWS.recomputeSafety,
    };
    runner = createRunner({ store, activities, workflows, pollMs: 10, ...(now ? { now } : {}) });
    // What the sync's triggerRecomputes does after a deep rollback: every job at once.
    runner.schedule(JOBS);
    return { assessedOn };
  }

  const completed = (workflow: string) => async () =>
    (await store.collection(RUNS).find('byWorkflow', { eq: [workflow] })).some((r) => r.status !== 'running');

  it('the registry derives the order from reads and writes: safety, storage, NFT and search read the market’s', () => {
    assert.deepEqual(upstreamOf('recomputeSafety'), ['recomputeMarket']);
    assert.deepEqual(upstreamOf('recomputeMarket'), []);
    assert.deepEqual(upstreamOf('recomputeSearch').sort(), ['recomputeMarket', 'recomputeNft', 'recomputeStaking']);
    // No two jobs wait on each other.
    for (const w of Object.keys(WORKFLOWS))
      for (const u of upstreamOf(w)) assert.ok(!upstreamOf(u).includes(w), `${w} and ${u} wait on each other`);
  });

  it('the safety run fired with the market run assesses the new chain’s stats, and its answers are served', async () => {
    const marketBusy = new Promise<void>((r) => (release = r));
    const { assessedOn } = start({ tokenStats: () => marketBusy });
    // The market run is still computing its stats while the safety run has started.
    await waitFor('both runs started', async () => {
      let n = 0;
      for await (const _ of store.collection(RUNS).scan()) n++;
      return n === 2;
    });
    // Past the safety run's first look (2 s after its start): it still waits while the market run computes.
    await new Promise((r) => setTimeout(r, 3_000));
    assert.deepEqual(assessedOn, [], 'safety did not assess tokens on the abandoned chain’s stats');
    release();
    await waitFor('the safety run', completed('recomputeSafety'));
    assert.deepEqual(assessedOn, ['stats of the new chain']);
    assert.equal((await store.collection(DERIVED_RUNS).get('recomputeSafety'))?.generation, 1);
    assert.equal(await syncGate({ store, ttlMs: 0 }).withheld('/mcp/tokens'), null);
  });

  it('at the tip of a first sync (no rollback), the safety run started with the market run waits for its stats', async () => {
    const at = new Date().toISOString();
    await store.write([
      put(SYNC_HEALTH, { ...(await readSyncHealth(store))!, generation: 0, lastDeepRollback: null, updatedAt: at }),
    ]);
    const marketBusy = new Promise<void>((r) => (release = r));
    const { assessedOn } = start({ tokenStats: () => marketBusy });
    await new Promise((r) => setTimeout(r, 3_000));
    assert.deepEqual(assessedOn, [], 'safety did not assess tokens on the backfill’s stats');
    release();
    await waitFor('the safety run', completed('recomputeSafety'));
    assert.deepEqual(assessedOn, ['stats of the new chain']);
  });

  it('when the market run fails, the safety run still ends but its answers stay withheld', async () => {
    // A clock 61 s further on at every reading: the bounded wait (2 minutes) runs out after a few polls.
    let offset = 0;
    const now = () => Date.now() + (offset += 61_000);
    const { assessedOn } = start(
      {
        tokenStats: async () => {
          throw Object.assign(new Error('token stats: store refused the document'), { nonRetryable: true });
        },
      },
      now,
    );
    await waitFor('the safety run', completed('recomputeSafety'));
    assert.deepEqual(assessedOn, ['stats of the abandoned chain']);
    assert.equal((await store.collection(DERIVED_RUNS).get('recomputeSafety'))?.generation, 0);
    const withheld = await syncGate({ store, ttlMs: 0 }).withheld('/mcp/tokens');
    assert.match(withheld?.reason ?? '', /recomputeSafety/);
  });
});
