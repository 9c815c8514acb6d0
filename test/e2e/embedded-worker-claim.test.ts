/**
 * One embedded worker per DATA_DIR (scripts/embedded-worker.ts, README "npm start's processes"): a worker started
 * beside a live one waits up to 10 s for it, then stops with exit code 1 and one line naming that worker and the
 * folder, as the other startup refusals do (no `fatal:` and stack trace).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { superviseWorker, type WorkerSupervisor } from '../../temporal/worker-child.js';
import { DATA_DIR_TAKEN_EXIT } from '../../temporal/worker-pid.js';

/**
 * Runs `script` with DATA_DIR a fresh folder whose pid file names a live process whose command line names the
 * embedded worker (as a running service's worker does); gives back its outcome, the folder and the holder's pid.
 */
function beside(script: string, env: NodeJS.ProcessEnv) {
  const dir = mkdtempSync(join(tmpdir(), 'cds-claim-'));
  const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', 'embedded-worker'], { stdio: 'ignore' });
  try {
    writeFileSync(join(dir, 'embedded-worker.pid'), String(holder.pid));
    const r = spawnSync(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, ...env, DATA_DIR: dir, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
      timeout: 45_000,
    });
    return { ...r, dir, pid: String(holder.pid), files: readdirSync(dir) };
  } finally {
    holder.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a second embedded worker on one DATA_DIR', function () {
  this.timeout(60_000);

  it('refuses with one line naming the live worker and the folder, exit 1', () => {
    const r = beside('scripts/embedded-worker.ts', { OGMIOS_URL: 'ws://127.0.0.1:1' });
    assert.equal(r.status, 1, `${r.stdout}${r.stderr}`);
    assert.equal(r.stderr.trim(), `another embedded worker (pid ${r.pid}) still writes to ${r.dir}; stop it first`);
  });

  it('a second npm start on the DATA_DIR (another PORT) exits 1 at once with one line, starting no child', () => {
    // Its worker would wait 10 s for the folder, then be restarted after 1, 2, 4, 8 and 16 s (about 80 s in all).
    const r = beside('scripts/start.ts', { PORT: '0' });
    assert.equal(r.status, 1, `${r.stdout}${r.stderr}`);
    assert.equal(
      r.stderr.trim(),
      `DATA_DIR=${r.dir} is in use: its embedded worker (pid ${r.pid}) belongs to another npm start; stop that one, or give this one its own DATA_DIR`,
    );
    assert.equal(r.stdout, '');
    assert.deepEqual(r.files, ['embedded-worker.pid'], 'no child wrote to the folder');
  });
});

/**
 * Two npm start on one DATA_DIR at once (found live: both passed npm start's own check before either worker had
 * claimed the folder): the second's worker waited 10 s, exited 1 and was restarted after 1, 2, 4, 8 s, so that
 * npm start served for 75 s with `/readyz` 503 and five error lines before its crash loop stopped it. The folder's
 * holder is another live npm start's worker; no restart can succeed while it runs. Oracle: real processes whose
 * command lines name the worker and npm start, as `ps` shows a running service's, in the pid file a worker writes.
 */
describe('an embedded worker finding DATA_DIR held by another npm start', function () {
  this.timeout(60_000);
  const procs: ChildProcess[] = [];
  let dir = '';
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cds-claim-'));
    const fake = (script: string) =>
      spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', script], { stdio: 'ignore' });
    const service = fake('scripts/start.ts');
    const worker = fake('scripts/embedded-worker.ts');
    procs.push(service, worker);
    await new Promise((r) => setTimeout(r, 300));
    writeFileSync(join(dir, 'embedded-worker.pid'), `${worker.pid} ${service.pid}`);
  });
  afterEach(() => {
    for (const p of procs.splice(0)) p.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits at once with one line naming both, not after waiting 10 s', () => {
    const [service, worker] = procs as [ChildProcess, ChildProcess];
    const started = Date.now();
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/embedded-worker.ts'], {
      env: { ...process.env, DATA_DIR: dir, OGMIOS_URL: 'ws://127.0.0.1:1', LOG_LEVEL: 'warn' },
      encoding: 'utf8',
      timeout: 45_000,
    });
    assert.equal(r.status, DATA_DIR_TAKEN_EXIT, `${r.stdout}${r.stderr}`);
    assert.equal(
      r.stderr.trim(),
      `DATA_DIR=${dir} is in use: its embedded worker (pid ${worker.pid}) belongs to another npm start (pid ${service.pid}); stop that one, or give this one its own DATA_DIR`,
    );
    assert.ok(Date.now() - started < 8_000, `took ${Date.now() - started} ms`);
  });

  it('npm start gives up at once (exit 1 by its onGiveUp) instead of restarting the worker as a crash', async () => {
    const lines: { level: number; msg: string }[] = [];
    const log = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s)) });
    const started = Date.now();
    let sup: WorkerSupervisor | null = null;
    const reason = await new Promise<string | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), 20_000);
      sup = superviseWorker({
        log,
        onGiveUp: (why) => {
          clearTimeout(timer);
          resolve(why);
        },
        env: { DATA_DIR: dir, OGMIOS_URL: 'ws://127.0.0.1:1', LOG_LEVEL: 'warn' },
      });
    });
    await (sup as WorkerSupervisor | null)?.stop();
    assert.equal(reason, 'DATA_DIR is in use by the embedded worker of another npm start', JSON.stringify(lines));
    assert.ok(Date.now() - started < 15_000, `took ${Date.now() - started} ms`);
    assert.deepEqual(
      lines.filter((l) => /restarting in/.test(l.msg)),
      [],
      'no restart of a worker that cannot claim the folder',
    );
  });
});
