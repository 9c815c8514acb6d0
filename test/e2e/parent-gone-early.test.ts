/**
 * A child of `npm start` whose parent goes while the child is still starting: SIGTERM to npm start in its first
 * seconds (`docker stop` of a container just started) ends it before its own signal handlers exist, so its children
 * see only the IPC channel close — before they listen for it. Found live: devnets left running with parent pid 1.
 */
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('a child whose npm start went while it started', function () {
  this.timeout(60_000);

  it('the devnet exits once started, instead of serving on without a parent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parent-gone-early-'));
    const child = fork(new URL('../../scripts/devnet.ts', import.meta.url).pathname, [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, DATA_DIR: dir, DEVNET_PORT: '0', DEVNET_BACKFILL_HOURS: '1', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let out = '';
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
    try {
      // The parent's end of the channel closes at once, while the child still loads its modules: what it sees of
      // an npm start that was killed then.
      child.disconnect();
      const exited = await new Promise<boolean>((resolve) => {
        const t = setTimeout(() => resolve(false), 40_000);
        child.once('exit', () => {
          clearTimeout(t);
          resolve(true);
        });
      });
      assert.ok(exited, `the devnet still runs 40 s after its parent's channel closed:\n${out}`);
      assert.match(out, /devnet: parent gone, stopping/);
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
