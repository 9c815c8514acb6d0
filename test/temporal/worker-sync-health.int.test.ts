/**
 * What monitors say while `npm run worker` (Temporal) comes back after a stop or a kill: "starting" until its first
 * sync slice ends, as for npm start's embedded worker, not the previous worker's "not running" (whose action is to
 * start the worker that is already running). On FerretDB the first slice of a catch-up takes a minute or more, and
 * for that whole minute /healthz/sync, /readyz, `ops status` and `cardano_sync_healthy` said the sync was not running
 * while its checkpoint moved. `ops status` names the workers polling the task queue, and says when none does.
 * Real servers: TEMPORAL_ADDRESS and MONGODB_URI (scripts/servers.sh).
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { put } from '../../mongo/store.js';
import {
  readSyncLag,
  SYNC_HEALTH,
  SYNC_HEALTH_ID,
  syncCondition,
  type SyncHealthDoc,
} from '../../mongo/collections/sync-state.js';
import { freePort } from '../free-port.js';
import { mongoUri, tempMongoStore } from '../mongo/temp-db.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const temporalAddress = process.env.TEMPORAL_ADDRESS;

describe('npm run worker (Temporal) restarted: sync health says starting, not stopped', function () {
  this.timeout(300_000);
  let mongo: Awaited<ReturnType<typeof tempMongoStore>>;
  let dir: string;
  let worker: ChildProcess | undefined;
  const log: string[] = [];

  before(async function () {
    if (!temporalAddress || !mongoUri) {
      console.log('    skipped: Temporal worker restart health (set TEMPORAL_ADDRESS and MONGODB_URI to run it)');
      this.skip();
    }
    mongo = await tempMongoStore('workerhealth');
    dir = mkdtempSync(join(tmpdir(), 'cds-worker-health-'));
  });
  after(async () => {
    if (worker && worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
    await mongo?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const condition = async () => syncCondition(await readSyncLag(mongo.store, Date.now()), Date.now());

  it('a restarted worker reports "starting" until its first slice, and "not running" again once stopped', async () => {
    // What the previous worker left: it synced (contact an hour ago) and was stopped cleanly (SIGTERM).
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const previous: SyncHealthDoc = {
      _id: SYNC_HEALTH_ID,
      contactAt: hourAgo,
      tip: { slot: 100, height: 5, id: 'ab'.repeat(32) },
      failing: null,
      stall: null,
      generation: 0,
      lastDeepRollback: null,
      updatedAt: hourAgo,
      stoppedAt: hourAgo,
      startedAt: null,
    };
    await mongo.store.write([put(SYNC_HEALTH, previous)]);
    const before = await condition();
    assert.equal(before.status, 'silent');
    assert.match(before.reason ?? '', /its worker stopped at/);

    // The chain source is a closed port (the worker connects on first use) and the task queue is the test's own, so
    // no sync runs: only the worker's own start is recorded.
    const closedPort = await freePort();
    const queue = `worker-health-${randomBytes(4).toString('hex')}`;
    const env = {
      ...process.env,
      MONGODB_DB: mongo.db,
      OGMIOS_URL: `ws://127.0.0.1:${closedPort}`,
      TEMPORAL_TASK_QUEUE: queue,
      DATA_DIR: dir,
      LOG_LEVEL: 'info',
    };
    const workersLine = async () =>
      (
        await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/ops.ts', 'status'], { cwd: ROOT, env })
      ).stdout
        .split('\n')
        .find((l) => l.startsWith('workers: '));
    // No worker polls the queue yet: ops status says so (it listed only the runs, so a dead worker went unseen).
    assert.equal(
      await workersLine(),
      `workers: NONE polling task queue ${queue}; next: start \`npm run worker\` with this TEMPORAL_TASK_QUEUE`,
    );
    worker = spawn(process.execPath, ['--import', 'tsx', 'temporal/worker.ts'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => worker!.once('exit', (code) => resolve(code)));
    const running = new Promise<void>((resolve, reject) => {
      const keep = (d: Buffer) => {
        log.push(d.toString());
        if (log.join('').includes('"msg":"worker running"')) resolve();
      };
      worker!.stdout!.on('data', keep);
      worker!.stderr!.on('data', keep);
      void exited.then((code) => reject(new Error(`worker exited ${code}: ${log.join('').slice(-2000)}`)));
    });
    await running;

    const starting = await condition();
    assert.equal(starting.status, 'starting', `${starting.status}: ${starting.reason}`);
    assert.match(starting.reason ?? '', /^sync starting: its worker started at .*; its first slice has not ended yet$/);
    // The worker's pollers, named by its identity (pid@host).
    let line: string | undefined;
    for (let i = 0; i < 30; i++) {
      line = await workersLine();
      if (line?.startsWith('workers: 1 ')) break;
      await new Promise((r) => setTimeout(r, 1_000));
    }
    assert.match(line ?? '', new RegExp(`^workers: 1 polling task queue ${queue} \\(${worker.pid}@`));

    worker.kill('SIGTERM');
    assert.equal(await exited, 0, log.join('').slice(-2000));
    const stopped = await condition();
    assert.equal(stopped.status, 'silent');
    assert.match(stopped.reason ?? '', /^sync not running: its worker stopped at /);
  });
});
