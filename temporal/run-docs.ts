/**
 * RunDoc bookkeeping shared by the embedded runner (which executes runs) and the ops command (which queues retries
 * and triggers from another process over the same store).
 */
import { RUNS, type RunDoc } from '../mongo/collections/runs.js';
import { put, type Store } from '../mongo/store.js';

/**
 * A fresh run id `${workflowId}:${ms}`; bumps the millisecond while the id is taken (two runs queued in the same
 * millisecond, e.g. a schedule firing while an operator triggers the same job).
 */
export async function newRunId(store: Store, workflowId: string, ms: number): Promise<string> {
  const runs = store.collection(RUNS);
  for (let t = ms; ; t++) {
    const id = `${workflowId}:${t}`;
    if (!(await runs.get(id))) return id;
  }
}

export interface NewRun {
  workflow: string;
  workflowId: string;
  input: unknown;
  requestedBy: RunDoc['requestedBy'];
  retryOf?: string | null;
}

/** Writes a `queued` run; the runner of the service executes it (it polls every second). */
export async function enqueueRun(store: Store, run: NewRun, now: number = Date.now()): Promise<RunDoc> {
  const doc: RunDoc = {
    _id: await newRunId(store, run.workflowId, now),
    workflow: run.workflow,
    workflowId: run.workflowId,
    input: run.input,
    status: 'queued',
    attempts: 0,
    error: null,
    result: null,
    retryOf: run.retryOf ?? null,
    requestedBy: run.requestedBy,
    queuedAt: new Date(now).toISOString(),
    startedAt: null,
    finishedAt: null,
  };
  await store.write([put(RUNS, doc)]);
  return doc;
}

/** Runs with `status`, oldest first. */
export function runsWithStatus(store: Store, status: RunDoc['status'], limit?: number): Promise<RunDoc[]> {
  return store.collection(RUNS).find('byStatus', { eq: [status], ...(limit === undefined ? {} : { limit }) });
}

/**
 * Runs left `running` by a process that is gone (a crash, a kill -9) can never finish: recorded `failed` with error
 * 'interrupted', so `ops runs` shows them and `ops retry` can restart them. The runner does it at start; the ops
 * command over an embedded store whose worker is gone does it too (`startedBefore`: only runs started before it
 * found the worker gone). Returns the runs recorded.
 */
export async function recordInterrupted(store: Store, nowIso: string, startedBefore?: string): Promise<RunDoc[]> {
  const left = (await runsWithStatus(store, 'running')).filter(
    (r) => startedBefore === undefined || (r.startedAt ?? '') < startedBefore,
  );
  for (const doc of left)
    await store.write([put(RUNS, { ...doc, status: 'failed', error: 'interrupted', finishedAt: nowIso })]);
  return left;
}
