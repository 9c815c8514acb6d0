/**
 * The long-running npm scripts end on the signal a supervisor sends to npm (`docker stop` sends SIGTERM to the
 * image's `npm start`): npm hands it to its script's shell, and a shell that forks its command would die without
 * passing it on, leaving the service running with no parent. The scripts `exec` node, so node itself gets it.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('npm scripts and signals', function () {
  this.timeout(120_000);

  it('SIGTERM to `npm run devnet` reaches the devnet, which stops and exits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'npm-signals-'));
    // Its own process group, so whatever the outcome nothing outlives the test.
    const npm = spawn('npm', ['run', '--silent', 'devnet'], {
      cwd: new URL('../..', import.meta.url).pathname,
      env: { ...process.env, DATA_DIR: dir, DEVNET_PORT: '0', DEVNET_BACKFILL_HOURS: '1', LOG_LEVEL: 'warn' },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    npm.stdout.on('data', (c: Buffer) => (out += c.toString()));
    npm.stderr.on('data', (c: Buffer) => (out += c.toString()));
    try {
      await new Promise<void>((resolve, reject) => {
        const t = setInterval(() => {
          if (out.includes('devnet (Ogmios v6 JSON-RPC) at')) {
            clearInterval(t);
            resolve();
          }
        }, 50);
        npm.once('exit', () => {
          clearInterval(t);
          reject(new Error(`npm run devnet exited early: ${out}`));
        });
      });
      const exited = new Promise<number | null>((r) => npm.once('exit', (code) => r(code)));
      npm.kill('SIGTERM');
      const code = await exited;
      // The devnet's own handler ran (it logs the signal), and the group empties (tsx's esbuild service follows
      // node out within moments): nothing is left running.
      assert.match(out, /devnet: SIGTERM, stopping/, out);
      assert.equal(code, 0);
      const groupAlive = () => {
        try {
          process.kill(-npm.pid!, 0);
          return true;
        } catch {
          return false;
        }
      };
      for (let i = 0; i < 100 && groupAlive(); i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal(groupAlive(), false, 'a process of the group is still running 10 s after npm exited');
    } finally {
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
