/**
 * The operator commands behind `npm run ops` (scripts/ops.ts), for both engines. Embedded: read and queue RunDocs
 * in the store (the service's runner picks queued runs up within a second). Temporal: list, describe and start
 * workflow executions through the client. Each command returns text lines; errors an operator can fix are
 * OpsError (exit code 2, no stack trace).
 */
import {
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  type Client,
  type ScheduleDescription,
  type ScheduleHandle,
} from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { RUNS, type RunDoc, type RunStatus } from '../mongo/collections/runs.js';
import { readSyncLag, syncCondition } from '../mongo/collections/sync-state.js';
import type { SyncChainInput } from '../workflows/sync-chain.js';
import type { Store } from '../mongo/store.js';
import { WORKFLOWS, upstreamOf, type WorkflowTable } from '../workflows/registry.js';
import { recomputeWorkflowId, SYNC_SLICES_PER_RUN, SYNC_TIP_WAIT_MS, SYNC_WORKFLOW_ID } from './constants.js';
import { enqueueRun, runsWithStatus } from './run-docs.js';
import { SCHEDULES, type ScheduleSpec } from './schedules.js';

export class OpsError extends Error {
  override name = 'OpsError';
}

export const USAGE = `usage: npm run ops -- <command>
  status                                      mode, store, whether the service runs (embedded store), sync
                                              checkpoint and lag, runs by status, last failures
  runs [--failed] [--limit N] [--workflow W]  recorded runs, newest first
  retry <runId>                               run a finished run's workflow again with the same input
  trigger <job>                               run a scheduled job now (jobs: temporal/schedules.ts)
  jobs                                        every scheduled job: workflow, interval, the jobs it runs after, reads, writes
  resync --from origin                        drop the indexed chain and what is derived from it, sync again from
                                              origin (after "rollback beyond the undo window" / a chain switch)
  sync restart                                start the stopped or failed sync again where it is (after fixing
                                              the store, or a "store refused a document" stall)
  keys <create|list|revoke|plan> …            API keys and account plans (ops -- keys help)`;

/** Appended to a mistake's one-line reason (README: mistakes exit 2 with one line; the usage is `ops -- help`). */
const SEE_HELP = '(usage: npm run ops -- help)';

export type OpsCommand =
  | { cmd: 'status' }
  | { cmd: 'runs'; failed: boolean; limit: number; workflow: string | null }
  | { cmd: 'retry'; runId: string }
  | { cmd: 'trigger'; job: string }
  | { cmd: 'jobs' }
  | { cmd: 'resync'; from: 'origin' }
  | { cmd: 'sync-restart' }
  | { cmd: 'help' };

export function parseOpsArgs(argv: readonly string[]): OpsCommand {
  const [cmd, ...rest] = argv;
  const positional = (what: string) => {
    const v = rest[0];
    if (!v || v.startsWith('--') || rest.length > 1) throw new OpsError(`${cmd} takes exactly one ${what} ${SEE_HELP}`);
    return v;
  };
  switch (cmd) {
    case undefined:
    case 'help':
    case '--help':
      return { cmd: 'help' };
    case 'status':
      if (rest.length) throw new OpsError(`status takes no arguments ${SEE_HELP}`);
      return { cmd: 'status' };
    case 'runs': {
      const out = { cmd: 'runs' as const, failed: false, limit: 20, workflow: null as string | null };
      for (let i = 0; i < rest.length; i++) {
        const a = rest[i];
        if (a === '--failed') out.failed = true;
        else if (a === '--limit') {
          const n = Number(rest[++i]);
          if (!Number.isInteger(n) || n < 1) throw new OpsError('--limit needs a whole number ≥ 1');
          out.limit = n;
        } else if (a === '--workflow') {
          const w = rest[++i];
          if (!w) throw new OpsError('--workflow needs a workflow name');
          out.workflow = w;
        } else throw new OpsError(`unknown option for runs: ${a} ${SEE_HELP}`);
      }
      return out;
    }
    case 'jobs':
      if (rest.length) throw new OpsError(`jobs takes no arguments ${SEE_HELP}`);
      return { cmd: 'jobs' };
    case 'retry':
      return { cmd: 'retry', runId: positional('run id') };
    case 'trigger':
      return { cmd: 'trigger', job: positional('job name') };
    case 'resync': {
      if (rest[0] !== '--from' || rest.length !== 2) throw new OpsError(`resync needs --from origin ${SEE_HELP}`);
      if (rest[1] !== 'origin')
        throw new OpsError(
          `resync --from ${rest[1]}: only origin is supported (a later start point needs its block height and the ` +
            'outputs created before it, which the chain source cannot hand out)',
        );
      return { cmd: 'resync', from: 'origin' };
    }
    case 'sync':
      if (rest[0] !== 'restart' || rest.length !== 1)
        throw new OpsError(`sync takes one subcommand: restart ${SEE_HELP}`);
      return { cmd: 'sync-restart' };
    default:
      throw new OpsError(
        `unknown command: ${cmd} (commands: status, runs, retry, trigger, jobs, resync, sync restart, keys; usage: npm run ops -- help)`,
      );
  }
}

/** What a command refused for want of disk space did not do (diskFullLine), by command (`keys` by subcommand). */
const NOT_DONE: ReadonlyMap<string, string> = new Map([
  ['keys create', 'the key was not created'],
  ['keys revoke', 'the key was not revoked (it still works)'],
  ['keys plan', 'the plan was not changed'],
  ...['retry', 'trigger', 'resync', 'sync'].map((c) => [c, 'no run was queued'] as const),
]);

/**
 * The line `ops` prints when the embedded store refused its write for want of disk space (`detail`: the store's
 * StoreDiskFullError without its "writing resumes by itself", which holds for the sync and the recomputes, whose runs
 * retry, but not for a command: nothing retries it). Says what did not happen and that the command must be run again.
 */
export function diskFullLine(argv: readonly string[], detail: string): string {
  const [cmd = '', sub = ''] = argv;
  const notDone = NOT_DONE.get(cmd === 'keys' ? `keys ${sub}` : cmd) ?? 'nothing was done';
  return (
    `${notDone}: ${detail}. Free space on that disk (or move DATA_DIR to a larger one), then run ` +
    `\`npm run ops -- ${argv.map((a) => (/[\s'"]/.test(a) ? `'${a.replace(/'/g, `'\\''`)}'` : a)).join(' ')}\` again (nothing retries it)`
  );
}

/** A fixed-width text table. */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

const short = (iso: string | null) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '-');
const clip = (s: string | null, n = 80) => (s === null ? '' : s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** What a listing asked for, as its empty answer names it: `no failed runs of syncChain recorded`. */
const runsAsked = (noun: string, o: { failed: boolean; workflow: string | null }) =>
  `${o.failed ? 'failed ' : ''}${noun}${o.workflow ? ` of ${o.workflow}` : ''}`;

/**
 * The runs as a table; none names the filter, since a bare `no runs recorded` after `runs --failed` reads as a store
 * that holds no runs at all.
 */
export function runsTable(
  runs: readonly RunDoc[],
  asked: { failed: boolean; workflow: string | null } = { failed: false, workflow: null },
  since?: ReadonlyMap<string, string>,
): string[] {
  if (runs.length === 0) return [`no ${runsAsked('runs', asked)} recorded`];
  return table(
    ['id', 'workflow', 'status', 'attempts', 'queued', 'started', 'finished', 'error', ...(since ? ['since'] : [])],
    runs.map((r) => [
      r._id,
      r.workflow,
      r.status,
      String(r.attempts),
      short(r.queuedAt),
      short(r.startedAt),
      short(r.finishedAt),
      clip(r.error),
      ...(since ? [since.get(r._id) ?? ''] : []),
    ]),
  );
}

/** The newest run of a workflow started after a failed one, as the failure's `since` cell reads it. */
export type LaterRun = { id: string; status: string; finishedAt: string | null };

/**
 * What became of a failure: the newest run of its workflow after it (an operator's retry, a `sync restart`, the
 * Schedule's next firing). Without it `ops status` listed a sync that failed an hour ago under "last failures"
 * exactly as it listed one failing now, though a retry had run to completion or the sync was running again since.
 */
export function sinceCell(later: LaterRun | null): string {
  if (!later) return 'nothing ran since: still failed';
  const s = later.status.toLowerCase();
  if (s === 'completed') return `completed ${short(later.finishedAt)} (${later.id})`;
  if (s === 'running' || s === 'queued' || s === 'failed') return `${s} again (${later.id})`;
  return `${s} (${later.id})`;
}

/** Each failure's `since` cell over the embedded store: the newest run of its workflow queued after it. */
async function embeddedSince(store: Store, failures: readonly RunDoc[]): Promise<Map<string, string>> {
  const runs = store.collection(RUNS);
  const out = new Map<string, string>();
  for (const f of failures) {
    const [later] = await runs.find('byWorkflow', { eq: [f.workflow], gt: f.queuedAt, reverse: true, limit: 1 });
    out.set(f._id, sinceCell(later ? { id: later._id, status: later.status, finishedAt: later.finishedAt } : null));
  }
  return out;
}

const every = (ms: number) =>
  ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`;

/**
 * `ops -- jobs`: the schedule table joined with each workflow's declared reads and writes, and the jobs whose
 * documents it reads (each run first waits for them to have run in its sync generation). No store needed.
 */
export function jobsTable(schedules: readonly ScheduleSpec[], workflows: WorkflowTable = WORKFLOWS): string[] {
  const jobOf = (workflow: string) => schedules.find((s) => s.workflow === workflow)?.id ?? workflow;
  return table(
    ['job', 'workflow', 'every', 'after', 'reads', 'writes'],
    schedules.map((s) => {
      const w = workflows[s.workflow];
      const after = upstreamOf(s.workflow, workflows).map(jobOf).join(', ') || '-';
      return [s.id, s.workflow, every(s.everyMs), after, w?.reads.join(', ') ?? '?', w?.writes.join(', ') ?? '?'];
    }),
  );
}

/**
 * Sync health, checkpoint, tip and lag lines, read from the store (the same in both modes). The lag is the one of
 * every other surface (readSyncLag): max(tip − indexed, now − time of the indexed tip block).
 */
export async function syncStatus(
  store: Store,
  nowMs: number = Date.now(),
  opts: { noWorker?: boolean; restarting?: boolean } = {},
): Promise<string[]> {
  const lag = await readSyncLag(store, nowMs);
  const c = syncCondition(lag, nowMs);
  // No embedded worker runs on DATA_DIR (npm start killed): the sync's last record still reads ok, retrying or
  // starting for up to SYNC_SILENT_SECONDS, but nothing runs it. A stall or a recorded stop says so already.
  const orphaned =
    opts.noWorker &&
    (c.status === 'ok' ||
      c.status === 'unreachable' ||
      c.status === 'failing' ||
      c.status === 'starting' ||
      c.status === 'rolling-back');
  const health = orphaned
    ? [
        `sync health: NOT RUNNING: no embedded worker runs it (its last record${lag.health ? `, ${lag.health.updatedAt}` : ''}: ${c.status === 'ok' ? 'ok' : (c.reason ?? c.status)})`,
        opts.restarting
          ? '  next: nothing while npm start restarts its worker; read its log if the worker keeps exiting'
          : '  next: start the service (`npm start`)',
      ]
    : [
        c.status === 'ok'
          ? 'sync health: ok'
          : `sync health: ${c.status.toUpperCase()}: ${c.reason ?? ''}${c.since ? ` (since ${c.since})` : ''}`,
        ...(c.action ? [`  next: ${c.action}`] : []),
      ];
  const cp = lag.checkpoint;
  if (!cp) return [...health, 'sync: no block indexed yet'];
  const lines = [
    ...health,
    `sync: height ${cp.height}, slot ${cp.slot}${lag.indexedTime ? `, block time ${lag.indexedTime}` : ''} (checkpoint written ${cp.updatedAt})`,
  ];
  if (lag.tipHeight !== null && lag.tipSlot !== null) {
    const blocks = Math.max(0, lag.tipHeight - cp.height);
    const contact = lag.health?.contactAt ? `, source last answered ${lag.health.contactAt}` : '';
    lines.push(
      `tip: height ${lag.tipHeight}, slot ${lag.tipSlot}${contact}; lag ${lag.lagSeconds ?? '-'} s (${blocks} block(s) behind)`,
    );
  } else lines.push('tip: not recorded yet');
  return lines;
}

/**
 * The sync input of a restarted sync: SYNC_SLICE_BLOCKS as configured now (an operator who changed it and restarts
 * gets the new value), the other slice settings of the last sync run, or the service's defaults.
 */
function syncInput(last: RunDoc | undefined, sliceBlocks: number): SyncChainInput {
  const prev = (last?.input ?? null) as Partial<SyncChainInput> | null;
  return {
    slicesPerRun: prev?.slicesPerRun ?? SYNC_SLICES_PER_RUN,
    sliceBlocks,
    tipWaitMs: prev?.tipWaitMs ?? SYNC_TIP_WAIT_MS,
  };
}

/**
 * Embedded: queues a sync run (a resync from origin, or a plain restart) for the service's runner. Refused while a
 * sync run is running or queued: a resync replaces the chain under it. A sync that cannot progress has stopped by
 * itself (its run failed); one that still runs is stopped with the service, and `npm start` then starts the queued
 * run instead of a fresh one.
 */
export async function embeddedSyncRun(
  store: Store,
  opts: { resync: boolean; sliceBlocks: number },
  now: number = Date.now(),
): Promise<RunDoc> {
  const runs = await store.collection(RUNS).find('byWorkflow', { eq: ['syncChain'], reverse: true, limit: 20 });
  const busy = runs.find((r) => r.status === 'running' || r.status === 'queued');
  if (busy)
    throw new OpsError(
      `the sync has a ${busy.status} run (${busy._id}); ${opts.resync ? 'resync' : 'sync restart'} applies to a stopped sync: ` +
        'a stalled sync stops by itself; otherwise stop the service, run this again, then start the service',
    );
  const input: SyncChainInput = {
    ...syncInput(
      runs.find((r) => r.workflowId === SYNC_WORKFLOW_ID),
      opts.sliceBlocks,
    ),
    ...(opts.resync ? { resync: { from: 'origin' as const, requestedAt: new Date(now).toISOString() } } : {}),
  };
  return enqueueRun(
    store,
    {
      workflow: 'syncChain',
      workflowId: SYNC_WORKFLOW_ID,
      input,
      requestedBy: 'operator',
      retryOf: runs[0]?._id ?? null,
    },
    now,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Embedded mode: RunDocs in the store.

const STATUSES: readonly RunStatus[] = ['queued', 'running', 'completed', 'failed', 'cancelled'];

/**
 * `worker`: over the embedded store, the pid of the embedded worker running on DATA_DIR, or null when none does
 * (npm start stopped, or killed: its sync health and its `running` runs are what it left, and nothing moves them);
 * undefined where the worker may run on another host (MongoDB).
 */
export async function embeddedStatus(
  store: Store,
  nowMs: number = Date.now(),
  worker?: { pid: number | null; dataDir: string; restartingService?: number | null },
): Promise<string[]> {
  const runs = store.collection(RUNS);
  const counts = await Promise.all(STATUSES.map((s) => runs.count('byStatus', { eq: [s] })));
  const failures = await runs.find('byStatus', { eq: ['failed'], reverse: true, limit: 5 });
  const running = counts[STATUSES.indexOf('running')] ?? 0;
  const service = !worker
    ? []
    : worker.pid !== null
      ? [`service: running (embedded worker pid ${worker.pid} on DATA_DIR=${worker.dataDir})`]
      : worker.restartingService
        ? [
            // npm start lives and restarts its worker (1, 2, 4, 8, 16 s): not a stopped service to start again.
            `service: WORKER RESTARTING: npm start (pid ${worker.restartingService}) runs on DATA_DIR=${worker.dataDir}; its embedded worker exited and npm start restarts it (its log says why); the sync and the jobs resume when it runs`,
          ]
        : [
            `service: STOPPED: no embedded worker runs on DATA_DIR=${worker.dataDir}; the sync and the jobs resume at the next npm start`,
            ...(running
              ? [
                  `  ${running} run(s) shown running were left by a service that stopped without ending them; the next start (or an ops command that queues a run) records them failed (interrupted)`,
                ]
              : []),
          ];
  return [
    'mode: embedded (in-process runner; TEMPORAL_ADDRESS is not set)',
    `store: ${store.kind}`,
    ...service,
    ...(await syncStatus(store, nowMs, { noWorker: worker?.pid === null, restarting: !!worker?.restartingService })),
    `runs: ${STATUSES.map((s, i) => `${counts[i] ?? 0} ${s}`).join(', ')}`,
    ...(failures.length
      ? [
          'last failures (since: the newest run of the same workflow after it):',
          ...runsTable(failures, undefined, await embeddedSince(store, failures)).map((l) => `  ${l}`),
        ]
      : []),
  ];
}

/** `runs --workflow W`: W must be a workflow of the registry, else no listing could ever name a run. */
export function checkWorkflowName(name: string | null, workflows: WorkflowTable = WORKFLOWS): void {
  if (name !== null && !Object.hasOwn(workflows, name))
    throw new OpsError(`unknown workflow ${name} (known: ${Object.keys(workflows).join(', ')})`);
}

export async function embeddedRuns(
  store: Store,
  opts: { failed: boolean; limit: number; workflow: string | null },
  workflows: WorkflowTable = WORKFLOWS,
): Promise<string[]> {
  checkWorkflowName(opts.workflow, workflows);
  const runs = store.collection(RUNS);
  let docs: RunDoc[];
  if (opts.failed && opts.workflow) {
    // Failed runs of one workflow: walk the workflow's runs newest first and keep the failed ones.
    docs = [];
    for (const d of await runs.find('byWorkflow', { eq: [opts.workflow], reverse: true })) {
      if (d.status === 'failed') docs.push(d);
      if (docs.length >= opts.limit) break;
    }
  } else if (opts.failed) docs = await runs.find('byStatus', { eq: ['failed'], reverse: true, limit: opts.limit });
  else if (opts.workflow)
    docs = await runs.find('byWorkflow', { eq: [opts.workflow], reverse: true, limit: opts.limit });
  else docs = await runs.find('byQueued', { reverse: true, limit: opts.limit });
  return runsTable(docs, opts, opts.failed ? await embeddedSince(store, docs) : undefined);
}

/**
 * One run of a workflow id at a time, singleton or not: a second retry or trigger (or one while the schedule's run
 * is queued or running) would run the same job twice.
 */
async function assertNoRunOf(store: Store, workflowId: string): Promise<void> {
  const busy = [...(await runsWithStatus(store, 'running')), ...(await runsWithStatus(store, 'queued'))].find(
    (r) => r.workflowId === workflowId,
  );
  if (busy)
    throw new OpsError(`${workflowId} already has a ${busy.status} run (${busy._id}); not starting a second one`);
}

/** Queues a new run of `runId`'s workflow with the same input (`retryOf`, requested by 'operator'). */
export async function embeddedRetry(
  store: Store,
  runId: string,
  workflows: WorkflowTable = WORKFLOWS,
  now: number = Date.now(),
): Promise<RunDoc> {
  const prev = await store.collection(RUNS).get(runId);
  if (!prev) throw new OpsError(`no run with id ${runId} (see npm run ops -- runs)`);
  if (prev.status === 'queued' || prev.status === 'running')
    throw new OpsError(`run ${runId} is ${prev.status}; only a finished run can be retried`);
  if (!Object.hasOwn(workflows, prev.workflow))
    throw new OpsError(`run ${runId} is of unknown workflow ${prev.workflow}`);
  await assertNoRunOf(store, prev.workflowId);
  return enqueueRun(
    store,
    {
      workflow: prev.workflow,
      workflowId: prev.workflowId,
      input: prev.input,
      requestedBy: 'operator',
      retryOf: prev._id,
    },
    now,
  );
}

export function findJob(schedules: readonly ScheduleSpec[], job: string): ScheduleSpec {
  const s = schedules.find((x) => x.id === job);
  if (!s) {
    const known = schedules.map((x) => x.id).join(', ') || 'none defined yet';
    throw new OpsError(`unknown job ${job} (jobs: ${known})`);
  }
  return s;
}

export async function embeddedTrigger(
  store: Store,
  job: string,
  schedules: readonly ScheduleSpec[],
  now: number = Date.now(),
): Promise<RunDoc> {
  const s = findJob(schedules, job);
  await assertNoRunOf(store, recomputeWorkflowId(s.id));
  return enqueueRun(
    store,
    { workflow: s.workflow, workflowId: recomputeWorkflowId(s.id), input: s.input, requestedBy: 'operator' },
    now,
  );
}

export const queuedMessage = (doc: RunDoc) =>
  `queued run ${doc._id} (${doc.workflow}); the running service starts it within a second (or at its next start if none runs)`;

// ---------------------------------------------------------------------------------------------------------------
// Temporal mode: workflow executions. A "run id" here is the workflow id (the latest execution under it).

const TEMPORAL_STATUSES = ['Running', 'Completed', 'Failed', 'TimedOut', 'Terminated', 'Canceled'] as const;

/**
 * A closed execution's error and the attempts of the activity that ended it: the last one that failed or timed out
 * (history records one started event per activity, with its final attempt; a failed or timed-out event names it),
 * else the last one started. The most attempts of any activity of the run said `failed  9  … damaged document` for a
 * sync that failed at once on a non-retryable error, after an earlier slice had been retried 9 times through an
 * outage; the last activity started is not it either when the workflow records its failure in an activity after it
 * (a recorded job's run document: `failed  1` for a news ingest that failed its three attempts).
 */
async function executionFailure(client: Client, workflowId: string, runId: string) {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  const startedAttempts = new Map<string, number>();
  let lastStarted = 0;
  let failedAttempts: number | null = null;
  let error: string | null = null;
  for (const ev of history.events ?? []) {
    const started = ev.activityTaskStartedEventAttributes?.attempt;
    if (started != null && ev.eventId != null) {
      startedAttempts.set(String(ev.eventId), started);
      lastStarted = started;
    }
    const ended = ev.activityTaskFailedEventAttributes ?? ev.activityTaskTimedOutEventAttributes;
    if (ended?.startedEventId != null)
      failedAttempts = startedAttempts.get(String(ended.startedEventId)) ?? failedAttempts;
    const f = ev.workflowExecutionFailedEventAttributes?.failure;
    if (f) error = [f.message, f.cause?.message].filter(Boolean).join(': ');
    if (ev.workflowExecutionTimedOutEventAttributes) error = 'timed out';
    if (ev.workflowExecutionTerminatedEventAttributes)
      error = `terminated: ${ev.workflowExecutionTerminatedEventAttributes.reason ?? ''}`;
  }
  return { attempts: failedAttempts ?? lastStarted, error };
}

/** Temporal's PENDING_ACTIVITY_STATE_STARTED: a worker runs the attempt now (SCHEDULED: it waits for its backoff). */
const ACTIVITY_STARTED = 2;

/**
 * A running execution's current attempt: of its pending activity with the highest attempt, and the last failure
 * before it, as Temporal's describe reports them. Without it `ops runs` showed '-' for a run retrying for minutes (a
 * recompute during a store outage, a sync while the source is down). Temporal keeps the last failure while the next
 * attempt runs: an attempt waiting for its backoff reads `retrying <activity>: <message>`, one a worker runs now
 * `<activity> running again since <time>, after: <message>` (it read `retrying … ECONNREFUSED` for the minutes a
 * sync slice ran after the store or the source came back, beside `sync health: ok`).
 */
async function runningAttempt(client: Client, workflowId: string, runId: string) {
  const d = await client.workflow.getHandle(workflowId, runId).describe();
  let attempts = 0;
  let error: string | null = null;
  for (const a of d.raw.pendingActivities ?? []) {
    const n = a.attempt ?? 0;
    if (n < attempts) continue;
    attempts = n;
    const failure = a.lastFailure?.message;
    const name = a.activityType?.name ?? 'activity';
    const startedSeconds = Number(a.lastStartedTime?.seconds ?? 0);
    const runsSince =
      a.state === ACTIVITY_STARTED && startedSeconds > 0 ? new Date(startedSeconds * 1000).toISOString() : null;
    error = !failure
      ? null
      : runsSince
        ? `${name} running again since ${short(runsSince)}, after: ${failure}`
        : `retrying ${name}: ${failure}`;
  }
  return { attempts, error };
}

export async function temporalRuns(
  client: Client,
  opts: { failed: boolean; limit: number; workflow: string | null },
  workflows: WorkflowTable = WORKFLOWS,
): Promise<string[]> {
  checkWorkflowName(opts.workflow, workflows);
  const where = [
    ...(opts.failed ? [`ExecutionStatus = "Failed"`] : []),
    ...(opts.workflow ? [`WorkflowType = "${opts.workflow.replace(/"/g, '')}"`] : []),
  ].join(' AND ');
  const rows: string[][] = [];
  for await (const w of client.workflow.list(where ? { query: where } : {})) {
    const closed = w.status.name !== 'RUNNING';
    const f = !closed
      ? await runningAttempt(client, w.workflowId, w.runId).catch(() => ({ attempts: 0, error: null }))
      : w.status.name !== 'COMPLETED' && w.status.name !== 'CONTINUED_AS_NEW'
        ? await executionFailure(client, w.workflowId, w.runId)
        : { attempts: 0, error: null };
    rows.push([
      w.workflowId,
      w.type,
      w.status.name.toLowerCase(),
      f.attempts ? String(f.attempts) : '-',
      short(w.startTime.toISOString()),
      short(w.closeTime?.toISOString() ?? null),
      clip(f.error),
      ...(opts.failed ? [await temporalSince(client, w)] : []),
    ]);
    if (rows.length >= opts.limit) break;
  }
  if (rows.length === 0) return [`no ${runsAsked('workflow executions', opts)} found`];
  return table(
    [
      'workflow id',
      'workflow',
      'status',
      'attempts',
      'started',
      'finished',
      'error',
      ...(opts.failed ? ['since'] : []),
    ],
    rows,
  );
}

/**
 * A failed execution's `since` cell: a running execution of its workflow type on its task queue started after it (a
 * `sync restart` runs under the same workflow id, a retry under `<id>-retry-<n>`, the Schedule's next firing under
 * its own id), else the one closed last among the first 50 the visibility store lists.
 */
async function temporalSince(
  client: Client,
  failed: { type: string; taskQueue: string; startTime: Date; runId: string },
): Promise<string> {
  // The same task queue: the deployment that failed, not another one sharing the namespace.
  const after =
    `WorkflowType = "${failed.type.replace(/"/g, '')}" AND TaskQueue = "${failed.taskQueue.replace(/"/g, '')}"` +
    ` AND StartTime > "${failed.startTime.toISOString()}"`;
  for await (const w of client.workflow.list({ query: `${after} AND ExecutionStatus = "Running"` }))
    return sinceCell({ id: w.workflowId, status: 'running', finishedAt: null });
  let newest: LaterRun | null = null;
  let seen = 0;
  for await (const w of client.workflow.list({ query: after })) {
    // The query's time is in milliseconds, the store's in nanoseconds: the failed execution itself is listed too.
    if (w.runId === failed.runId) continue;
    const finishedAt = w.closeTime?.toISOString() ?? null;
    if (!newest || (finishedAt ?? '') > (newest.finishedAt ?? ''))
      newest = { id: w.workflowId, status: w.status.name, finishedAt };
    if (++seen >= 50) break;
  }
  return sinceCell(newest);
}

/**
 * The status lines the store answers (mode, store, sync health, checkpoint, tip): they need no Temporal, so
 * scripts/ops.ts prints them before it asks Temporal, and an operator whose Temporal is down still sees the sync.
 */
export async function temporalStoreStatus(store: Store, address: string, namespace: string): Promise<string[]> {
  return [`mode: temporal (${address}, namespace ${namespace})`, `store: ${store.kind}`, ...(await syncStatus(store))];
}

/**
 * A poller seen within this long is a live worker: each poll is a long poll of at most about a minute, and a worker
 * polls again at once. Temporal lists a gone worker's pollers for minutes after its last poll.
 */
export const POLLER_LIVE_SECONDS = 90;

/**
 * The `workers:` line: who polls the task queue for activities (the sync and the recomputes run there), so an operator
 * sees a killed or never-started `npm run worker` at once, not after the sync's 3 minutes of silence.
 */
export async function temporalWorkersLine(client: Client, queue: string, nowMs: number = Date.now()): Promise<string> {
  const res = await client.workflowService.describeTaskQueue({
    namespace: client.options.namespace,
    taskQueue: { name: queue },
    taskQueueType: 2, // TASK_QUEUE_TYPE_ACTIVITY
  });
  const pollers = (res.pollers ?? []).map((p) => {
    const seconds = Number(p.lastAccessTime?.seconds ?? 0);
    return { identity: p.identity ?? '?', age: Math.max(0, Math.round(nowMs / 1000 - seconds)) };
  });
  const live = pollers.filter((p) => p.age <= POLLER_LIVE_SECONDS);
  if (live.length)
    return `workers: ${live.length} polling task queue ${queue} (${live.map((p) => p.identity).join(', ')})`;
  const last = pollers.sort((a, b) => a.age - b.age)[0];
  return (
    `workers: NONE polling task queue ${queue}${last ? ` (last poll ${last.age} s ago, by ${last.identity})` : ''}; ` +
    'next: start `npm run worker` with this TEMPORAL_TASK_QUEUE'
  );
}

/** The status lines Temporal answers: workers polling, executions by status and the last failures. */
export async function temporalRunStatus(client: Client, queue: string): Promise<string[]> {
  const counts = await Promise.all(
    TEMPORAL_STATUSES.map((s) => client.workflow.count(`ExecutionStatus = "${s}"`).then((c) => c.count)),
  );
  // Runs whose activity is failing and retried now (a recompute while the store is down): they are not failed yet,
  // and a failure they cannot record (the store is the failure) would show nowhere else until they fail.
  const retrying: string[] = [];
  for await (const w of client.workflow.list({ query: 'ExecutionStatus = "Running"' })) {
    const a = await runningAttempt(client, w.workflowId, w.runId).catch(() => null);
    if (a && a.attempts > 1 && a.error)
      retrying.push(`  ${w.workflowId} (${w.type}): attempt ${a.attempts}, ${clip(a.error)}`);
    if (retrying.length >= 5) break;
  }
  return [
    await temporalWorkersLine(client, queue),
    `workflow executions: ${TEMPORAL_STATUSES.map((s, i) => `${counts[i] ?? 0} ${s.toLowerCase()}`).join(', ')}`,
    ...(retrying.length ? ['retrying now:', ...retrying] : []),
    'last failures (since: the newest execution of the same workflow after it):',
    ...(await temporalRuns(client, { failed: true, limit: 5, workflow: null })).map((l) => `  ${l}`),
  ];
}

/** Starts `workflowType` with `input` under `<base>-retry-<n>` (the first n not used before), or the fixed id. */
async function startUnder(
  client: Client,
  workflowType: string,
  input: unknown,
  taskQueue: string,
  ids: Iterable<string>,
): Promise<string> {
  for (const workflowId of ids) {
    try {
      await client.workflow.start(workflowType, {
        workflowId,
        taskQueue,
        args: [input],
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      });
      return workflowId;
    } catch (e) {
      if (!(e instanceof WorkflowExecutionAlreadyStartedError)) throw e;
    }
  }
  throw new OpsError('every retry id is taken (100 retries of this run); start it by hand with the temporal CLI');
}

function* retryIds(base: string) {
  for (let n = 1; n <= 100; n++) yield `${base}-retry-${n}`;
}

/**
 * One run of a job at a time, as on the embedded runner (`assertNoRunOf`): a retry or trigger while a run of the same
 * workflow is running on the task queue (the Schedule's, or an earlier retry's) would run the job twice at once over
 * the same collections. Temporal's visibility shows a started run within about a second, so two commands issued
 * within that second may both start.
 */
async function assertNotRunning(
  client: Client,
  workflowType: string,
  taskQueue: string,
  scheduled: ReadonlySet<string> = new Set(),
): Promise<void> {
  const query = `WorkflowType = "${workflowType}" AND ExecutionStatus = "Running" AND TaskQueue = "${taskQueue}"`;
  for await (const w of client.workflow.list({ query }))
    if (!scheduled.has(w.workflowId))
      throw new OpsError(
        `${workflowType} already has a running execution (${w.workflowId}); not starting a second one`,
      );
}

/** A job's Schedule and what its description said when it was found (its runs in progress, its actions taken). */
type ScheduleOn = { handle: ScheduleHandle; info: ScheduleDescription['info'] };

/**
 * The Schedule of job `id` that starts its runs on `taskQueue` (`npm run schedules:apply`), or null: not applied, or
 * one of another deployment's queue on a shared cluster.
 */
async function scheduleOn(client: Client, id: string, taskQueue: string): Promise<ScheduleOn | null> {
  const handle = client.schedule.getHandle(id);
  try {
    const { action, info } = await handle.describe();
    return action.taskQueue === taskQueue ? { handle, info } : null;
  } catch (e) {
    if (e instanceof ScheduleNotFoundError) return null;
    throw e;
  }
}

/**
 * Runs job `s` now through its Schedule. A run started beside the Schedule was invisible to its overlap policy
 * (SKIP), so its next firing started the job a second time over the same collections; a triggered action is the
 * Schedule's own: with BUFFER_ONE it starts now, or once the Schedule's run in progress ends, and the firings due
 * meanwhile are skipped. A run of the job the Schedule did not start (an earlier direct start) still refuses.
 * `why` ends the answer's parenthesis, e.g. `retry of <id>, `.
 */
async function triggerSchedule(
  client: Client,
  { handle, info: before }: ScheduleOn,
  s: Pick<ScheduleSpec, 'id' | 'workflow'>,
  taskQueue: string,
  why = '',
): Promise<string> {
  const running = before.runningActions.map((a) => a.workflow.workflowId);
  await assertNotRunning(client, s.workflow, taskQueue, new Set(running));
  await handle.trigger(ScheduleOverlapPolicy.BUFFER_ONE);
  if (running.length)
    return `${why}schedule ${s.id} runs ${s.workflow} once more when its run in progress (${running.join(', ')}) ends`;
  // The Schedule names the run it starts (`<action id>-<time>`); the answer names it, as a direct start does.
  for (let i = 0; i < 50; i++) {
    const info = (await handle.describe()).info;
    const newest = info.recentActions.reduce<(typeof info.recentActions)[number] | null>(
      (a, b) => (a && a.takenAt >= b.takenAt ? a : b),
      null,
    );
    if (info.numActionsTaken > before.numActionsTaken && newest)
      return `started ${s.workflow} as ${newest.action.workflow.workflowId} (${why}schedule ${s.id})`;
    await new Promise((r) => setTimeout(r, 100));
  }
  return `triggered schedule ${s.id} (${why}its run of ${s.workflow} is not started yet)`;
}

export async function temporalRetry(
  client: Client,
  workflowId: string,
  taskQueue: string,
  workflows: WorkflowTable = WORKFLOWS,
  schedules: readonly ScheduleSpec[] = SCHEDULES,
): Promise<string> {
  const handle = client.workflow.getHandle(workflowId);
  let type: string;
  let status: string;
  try {
    const d = await handle.describe();
    type = d.type;
    status = d.status.name;
  } catch (e) {
    if (e instanceof WorkflowNotFoundError) throw new OpsError(`no workflow execution with id ${workflowId}`);
    throw e;
  }
  if (status === 'RUNNING')
    throw new OpsError(`${workflowId} is still running; only a finished execution can be retried`);
  const history = await handle.fetchHistory();
  const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
  const input: unknown = payload ? defaultPayloadConverter.fromPayload(payload) : undefined;
  if (workflows[type]?.singleton) {
    // The chain follower runs once, under its fixed id: restart it there (refused while another one runs).
    try {
      await client.workflow.start(type, { workflowId, taskQueue, args: [input] });
      return `started ${type} again as ${workflowId}`;
    } catch (e) {
      if (e instanceof WorkflowExecutionAlreadyStartedError)
        throw new OpsError(`${workflowId} is running again already`);
      throw e;
    }
  }
  // A run of a scheduled job (its input is the job's) is retried through the job's Schedule, as a trigger is.
  const job = schedules.find((x) => x.workflow === type && JSON.stringify(x.input) === JSON.stringify(input ?? null));
  const schedule = job ? await scheduleOn(client, job.id, taskQueue) : null;
  if (job && schedule) return triggerSchedule(client, schedule, job, taskQueue, `retry of ${workflowId}, `);
  await assertNotRunning(client, type, taskQueue);
  const base = workflowId.replace(/-retry-\d+$/, '');
  const id = await startUnder(client, type, input, taskQueue, retryIds(base));
  return `started ${type} as ${id} (retry of ${workflowId})`;
}

/** Temporal: starts the sync under its fixed id (a resync from origin, or a plain restart); refused while it runs. */
export async function temporalSyncRun(
  client: Client,
  taskQueue: string,
  opts: { resync: boolean; sliceBlocks: number },
): Promise<string> {
  try {
    const d = await client.workflow.getHandle(SYNC_WORKFLOW_ID).describe();
    if (d.status.name === 'RUNNING')
      throw new OpsError(
        `${SYNC_WORKFLOW_ID} is running; stop it first (temporal workflow terminate --workflow-id ${SYNC_WORKFLOW_ID}), then run this again`,
      );
  } catch (e) {
    if (!(e instanceof WorkflowNotFoundError)) throw e;
  }
  const input: SyncChainInput = {
    ...syncInput(undefined, opts.sliceBlocks),
    ...(opts.resync ? { resync: { from: 'origin' as const, requestedAt: new Date().toISOString() } } : {}),
  };
  try {
    await client.workflow.start('syncChain', { workflowId: SYNC_WORKFLOW_ID, taskQueue, args: [input] });
  } catch (e) {
    if (e instanceof WorkflowExecutionAlreadyStartedError)
      throw new OpsError(`${SYNC_WORKFLOW_ID} is running again already`);
    throw e;
  }
  return opts.resync
    ? `started syncChain as ${SYNC_WORKFLOW_ID} with a resync from origin`
    : `started syncChain again as ${SYNC_WORKFLOW_ID}`;
}

export async function temporalTrigger(
  client: Client,
  job: string,
  schedules: readonly ScheduleSpec[],
  taskQueue: string,
  now: number = Date.now(),
): Promise<string> {
  const s = findJob(schedules, job);
  const schedule = await scheduleOn(client, s.id, taskQueue);
  if (schedule) return triggerSchedule(client, schedule, s, taskQueue);
  // No Schedule of this deployment (schedules:apply not run yet): nothing fires beside a run started directly.
  await assertNotRunning(client, s.workflow, taskQueue);
  const id = await startUnder(client, s.workflow, s.input, taskQueue, [`${recomputeWorkflowId(s.id)}-manual-${now}`]);
  return `started ${s.workflow} as ${id}`;
}
