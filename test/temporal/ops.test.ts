/**
 * `npm run ops` in embedded mode, as an operator uses it: a separate process over the same DATA_DIR as a running
 * runner. It lists the failed run, queues a retry that the runner (in this process) picks up and completes, and
 * answers mistakes with a one-line reason and exit code 2. (Each CLI call starts a tsx process: kept to three.)
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { SliceInput, SliceResult } from '../../activities/sync/index.js';
import { loadConfig } from '../../config/index.js';
import { createNewsActivities } from '../../activities/news/index.js';
import { createDerivedActivities } from '../../activities/derived/index.js';
import { createApp } from '../../api/app.js';
import { createMetrics } from '../../api/metrics/index.js';
import { pino } from 'pino';
import { ALL_COLLECTIONS, RUNS } from '../../mongo/collections/index.js';
import type { RunDoc } from '../../mongo/collections/runs.js';
import { NEWS } from '../../mongo/collections/news.js';
import { openStore } from '../../mongo/open.js';
import { put, type Store } from '../../mongo/store.js';
import { CHECKPOINTS } from '../../mongo/collections/sync-state.js';
import { recomputeWorkflowId, SYNC_WORKFLOW_ID } from '../../temporal/constants.js';
import { OpsError, embeddedStatus, embeddedTrigger, parseOpsArgs } from '../../temporal/ops.js';
import { SCHEDULES } from '../../temporal/schedules.js';
import { createRunner, type Runner } from '../../temporal/runner.js';
import type { ActivityOptions } from '../../workflows/context.js';
import { WORKFLOWS } from '../../workflows/registry.js';

const run = promisify(execFile);

/** What the API's probes say over `store`: /healthz/jobs, the `jobs` part of /readyz, and /metrics. */
async function probe(store: Store) {
  const app = createApp({
    store,
    config: { SITE_URL: 'http://localhost', CARDANO_NETWORK: 'mainnet', TRUST_PROXY: false },
    log: pino({ level: 'silent' }),
    metrics: createMetrics({ defaultMetrics: false }),
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  try {
    const jobs = await fetch(`${base}/healthz/jobs`);
    const ready = await fetch(`${base}/readyz`);
    return {
      jobs: { status: jobs.status, body: (await jobs.json()) as { failing: { workflow: string; error: string }[] } },
      ready: (await ready.json()) as { jobs: { status: string } },
      metrics: await (await fetch(`${base}/metrics`)).text(),
    };
  } finally {
    server.close();
  }
}
const OPS = join(process.cwd(), 'scripts/ops.ts');

async function ops(dataDir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return opsWith({}, dataDir, ...args);
}

/** `ops` with extra environment keys (SYNC_SLICE_BLOCKS, MONGODB_URI, …). */
async function opsWith(
  extra: Record<string, string>,
  dataDir: string,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    TEMPORAL_ADDRESS: '',
    MONGODB_URI: '',
    LOG_LEVEL: 'silent',
    ...extra,
  };
  try {
    const r = await run(process.execPath, ['--import', 'tsx', OPS, ...args], { env });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

/** The workflow with its own activity options but two attempts 1 ms apart, so a failure is recorded at once. */
function twoQuickAttempts<E extends { activityOptions: ActivityOptions }>(entry: E): E {
  const o = entry.activityOptions;
  return { ...entry, activityOptions: { ...o, retry: { ...o.retry, initialIntervalMs: 1, maximumAttempts: 2 } } };
}

/** The run once it completed, or as it stands after 10 s (the runner polls the queue every 20 ms here). */
async function settled(store: Store, id: string) {
  const until = Date.now() + 10_000;
  let doc = await store.collection(RUNS).get(id);
  while (doc?.status !== 'completed' && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 20));
    doc = await store.collection(RUNS).get(id);
  }
  return doc;
}

describe('ops command (embedded mode)', function () {
  this.timeout(60_000);
  let dir: string;
  let store: Store;
  let runner: Runner;

  before(async function () {
    dir = mkdtempSync(join(tmpdir(), 'cds-ops-'));
    store = await openStore(loadConfig({ DATA_DIR: dir }));
    await store.ensureIndexes(ALL_COLLECTIONS);
  });
  after(async function () {
    await runner?.stop();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('parses commands and rejects unknown ones', function () {
    assert.deepEqual(parseOpsArgs(['runs', '--failed', '--limit', '5']), {
      cmd: 'runs',
      failed: true,
      limit: 5,
      workflow: null,
    });
    assert.deepEqual(parseOpsArgs(['retry', 'sync-chain:1767225600000']), {
      cmd: 'retry',
      runId: 'sync-chain:1767225600000',
    });
    assert.throws(() => parseOpsArgs(['rerun']), OpsError);
    assert.throws(() => parseOpsArgs(['runs', '--limit', 'ten']), /--limit needs a whole number/);
    assert.throws(() => parseOpsArgs(['retry']), /retry takes exactly one run id/);
  });

  it('lists a failed run from another process, and its retry is executed by the running runner', async function () {
    let down = true;
    const syncSlice = async (input: SliceInput): Promise<SliceResult> => {
      if (down) throw new Error('connect ECONNREFUSED 127.0.0.1:1337');
      const height = Math.min(input.maxBlocks, 64);
      return { blocks: height, rollbacks: 0, height, slot: height * 20, tipHeight: 64, tipSlot: 1280, atTip: true };
    };
    const workflows = { syncChain: twoQuickAttempts(WORKFLOWS.syncChain) };
    runner = createRunner({ store, activities: { syncSlice }, workflows, pollMs: 20 });
    const input = { slicesPerRun: 10, sliceBlocks: 500, tipWaitMs: 0, stopAtTip: true };
    const failed = await (
      await runner.start('syncChain', { workflowId: SYNC_WORKFLOW_ID, input, requestedBy: 'start' })
    ).done;
    assert.equal(failed.status, 'failed');

    const listed = await ops(dir, 'runs', '--failed');
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`${failed._id}\\s+syncChain\\s+failed\\s+2\\s`));
    assert.match(listed.stdout, /ECONNREFUSED/);

    down = false;
    const retried = await ops(dir, 'retry', failed._id);
    assert.equal(retried.code, 0, retried.stderr);
    const id = /queued run (\S+)/.exec(retried.stdout)?.[1];
    assert.ok(id, retried.stdout);
    // The id the README gives an embedded retry: `<workflow id>:<ms>`, like every run of the runner (not `-retry-1`).
    assert.match(id, new RegExp(`^${SYNC_WORKFLOW_ID}:\\d+$`));
    const doc = await settled(store, id);
    assert.equal(doc?.status, 'completed');
    assert.equal(doc?.retryOf, failed._id);
    assert.deepEqual(doc?.result, { blocks: 64, rollbacks: 0, height: 64 });

    assert.match((await embeddedStatus(store)).join('\n'), /runs: 0 queued, 0 running, 1 completed, 1 failed/);
  });

  it('a scheduled recompute that throws is recorded failed with its reason; ops retry runs it to completion', async function () {
    // The news ingest throws when every feed fails (workflows/ingest-news.ts). The feed host is down, then back.
    await runner?.stop();
    let down = true;
    const rss =
      '<?xml version="1.0"?><rss version="2.0"><channel><title>Cardano Digest</title><link>https://digest.example</link>' +
      '<item><title>Conway hard fork complete</title><link>https://digest.example/conway</link>' +
      '<pubDate>Tue, 17 Nov 2026 10:00:00 GMT</pubDate><description>Governance is live.</description></item>' +
      '</channel></rss>';
    const fetchFeed = async (): Promise<Response> => {
      if (down) throw Object.assign(new TypeError('fetch failed'), { cause: new Error('getaddrinfo ENOTFOUND') });
      return new Response(rss, { headers: { 'content-type': 'application/rss+xml' } });
    };
    const news = createNewsActivities({
      store,
      feeds: ['https://digest.example/feed.xml'],
      fetch: fetchFeed,
      now: () => Date.UTC(2026, 10, 17, 12),
    });
    const workflows = { ingestNews: twoQuickAttempts(WORKFLOWS.ingestNews) };
    runner = createRunner({
      store,
      activities: { ...news, ...createDerivedActivities({ store }) },
      workflows,
      pollMs: 20,
    });
    const failed = await (
      await runner.start('ingestNews', { workflowId: 'news', input: null, requestedBy: 'schedule' })
    ).done;
    assert.equal(failed.status, 'failed');
    assert.match(failed.error ?? '', /every feed failed|ENOTFOUND|fetch failed/);
    assert.equal((await store.collection(NEWS).find('byTime', { limit: 10 })).length, 0);

    const listed = await ops(dir, 'runs', '--failed');
    assert.match(listed.stdout, new RegExp(`${failed._id}\\s+ingestNews\\s+failed\\s+2\\s`));

    // Nothing stuck looks healthy: the API's probes and metrics name the failed job (read from the store, so the
    // same on a Temporal worker). /readyz answers once the sync indexed a block.
    const point = { slot: 10, id: 'ab'.repeat(32), height: 1 };
    const at = new Date().toISOString();
    await store.write([put(CHECKPOINTS, { _id: 'sync', ...point, points: [point], tip: point, updatedAt: at })]);
    const probes = await probe(store);
    assert.equal(probes.jobs.status, 503);
    assert.equal(probes.jobs.body.failing[0]?.workflow, 'ingestNews');
    assert.match(probes.jobs.body.failing[0]?.error ?? '', /every news feed failed|ENOTFOUND|fetch failed/);
    assert.equal(probes.ready.jobs.status, 'failing');
    assert.match(probes.metrics, /^cardano_job_failing\{workflow="ingestNews"\} 1$/m);
    assert.doesNotMatch(probes.metrics, /^cardano_job_last_success_timestamp_seconds\{workflow="ingestNews"\}/m);

    down = false;
    const retried = await ops(dir, 'retry', failed._id);
    assert.equal(retried.code, 0, retried.stderr);
    const id = /queued run (\S+)/.exec(retried.stdout)?.[1] as string;
    const doc = await settled(store, id);
    assert.equal(doc?.status, 'completed', doc?.error ?? '');
    assert.equal(doc?.retryOf, failed._id);
    const items = await store.collection(NEWS).find('byTime', { limit: 10 });
    assert.deepEqual(
      items.map((n) => n.headline),
      ['Conway hard fork complete'],
    );
    const after = await probe(store);
    assert.equal(after.jobs.status, 200);
    assert.deepEqual(after.jobs.body.failing, []);
    assert.match(after.metrics, /^cardano_job_failing\{workflow="ingestNews"\} 0$/m);
    // When it last succeeded, for an alert on a job that stops running at all (that fails no run).
    const lastSuccess = /^cardano_job_last_success_timestamp_seconds\{workflow="ingestNews"\} (\S+)$/m.exec(
      after.metrics,
    );
    const finished = Date.parse(doc?.finishedAt ?? '') / 1000;
    assert.ok(lastSuccess && Math.abs(Number(lastSuccess[1]) - finished) < 5, `${lastSuccess?.[1]} vs ${finished}`);
  });

  it('answers a mistake with exit code 2 and a one-line reason, no stack trace', async function () {
    const r = await ops(dir, 'retry', 'sync-chain:42');
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.equal(r.stderr.trim(), 'no run with id sync-chain:42 (see npm run ops -- runs)');
    await assert.rejects(embeddedTrigger(store, 'no-such-job', SCHEDULES), /unknown job no-such-job/);
    assert.throws(() => parseOpsArgs(['frobnicate']), /unknown command: frobnicate/);
  });
});

/** A finished run of `workflow` under `workflowId`, as the runner records it. */
function finishedRun(workflow: string, workflowId: string, input: unknown, ms: number): RunDoc {
  const at = new Date(ms).toISOString();
  return {
    _id: `${workflowId}:${ms}`,
    workflow,
    workflowId,
    input,
    status: 'failed',
    attempts: 2,
    error: 'boom',
    result: null,
    retryOf: null,
    requestedBy: 'schedule',
    queuedAt: at,
    startedAt: at,
    finishedAt: at,
  };
}

describe('ops command (embedded mode): what it refuses', function () {
  this.timeout(120_000);
  let dir: string;
  let store: Store;

  before(async function () {
    dir = mkdtempSync(join(tmpdir(), 'cds-ops-guards-'));
    store = await openStore(loadConfig({ DATA_DIR: dir }));
    await store.ensureIndexes(ALL_COLLECTIONS);
  });
  after(async function () {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates no store: every command over a DATA_DIR without one exits 2 saying so', async function () {
    const none = join(dir, 'not-a-data-dir');
    const commands = [
      ['status'],
      ['runs'],
      ['retry', 'market:1'],
      ['trigger', 'market'],
      ['sync', 'restart'],
      ['resync', '--from', 'origin'],
      ['keys', 'revoke', 'key_abc'],
    ];
    const answers = await Promise.all(commands.map((args) => ops(none, ...args)));
    answers.forEach((r, i) => {
      const what = commands[i]?.join(' ');
      assert.equal(r.code, 2, `${what}: ${r.stdout}${r.stderr}`);
      assert.equal(
        r.stderr.trim(),
        `no store under DATA_DIR=${none} yet (the service creates it when it starts)`,
        `${what}`,
      );
      assert.doesNotMatch(r.stdout, /queued run/, `${what}`);
    });
    assert.equal(existsSync(none), false, 'no folder, no store created');
  });

  it('sync restart and resync take SYNC_SLICE_BLOCKS as configured now, not from the last run', async function () {
    const last = finishedRun(
      'syncChain',
      SYNC_WORKFLOW_ID,
      { slicesPerRun: 7, sliceBlocks: 500, tipWaitMs: 1000 },
      Date.now() - 60_000,
    );
    await store.write([put(RUNS, last)]);
    const r = await opsWith({ SYNC_SLICE_BLOCKS: '123' }, dir, 'sync', 'restart');
    assert.equal(r.code, 0, r.stderr);
    const id = /queued run (\S+)/.exec(r.stdout)?.[1] as string;
    const queued = await store.collection(RUNS).get(id);
    assert.deepEqual(queued?.input, { slicesPerRun: 7, sliceBlocks: 123, tipWaitMs: 1000 });
    await store.write([put(RUNS, { ...queued!, status: 'cancelled' })]);
  });

  it('retry refuses a second run of a job while one is queued, naming it', async function () {
    const failed = finishedRun('recomputeMarket', recomputeWorkflowId('market'), null, Date.now() - 30_000);
    await store.write([put(RUNS, failed)]);
    const first = await ops(dir, 'retry', failed._id);
    assert.equal(first.code, 0, first.stderr);
    const id = /queued run (\S+)/.exec(first.stdout)?.[1] as string;
    assert.ok(id, first.stdout);
    const second = await ops(dir, 'retry', failed._id);
    assert.equal(second.code, 2, second.stdout + second.stderr);
    assert.equal(second.stderr.trim(), `recompute:market already has a queued run (${id}); not starting a second one`);
    const queued = (await store.collection(RUNS).find('byStatus', { eq: ['queued'] })).filter(
      (d) => d.workflow === 'recomputeMarket',
    );
    assert.deepEqual(
      queued.map((d) => d._id),
      [id],
    );
    // Triggering the job by hand while its retry is queued is refused the same way.
    const trigger = await ops(dir, 'trigger', 'market');
    assert.equal(trigger.code, 2, trigger.stdout + trigger.stderr);
    assert.equal(trigger.stderr.trim(), `recompute:market already has a queued run (${id}); not starting a second one`);
    await store.write([put(RUNS, { ...(await store.collection(RUNS).get(id))!, status: 'cancelled' })]);
  });

  it('sync restart goes ahead beside a run left running by a service that was killed, recording it interrupted', async function () {
    // npm start killed with SIGKILL (or the machine gone down) mid-run: its runs stay `running` in the store.
    const left: RunDoc = {
      ...finishedRun(
        'syncChain',
        SYNC_WORKFLOW_ID,
        { slicesPerRun: 7, sliceBlocks: 500, tipWaitMs: 1000 },
        Date.now() - 5_000,
      ),
      status: 'running',
      error: null,
      finishedAt: null,
    };
    await store.write([put(RUNS, left)]);
    // While its embedded worker runs, the run is the service's own: refused as before.
    const worker = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)', 'embedded-worker'], {
      stdio: 'ignore',
    });
    try {
      writeFileSync(join(dir, 'embedded-worker.pid'), String(worker.pid));
      const status = await ops(dir, 'status');
      assert.match(
        status.stdout,
        new RegExp(`^service: running \\(embedded worker pid ${worker.pid} on DATA_DIR=`, 'm'),
      );
      assert.doesNotMatch(status.stdout, /STOPPED|left by a service/);
      const refused = await ops(dir, 'sync', 'restart');
      assert.equal(refused.code, 2, refused.stdout + refused.stderr);
      assert.match(refused.stderr, new RegExp(`^the sync has a running run \\(${left._id}\\)`));
    } finally {
      worker.kill('SIGKILL');
      await new Promise((r) => worker.once('exit', r));
    }
    // The worker is gone (its pid file stays after a SIGKILL): the run can never finish. Status says so instead of
    // showing a service at work, and the operator, told to stop the service and run the command again, has nothing
    // left to stop.
    const status = await ops(dir, 'status');
    assert.equal(status.code, 0, status.stdout + status.stderr);
    assert.match(status.stdout, /^service: STOPPED: no embedded worker runs on DATA_DIR=/m);
    assert.match(
      status.stdout,
      /^ {2}1 run\(s\) shown running were left by a service that stopped without ending them/m,
    );
    assert.match(status.stdout, /^runs: \d+ queued, 1 running,/m);
    const r = await ops(dir, 'sync', 'restart');
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      new RegExp(`run ${left._id} \\(syncChain\\) was left running .*recorded as failed \\(interrupted\\)`),
    );
    const id = /queued run (\S+)/.exec(r.stdout)?.[1] as string;
    assert.equal((await store.collection(RUNS).get(id))?.status, 'queued');
    const recorded = await store.collection(RUNS).get(left._id);
    assert.equal(recorded?.status, 'failed');
    assert.equal(recorded?.error, 'interrupted');
    await store.write([put(RUNS, { ...(await store.collection(RUNS).get(id))!, status: 'cancelled' })]);
    rmSync(join(dir, 'embedded-worker.pid'), { force: true });
  });

  it('runs --failed where runs exist but none failed says no failed run, not that no run is recorded', async function () {
    const done = { ...finishedRun('recomputeNft', recomputeWorkflowId('nft'), null, Date.now() - 20_000) };
    await store.write([put(RUNS, { ...done, status: 'completed', attempts: 1, error: null })]);
    const all = await ops(dir, 'runs', '--workflow', 'recomputeNft');
    assert.match(all.stdout, new RegExp(`${done._id}\\s+recomputeNft\\s+completed\\s`));
    // An operator after an incident reads this line as "the store holds no runs at all" unless it names the filter.
    const failed = await ops(dir, 'runs', '--failed', '--workflow', 'recomputeNft');
    assert.equal(failed.code, 0, failed.stderr);
    assert.equal(failed.stdout.trim(), 'no failed runs of recomputeNft recorded');
    const none = await ops(dir, 'runs', '--workflow', 'recomputeStorage');
    assert.equal(none.stdout.trim(), 'no runs of recomputeStorage recorded');
  });

  it('runs --workflow names an unknown workflow instead of listing nothing', async function () {
    const r = await ops(dir, 'runs', '--workflow', 'nope');
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.equal(r.stderr.trim(), `unknown workflow nope (known: ${Object.keys(WORKFLOWS).join(', ')})`);
    assert.equal(r.stdout, '');
  });
});
