/**
 * ops status while npm start restarts its embedded worker (it died: a crash, an out-of-memory kill; npm start restarts
 * it after 1, 2, 4, 8, 16 s). Found live: `kill -9` of the worker, then `npm run ops -- status` answered 'service:
 * STOPPED: no embedded worker runs on DATA_DIR=…; the sync and the jobs resume at the next npm start' and 'next: start
 * the service', while npm start (its API answering) was restarting the worker. Oracle: real processes (a live
 * "npm start", a worker pid that exited) and the pid file the worker writes.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '../../mongo/store.js';
import { embeddedStatus } from '../../temporal/ops.js';
import { liveEmbeddedWorker, pidOf, restartingService, workerPidFile } from '../../temporal/worker-pid.js';
import { tempStore } from '../sync/helpers.js';

/** A process whose command line names `script`, as `ps` shows npm start's and the worker's. */
function fake(script: string): ChildProcess {
  return spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', script], { stdio: 'ignore' });
}
const exited = (p: ChildProcess) =>
  new Promise<void>((res) => (p.exitCode !== null || p.signalCode !== null ? res() : p.once('exit', () => res())));

describe('ops status while npm start restarts its embedded worker', function () {
  let dir: string;
  let store: Store;
  let cleanup: () => Promise<void>;
  const procs: ChildProcess[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'worker-pid-'));
    ({ store, cleanup } = await tempStore());
  });
  afterEach(async () => {
    for (const p of procs.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
    await cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  it('names the live npm start restarting it, not a stopped service; STOPPED once npm start is gone too', async () => {
    const service = fake('scripts/start.ts');
    const worker = fake('scripts/embedded-worker.ts');
    procs.push(service, worker);
    await new Promise((res) => setTimeout(res, 300));
    // What the worker writes: its pid, then its parent's (npm start).
    await writeFile(workerPidFile(dir), `${worker.pid} ${service.pid}`);
    assert.equal(pidOf(workerPidFile(dir)), worker.pid);
    assert.equal(liveEmbeddedWorker(dir), worker.pid);
    assert.equal(restartingService(dir), null, 'a worker runs');

    worker.kill('SIGKILL');
    await exited(worker);
    assert.equal(liveEmbeddedWorker(dir), null);
    const status = async () => {
      const lines = await embeddedStatus(store, Date.now(), {
        pid: liveEmbeddedWorker(dir),
        dataDir: dir,
        restartingService: restartingService(dir),
      });
      return lines.find((l) => l.startsWith('service:')) ?? '';
    };
    const restarting = await status();
    assert.doesNotMatch(restarting, /STOPPED/);
    assert.match(restarting, new RegExp(`^service: WORKER RESTARTING: npm start \\(pid ${service.pid}\\) runs on`));

    service.kill('SIGKILL');
    await exited(service);
    assert.match(await status(), /^service: STOPPED: no embedded worker runs on/);
  });

  it('reads a pid file of an older build (the worker pid alone)', async () => {
    const worker = fake('scripts/embedded-worker.ts');
    procs.push(worker);
    await new Promise((res) => setTimeout(res, 300));
    await writeFile(workerPidFile(dir), String(worker.pid));
    assert.equal(liveEmbeddedWorker(dir), worker.pid);
    assert.equal(restartingService(dir), null);
  });
});
