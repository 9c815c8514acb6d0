/**
 * Client-side actions on a Temporal cluster: apply the schedules of temporal/schedules.ts, start the chain
 * follower, start a workflow now (ops retry/trigger). Used by `npm run schedules:apply`, `npm run ops` and the
 * Temporal integration test.
 */
import {
  ScheduleAlreadyRunning,
  ScheduleOverlapPolicy,
  WorkflowExecutionAlreadyStartedError,
  type Client,
  type ScheduleOptions,
} from '@temporalio/client';
import type { SyncChainInput } from '../workflows/sync-chain.js';
import { SYNC_SLICES_PER_RUN, SYNC_TIP_WAIT_MS, SYNC_WORKFLOW_ID, recomputeWorkflowId } from './constants.js';
import { catchupWindowMs, type ScheduleSpec } from './schedules.js';

const OVERLAP = { skip: ScheduleOverlapPolicy.SKIP } as const;

/** The Temporal Schedule of one entry: interval, explicit overlap and catch-up window. */
export function scheduleOptions(s: ScheduleSpec, taskQueue: string): ScheduleOptions {
  return {
    scheduleId: s.id,
    spec: { intervals: [{ every: s.everyMs }] },
    action: {
      type: 'startWorkflow',
      workflowType: s.workflow,
      workflowId: recomputeWorkflowId(s.id),
      taskQueue,
      args: [s.input],
    },
    policies: { overlap: OVERLAP[s.overlap], catchupWindow: catchupWindowMs(s), pauseOnFailure: false },
  };
}

/** Creates each schedule, or updates it in place when it exists (idempotent; never triggers an update). */
export async function applySchedules(
  client: Client,
  schedules: readonly ScheduleSpec[],
  taskQueue: string,
): Promise<{ id: string; action: 'created' | 'updated' }[]> {
  const out: { id: string; action: 'created' | 'updated' }[] = [];
  for (const s of schedules) {
    const opts = scheduleOptions(s, taskQueue);
    try {
      const handle = await client.schedule.create(opts);
      // Like the embedded runner: a new job runs once right away instead of waiting a whole interval. Not with the
      // create's `triggerImmediately`: the SDK sends it with overlap ALLOW_ALL, and the Schedule does not track a run
      // started so (measured: its firing 1.5 s later under SKIP started a second run beside it).
      await handle.trigger(OVERLAP[s.overlap]);
      out.push({ id: s.id, action: 'created' });
    } catch (e) {
      if (!(e instanceof ScheduleAlreadyRunning)) throw e;
      await client.schedule.getHandle(s.id).update((prev) => ({
        ...prev,
        spec: opts.spec,
        action: opts.action,
        policies: opts.policies,
        state: { paused: prev.state.paused, ...(prev.state.note ? { note: prev.state.note } : {}) },
      }));
      out.push({ id: s.id, action: 'updated' });
    }
  }
  return out;
}

/**
 * The chain follower as `npm run schedules:apply` starts it. The Schedules fire every job once when they are created
 * (applySchedules), before the sync indexed anything on a new deployment, and then only at their interval (the
 * holders series hourly, stake pools, governance and token safety every 5 minutes): `refreshAtTip` runs every
 * recompute reading chain data once the sync first reaches the tip, as `npm start` fires its jobs then.
 */
export const syncChainStartInput = (sliceBlocks: number): SyncChainInput => ({
  slicesPerRun: SYNC_SLICES_PER_RUN,
  sliceBlocks,
  tipWaitMs: SYNC_TIP_WAIT_MS,
  refreshAtTip: true,
});

/** Starts the long-running chain follower under its fixed id; 'running' when it already runs. */
export async function startSyncChain(
  client: Client,
  taskQueue: string,
  input: SyncChainInput,
): Promise<'started' | 'running'> {
  try {
    await client.workflow.start('syncChain', { workflowId: SYNC_WORKFLOW_ID, taskQueue, args: [input] });
    return 'started';
  } catch (e) {
    if (e instanceof WorkflowExecutionAlreadyStartedError) return 'running';
    throw e;
  }
}
