/**
 * `npm run ops -- … | head`: the reader closes the pipe before ops writes. ops printed Node's unhandled 'error'
 * event (`Error: write EPIPE` and a stack) on stderr and exited 1 (seen with `ops status | head -4`).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';

const ROOT = new URL('../../', import.meta.url).pathname;

describe('npm run ops into a closed pipe', function () {
  this.timeout(60_000);

  it('stops quietly with exit code 0 when its reader has gone', async () => {
    // `jobs` needs no store and prints one table; the pipe is closed before the process has loaded.
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/ops.ts', 'jobs'], {
      cwd: ROOT,
      env: { ...process.env, TEMPORAL_ADDRESS: '', MONGODB_URI: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
    assert.equal(stderr, '');
    assert.equal(code, 0);
  });
});
