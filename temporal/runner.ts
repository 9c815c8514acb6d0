/**
 * The embedded runner: executes the workflow bodies of workflows/registry.ts in this process when TEMPORAL_ADDRESS
 * is not set, with the same activity retry policies Temporal applies, and records every run in `runs` (RunDoc).
 *
 * Semantics, and where they differ from Temporal:
 * - `start` does not wait for the run: it resolves once the run is recorded `running` and returns
 *   `{ run, done }`; `done` settles with the final RunDoc (the sync follows the chain forever, so its `done` settles
 *   only at `stop()`). `done` never rejects: a failed run resolves with `status: 'failed'`.
 * - One run per workflow id at a time (Temporal refuses a second start of a running id too): `start` throws
 *   WorkflowAlreadyRunningError; a queued run waits until the running one ends; a schedule firing is skipped.
 * - Activity calls are retried per policy (attempt count, exponential backoff capped at the maximum interval,
 *   `nonRetryableErrorTypes` matched against the error's name or class name, `ApplicationFailure.nonRetryable`).
 *   Timeouts are not enforced: an in-process activity cannot be abandoned without risking two copies writing at once.
 * - `continueAsNew` restarts the body with the new input inside the same run (`continuations` counts them);
 *   Temporal starts a new run of the same workflow id instead.
 * - `stop()` aborts sleeps and retry backoffs at once, waits for activities in flight to return, and records the
 *   interrupted runs as `cancelled` with error `'stopped'` (a shutdown is not a job failure; `ops retry` restarts them).
 *   Runs a previous process left `running` (a crash, a kill -9) are recorded `failed` / `'interrupted'` at startup.
 * - RunDoc.attempts is the highest attempt number any single activity call of the run reached (1 = no retries);
 *   while a run waits for its next attempt, `error` shows the last failed attempt (`… retrying in N ms`), and while
 *   that attempt runs, `attempts` is its number and `error` says so (`<activity> running again since T, after: …`).
 */
import { pino } from 'pino';
import { RUNS, type RunDoc } from '../mongo/collections/runs.js';
import { put, type Store } from '../mongo/store.js';
import type { ActivityOptions, RetryPolicy, WorkflowContext } from '../workflows/context.js';
import { WORKFLOWS, type WorkflowEntry, type WorkflowTable } from '../workflows/registry.js';
import { recomputeWorkflowId } from './constants.js';
import { newRunId, recordInterrupted, runsWithStatus } from './run-docs.js';
import type { ScheduleSpec } from './schedules.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ActivityFunctions = Record<string, (...args: any[]) => Promise<any>>;

export interface RunnerDeps {
  store: Store;
  activities: ActivityFunctions;
  log?: pino.Logger;
  now?: () => number;
  /** The workflow table (default WORKFLOWS); tests pass entries with millisecond retry intervals. */
  workflows?: WorkflowTable;
  /** How often `queued` runs (written by `npm run ops`) are picked up; default 1000 ms. */
  pollMs?: number;
  /** Every finished run (completed, failed or cancelled), with its duration: metrics. */
  onRunEnd?: (run: RunDoc, durationMs: number) => void;
}

export interface StartOptions {
  workflowId: string;
  input: unknown;
  requestedBy: RunDoc['requestedBy'];
  retryOf?: string;
}

export interface RunHandle {
  /** The run as recorded when it started (`running`). */
  run: RunDoc;
  /** Settles with the final RunDoc (`completed` or `failed`); never rejects. */
  done: Promise<RunDoc>;
}

export interface Runner {
  start(workflow: string, opts: StartOptions): Promise<RunHandle>;
  /** Fire each entry now and then every `everyMs`, skipping a firing while the job's previous run is active. */
  schedule(entries: readonly ScheduleSpec[]): void;
  /**
   * Fire every scheduled job once now (same overlap rule). `npm start` calls it when the sync first reaches the
   * tip, so derived data covering the whole backfill does not wait a full interval (5 min for stake pools).
   */
  fireSchedules(): void;
  /**
   * Fire the scheduled jobs of these workflows now. A job whose run is active runs once more right after it (that
   * run started before whatever made the caller fire, e.g. a deep rollback). Returns the job ids fired or queued.
   */
  fireWorkflows(workflows: readonly string[]): string[];
  /** Start the `queued` runs whose workflow id is free (also done every `pollMs`). */
  pollQueue(): Promise<void>;
  /** Handles of the runs executing in this process, by workflow id. */
  active(): Map<string, RunHandle>;
  stop(): Promise<void>;
}

export class UnknownWorkflowError extends Error {
  override name = 'UnknownWorkflowError';
}
export class WorkflowAlreadyRunningError extends Error {
  override name = 'WorkflowAlreadyRunningError';
}
/** Raised inside a run when the runner stops; the run is recorded cancelled with error 'stopped'. */
export class RunnerStoppedError extends Error {
  override name = 'RunnerStoppedError';
  constructor() {
    super('stopped');
  }
}

/** An activity call that ran out of attempts or hit a non-retryable error. */
export class ActivityFailedError extends Error {
  override name = 'ActivityFailedError';
  constructor(
    readonly activity: string,
    readonly attempt: number,
    readonly failure: unknown,
  ) {
    super(`${activity}: ${describeError(failure)}`);
  }
}

class ContinueAsNew {
  constructor(readonly input: unknown) {}
}

export function describeError(e: unknown): string {
  if (e instanceof ActivityFailedError) return e.message;
  if (e instanceof Error) return e.name && e.name !== 'Error' ? `${e.name}: ${e.message}` : e.message;
  return String(e);
}

/** Whether a failed attempt may be retried under `policy` (Temporal matches the failure's type the same way). */
export function isRetryable(e: unknown, policy: RetryPolicy): boolean {
  if (typeof e === 'object' && e !== null && (e as { nonRetryable?: unknown }).nonRetryable === true) return false;
  const types = policy.nonRetryableErrorTypes ?? [];
  if (types.length === 0 || !(e instanceof Error)) return true;
  const names = [e.name, e.constructor.name, (e as { type?: unknown }).type].filter((n) => typeof n === 'string');
  return !names.some((n) => types.includes(n));
}

/** Delay before attempt `attempt + 1`: initial × coefficient^(attempt−1), capped at the maximum interval. */
export function backoffMs(policy: RetryPolicy, attempt: number): number {
  return Math.min(policy.maximumIntervalMs, policy.initialIntervalMs * policy.backoffCoefficient ** (attempt - 1));
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new RunnerStoppedError());
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new RunnerStoppedError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function createRunner(deps: RunnerDeps): Runner {
  const { store } = deps;
  const runs = store.collection(RUNS);
  const log = deps.log ?? pino({ level: 'silent' });
  const now = deps.now ?? Date.now;
  const table: WorkflowTable = deps.workflows ?? WORKFLOWS;
  const iso = () => new Date(now()).toISOString();
  const stopController = new AbortController();
  const running = new Map<string, RunHandle>();
  /** Workflow ids claimed synchronously before their RunDoc is written, so two starts cannot both pass the check. */
  const claimed = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  let polling: Promise<void> | null = null;
  /** Starts between their claim and their `running` record, for stop() to wait on. */
  const launching = new Set<Promise<unknown>>();

  // Runs left `running` by a previous process can never finish: record them, so `ops runs` shows them and
  // `ops retry` can restart them.
  const ready = (async () => {
    for (const doc of await recordInterrupted(store, iso()))
      log.warn({ run: doc._id }, 'run left running by a previous process recorded as failed (interrupted)');
  })();
  ready.catch((e: unknown) => log.error({ err: e }, 'could not record interrupted runs'));

  function wrapActivities(
    options: ActivityOptions,
    onAttempt: (name: string, attempt: number) => void,
    onRetry: (name: string, attempt: number, e: unknown, delayMs: number) => void,
  ): unknown {
    const policy = options.retry;
    const signal = stopController.signal;
    return new Proxy(
      {},
      {
        get(_target, name) {
          if (typeof name !== 'string') return undefined;
          const fn = deps.activities[name];
          return async (...args: unknown[]) => {
            if (!fn) throw new ActivityFailedError(name, 0, new Error('activity is not registered with the runner'));
            for (let attempt = 1; ; attempt++) {
              if (signal.aborted) throw new RunnerStoppedError();
              onAttempt(name, attempt);
              try {
                return await fn(...args);
              } catch (e) {
                if (signal.aborted) throw new RunnerStoppedError();
                const exhausted = policy.maximumAttempts > 0 && attempt >= policy.maximumAttempts;
                if (exhausted || !isRetryable(e, policy)) throw new ActivityFailedError(name, attempt, e);
                const delay = backoffMs(policy, attempt);
                onRetry(name, attempt, e, delay);
                await abortableSleep(delay, signal);
              }
            }
          };
        },
      },
    );
  }

  async function execute(entry: WorkflowEntry<unknown, unknown>, doc: RunDoc): Promise<RunDoc> {
    let current = doc;
    // Store writes of one run are chained so the final record is always the last one written.
    let writes: Promise<void> = Promise.resolve();
    const persist = (next: RunDoc) => {
      current = next;
      writes = writes
        .then(() => store.write([put(RUNS, next)]))
        .catch((e: unknown) => log.error({ err: e, run: next._id }, 'could not record run'));
      return writes;
    };
    let attempts = 0;
    let retrying = false;
    /** The failed attempt a retry follows: `attempt N failed: <error>`. */
    let lastFailure = '';
    const ctx: WorkflowContext<unknown> = {
      activities: wrapActivities(
        entry.activityOptions,
        (name, attempt) => {
          attempts = Math.max(attempts, attempt);
          if (attempt === 1 && retrying) {
            retrying = false;
            void persist({ ...current, attempts, error: null });
          } else if (attempt > 1) {
            // The backoff is over and the next attempt runs (a recompute's ledger queries, a sync slice once the source
            // is back): the record said `retrying in 1000 ms` and the previous attempt's number for as long as it ran
            // (6 minutes of ledger-query timeouts against a frozen source). Worded as ops shows it for Temporal.
            const error = `${name} running again since ${iso()}, after: ${lastFailure}`;
            void persist({ ...current, attempts, error });
          }
        },
        (name, attempt, e, delayMs) => {
          retrying = true;
          lastFailure = `attempt ${attempt} failed: ${describeError(e)}`;
          const error = `${name} ${lastFailure}; retrying in ${delayMs} ms`;
          log.warn({ run: doc._id, activity: name, attempt, delayMs, err: e }, 'activity attempt failed; retrying');
          void persist({ ...current, attempts, error });
        },
      ),
      sleep: (ms) => abortableSleep(ms, stopController.signal),
      now,
      continueAsNew: (input) => Promise.reject(new ContinueAsNew(input)),
    };

    let input = doc.input;
    let continuations = 0;
    let final: RunDoc;
    try {
      let result: unknown;
      for (;;) {
        try {
          result = await entry.body(ctx, input);
          break;
        } catch (e) {
          if (!(e instanceof ContinueAsNew)) throw e;
          if (stopController.signal.aborted) throw new RunnerStoppedError();
          input = e.input;
          continuations++;
          void persist({ ...current, continuations }); // visible while a follow-forever run keeps going
        }
      }
      final = { ...current, status: 'completed', attempts, error: null, result, finishedAt: iso(), continuations };
      log.info({ run: doc._id, workflow: doc.workflow, continuations }, 'run completed');
    } catch (e) {
      const stopped = e instanceof RunnerStoppedError;
      const error = stopped ? 'stopped' : describeError(e);
      final = {
        ...current,
        status: stopped ? 'cancelled' : 'failed',
        attempts,
        error,
        result: null,
        finishedAt: iso(),
        continuations,
      };
      if (error === 'stopped') log.info({ run: doc._id }, 'run stopped');
      else log.error({ run: doc._id, workflow: doc.workflow, attempts, error }, 'run failed');
    }
    await persist(final);
    deps.onRunEnd?.(final, Date.parse(final.finishedAt ?? '') - Date.parse(final.startedAt ?? ''));
    return final;
  }

  /** Records `doc` running and executes it; the caller has claimed `doc.workflowId`. */
  function launch(entry: WorkflowEntry<unknown, unknown>, doc: RunDoc): Promise<RunHandle> {
    const p = launchUntracked(entry, doc);
    launching.add(p);
    void p.catch(() => undefined).finally(() => launching.delete(p));
    return p;
  }

  async function launchUntracked(entry: WorkflowEntry<unknown, unknown>, doc: RunDoc): Promise<RunHandle> {
    try {
      const run: RunDoc = { ...doc, status: 'running', startedAt: iso(), attempts: 0, error: null };
      await store.write([put(RUNS, run)]);
      const done = execute(entry, run).finally(() => {
        running.delete(doc.workflowId);
        claimed.delete(doc.workflowId);
      });
      void done.then(() => {
        // A firing that came while this run was active (fireWorkflows) runs now.
        const again = rerun.get(doc.workflowId);
        if (again && !stopController.signal.aborted) {
          rerun.delete(doc.workflowId);
          again();
        }
      });
      const handle = { run, done };
      running.set(doc.workflowId, handle);
      return handle;
    } catch (e) {
      claimed.delete(doc.workflowId);
      throw e;
    }
  }

  function entryOf(workflow: string): WorkflowEntry<unknown, unknown> {
    const entry = Object.hasOwn(table, workflow) ? table[workflow] : undefined;
    if (!entry)
      throw new UnknownWorkflowError(`unknown workflow ${workflow} (known: ${Object.keys(table).join(', ')})`);
    return entry;
  }

  async function start(workflow: string, opts: StartOptions): Promise<RunHandle> {
    const entry = entryOf(workflow);
    await ready;
    if (stopController.signal.aborted) throw new RunnerStoppedError();
    if (claimed.has(opts.workflowId)) throw new WorkflowAlreadyRunningError(`${opts.workflowId} is already running`);
    claimed.add(opts.workflowId);
    let id: string;
    try {
      id = await newRunId(store, opts.workflowId, now());
    } catch (e) {
      claimed.delete(opts.workflowId);
      throw e;
    }
    return launch(entry, {
      _id: id,
      workflow,
      workflowId: opts.workflowId,
      input: opts.input,
      status: 'queued',
      attempts: 0,
      error: null,
      result: null,
      retryOf: opts.retryOf ?? null,
      requestedBy: opts.requestedBy,
      queuedAt: iso(),
      startedAt: null,
      finishedAt: null,
    });
  }

  async function pollOnce(): Promise<void> {
    await ready;
    for (const queued of await runsWithStatus(store, 'queued')) {
      if (stopController.signal.aborted) return;
      if (claimed.has(queued.workflowId)) continue; // waits for the run in progress under the same id
      const doc = await runs.get(queued._id);
      if (doc?.status !== 'queued' || claimed.has(doc.workflowId)) continue;
      let entry: WorkflowEntry<unknown, unknown>;
      try {
        entry = entryOf(doc.workflow);
      } catch (e) {
        await store.write([put(RUNS, { ...doc, status: 'failed', error: describeError(e), finishedAt: iso() })]);
        continue;
      }
      claimed.add(doc.workflowId);
      log.info({ run: doc._id, workflow: doc.workflow, requestedBy: doc.requestedBy }, 'starting queued run');
      await launch(entry, doc);
    }
  }

  function pollQueue(): Promise<void> {
    polling ??= pollOnce()
      .catch((e: unknown) => log.error({ err: e }, 'could not start queued runs'))
      .finally(() => {
        polling = null;
      });
    return polling;
  }

  function every(ms: number, fn: () => void) {
    const t = setInterval(fn, ms);
    timers.add(t);
  }

  every(deps.pollMs ?? 1000, () => void pollQueue());

  function schedule(entries: readonly ScheduleSpec[]): void {
    for (const s of entries) {
      entryOf(s.workflow);
      const workflowId = recomputeWorkflowId(s.id);
      const fire = () => {
        if (stopController.signal.aborted) return;
        if (claimed.has(workflowId)) {
          log.info({ schedule: s.id }, 'previous run still active; firing skipped (overlap skip)');
          return;
        }
        start(s.workflow, { workflowId, input: s.input, requestedBy: 'schedule' }).catch((e: unknown) => {
          if (!(e instanceof WorkflowAlreadyRunningError || e instanceof RunnerStoppedError))
            log.error({ err: e, schedule: s.id }, 'scheduled run could not start');
        });
      };
      // A fresh process has no derived data yet: fire once now (schedules:apply triggers a Temporal Schedule it
      // creates for the same reason), then at the interval.
      fire();
      every(s.everyMs, fire);
      fires.push(fire);
      byWorkflow.push({ spec: s, fire });
    }
  }
  const fires: (() => void)[] = [];
  const fireSchedules = () => fires.forEach((fire) => fire());
  /** Jobs to run once more when their active run ends, by workflow id. */
  const rerun = new Map<string, () => void>();
  const byWorkflow: { spec: ScheduleSpec; fire: () => void }[] = [];
  function fireWorkflows(workflows: readonly string[]): string[] {
    const fired: string[] = [];
    for (const { spec, fire } of byWorkflow) {
      if (!workflows.includes(spec.workflow)) continue;
      const workflowId = recomputeWorkflowId(spec.id);
      if (claimed.has(workflowId)) rerun.set(workflowId, fire);
      else fire();
      fired.push(spec.id);
    }
    return fired;
  }

  async function stop(): Promise<void> {
    for (const t of timers) clearInterval(t);
    timers.clear();
    stopController.abort();
    await polling;
    await Promise.allSettled([...launching]);
    await Promise.all([...running.values()].map((h) => h.done));
  }

  return { start, schedule, fireSchedules, fireWorkflows, pollQueue, active: () => new Map(running), stop };
}
