/**
 * The production composition on real servers (TEMPORAL_ADDRESS and MONGODB_URI; CI runs it on the Temporal dev
 * server and FerretDB through scripts/servers.sh): a devnet serving Ogmios JSON-RPC → `npm run worker` (a separate
 * process: the sync and every recompute, started by `npm run schedules:apply` from Temporal Schedules) → the MongoDB
 * adapter → `npm start` serving the API from MongoDB only.
 *
 * The oracle is the embedded composition over the same chain: the devnet synced in-process into the lmdb store with
 * the same extensions. The worker is killed with SIGKILL mid-sync and restarted; at the devnet's tip the digest of
 * every chain-derived collection and a sample of REST answers must equal the embedded run's.
 *
 * A scheduled job then fails on purpose, for a cause no retry can fix until the operator fixes it: the `news` ingest's
 * only feed answers 503 (its host is down). Temporal retries the activity with its declared policy and the run fails;
 * `npm run ops -- runs --failed`, `temporal workflow list/show` and GET /news show the failure. The feed comes back,
 * `npm run ops -- retry` starts the run again, it completes and its documents are served.
 *
 * The chain is kept small (FerretDB upserts run at ~850 documents/s).
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import { defaultExtensions } from '../../activities/extensions.js';
import { importRegistry } from '../../activities/registry/import.js';
import { createSyncActivities } from '../../activities/sync/index.js';
import { rewardAddress } from '../../cardano/address.js';
import { devnetIagonScripts } from '../../cardano/iagon.js';
import { startDevnet, type Devnet } from '../../devnet/index.js';
import { ADDRESSES, CHAIN_COLLECTIONS, CHECKPOINTS, HOLDER_COUNTS, POOLS } from '../../mongo/collections/index.js';
import { storeDigest } from '../../mongo/digest.js';
import type { CollectionSpec, Store } from '../../mongo/store.js';
import { WORKFLOWS } from '../../workflows/registry.js';
import { SCHEDULES } from '../../temporal/schedules.js';
import { SYNC_WORKFLOW_ID } from '../../temporal/constants.js';
import { startTestApi, type TestApi } from '../api/seed.js';
import { freePort } from '../free-port.js';
import { mongoUri, tempMongoStore } from '../mongo/temp-db.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const temporalAddress = process.env.TEMPORAL_ADDRESS;
const ROOT = new URL('../../', import.meta.url).pathname;
const NOW = Date.UTC(2026, 10, 20, 12);
const SEED = 'composition';
/** One block per ~20 s of chain time: about 90 blocks, with handles, DEX trades and NFT sales among them. */
const BACKFILL_HOURS = 0.5;
const run = promisify(execFile);
/** The Temporal CLI (scripts/servers.sh exports the one it built and serves the dev server with). */
const temporalCli = process.env.TEMPORAL_CLI ?? 'temporal';

/** Every collection the sync writes (core + extensions): what must be equal block for block. */
const SYNC_DERIVED: CollectionSpec<{ _id: string }>[] = [
  ...new Map(
    [...CHAIN_COLLECTIONS, ...defaultExtensions().flatMap((e) => e.collections)].map((c) => [c.name, c]),
  ).values(),
];

/** A Temporal duration as the CLI prints it ("1s", "10s", "1.500s") in milliseconds. */
const durationMs = (d: unknown): number => {
  const m = /^(\d+(?:\.\d+)?)s$/.exec(String(d));
  if (!m) throw new Error(`not a duration: ${String(d)}`);
  return Number(m[1]) * 1000;
};

/** An RSS 2.0 document of `items`, newest first, as a news site serves it. */
function rssOf(items: readonly { title: string; link: string; guid: string; publishedMs: number }[]): string {
  const entries = items.map(
    (it) =>
      `<item><title>${it.title}</title><link>${it.link}</link><guid isPermaLink="false">${it.guid}</guid>` +
      `<pubDate>${new Date(it.publishedMs).toUTCString()}</pubDate><description>${it.title}.</description></item>`,
  );
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>Composition Wire</title>` +
    `<link>http://news.test/</link><description>test feed</description>${entries.join('')}</channel></rss>`
  );
}

async function until<T>(what: string, ms: number, probe: () => Promise<T | null | undefined | false>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe().catch(() => null);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('production composition: devnet → Temporal worker → MongoDB → API (TEMPORAL_ADDRESS, MONGODB_URI)', function () {
  this.timeout(900_000);
  let devnet: Devnet;
  let reference: TestApi;
  let mongo: Awaited<ReturnType<typeof tempMongoStore>>;
  let connection: Connection;
  let client: Client;
  let dataDir: string;
  let apiPort = 0;
  /** The news feed: down (503) until the test "brings it back"; counts the requests it gets. */
  const feed = {
    up: false,
    hits: 0,
    items: [] as { title: string; link: string; guid: string; publishedMs: number }[],
  };
  let feedServer: Server | undefined;
  const children = new Set<ChildProcess>();
  const logs: string[] = [];
  let env: NodeJS.ProcessEnv;

  function start(name: string, script: string, extra: NodeJS.ProcessEnv = {}): ChildProcess {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: ROOT,
      env: { ...env, ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    const keep = (d: Buffer) => logs.push(`[${name}] ${d.toString().trimEnd()}`);
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.on('exit', () => children.delete(child));
    return child;
  }
  const get = async (url: string) => {
    const res = await fetch(url);
    return { status: res.status, body: (await res.json()) as Json };
  };
  const ops = async (...args: string[]) =>
    (await run(process.execPath, ['--import', 'tsx', 'scripts/ops.ts', ...args], { cwd: ROOT, env })).stdout;
  /** `temporal <args> --output json` against the test's server, parsed. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the CLI's JSON (a list or a history)
  const cli = async (...args: string[]): Promise<any> =>
    JSON.parse(
      (
        await run(
          temporalCli as string,
          [
            ...args,
            '--address',
            temporalAddress as string,
            '--namespace',
            process.env.TEMPORAL_NAMESPACE ?? 'default',
            '--output',
            'json',
          ],
          { maxBuffer: 64 << 20 },
        )
      ).stdout,
    );
  const stop = (child: ChildProcess, signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });

  before(async function () {
    if (!temporalAddress || !mongoUri) {
      console.log('    skipped: production composition (set TEMPORAL_ADDRESS and MONGODB_URI to run it)');
      this.skip();
    }
    devnet = await startDevnet({
      seed: SEED,
      backfillHours: BACKFILL_HOURS,
      blockMs: 3_600_000, // no live blocks while the test runs: the tip is fixed
      forkRate: 0.05,
      now: () => NOW,
    });
    // The embedded run of the same chain: the oracle.
    reference = await startTestApi(async (store: Store) => {
      await importRegistry(store, join(ROOT, 'registry')); // as the worker does at start (token decimals)
      const chain = await connectOgmios(devnet.url);
      try {
        const sync = createSyncActivities({
          store,
          chain,
          k: 2160,
          network: 'mainnet',
          extensions: defaultExtensions({ iagon: devnetIagonScripts(SEED) }),
        });
        for (let i = 0; i < 10_000; i++) {
          const r = await sync.syncSlice({ maxBlocks: 500, waitMs: 0 });
          if (r.blocks === 0 && r.atTip) return;
        }
      } finally {
        await chain.close();
      }
    });
    mongo = await tempMongoStore('composition');
    dataDir = mkdtempSync(join(tmpdir(), 'cds-composition-'));
    feedServer = createServer((_req, res) => {
      feed.hits++;
      if (!feed.up) {
        res.writeHead(503, { 'content-type': 'text/plain' }).end('feed host down for maintenance');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' }).end(rssOf(feed.items));
    });
    await new Promise<void>((resolve) => feedServer!.listen(0, '127.0.0.1', resolve));
    const feedPort = (feedServer.address() as { port: number }).port;
    env = {
      ...process.env,
      TEMPORAL_ADDRESS: temporalAddress,
      MONGODB_URI: mongoUri,
      MONGODB_DB: mongo.db,
      OGMIOS_URL: devnet.url,
      DATA_DIR: dataDir,
      // Small slices, so a SIGKILL lands mid-slice and a restart resumes from a checkpoint.
      SYNC_SLICE_BLOCKS: '10',
      NEWS_FEEDS: `http://127.0.0.1:${feedPort}/feed.xml`,
      OGMIOS_IS_DEVNET: 'true', // its pools' .devnet metadata URLs are served by the devnet itself
      // The devnet's Iagon scripts, as the embedded run follows them (a remote OGMIOS_URL has none by default).
      IAGON_STAKE_SCRIPTS: devnetIagonScripts(SEED).stake.join(','),
      IAGON_REWARD_SCRIPTS: devnetIagonScripts(SEED).reward.join(','),
      LOG_LEVEL: 'warn',
      RATE_LIMITS: 'false',
      SITE_URL: 'http://api.test',
    };
    connection = await Connection.connect({ address: temporalAddress });
    client = new Client({ connection, namespace: process.env.TEMPORAL_NAMESPACE ?? 'default' });
  });

  // A failure names what it waited for; what the worker and the API said meanwhile is the rest of the story.
  afterEach(function () {
    if (this.currentTest?.state === 'failed') console.log(logs.slice(-60).join('\n').slice(-12_000));
  });

  after(async function () {
    for (const c of [...children]) await stop(c, 'SIGKILL');
    if (client) {
      for (const s of SCHEDULES)
        await client.schedule
          .getHandle(s.id)
          .delete()
          .catch(() => undefined);
      for await (const w of client.workflow.list({ query: 'ExecutionStatus = "Running"' }))
        if (w.workflowId === SYNC_WORKFLOW_ID || w.workflowId.startsWith('recompute:'))
          await client.workflow
            .getHandle(w.workflowId, w.runId)
            .terminate('test cleanup')
            .catch(() => undefined);
    }
    await connection?.close();
    await mongo?.cleanup();
    await reference?.close();
    await devnet?.close();
    await new Promise((resolve) => (feedServer ? feedServer.close(resolve) : resolve(undefined)));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (this.currentTest?.state === 'failed') console.log(logs.slice(-80).join('\n'));
  });

  it('reaches the tip through a SIGKILL of the worker; digest and REST answers equal the embedded run', async () => {
    const tip = devnet.tip();
    const expected = await storeDigest(reference.store, SYNC_DERIVED);
    assert.ok(expected.counts.blocks! > 50 && expected.counts.trades! > 0, JSON.stringify(expected.counts));

    const worker = start('worker', 'temporal/worker.ts');
    await run(process.execPath, ['--import', 'tsx', 'temporal/schedules-apply.ts'], { cwd: ROOT, env });

    // Mid-sync: the checkpoint has moved but is well short of the tip; a slice is being written.
    const cps = mongo.store.collection(CHECKPOINTS);
    const at = await until('the sync to start', 300_000, async () => {
      const cp = await cps.get('sync');
      return cp && cp.height >= 10 ? cp.height : null;
    });
    assert.ok(at < tip.height - 10, `the worker was killed mid-sync (checkpoint ${at} of ${tip.height})`);
    await stop(worker, 'SIGKILL');
    // The restarted worker resumes from the checkpoint; at info level, so its progress lines are seen below.
    start('worker', 'temporal/worker.ts', { LOG_LEVEL: 'info' });

    await until(`the checkpoint to reach the devnet tip ${tip.height}`, 600_000, async () => {
      const cp = await cps.get('sync');
      return cp?.id === tip.id;
    });
    // The operator reading the worker's log sees the catch-up end, as in npm start's (it logged nothing of the sync).
    await until('the worker to log that the sync reached the tip', 60_000, async () =>
      logs.some((l) => l.startsWith('[worker]') && l.includes('sync reached the chain tip')),
    );
    const got = await storeDigest(mongo.store, SYNC_DERIVED);
    console.log(`      embedded digest ${expected.digest}\n      MongoDB  digest ${got.digest}`);
    assert.deepEqual(got.counts, expected.counts);
    assert.deepEqual(got.perCollection, expected.perCollection);
    assert.equal(got.digest, expected.digest);

    // The API process reads MongoDB only (TEMPORAL_ADDRESS set: it runs no workflow).
    apiPort = await freePort();
    start('api', 'scripts/start.ts', { PORT: String(apiPort), HOST: '127.0.0.1' });
    const base = `http://127.0.0.1:${apiPort}/api/v1`;
    await until('the API to be ready', 120_000, async () => (await fetch(`http://127.0.0.1:${apiPort}/readyz`)).ok);
    const addresses = (await reference.store.collection(ADDRESSES).find('_id', { limit: 400 })).filter(
      (_, i) => i % 80 === 0,
    );
    const units = (await reference.store.collection(HOLDER_COUNTS).find('_id', { limit: 3 })).map((d) => d._id);
    const pools = (await reference.store.collection(POOLS).find('_id', { limit: 3 })).map((d) => d._id);
    const sample = [
      `/explorer/blocks/1`,
      `/explorer/blocks/${Math.floor(tip.height / 2)}`,
      `/explorer/blocks/${tip.height}`,
      ...addresses.map((a) => `/explorer/address/${a._id}`),
      ...units.map((u) => `/tokens/${u}/holders`),
      ...pools.map((p) => `/pools/${p}`),
    ];
    assert.ok(units.length > 0 && pools.length > 0 && addresses.length > 0);
    // An address's reward balance is a reading of the ledger by the staking recompute, which only the Temporal
    // Schedule runs here (every 5 minutes; the oracle ran none). Whether a run read a key before the sample is timing,
    // so a reading, where there is one, is checked against the devnet ledger (still: no live blocks) instead.
    const chain = await connectOgmios(devnet.url);
    const ledgerRewards = new Map(
      (
        await chain
          .query<{ credential: string; rewards: { ada: { lovelace: bigint } } }[]>(
            'queryLedgerState/rewardAccountSummaries',
          )
          .finally(() => chain.close())
      ).map((r) => [rewardAddress('mainnet', r.credential), String(r.rewards.ada.lovelace)]),
    );
    let readings = 0;
    for (const path of sample) {
      const want = await get(`${reference.url}/api/v1${path}`);
      const have = await get(base + path);
      assert.equal(have.status, want.status, path);
      assert.equal(want.status, 200, `${path}: ${JSON.stringify(want.body)}`);
      const account = have.body.stakeAccount as Json | null | undefined;
      if (account?.rewardsAsOf) {
        readings++;
        assert.equal(want.body.stakeAccount.rewardsAsOf, null, `${path}: the oracle ran no staking recompute`);
        assert.equal(
          account.rewardsLovelace,
          ledgerRewards.get(have.body.stakeAddress),
          `${path}: the ledger's rewards`,
        );
        for (const k of ['rewards', 'rewardsLovelace', 'rewardsAsOf']) account[k] = want.body.stakeAccount[k];
      }
      // A pool's 24 h figures (and a token/token pool's TVL) are the market recompute's, which only the Temporal
      // Schedule runs here (the oracle ran none: statsUpdatedAt null, figures 0), as of the tip its latest run saw.
      // They are checked against hand-summed trades elsewhere (test/market-read); here the chain fields are compared.
      if (have.body.statsUpdatedAt) {
        assert.equal(want.body.statsUpdatedAt, null, `${path}: the oracle ran no market recompute`);
        const recomputed = ['statsUpdatedAt', 'volume24h', 'txns24h'];
        if (have.body.tokenA?.unit !== 'lovelace') recomputed.push('tvlAda');
        for (const k of recomputed) have.body[k] = want.body[k];
      }
      assert.deepEqual(have.body, want.body, path);
    }
    console.log(
      `      ${readings} of ${addresses.length} sampled addresses had a reward reading of the staking recompute`,
    );

    // The pool list comes from the `market` recompute, which only the Temporal Schedule runs here (the embedded
    // oracle ran no recompute): it lists pools the sync indexed.
    const listed = await until('the market recompute (Temporal Schedule) to list pools', 300_000, async () => {
      const r = await get(`${base}/pools?pageSize=50`);
      return r.status === 200 && r.body.total > 0 ? r.body : null;
    });
    const known = new Set((await reference.store.collection(POOLS).find('_id')).map((p) => p._id));
    for (const p of listed.items as Json[]) assert.ok(known.has(String(p.id)), `pool ${p.id} is an indexed pool`);
  });

  it('a job failing for a cause retries cannot fix: retried per its policy, shown failed by ops, the Temporal CLI and /news; ops retry completes it once the cause is fixed', async () => {
    assert.ok(apiPort, 'the API started by the test above serves');
    const base = `http://127.0.0.1:${apiPort}/api/v1`;
    const policy = WORKFLOWS.ingestNews!.activityOptions.retry;
    assert.ok(policy.maximumAttempts > 1, 'the declared policy retries');
    const haveCli = await run(temporalCli, ['--version']).then(
      () => true,
      () => false,
    );
    if (!haveCli) console.log(`      skipped: temporal CLI checks (no ${temporalCli}; set TEMPORAL_CLI)`);

    // The first scheduled run (Schedules trigger once when applied) fails: every attempt gets the feed's 503.
    const failed = await until('a failed news run', 180_000, async () => {
      for await (const w of client.workflow.list({
        query: 'WorkflowId STARTS_WITH "recompute:news" AND ExecutionStatus = "Failed"',
      }))
        return w;
      return null;
    });
    const failedRuns = (
      await client.workflow.count('WorkflowId STARTS_WITH "recompute:news" AND ExecutionStatus = "Failed"')
    ).count;
    // The feed's own count (not Temporal's word): asked once per attempt, the declared number of attempts per run.
    assert.equal(feed.hits, failedRuns * policy.maximumAttempts, `feed requests for ${failedRuns} failed run(s)`);

    if (haveCli) {
      // `temporal workflow list` shows it failed; `temporal workflow show` has the activity's declared retry policy,
      // its last attempt and the reason, and the backoff Temporal waited between the attempts.
      const listed = await cli('workflow', 'list', '--query', `WorkflowId = "${failed.workflowId}"`);
      assert.deepEqual(
        listed.map((w: Json) => [w.execution.runId, w.type.name, w.status]),
        [[failed.runId, 'ingestNews', 'WORKFLOW_EXECUTION_STATUS_FAILED']],
      );
      const { events } = await cli('workflow', 'show', '--workflow-id', failed.workflowId, '--run-id', failed.runId);
      // The ingest activity's events; after it the workflow records the failure for the probes (jobFailed).
      const scheduled = events.filter(
        (e: Json) => e.activityTaskScheduledEventAttributes?.activityType.name === 'ingestNewsFeeds',
      );
      const ofIngest = (attr: string) =>
        events.filter((e: Json) => e[attr] && e[attr].scheduledEventId === scheduled[0]?.eventId);
      const started = ofIngest('activityTaskStartedEventAttributes');
      const failures = ofIngest('activityTaskFailedEventAttributes');
      assert.equal(scheduled.length, 1, 'one activity (retries are attempts of it, not new activities)');
      assert.ok(
        events.some((e: Json) => e.activityTaskScheduledEventAttributes?.activityType.name === 'jobFailed'),
        'the run records its failure in the store (job_health)',
      );
      const a = scheduled[0].activityTaskScheduledEventAttributes;
      assert.equal(a.activityType.name, 'ingestNewsFeeds');
      assert.deepEqual(
        {
          initialIntervalMs: durationMs(a.retryPolicy.initialInterval),
          backoffCoefficient: a.retryPolicy.backoffCoefficient,
          maximumIntervalMs: durationMs(a.retryPolicy.maximumInterval),
          maximumAttempts: a.retryPolicy.maximumAttempts,
        },
        {
          initialIntervalMs: policy.initialIntervalMs,
          backoffCoefficient: policy.backoffCoefficient,
          maximumIntervalMs: policy.maximumIntervalMs,
          maximumAttempts: policy.maximumAttempts,
        },
        'the retry policy Temporal applied is the declared one (workflows/policies.ts)',
      );
      assert.equal(started.length, 1);
      const last = started[0].activityTaskStartedEventAttributes;
      assert.equal(last.attempt, policy.maximumAttempts, 'recorded on its last attempt');
      assert.match(last.lastFailure.message, /every news feed failed: .*HTTP 503/, 'the previous attempt failed too');
      // The backoff before the last attempt: initial + initial × coefficient, … (capped), summed over the retries.
      let backoff = 0;
      for (let i = 0, next = policy.initialIntervalMs; i < policy.maximumAttempts - 1; i++) {
        backoff += Math.min(next, policy.maximumIntervalMs);
        next *= policy.backoffCoefficient;
      }
      const waited = Date.parse(started[0].eventTime) - Date.parse(scheduled[0].eventTime);
      assert.ok(waited >= backoff, `the last attempt started ${waited} ms after scheduling, ≥ ${backoff} ms`);
      assert.equal(failures.length, 1);
      assert.equal(failures[0].activityTaskFailedEventAttributes.retryState, 'RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED');
      assert.ok(events.some((e: Json) => e.workflowExecutionFailedEventAttributes));
    }

    // The operator's view: `ops runs --failed` lists the run with its attempts and the reason.
    const row = (await ops('runs', '--failed', '--limit', '50'))
      .split('\n')
      .map((l) => l.split(/\s{2,}/))
      .find((cells) => cells[0] === failed.workflowId);
    assert.ok(row, `ops runs --failed lists ${failed.workflowId}`);
    assert.deepEqual(row.slice(1, 4), ['ingestNews', 'failed', String(policy.maximumAttempts)]);
    assert.match(row[6] ?? '', /every news feed failed/);
    // The API answer built from the job says so too, instead of an empty list that looks fine.
    const down = await get(`${base}/news`);
    assert.equal(down.status, 200);
    assert.deepEqual(down.body.items, []);
    assert.match(down.body.reason, /failed their last fetch/);
    assert.equal(down.body.feeds.length, 1);
    assert.equal(down.body.feeds[0].ok, false);
    assert.match(down.body.feeds[0].error, /HTTP 503/);
    // Nothing stuck looks healthy: the API process (which runs no workflow) names the failed job in its probes and
    // metrics, read from what the job recorded in the store.
    const jobs = await get(`http://127.0.0.1:${apiPort}/healthz/jobs`);
    assert.equal(jobs.status, 503);
    const failing = jobs.body.failing.find((j: Json) => j.workflow === 'ingestNews');
    assert.ok(failing, JSON.stringify(jobs.body));
    assert.match(failing.error, /every news feed failed: .*HTTP 503/);
    const ready = await get(`http://127.0.0.1:${apiPort}/readyz`);
    assert.equal(ready.status, 200, 'a failed job does not take the replica out of the balancer');
    assert.equal(ready.body.jobs.status, 'failing');
    const jobMetric = async () =>
      /^cardano_job_failing\{workflow="ingestNews"\} (\d)$/m.exec(
        await (await fetch(`http://127.0.0.1:${apiPort}/metrics`)).text(),
      )?.[1];
    assert.equal(await jobMetric(), '1');

    // The operator fixes the cause (the feed host is back) and retries the failed run.
    const now = Date.now();
    feed.items = [1, 2, 3].map((n) => ({
      title: `Composition headline ${n}`,
      link: `http://news.test/posts/${n}`,
      guid: `composition-${n}`,
      publishedMs: Math.floor((now - n * 3_600_000) / 1000) * 1000, // RFC 822 dates have whole seconds
    }));
    feed.up = true;
    const hitsBefore = feed.hits;
    // A run of the job's Schedule (overlap BUFFER_ONE), so the Schedule's firings skip while it runs, named as such.
    const said = (await ops('retry', failed.workflowId)).trim();
    const retryId = new RegExp(
      `^started ingestNews as (recompute:news-\\S+) \\(retry of ${failed.workflowId}, schedule news\\)$`,
    ).exec(said)?.[1];
    assert.ok(retryId && retryId !== failed.workflowId, said);
    const result = (await client.workflow.getHandle(retryId).result()) as Json;
    assert.deepEqual(
      { feeds: result.feeds, ok: result.ok, failed: result.failed, items: result.items },
      { feeds: 1, ok: 1, failed: [], items: 3 },
    );
    assert.equal(feed.hits, hitsBefore + 1, 'one fetch, on the first attempt');
    if (haveCli) {
      const listed = await cli('workflow', 'list', '--query', `WorkflowId = "${retryId}"`);
      assert.deepEqual(
        listed.map((w: Json) => [w.type.name, w.status]),
        [['ingestNews', 'WORKFLOW_EXECUTION_STATUS_COMPLETED']],
      );
      const { events } = await cli('workflow', 'show', '--workflow-id', retryId);
      assert.deepEqual(
        events.flatMap((e: Json) => e.activityTaskStartedEventAttributes?.attempt ?? []),
        [1, 1],
        'the retried run succeeds on its first attempt (the ingest, then jobSucceeded)',
      );
    }
    // Its documents are served: the feed's items, newest first, with the feed as their source.
    const up = await until('the retried run’s news to be served', 30_000, async () => {
      const r = await get(`${base}/news`);
      return r.status === 200 && r.body.items.length === feed.items.length ? r.body : null;
    });
    assert.deepEqual(
      up.items.map((i: Json) => [i.headline, i.link, i.source, i.publishedAt]),
      feed.items.map((i) => [i.title, i.link, 'Composition Wire', new Date(i.publishedMs).toISOString()]),
    );
    assert.equal(up.reason, null);
    assert.deepEqual(
      up.feeds.map((f: Json) => [f.ok, f.error]),
      [[true, null]],
    );
    // The failed run stays on record as failed, saying its retry completed since; the retry is not listed among the
    // failures.
    assert.equal(await jobMetric(), '0', 'the job is healthy again');
    assert.equal((await get(`http://127.0.0.1:${apiPort}/healthz/jobs`)).status, 200);
    const failedNow = await ops('runs', '--failed', '--limit', '50');
    const rows = failedNow.split('\n').map((l) => l.split(/\s{2,}/));
    assert.ok(!rows.some((cells) => cells[0] === retryId), failedNow);
    const since = rows.find((cells) => cells[0] === failed.workflowId)?.[7] ?? '';
    assert.match(since, new RegExp(`^completed \\S+ \\S+ \\(${retryId}\\)$`), failedNow);
  });
});
