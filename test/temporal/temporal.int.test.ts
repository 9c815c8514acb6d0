/**
 * Against a real Temporal server (TEMPORAL_ADDRESS): a worker with the production bundle options and the real sync
 * activities follows an in-memory chain to its tip through continueAsNew; schedules apply idempotently. Each run
 * uses its own task queue and ids, so a shared server is left as it was (the test schedule is deleted).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Client, Connection, ScheduleOverlapPolicy } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Worker } from '@temporalio/worker';
import { StoredDocumentCorruptError } from '../../activities/sync/health.js';
import { createSyncActivities } from '../../activities/sync/index.js';
import { CHECKPOINTS } from '../../mongo/collections/index.js';
import { bundleWorkflows } from '../../temporal/bundle.js';
import { OpsError, temporalRetry, temporalRunStatus, temporalRuns, temporalTrigger } from '../../temporal/ops.js';
import { SCHEDULES } from '../../temporal/schedules.js';
import { applySchedules } from '../../temporal/temporal-admin.js';
import { WORKFLOWS } from '../../workflows/registry.js';
import type { SyncChainInput, SyncChainResult } from '../../workflows/sync-chain.js';
import { buildChain } from '../sync/build-chain.js';
import { tempStore } from '../sync/helpers.js';
import { memoryChain } from '../sync/memory-chain.js';

const address = process.env.TEMPORAL_ADDRESS;
const namespace = process.env.TEMPORAL_NAMESPACE ?? 'default';

describe('Temporal integration (TEMPORAL_ADDRESS)', function () {
  this.timeout(120_000);
  let connection: Connection;
  let client: Client;

  before(async function () {
    if (!address) {
      console.log('skipped: Temporal integration tests (set TEMPORAL_ADDRESS to run them)');
      this.skip();
    }
    connection = await Connection.connect({ address });
    client = new Client({ connection, namespace });
  });
  after(async function () {
    await connection?.close();
  });

  /**
   * A worker with the production bundle on a queue of its own, running `syncChain` with a stand-in `syncSlice`:
   * `body` gets the worker and the run's ids; the run is terminated and the connection closed however it ends.
   */
  async function withSyncWorker(
    syncSlice: () => Promise<unknown>,
    body: (run: { worker: Worker; taskQueue: string; workflowId: string }) => Promise<void>,
  ): Promise<void> {
    const taskQueue = `test-${randomUUID()}`;
    const workflowId = `sync-chain-test-${randomUUID()}`;
    const nativeConnection = await NativeConnection.connect({ address: address! });
    try {
      const worker = await Worker.create({
        connection: nativeConnection,
        namespace,
        taskQueue,
        workflowBundle: await bundleWorkflows({ logger: new DefaultLogger('WARN') }),
        activities: { syncSlice },
      });
      await body({ worker, taskQueue, workflowId });
    } finally {
      await client.workflow
        .getHandle(workflowId)
        .terminate('test cleanup')
        .catch(() => undefined);
      await nativeConnection.close();
    }
  }

  it('a worker runs syncChain over the real sync activities to the tip, through continueAsNew', async function () {
    const { events, canonical } = buildChain({ blocks: 45, forkEvery: 11 });
    const t = await tempStore();
    const nativeConnection = await NativeConnection.connect({ address: address! });
    try {
      const taskQueue = `test-${randomUUID()}`;
      const activities = createSyncActivities({
        store: t.store,
        chain: memoryChain(events),
        k: 2160,
        network: 'mainnet',
      });
      const worker = await Worker.create({
        connection: nativeConnection,
        namespace,
        taskQueue,
        workflowBundle: await bundleWorkflows({ logger: new DefaultLogger('WARN') }),
        activities,
      });
      const input: SyncChainInput = { slicesPerRun: 2, sliceBlocks: 10, tipWaitMs: 0, stopAtTip: true };
      const result = await worker.runUntil(
        client.workflow.execute('syncChain', {
          taskQueue,
          workflowId: `sync-chain-test-${randomUUID()}`,
          args: [input],
        }),
      );
      const tip = canonical[canonical.length - 1]!;
      assert.equal((result as SyncChainResult).height, tip.height);
      assert.equal((await t.store.collection(CHECKPOINTS).get('sync'))?.id, tip.id);
    } finally {
      await nativeConnection.close();
      await t.cleanup();
    }
  });

  it('ops runs and ops status show a running run retrying: its attempt and its last failure', async function () {
    // r18 operator audit: `ops runs` showed '-' for the attempts of a running run, so a sync retrying a down source
    // (or a recompute a down store) for minutes looked like one making progress. The oracle is Temporal's own record.
    const input: SyncChainInput = { slicesPerRun: 2, sliceBlocks: 10, tipWaitMs: 0, stopAtTip: true };
    const refused = async () => {
      throw Object.assign(new Error('cannot connect to Ogmios at ws://127.0.0.1:9'), { name: 'OgmiosConnectionError' });
    };
    await withSyncWorker(refused, async ({ worker, taskQueue, workflowId }) => {
      await worker.runUntil(async () => {
        const handle = await client.workflow.start('syncChain', { taskQueue, workflowId, args: [input] });
        // Until Temporal reports a third attempt of the slice (the sync policy retries without end).
        let attempt = 0;
        for (let i = 0; i < 200 && attempt < 3; i++) {
          attempt = (await handle.describe()).raw.pendingActivities?.[0]?.attempt ?? 0;
          if (attempt < 3) await new Promise((r) => setTimeout(r, 250));
        }
        assert.ok(attempt >= 3, `attempt ${attempt}`);
        const rows = (await temporalRuns(client, { failed: false, limit: 50, workflow: 'syncChain' }))
          .map((l) => l.split(/\s{2,}/))
          .filter((cells) => cells[0] === workflowId);
        assert.equal(rows.length, 1);
        const [, type, state, attempts, , , error] = rows[0]!;
        const now = (await handle.describe()).raw.pendingActivities?.[0]?.attempt ?? 0;
        assert.deepEqual([type, state], ['syncChain', 'running']);
        assert.ok(
          Number(attempts) >= attempt && Number(attempts) <= now,
          `attempts ${attempts}, Temporal: ${attempt}..${now}`,
        );
        assert.match(error ?? '', /^retrying syncSlice: cannot connect to Ogmios at ws:\/\/127\.0\.0\.1:9/);
        const status = await temporalRunStatus(client, taskQueue);
        const i = status.indexOf('retrying now:');
        assert.ok(i >= 0, status.join('\n'));
        assert.ok(
          status.some(
            (l) =>
              l.startsWith(`  ${workflowId} (syncChain): attempt `) && l.includes('retrying syncSlice: cannot connect'),
          ),
          status.join('\n'),
        );
        await handle.terminate('test: done');
      });
    });
  });

  it('ops runs and ops status tell a retried attempt that runs now from one waiting to retry', async function () {
    // r22 operator audit: Temporal keeps an activity's last failure while its next attempt runs. After the store or
    // the source came back, `ops status` said `retrying now: sync-chain …: retrying syncSlice: connect ECONNREFUSED`
    // for the minutes the new attempt synced, beside `sync health: ok`. The oracle is Temporal's describe: the
    // pending activity is STARTED (a worker runs it), attempt 2, its last failure attempt 1's.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let attempt = 0;
    const input: SyncChainInput = { slicesPerRun: 1, sliceBlocks: 10, tipWaitMs: 0, stopAtTip: true };
    const syncSlice = async () => {
      if (++attempt === 1) throw new Error('connect ECONNREFUSED 127.0.0.1:9');
      await released; // the second attempt runs until the test has looked
      return { blocks: 0, rollbacks: 0, height: 0, slot: 0, tipHeight: 0, tipSlot: 0, atTip: true };
    };
    try {
      await withSyncWorker(syncSlice, async ({ worker, taskQueue, workflowId }) => {
        await worker.runUntil(async () => {
          const handle = await client.workflow.start('syncChain', { taskQueue, workflowId, args: [input] });
          // The worker drains its activities before runUntil ends: the blocked attempt must end, whatever failed.
          try {
            let pending = (await handle.describe()).raw.pendingActivities?.[0];
            for (let i = 0; i < 200 && !(pending?.attempt === 2 && pending.state === 2); i++) {
              await new Promise((r) => setTimeout(r, 100));
              pending = (await handle.describe()).raw.pendingActivities?.[0];
            }
            assert.deepEqual([pending?.attempt, pending?.state], [2, 2], 'Temporal: attempt 2 started');
            const started = new Date(Number(pending!.lastStartedTime!.seconds) * 1000).toISOString();
            const since = started.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
            const row = (await temporalRuns(client, { failed: false, limit: 50, workflow: 'syncChain' }))
              .map((l) => l.split(/\s{2,}/))
              .find((cells) => cells[0] === workflowId);
            assert.equal(row?.[3], '2');
            // Clipped to 80 characters, as every error of the listing.
            const said = `syncSlice running again since ${since}, after: connect ECONNREFUSED…`;
            assert.equal(row?.[6], said);
            const status = await temporalRunStatus(client, taskQueue);
            const line = status.find((l) => l.startsWith(`  ${workflowId} (syncChain):`));
            assert.equal(line, `  ${workflowId} (syncChain): attempt 2, ${said}`);
          } finally {
            release();
          }
          await handle.result();
        });
      });
    } finally {
      release();
    }
  });

  it('ops runs --failed gives a failed run the attempts of the activity that failed it', async function () {
    // r22 operator audit: a sync that failed at once on a non-retryable error (a damaged stored document) was listed
    // `failed  9`: the most attempts of any of its slices (one retried through an outage before). The oracle is the
    // activities' own behaviour: the first slice fails twice (retryable) then ends; the second fails at once.
    let calls = 0;
    let repaired = false;
    const input: SyncChainInput = { slicesPerRun: 5, sliceBlocks: 10, tipWaitMs: 0, stopAtTip: true };
    const syncSlice = async () => {
      if (repaired) return { blocks: 8, rollbacks: 0, height: 9, slot: 9, tipHeight: 9, tipSlot: 9, atTip: true };
      calls++;
      if (calls <= 2) throw new Error('connect ECONNREFUSED 127.0.0.1:9');
      if (calls === 3) return { blocks: 1, rollbacks: 0, height: 1, slot: 1, tipHeight: 9, tipSlot: 9, atTip: false };
      throw new StoredDocumentCorruptError('addresses addr1x: its balance holds a quantity that is no integer');
    };
    await withSyncWorker(syncSlice, async ({ worker, taskQueue, workflowId }) => {
      // The failed execution's row of `ops runs --failed` (its status cell: the restart below lists under the same id).
      const failedRow = async (ready: (cells: string[]) => boolean) => {
        let row: string[] | undefined;
        for (let i = 0; i < 100 && !(row && ready(row)); i++) {
          if (i) await new Promise((r) => setTimeout(r, 100));
          row = (await temporalRuns(client, { failed: true, limit: 50, workflow: 'syncChain' }))
            .map((l) => l.split(/\s{2,}/))
            .find((cells) => cells[0] === workflowId && cells[2] === 'failed');
        }
        return row;
      };
      await worker.runUntil(async () => {
        const handle = await client.workflow.start('syncChain', { taskQueue, workflowId, args: [input] });
        await assert.rejects(handle.result());
        assert.equal(calls, 4, 'three attempts of the first slice, one of the second');
        const row = await failedRow(() => true);
        assert.deepEqual(row?.slice(1, 4), ['syncChain', 'failed', '1']);
        assert.match(row?.[6] ?? '', /^Activity task failed: addresses addr1x: its balance holds a quantity/);
        assert.equal(row?.[7], 'nothing ran since: still failed');

        // The operator repairs the store and restarts the sync under the same id (`ops -- sync restart`): the
        // failure stays listed, and says the sync completed since (before, it read as failing still).
        repaired = true;
        await client.workflow.execute('syncChain', { taskQueue, workflowId, args: [input] });
        const after = await failedRow((cells) => (cells[7] ?? '').startsWith('completed'));
        assert.match(after?.[7] ?? '', new RegExp(`^completed \\d{4}-\\d\\d-\\d\\d \\S+ \\(${workflowId}\\)$`));
      });
    });
  });

  it('ops retry and trigger refuse while a run of the same job runs on the task queue, naming it', async function () {
    // No worker polls this queue: a started run stays running. Before, both commands started a second run of the
    // job beside it (and beside the Schedule's), as many as were asked for.
    const queue = `test-${randomUUID()}`;
    const job = SCHEDULES.find((s) => s.id === 'staking')!;
    const ids = { running: `recompute:staking-test-${randomUUID()}`, done: `recompute:staking-test-${randomUUID()}` };
    const start = (workflowId: string) =>
      client.workflow.start(job.workflow, { workflowId, taskQueue: queue, args: [job.input] });
    const runningNow = async () => {
      const query = `WorkflowType = "${job.workflow}" AND ExecutionStatus = "Running" AND TaskQueue = "${queue}"`;
      return (await client.workflow.count(query)).count;
    };
    const settle = async (running: number) => {
      for (let i = 0; i < 100 && (await runningNow()) !== running; i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal(await runningNow(), running, 'visibility caught up');
    };
    try {
      await start(ids.done);
      await client.workflow.getHandle(ids.done).terminate('test: a finished run to retry');
      await start(ids.running);
      await settle(1);
      const names = (e: unknown) => e instanceof OpsError && e.message.includes(ids.running);
      await assert.rejects(temporalTrigger(client, 'staking', SCHEDULES, queue), names);
      await assert.rejects(temporalRetry(client, ids.done, queue), names);
      await client.workflow.getHandle(ids.running).terminate('test: the run ends');
      await settle(0);
      assert.equal(
        await temporalRetry(client, ids.done, queue),
        `started ${job.workflow} as ${ids.done}-retry-1 (retry of ${ids.done})`,
      );
    } finally {
      for await (const w of client.workflow.list({ query: `TaskQueue = "${queue}" AND ExecutionStatus = "Running"` }))
        await client.workflow
          .getHandle(w.workflowId, w.runId)
          .terminate('test cleanup')
          .catch(() => undefined);
    }
  });

  it('every run of a scheduled job, its first and the operator’s, is tracked by its Schedule: a firing meanwhile is skipped', async function () {
    // No worker polls this queue: a started run stays running until the test ends it. Before, the first run (the
    // SDK's triggerImmediately, overlap ALLOW_ALL) and the operator's runs (started beside the Schedule) were not
    // the Schedule's tracked runs: its next firing (overlap SKIP) started the job a second time beside them.
    const queue = `test-${randomUUID()}`;
    const spec = { id: `test-staking-${randomUUID()}`, workflow: 'recomputeStaking', everyMs: 3_600_000, input: null };
    const job = { ...spec, overlap: 'skip' as const };
    const schedule = client.schedule.getHandle(spec.id);
    const running = async () => {
      const query = `WorkflowType = "${spec.workflow}" AND ExecutionStatus = "Running" AND TaskQueue = "${queue}"`;
      const runs: string[] = [];
      for await (const w of client.workflow.list({ query })) runs.push(w.runId);
      return runs;
    };
    const until = async (what: string, ok: () => Promise<boolean>) => {
      for (let i = 0; i < 100 && !(await ok()); i++) await new Promise((r) => setTimeout(r, 100));
      assert.ok(await ok(), what);
    };
    const tracked = async () => (await schedule.describe()).info.runningActions.map((a) => a.workflow);
    /**
     * The interval's firing while `run` runs: an action under the Schedule's policy (SKIP), as at each interval.
     * A Schedule names its runs by the second, so the firing waits for the next one: in the same second it would
     * only collide with the run's id.
     */
    const fireWhile = async (run: { workflowId: string; firstExecutionRunId: string }, skippedBefore: number) => {
      await new Promise((r) => setTimeout(r, 1_100));
      await schedule.trigger(ScheduleOverlapPolicy.SKIP);
      await until('the firing was skipped', async () => {
        return (await schedule.describe()).info.numActionsSkippedOverlap === skippedBefore + 1;
      });
      assert.deepEqual(await running(), [run.firstExecutionRunId], 'one run of the job');
    };
    try {
      await applySchedules(client, [job], queue); // its first run starts at once
      await until('the first run is tracked', async () => (await tracked()).length === 1);
      const [first] = await tracked();
      await until('visibility caught up', async () => (await running()).length === 1);
      await fireWhile(first!, 0);
      await client.workflow.getHandle(first!.workflowId).terminate('test: the first run ends');
      await until('the first run ended', async () => (await tracked()).length === 0);

      const said = await temporalTrigger(client, spec.id, [job], queue);
      await until('the triggered run is tracked', async () => (await tracked()).length === 1);
      const [triggered] = await tracked();
      assert.equal(said, `started ${spec.workflow} as ${triggered!.workflowId} (schedule ${spec.id})`);
      await until('visibility caught up', async () => (await running()).length === 1);
      await fireWhile(triggered!, 1);

      // A retry while it runs: one more run once it ends, never beside it.
      assert.equal(
        await temporalRetry(client, first!.workflowId, queue, WORKFLOWS, [job]),
        `retry of ${first!.workflowId}, schedule ${spec.id} runs ${spec.workflow} once more when its run in ` +
          `progress (${triggered!.workflowId}) ends`,
      );
      assert.deepEqual(await tracked(), [triggered]);
      await client.workflow.getHandle(triggered!.workflowId).terminate('test: the triggered run ends');
      await until('the retry started after it', async () => {
        const now = await tracked();
        return now.length === 1 && now[0]!.firstExecutionRunId !== triggered!.firstExecutionRunId;
      });
      await until('one run of the job', async () => (await running()).length === 1);
    } finally {
      await schedule.delete().catch(() => undefined);
      for await (const w of client.workflow.list({ query: `TaskQueue = "${queue}" AND ExecutionStatus = "Running"` }))
        await client.workflow
          .getHandle(w.workflowId, w.runId)
          .terminate('test cleanup')
          .catch(() => undefined);
    }
  });

  it('applies a schedule, then updates it in place on the second apply', async function () {
    const id = `test-schedule-${randomUUID()}`;
    const spec = { id, workflow: 'syncChain', everyMs: 3_600_000, input: {}, overlap: 'skip' as const };
    try {
      // No worker polls this queue: the run the immediate trigger starts waits there until the cleanup ends it.
      const queue = `test-${randomUUID()}`;
      assert.deepEqual(await applySchedules(client, [spec], queue), [{ id, action: 'created' }]);
      assert.deepEqual(await applySchedules(client, [{ ...spec, everyMs: 7_200_000 }], queue), [
        { id, action: 'updated' },
      ]);
      const d = await client.schedule.getHandle(id).describe();
      assert.equal(d.policies.overlap, 'SKIP');
      assert.equal(d.spec.intervals?.[0]?.every, 7_200_000);
    } finally {
      await client.schedule
        .getHandle(id)
        .delete()
        .catch(() => undefined);
      for await (const w of client.workflow.list({ query: `WorkflowId STARTS_WITH "recompute:${id}"` }))
        await client.workflow
          .getHandle(w.workflowId, w.runId)
          .terminate('test cleanup')
          .catch(() => undefined);
    }
  });
});
