/**
 * One embedded worker per DATA_DIR (scripts/embedded-worker.ts, README "npm start's processes"): a worker started
 * beside a live one waits up to 10 s for it, then stops with exit code 1 and one line naming that worker and the
 * folder, as the other startup refusals do (no `fatal:` and stack trace).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('a second embedded worker on one DATA_DIR', function () {
  this.timeout(60_000);

  it('refuses with one line naming the live worker and the folder, exit 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cds-claim-'));
    // A live process whose command line names the embedded worker, holding the folder's pid file.
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', 'embedded-worker'], {
      stdio: 'ignore',
    });
    try {
      writeFileSync(join(dir, 'embedded-worker.pid'), String(holder.pid));
      const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/embedded-worker.ts'], {
        env: { ...process.env, DATA_DIR: dir, OGMIOS_URL: 'ws://127.0.0.1:1', LOG_LEVEL: 'warn' },
        encoding: 'utf8',
        timeout: 45_000,
      });
      assert.equal(r.status, 1, `${r.stdout}${r.stderr}`);
      assert.equal(
        r.stderr.trim(),
        `another embedded worker (pid ${String(holder.pid)}) still writes to ${dir}; stop it first`,
      );
    } finally {
      holder.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
