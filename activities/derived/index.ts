/**
 * Bookkeeping of the scheduled jobs (workflows/derived.ts): the generation of each recompute's documents, and how
 * each job last ended. Reads: sync_health, checkpoints. Writes: derived_runs, job_health.
 */
import {
  CHECKPOINTS,
  DERIVED_RUNS,
  JOB_HEALTH,
  readSyncHealth,
  type DerivedRunDoc,
  type JobHealthDoc,
} from '../../mongo/collections/sync-state.js';
import { put, type Store } from '../../mongo/store.js';

export interface DerivedMark {
  workflow: string;
  generation: number;
  from: DerivedRunDoc['from'];
  startedAt: string;
}

export interface UpstreamState {
  generation: number;
  running: string[];
}

export function createDerivedActivities(deps: { store: Store; now?: () => number }) {
  const { store } = deps;
  const now = deps.now ?? Date.now;
  /** The job's health record with `runningSince` set (a run started) or cleared; its success and failure kept. */
  const running = (workflow: string, job: JobHealthDoc | null, runningSince: string | null, at: string) =>
    store.write([
      put(JOB_HEALTH, { lastSuccessAt: null, failing: null, ...job, _id: workflow, runningSince, updatedAt: at }),
    ]);
  return {
    /** The generation and indexed tip a recompute run starts from; the job is recorded running until it ends. */
    async derivedRunStarted({ workflow }: { workflow: string }): Promise<DerivedMark> {
      const [health, cp, job] = await Promise.all([
        readSyncHealth(store),
        store.collection(CHECKPOINTS).get('sync'),
        store.collection(JOB_HEALTH).get(workflow),
      ]);
      const startedAt = new Date(now()).toISOString();
      await running(workflow, job, startedAt, startedAt);
      return {
        workflow,
        // A run started while a deep rollback is under way reads a store still on the abandoned chain (it is undone in
        // many writes on a server store): its documents are of the generation before it, so they stay withheld until a
        // run started after the rollback completed (the sync starts one then).
        generation: (health?.generation ?? 0) - (health?.rollingBack ? 1 : 0),
        from: cp ? { slot: cp.slot, id: cp.id, height: cp.height } : null,
        startedAt,
      };
    },
    /**
     * What a run reading these recomputes' documents (`workflows`: workflows/registry.ts `upstreamOf`) waits on:
     * the oldest sync generation among their documents (a job that never completed a run counts as generation 0,
     * older than any rollback or resync), and those of them with a run in progress.
     */
    async derivedInputs({ workflows }: { workflows: readonly string[] }): Promise<UpstreamState> {
      const [runs, jobs] = await Promise.all([
        Promise.all(workflows.map((w) => store.collection(DERIVED_RUNS).get(w))),
        Promise.all(workflows.map((w) => store.collection(JOB_HEALTH).get(w))),
      ]);
      return {
        generation: Math.min(...runs.map((r) => r?.generation ?? 0)),
        running: workflows.filter((_, i) => jobs[i]?.runningSince),
      };
    },
    /** The run completed: its documents are of generation `mark.generation`. */
    async derivedRunCompleted(mark: DerivedMark): Promise<void> {
      const prev = await store.collection(DERIVED_RUNS).get(mark.workflow);
      // A run that started before a newer one completed never lowers the recorded generation.
      if (prev && prev.generation > mark.generation) return;
      await store.write([
        put(DERIVED_RUNS, {
          _id: mark.workflow,
          generation: mark.generation,
          from: mark.from,
          startedAt: mark.startedAt,
          finishedAt: new Date(now()).toISOString(),
        }),
      ]);
    },
    /**
     * A run of `workflow` that did no work (no block indexed yet, workflows/derived.ts): no longer running; its last
     * success and failure stay as they were.
     */
    async derivedRunSkipped({ workflow }: { workflow: string }): Promise<void> {
      await running(workflow, await store.collection(JOB_HEALTH).get(workflow), null, new Date(now()).toISOString());
    },
    /** A run of `workflow` completed: it is no longer failing. */
    async jobSucceeded({ workflow }: { workflow: string }): Promise<void> {
      const at = new Date(now()).toISOString();
      await store.write([put(JOB_HEALTH, { _id: workflow, lastSuccessAt: at, failing: null, updatedAt: at })]);
    },
    /** A run of `workflow` failed after its retries (`error`: the last attempt's failure). */
    async jobFailed({ workflow, error }: { workflow: string; error: string }): Promise<void> {
      const at = new Date(now()).toISOString();
      const prev = await store.collection(JOB_HEALTH).get(workflow);
      await store.write([
        put(JOB_HEALTH, {
          _id: workflow,
          lastSuccessAt: prev?.lastSuccessAt ?? null,
          failing: {
            since: prev?.failing?.since ?? at,
            error: error.slice(0, 500),
            runs: (prev?.failing?.runs ?? 0) + 1,
          },
          updatedAt: at,
        }),
      ]);
    },
  };
}
export type DerivedActivities = ReturnType<typeof createDerivedActivities>;
