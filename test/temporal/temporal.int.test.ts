/**
 * Against a real Temporal server (TEMPORAL_ADDRESS): a worker with the production bundle options and the real sync
 * activities follows an in-memory chain to its tip through continueAsNew; schedules apply idempotently. Each run
 * uses its own task queue and ids, so a shared server is left as it was (the test schedule is deleted).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Worker } from '@temporalio/worker';
import { createSyncActivities } from '../../activities/sync/index.js';
import { CHECKPOINTS } from '../../mongo/collections/index.js';
import { bundleWorkflows } from '../../temporal/bundle.js';
import { applySchedules } from '../../temporal/temporal-admin.js';
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
