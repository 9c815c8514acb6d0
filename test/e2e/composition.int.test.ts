/**
 * The production composition on real servers (TEMPORAL_ADDRESS and MONGODB_URI; CI runs it on the Temporal dev
 * server and FerretDB through scripts/servers.sh): a devnet serving Ogmios JSON-RPC → `npm run worker` (a separate
 * process: the sync and every recompute, started by `npm run schedules:apply` from Temporal Schedules) → the MongoDB
 * adapter → `npm start` serving the API from MongoDB only.
 *
 * The oracle is the embedded composition over the same chain: the devnet synced in-process into the lmdb store with
 * the same extensions. The worker is killed with SIGKILL mid-sync and restarted; at the devnet's tip the digest of
 * every chain-derived collection and a sample of REST answers must equal the embedded run's. A recompute that fails
 * on purpose (`news` with an unreachable feed) is retried by Temporal with its declared policy and listed by
 * `npm run ops -- runs --failed`.
 *
 * The chain is kept small (FerretDB upserts run at ~850 documents/s).
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import { defaultExtensions } from '../../activities/extensions.js';
import { importRegistry } from '../../activities/registry/import.js';
import { createSyncActivities } from '../../activities/sync/index.js';
import { devnetIagonScripts } from '../../cardano/iagon.js';
import { startDevnet, type Devnet } from '../../devnet/index.js';
import { ADDRESSES, CHAIN_COLLECTIONS, CHECKPOINTS, HOLDER_COUNTS, POOLS } from '../../mongo/collections/index.js';
import { storeDigest } from '../../mongo/digest.js';
import type { CollectionSpec, Store } from '../../mongo/store.js';
import { RECOMPUTE_ACTIVITY } from '../../workflows/policies.js';
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

/** Every collection the sync writes (core + extensions): what must be equal block for block. */
const SYNC_DERIVED: CollectionSpec<{ _id: string }>[] = [
  ...new Map(
    [...CHAIN_COLLECTIONS, ...defaultExtensions().flatMap((e) => e.collections)].map((c) => [c.name, c]),
  ).values(),
];

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
    const feedPort = await freePort(); // nothing listens there: the news feed fails on purpose
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
    start('worker', 'temporal/worker.ts'); // the restarted worker resumes from the checkpoint

    await until(`the checkpoint to reach the devnet tip ${tip.height}`, 600_000, async () => {
      const cp = await cps.get('sync');
      return cp?.id === tip.id;
    });
    const got = await storeDigest(mongo.store, SYNC_DERIVED);
    console.log(`      embedded digest ${expected.digest}\n      MongoDB  digest ${got.digest}`);
    assert.deepEqual(got.counts, expected.counts);
    assert.deepEqual(got.perCollection, expected.perCollection);
    assert.equal(got.digest, expected.digest);

    // The API process reads MongoDB only (TEMPORAL_ADDRESS set: it runs no workflow).
    const port = await freePort();
    start('api', 'scripts/start.ts', { PORT: String(port), HOST: '127.0.0.1' });
    const base = `http://127.0.0.1:${port}/api/v1`;
    await until('the API to be ready', 120_000, async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).ok);
    const get = async (url: string, path: string) => {
      const res = await fetch(url + path);
      return { status: res.status, body: (await res.json()) as Json };
    };
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
    for (const path of sample) {
      const want = await get(`${reference.url}/api/v1`, path);
      const have = await get(base, path);
      assert.equal(have.status, want.status, path);
      assert.equal(want.status, 200, `${path}: ${JSON.stringify(want.body)}`);
      assert.deepEqual(have.body, want.body, path);
    }

    // The pool list comes from the `market` recompute, which only the Temporal Schedule runs here (the embedded
    // oracle ran no recompute): it lists pools the sync indexed.
    const listed = await until('the market recompute (Temporal Schedule) to list pools', 300_000, async () => {
      const r = await get(base, '/pools?pageSize=50');
      return r.status === 200 && r.body.total > 0 ? r.body : null;
    });
    const known = new Set((await reference.store.collection(POOLS).find('_id')).map((p) => p._id));
    for (const p of listed.items as Json[]) assert.ok(known.has(String(p.id)), `pool ${p.id} is an indexed pool`);

    // The `news` recompute fails on purpose (its only feed is unreachable): Temporal retries the activity with the
    // declared policy, the run fails, and the operator tools list it.
    const failed = await until('a failed news run', 180_000, async () => {
      for await (const w of client.workflow.list({
        query: 'WorkflowId STARTS_WITH "recompute:news" AND ExecutionStatus = "Failed"',
      }))
        return w;
      return null;
    });
    const history = await client.workflow.getHandle(failed.workflowId, failed.runId).fetchHistory();
    const attempts = (history.events ?? [])
      .map((e) => e.activityTaskStartedEventAttributes?.attempt)
      .filter((a): a is number => typeof a === 'number');
    assert.deepEqual(
      attempts,
      [RECOMPUTE_ACTIVITY.retry!.maximumAttempts],
      'one activity, started on its last attempt',
    );
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/ops.ts', 'runs', '--failed'], {
      cwd: ROOT,
      env,
    });
    assert.match(stdout, /recompute:news/);
  });
});
