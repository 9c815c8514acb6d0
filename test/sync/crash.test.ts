import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedStore } from '../../mongo/adapters/embedded.js';
import { buildChain } from './build-chain.js';
import { chainDigest, syncAll, tempStore } from './helpers.js';
import { memoryChain } from './memory-chain.js';

const CHILD = new URL('./sync-child.ts', import.meta.url).pathname;
const BLOCKS = 120;
const FORK_EVERY = 11;

/** Run the child until it announces `slices` slice starts plus a random delay, then SIGKILL it. */
function runAndKill(path: string, slices: number, delayMs: number): Promise<'done' | 'killed'> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, path, String(BLOCKS), String(FORK_EVERY)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let seen = 0;
    let done = false;
    child.stdout.on('data', (d: Buffer) => {
      const text = d.toString();
      seen += text.split('slice\n').length - 1;
      if (text.includes('done')) done = true;
      if (seen >= slices && !child.killed) setTimeout(() => child.kill('SIGKILL'), delayMs);
    });
    child.on('exit', (code, signal) => {
      if (done && code === 0) resolve('done');
      else if (signal === 'SIGKILL') resolve('killed');
      else reject(new Error(`sync child failed: code ${code} signal ${signal}`));
    });
  });
}

describe('sync crash safety', function () {
  this.timeout(180_000);

  it('killed with SIGKILL at random points (mid-slice too) and restarted, it ends identical to an uninterrupted run', async () => {
    const reference = await tempStore();
    const dir = mkdtempSync(join(tmpdir(), 'cds-crash-'));
    try {
      await syncAll(reference.store, memoryChain(buildChain({ blocks: BLOCKS, forkEvery: FORK_EVERY }).events), 3);
      const expected = await chainDigest(reference.store);

      let seed = 12345;
      const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      let kills = 0;
      for (let round = 0; round < 40; round++) {
        const outcome = await runAndKill(dir, 1 + Math.floor(rand() * 8), Math.floor(rand() * 15));
        if (outcome === 'done') break;
        kills++;
      }
      assert.ok(kills >= 3, `the sync was interrupted ${kills} times`);
      // Finish whatever is left, then compare.
      assert.equal(await runAndKill(dir, Number.MAX_SAFE_INTEGER, 0), 'done');
      const store = await openEmbeddedStore({ path: dir });
      try {
        const got = await chainDigest(store);
        assert.deepEqual(got.counts, expected.counts);
        assert.equal(got.at, expected.at);
        assert.equal(got.digest, expected.digest);
      } finally {
        await store.close();
      }
    } finally {
      await reference.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
