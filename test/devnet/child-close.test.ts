/**
 * npm start's shutdown closes its devnet child (devnet/child.ts) last. A devnet that cannot act on SIGTERM (stopped
 * by SIGSTOP, its event loop blocked) held that shutdown for good: found live, `kill -TERM` of npm start with its
 * devnet stopped left npm start and the devnet running minutes later, the API and worker already gone.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLOSE_GRACE_MS, spawnDevnet } from '../../devnet/child.js';

/** Whether the OS still has a process with this pid (signal 0 tests without sending one). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('devnet child close', function () {
  this.timeout(CLOSE_GRACE_MS + 40_000);

  it('ends a devnet that does not act on SIGTERM (stopped by SIGSTOP) after the grace period', async function () {
    const dir = await mkdtemp(join(tmpdir(), 'devnet-close-'));
    const devnet = await spawnDevnet({
      seed: 'devnet',
      backfillHours: 1,
      blockMs: 3_600_000,
      forkRate: 0,
      forkDepth: 3,
      dataDir: dir,
    });
    try {
      process.kill(devnet.pid, 'SIGSTOP');
      const t0 = Date.now();
      const closed = await Promise.race([
        devnet.close().then(() => true),
        new Promise<false>((res) => setTimeout(() => res(false), CLOSE_GRACE_MS + 20_000).unref()),
      ]);
      assert.equal(
        closed,
        true,
        `close() still waiting ${CLOSE_GRACE_MS + 20_000} ms after SIGTERM to a stopped devnet`,
      );
      assert.ok(Date.now() - t0 >= CLOSE_GRACE_MS - 100, 'SIGTERM first, SIGKILL only after the grace period');
      assert.equal(await devnet.exited, 'signal SIGKILL');
      assert.equal(alive(devnet.pid), false);
    } finally {
      if (alive(devnet.pid)) process.kill(devnet.pid, 'SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });
});
