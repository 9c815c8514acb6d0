/**
 * One embedded worker per DATA_DIR (scripts/embedded-worker.ts, README "npm start's processes"): a worker started
 * beside a live one waits up to 10 s for it, then stops with exit code 1 and one line naming that worker and the
 * folder, as the other startup refusals do (no `fatal:` and stack trace).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
