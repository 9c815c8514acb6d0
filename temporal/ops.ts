/**
 * The operator commands behind `npm run ops` (scripts/ops.ts), for both engines. Embedded: read and queue RunDocs
 * in the store (the service's runner picks queued runs up within a second). Temporal: list, describe and start
 * workflow executions through the client. Each command returns text lines; errors an operator can fix are
 * OpsError (exit code 2, no stack trace).
 */
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { BLOCKS } from '../mongo/collections/chain.js';
import { RUNS, type RunDoc, type RunStatus } from '../mongo/collections/runs.js';
import { CHECKPOINTS } from '../mongo/collections/sync-state.js';
import type { Store } from '../mongo/store.js';
import { WORKFLOWS, type WorkflowTable } from '../workflows/registry.js';
import { recomputeWorkflowId } from './constants.js';
import { enqueueRun, runsWithStatus } from './run-docs.js';
import type { ScheduleSpec } from './schedules.js';

export class OpsError extends Error {
  override name = 'OpsError';
}

export const USAGE = `usage: npm run ops -- <command>
  status                                      mode, store, sync checkpoint and lag, runs by status, last failures
  runs [--failed] [--limit N] [--workflow W]  recorded runs, newest first
  retry <runId>                               run a finished run's workflow again with the same input
  trigger <job>                               run a scheduled job now (jobs: temporal/schedules.ts)
  jobs                                        every scheduled job: workflow, interval, what it reads and writes
  keys <create|list|revoke|plan> …            API keys and account plans (ops -- keys help)`;

export type OpsCommand =
  | { cmd: 'status' }
  | { cmd: 'runs'; failed: boolean; limit: number; workflow: string | null }
  | { cmd: 'retry'; runId: string }
  | { cmd: 'trigger'; job: string }
  | { cmd: 'jobs' }
  | { cmd: 'help' };

export function parseOpsArgs(argv: readonly string[]): OpsCommand {
  const [cmd, ...rest] = argv;
  const positional = (what: string) => {
    const v = rest[0];
    if (!v || v.startsWith('--') || rest.length > 1) throw new OpsError(`${cmd} takes exactly one ${what}\n${USAGE}`);
    return v;
  };
  switch (cmd) {
    case undefined:
    case 'help':
    case '--help':
      return { cmd: 'help' };
    case 'status':
      if (rest.length) throw new OpsError(`status takes no arguments\n${USAGE}`);
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
        } else throw new OpsError(`unknown option for runs: ${a}\n${USAGE}`);
      }
      return out;
    }
    case 'jobs':
      if (rest.length) throw new OpsError(`jobs takes no arguments\n${USAGE}`);
      return { cmd: 'jobs' };
    case 'retry':
      return { cmd: 'retry', runId: positional('run id') };
    case 'trigger':
      return { cmd: 'trigger', job: positional('job name') };
    default:
      throw new OpsError(`unknown command: ${cmd}\n${USAGE}`);
  }
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

export function runsTable(runs: readonly RunDoc[]): string[] {
  if (runs.length === 0) return ['no runs recorded'];
  return table(
    ['id', 'workflow', 'status', 'attempts', 'queued', 'started', 'finished', 'error'],
    runs.map((r) => [
      r._id,
      r.workflow,
      r.status,
      String(r.attempts),
      short(r.queuedAt),
      short(r.startedAt),
      short(r.finishedAt),
      clip(r.error),
    ]),
  );
}

const every = (ms: number) =>
  ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`;

/** `ops -- jobs`: the schedule table joined with each workflow's declared reads and writes (no store needed). */
export function jobsTable(schedules: readonly ScheduleSpec[], workflows: WorkflowTable = WORKFLOWS): string[] {
  return table(
    ['job', 'workflow', 'every', 'reads', 'writes'],
    schedules.map((s) => {
      const w = workflows[s.workflow];
      return [s.id, s.workflow, every(s.everyMs), w?.reads.join(', ') ?? '?', w?.writes.join(', ') ?? '?'];
    }),
  );
}

/** Checkpoint, tip and lag lines, read from the store (the same in both modes). */
export async function syncStatus(store: Store): Promise<string[]> {
  const cp = await store.collection(CHECKPOINTS).get('sync');
  if (!cp) return ['sync: no block indexed yet'];
  const block = await store.collection(BLOCKS).get(cp.id);
  const lines = [
    `sync: height ${cp.height}, slot ${cp.slot}${block ? `, block time ${block.time}` : ''} (checkpoint written ${cp.updatedAt})`,
  ];
  if (cp.tip) {
    const blocks = Math.max(0, cp.tip.height - cp.height);
    const slots = Math.max(0, cp.tip.slot - cp.slot);
    lines.push(`tip: height ${cp.tip.height}, slot ${cp.tip.slot}; lag ${blocks} block(s), ${slots} slot(s)`);
  } else lines.push('tip: not recorded yet');
  return lines;
}

// ---------------------------------------------------------------------------------------------------------------
// Embedded mode: RunDocs in the store.

const STATUSES: readonly RunStatus[] = ['queued', 'running', 'completed', 'failed', 'cancelled'];

export async function embeddedStatus(store: Store): Promise<string[]> {
  const runs = store.collection(RUNS);
  const counts = await Promise.all(STATUSES.map((s) => runs.count('byStatus', { eq: [s] })));
  const failures = await runs.find('byStatus', { eq: ['failed'], reverse: true, limit: 5 });
  return [
    'mode: embedded (in-process runner; TEMPORAL_ADDRESS is not set)',
    `store: ${store.kind}`,
    ...(await syncStatus(store)),
    `runs: ${STATUSES.map((s, i) => `${counts[i] ?? 0} ${s}`).join(', ')}`,
    ...(failures.length ? ['last failures:', ...runsTable(failures).map((l) => `  ${l}`)] : []),
  ];
}

export async function embeddedRuns(
  store: Store,
  opts: { failed: boolean; limit: number; workflow: string | null },
): Promise<string[]> {
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
  return runsTable(docs);
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
  if (workflows[prev.workflow]?.singleton) {
    const busy = [...(await runsWithStatus(store, 'running')), ...(await runsWithStatus(store, 'queued'))].find(
      (r) => r.workflowId === prev.workflowId,
    );
    if (busy)
      throw new OpsError(
        `${prev.workflowId} already has a ${busy.status} run (${busy._id}); not starting a second one`,
      );
  }
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

async function executionFailure(client: Client, workflowId: string, runId: string) {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  let attempts = 0;
  let error: string | null = null;
  for (const ev of history.events ?? []) {
    attempts = Math.max(attempts, ev.activityTaskStartedEventAttributes?.attempt ?? 0);
    const f = ev.workflowExecutionFailedEventAttributes?.failure;
    if (f) error = [f.message, f.cause?.message].filter(Boolean).join(': ');
    if (ev.workflowExecutionTimedOutEventAttributes) error = 'timed out';
    if (ev.workflowExecutionTerminatedEventAttributes)
      error = `terminated: ${ev.workflowExecutionTerminatedEventAttributes.reason ?? ''}`;
  }
  return { attempts, error };
}

export async function temporalRuns(
  client: Client,
  opts: { failed: boolean; limit: number; workflow: string | null },
): Promise<string[]> {
  const where = [
    ...(opts.failed ? [`ExecutionStatus = "Failed"`] : []),
    ...(opts.workflow ? [`WorkflowType = "${opts.workflow.replace(/"/g, '')}"`] : []),
  ].join(' AND ');
  const rows: string[][] = [];
  for await (const w of client.workflow.list(where ? { query: where } : {})) {
    const closed = w.status.name !== 'RUNNING';
    const f =
      closed && w.status.name !== 'COMPLETED' && w.status.name !== 'CONTINUED_AS_NEW'
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
    ]);
    if (rows.length >= opts.limit) break;
  }
  if (rows.length === 0) return ['no workflow executions found'];
  return table(['workflow id', 'workflow', 'status', 'attempts', 'started', 'finished', 'error'], rows);
}

export async function temporalStatus(client: Client, store: Store, address: string): Promise<string[]> {
  const counts = await Promise.all(
    TEMPORAL_STATUSES.map((s) => client.workflow.count(`ExecutionStatus = "${s}"`).then((c) => c.count)),
  );
  return [
    `mode: temporal (${address}, namespace ${client.options.namespace})`,
    `store: ${store.kind}`,
    ...(await syncStatus(store)),
    `workflow executions: ${TEMPORAL_STATUSES.map((s, i) => `${counts[i] ?? 0} ${s.toLowerCase()}`).join(', ')}`,
    'last failures:',
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

export async function temporalRetry(
  client: Client,
  workflowId: string,
  taskQueue: string,
  workflows: WorkflowTable = WORKFLOWS,
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
  const base = workflowId.replace(/-retry-\d+$/, '');
  const id = await startUnder(client, type, input, taskQueue, retryIds(base));
  return `started ${type} as ${id} (retry of ${workflowId})`;
}

export async function temporalTrigger(
  client: Client,
  job: string,
  schedules: readonly ScheduleSpec[],
  taskQueue: string,
  now: number = Date.now(),
): Promise<string> {
  const s = findJob(schedules, job);
  const id = await startUnder(client, s.workflow, s.input, taskQueue, [`${recomputeWorkflowId(s.id)}-manual-${now}`]);
  return `started ${s.workflow} as ${id}`;
}
