/**
 * The embedded runner executing the real workflow bodies (syncChainBody) with the real retry semantics over an
 * embedded store. Activities are fakes returning realistic slice results; retry intervals are shortened to
 * milliseconds through the workflow table so no test sleeps for real.
 */
import assert from 'node:assert/strict';
import { ChainDiscontinuityError, type SliceInput, type SliceResult } from '../../activities/sync/index.js';
import { RUNS, type RunDoc } from '../../mongo/collections/runs.js';
import { put, type Store } from '../../mongo/store.js';
import { SYNC_WORKFLOW_ID, recomputeWorkflowId } from '../../temporal/constants.js';
import { syncChainStartInput } from '../../temporal/temporal-admin.js';
import { embeddedRetry, embeddedRuns, embeddedStatus, embeddedTrigger } from '../../temporal/ops.js';
import {
  WorkflowAlreadyRunningError,
  backoffMs,
  createRunner,
  type ActivityFunctions,
  type Runner,
} from '../../temporal/runner.js';
import type { ScheduleSpec } from '../../temporal/schedules.js';
import type { RetryPolicy, WorkflowContext } from '../../workflows/context.js';
import { RECOMPUTE_ACTIVITY, SYNC_ACTIVITY } from '../../workflows/policies.js';
import { WORKFLOWS, type WorkflowTable } from '../../workflows/registry.js';
import type { SyncChainInput } from '../../workflows/sync-chain.js';
import { tempStore } from '../sync/helpers.js';

/** The registry with the sync's policy shortened to milliseconds (same shape, same semantics). */
function fastTable(retry: Partial<RetryPolicy> = {}, extra: WorkflowTable = {}): WorkflowTable {
  return {
    ...WORKFLOWS,
    syncChain: {
      ...WORKFLOWS.syncChain,
      activityOptions: {
        ...SYNC_ACTIVITY,
        retry: { ...SYNC_ACTIVITY.retry, initialIntervalMs: 1, maximumIntervalMs: 4, ...retry },
      },
    },
    ...extra,
  };
}

/** A chain of `tipHeight` blocks, one every 20 slots, indexed `perSlice` blocks per call. */
function fakeSync(tipHeight: number, perSlice: number) {
  let height = 0;
  const calls: SliceInput[] = [];
  const syncSlice = async (input: SliceInput): Promise<SliceResult> => {
    calls.push(input);
    const blocks = Math.min(perSlice, input.maxBlocks, tipHeight - height);
    height += blocks;
    return {
      blocks,
      rollbacks: 0,
      height,
      slot: height * 20,
      tipHeight,
      tipSlot: tipHeight * 20,
      atTip: height >= tipHeight,
    };
  };
  return { syncSlice, calls };
}

const INPUT: SyncChainInput = { slicesPerRun: 1000, sliceBlocks: 500, tipWaitMs: 5_000, stopAtTip: true };

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 5_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('embedded runner', function () {
  let store: Store;
  let cleanup: () => Promise<void>;
  const runners: Runner[] = [];
  const runner = (activities: ActivityFunctions, workflows: WorkflowTable = fastTable()) => {
    const r = createRunner({ store, activities, workflows, pollMs: 10 });
    runners.push(r);
    return r;
  };

  beforeEach(async function () {
    ({ store, cleanup } = await tempStore());
  });
  afterEach(async function () {
    for (const r of runners.splice(0)) await r.stop();
    await cleanup();
  });

  it('start returns at once; the sync catches up to the tip and the run is recorded completed', async function () {
    const chain = fakeSync(1_234, 500);
    const r = runner({ syncSlice: chain.syncSlice });
    const { run, done } = await r.start('syncChain', {
      workflowId: SYNC_WORKFLOW_ID,
      input: INPUT,
      requestedBy: 'start',
    });
    assert.equal(run.status, 'running');
    assert.equal(run.requestedBy, 'start');
    const final = await done;
    assert.equal(final.status, 'completed');
    assert.deepEqual(final.result, { blocks: 1_234, rollbacks: 0, height: 1_234 });
    assert.equal(final.attempts, 1);
    assert.deepEqual(chain.calls[0], { maxBlocks: 500, waitMs: 5_000 });
    assert.deepEqual(await store.collection(RUNS).get(run._id), final);
  });

  it('a sync started as schedules:apply starts it runs the recomputes reading chain data once, at its first tip', async function () {
    // On Temporal the Schedules fire every job once when schedules:apply creates them, before the sync indexed
    // anything: without this, the stake pools, governance and token safety answered from an empty store for up to
    // 5 minutes after the catch-up, the holders series for up to an hour.
    const chain = fakeSync(1_100, 500);
    const triggered: { reason: string; afterSlices: number }[] = [];
    const triggerRecomputes = async ({ reason }: { reason: string }) => {
      triggered.push({ reason, afterSlices: chain.calls.length });
      return { triggered: [] };
    };
    const r = runner({ syncSlice: chain.syncSlice, triggerRecomputes });
    const final = await (
      await r.start('syncChain', {
        workflowId: SYNC_WORKFLOW_ID,
        input: { ...syncChainStartInput(500), stopAtTip: true },
        requestedBy: 'start',
      })
    ).done;
    assert.equal(final.status, 'completed');
    assert.equal(chain.calls.length, 3, 'slices of 500, 500 and 100 blocks');
    assert.deepEqual(triggered, [{ reason: 'the sync reached the tip (a resync or a first start)', afterSlices: 3 }]);
  });

  it('retries a failing slice with backoff: two failures then success = 3 attempts, completed', async function () {
    const chain = fakeSync(300, 500);
    let failures = 0;
    const syncSlice = async (input: SliceInput) => {
      if (failures < 2) {
        failures++;
        throw new Error('connect ECONNREFUSED 127.0.0.1:1337');
      }
      return chain.syncSlice(input);
    };
    const r = runner({ syncSlice });
    const final = await (
      await r.start('syncChain', { workflowId: SYNC_WORKFLOW_ID, input: INPUT, requestedBy: 'start' })
    ).done;
    assert.equal(final.status, 'completed');
    assert.equal(final.attempts, 3);
    assert.equal(final.error, null);
    assert.deepEqual(final.result, { blocks: 300, rollbacks: 0, height: 300 });
  });

  it('fails at once on a non-retryable error type', async function () {
    let calls = 0;
    const syncSlice = async () => {
      calls++;
      throw new ChainDiscontinuityError('block 101 ab12 does not follow 100 cd34');
    };
    const r = runner({ syncSlice }, fastTable({ nonRetryableErrorTypes: ['ChainDiscontinuityError'] }));
    const final = await (
      await r.start('syncChain', { workflowId: SYNC_WORKFLOW_ID, input: INPUT, requestedBy: 'start' })
    ).done;
    assert.equal(calls, 1);
    assert.equal(final.status, 'failed');
    assert.equal(final.attempts, 1);
    assert.equal(final.error, 'syncSlice: ChainDiscontinuityError: block 101 ab12 does not follow 100 cd34');
  });

  it('records a failed run once maximumAttempts is spent; ops lists it; ops retry queues a run the runner completes', async function () {
    let down = true;
    const chain = fakeSync(40, 500);
    const syncSlice = async (input: SliceInput) => {
      if (down) throw new Error('Ogmios closed the connection (1006)');
      return chain.syncSlice(input);
    };
    const r = runner({ syncSlice }, fastTable({ maximumAttempts: 4 }));
    const failed = await (
      await r.start('syncChain', { workflowId: SYNC_WORKFLOW_ID, input: INPUT, requestedBy: 'start' })
    ).done;
    assert.equal(failed.status, 'failed');
    assert.equal(failed.attempts, 4);
    assert.equal(failed.error, 'syncSlice: Ogmios closed the connection (1006)');

    const byStatus = await store.collection(RUNS).find('byStatus', { eq: ['failed'] });
    assert.deepEqual(
      byStatus.map((d) => d._id),
      [failed._id],
    );
    const listing = (await embeddedRuns(store, { failed: true, limit: 10, workflow: null })).join('\n');
    assert.match(listing, new RegExp(`${failed._id}\\s+syncChain\\s+failed\\s+4 `));
    const status = (await embeddedStatus(store)).join('\n');
    assert.match(status, /runs: 0 queued, 0 running, 0 completed, 1 failed/);
    assert.match(status, new RegExp(`${failed._id} .* nothing ran since: still failed`));

    // The operator fixes the chain source and retries (as `npm run ops -- retry <id>` does from another process).
    down = false;
    const queued = await embeddedRetry(store, failed._id);
    assert.equal(queued.status, 'queued');
    assert.equal(queued.retryOf, failed._id);
    assert.equal(queued.requestedBy, 'operator');
    assert.deepEqual(queued.input, INPUT);
    const done = await waitFor('the retry to complete', async () => {
      const d = await store.collection(RUNS).get(queued._id);
      return d?.status === 'completed' ? d : null;
    });
    assert.deepEqual(done.result, { blocks: 40, rollbacks: 0, height: 40 });
    assert.equal((await store.collection(RUNS).get(failed._id))?.status, 'failed', 'the failed run stays recorded');
    // …and `ops status` and `runs --failed` say the retry completed since, not that the sync is still failed.
    const finished = done.finishedAt!.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
    const since = new RegExp(`${failed._id} .*failed .* completed ${finished} \\(${queued._id}\\)`);
    assert.match((await embeddedStatus(store)).join('\n'), since);
    assert.match((await embeddedRuns(store, { failed: true, limit: 10, workflow: null })).join('\n'), since);
  });

  it('continueAsNew restarts the body inside the same run and carries the totals', async function () {
    const chain = fakeSync(1_100, 200); // 6 slices: 200 ×5 + 100
    const r = runner({ syncSlice: chain.syncSlice });
    const input: SyncChainInput = { ...INPUT, slicesPerRun: 2, sliceBlocks: 200 };
    const final = await (
      await r.start('syncChain', { workflowId: SYNC_WORKFLOW_ID, input, requestedBy: 'start' })
    ).done;
    assert.equal(chain.calls.length, 6);
    assert.equal(final.status, 'completed');
    assert.equal(final.continuations, 2);
    assert.deepEqual(final.result, { blocks: 1_100, rollbacks: 0, height: 1_100 });
    assert.deepEqual(final.input, input, 'the run keeps the input it was started with');
    assert.equal(await store.collection(RUNS).count('_id'), 1, 'one run, not three');
  });

  it('refuses a second start of a running workflow id', async function () {
    let release!: () => void;
    const gate = new Promise<void>((res) => (release = res));
    const chain = fakeSync(10, 500);
    const r = runner({ syncSlice: async (i: SliceInput) => (await gate, chain.syncSlice(i)) });
    const first = await r.start('syncChain', { workflowId: SYNC_WORKFLOW_ID, input: INPUT, requestedBy: 'start' });
    await assert.rejects(
      r.start('syncChain', { workflowId: SYNC_WORKFLOW_ID, input: INPUT, requestedBy: 'start' }),
      WorkflowAlreadyRunningError,
    );
    release();
    assert.equal((await first.done).status, 'completed');
  });

  it('stop() ends a run waiting in a retry backoff or a workflow sleep at once, recorded failed "stopped"', async function () {
    const napBody = async (ctx: WorkflowContext<unknown>, input: { ms: number }) => {
      await ctx.sleep(input.ms);
      return 'woke';
    };
    const table = fastTable(
      { initialIntervalMs: 3_600_000, maximumIntervalMs: 3_600_000 },
      { nap: { body: napBody, activityOptions: RECOMPUTE_ACTIVITY, reads: [], writes: [] } },
    );
    const r = runner({ syncSlice: async () => Promise.reject(new Error('socket hang up')) }, table);
    const sync = await r.start('syncChain', { workflowId: SYNC_WORKFLOW_ID, input: INPUT, requestedBy: 'start' });
    const nap = await r.start('nap', { workflowId: 'nap', input: { ms: 3_600_000 }, requestedBy: 'start' });
    // The retrying run shows its last failure while it waits for the next attempt.
    const retrying = await waitFor('the first failed attempt to be recorded', async () => {
      const d = await store.collection(RUNS).get(sync.run._id);
      return d?.error ? d : null;
    });
    assert.equal(retrying.status, 'running');
    assert.equal(retrying.error, 'syncSlice attempt 1 failed: socket hang up; retrying in 3600000 ms');

    await r.stop();
    const [s, n] = await Promise.all([sync.done, nap.done]);
    assert.equal(s.status, 'cancelled');
    assert.equal(s.error, 'stopped');
    assert.equal(n.status, 'cancelled');
    assert.equal(n.error, 'stopped');
    assert.equal(await store.collection(RUNS).count('byStatus', { eq: ['running'] }), 0);
  });

  it('while a retry attempt runs, the run record names that attempt, not "retrying in N ms" of the last one', async function () {
    // A chain source that froze and came back: attempt 1 timed out, attempt 2 runs (here until `release`). ops runs
    // showed `attempts 1 … attempt 1 failed: …; retrying in 1 ms` for as long as attempt 2 ran (6 minutes for a
    // staking recompute whose ledger queries each waited out their 120 s timeout).
    let release!: () => void;
    const gate = new Promise<void>((res) => (release = res));
    const chain = fakeSync(10, 500);
    let calls = 0;
    const r = runner({
      syncSlice: async (i: SliceInput) => {
        calls++;
        if (calls === 1) throw new Error('Ogmios gave no answer to nextBlock within 120000 ms');
        await gate;
        return chain.syncSlice(i);
      },
    });
    const before = Date.now();
    const { run, done } = await r.start('syncChain', {
      workflowId: SYNC_WORKFLOW_ID,
      input: INPUT,
      requestedBy: 'start',
    });
    await waitFor('the second attempt to start', async () => calls === 2);
    await new Promise((res) => setTimeout(res, 200)); // the record's write
    const doc = await store.collection(RUNS).get(run._id);
    release(); // before asserting: a failed assertion must not leave the run holding the runner's stop
    assert.equal(doc?.status, 'running');
    assert.equal(doc?.attempts, 2, 'the attempt under way is the second one');
    const m =
      /^syncSlice running again since (\S+), after: attempt 1 failed: Ogmios gave no answer to nextBlock within 120000 ms$/.exec(
        doc?.error ?? '',
      );
    assert.ok(m, `error: ${doc?.error}`);
    assert.ok(Date.parse(m[1] ?? '') >= before - 1_000, 'since: when the attempt started');
    const final = await done;
    assert.equal(final.status, 'completed');
    assert.equal(final.error, null);
    assert.equal(final.attempts, 2);
  });

  it('records runs a previous process left running as failed "interrupted"', async function () {
    const stale: RunDoc = {
      _id: `${SYNC_WORKFLOW_ID}:1767225600000`,
      workflow: 'syncChain',
      workflowId: SYNC_WORKFLOW_ID,
      input: INPUT,
      status: 'running',
      attempts: 1,
      error: null,
      result: null,
      retryOf: null,
      requestedBy: 'start',
      queuedAt: '2026-01-01T00:00:00.000Z',
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: null,
    };
    await store.write([put(RUNS, stale)]);
    const r = runner({ syncSlice: fakeSync(1, 1).syncSlice });
    await r.pollQueue();
    const doc = await store.collection(RUNS).get(stale._id);
    assert.equal(doc?.status, 'failed');
    assert.equal(doc?.error, 'interrupted');
  });

  it('fires a schedule now and at its interval, skipping firings while the previous run is active', async function () {
    let release!: () => void;
    const gate = new Promise<void>((res) => (release = res));
    let recounts = 0;
    const recountBody = async (ctx: WorkflowContext<{ recount(): Promise<number> }>) => ctx.activities.recount();
    const table = fastTable(
      {},
      { recount: { body: recountBody, activityOptions: RECOMPUTE_ACTIVITY, reads: [], writes: ['counts'] } },
    );
    const r = runner(
      {
        recount: async () => {
          await gate;
          return ++recounts;
        },
      },
      table,
    );
    const spec: ScheduleSpec = { id: 'holders', workflow: 'recount', everyMs: 15, input: {}, overlap: 'skip' };
    r.schedule([spec]);
    const runsOf = () => store.collection(RUNS).find('byWorkflow', { eq: ['recount'] });
    await waitFor('the first firing', async () => (await runsOf()).length === 1);
    await new Promise((res) => setTimeout(res, 80)); // several intervals pass while the first run is blocked
    assert.equal((await runsOf()).length, 1, 'overlapping firings are skipped');
    release();
    const later = await waitFor('a second completed run', async () => {
      const done = (await runsOf()).filter((d) => d.status === 'completed');
      return done.length >= 2 ? done : null;
    });
    assert.ok(later.every((d) => d.workflowId === recomputeWorkflowId('holders') && d.requestedBy === 'schedule'));

    // `ops trigger holders` queues a run of the same job for the service's runner.
    const queued = await embeddedTrigger(store, 'holders', [spec]);
    assert.equal(queued.requestedBy, 'operator');
    await waitFor('the triggered run to complete', async () => {
      const d = await store.collection(RUNS).get(queued._id);
      return d?.status === 'completed';
    });
  });

  it('fires every schedule once more on demand, skipping a job still running', async function () {
    let calls = 0;
    let release!: () => void;
    let gate = new Promise<void>((res) => (release = res));
    const countBody = async (ctx: WorkflowContext<{ count(): Promise<number> }>) => ctx.activities.count();
    const table = fastTable(
      {},
      { count: { body: countBody, activityOptions: RECOMPUTE_ACTIVITY, reads: [], writes: ['counts'] } },
    );
    const r = runner({ count: async () => (await gate, ++calls) }, table);
    const spec: ScheduleSpec = { id: 'hourly', workflow: 'count', everyMs: 3_600_000, input: {}, overlap: 'skip' };
    r.schedule([spec]);
    const runsOf = () => store.collection(RUNS).find('byWorkflow', { eq: ['count'] });
    await waitFor('the first firing', async () => (await runsOf()).length === 1);
    r.fireSchedules();
    await new Promise((res) => setTimeout(res, 50));
    assert.equal((await runsOf()).length, 1, 'a firing while the run is active is skipped');
    const first = r.active().get(recomputeWorkflowId('hourly'));
    assert.ok(first, 'the first run is active');
    release();
    await first.done; // settles once the run is recorded and its workflow id is free again
    gate = Promise.resolve();
    r.fireSchedules();
    await waitFor('a second run, long before the hour', async () => {
      const runs = await runsOf();
      return runs.length === 2 && runs.every((d) => d.status === 'completed');
    });
    assert.equal(calls, 2);
  });

  it('fires a workflow once more after its active run (npm start does at the tip: the warm-up run saw part of the backfill)', async function () {
    // What each run saw: the "chain height" when its activity ran.
    let height = 10;
    const seen: number[] = [];
    let release!: () => void;
    const gate = new Promise<void>((res) => (release = res));
    const countBody = async (ctx: WorkflowContext<{ count(): Promise<number> }>) => ctx.activities.count();
    const table = fastTable(
      {},
      { count: { body: countBody, activityOptions: RECOMPUTE_ACTIVITY, reads: [], writes: ['counts'] } },
    );
    const r = runner(
      {
        count: async () => {
          seen.push(height);
          await gate;
          return seen.length;
        },
      },
      table,
    );
    const spec: ScheduleSpec = { id: 'hourly', workflow: 'count', everyMs: 3_600_000, input: {}, overlap: 'skip' };
    r.schedule([spec]);
    const runsOf = () => store.collection(RUNS).find('byWorkflow', { eq: ['count'] });
    await waitFor('the warm-up run', async () => seen.length === 1);
    height = 500; // the sync reaches the tip while the warm-up run is active
    assert.deepEqual(r.fireWorkflows(['count']), ['hourly']);
    assert.equal((await runsOf()).length, 1, 'no second run while the first is active');
    release();
    await waitFor('a run over the whole backfill, long before the hour', async () => {
      const runs = await runsOf();
      return runs.length === 2 && runs.every((d) => d.status === 'completed');
    });
    assert.deepEqual(seen, [10, 500]);
  });

  it('backs off exponentially up to the maximum interval', function () {
    const p: RetryPolicy = {
      initialIntervalMs: 1_000,
      backoffCoefficient: 2,
      maximumIntervalMs: 30_000,
      maximumAttempts: 0,
    };
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 7].map((a) => backoffMs(p, a)),
      [1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000],
    );
  });
});
