/**
 * `npm run bench:cpu -- floor` as the README shows it (no BENCH_STORE): one fixed small answer from node:http, Koa +
 * @koa/router and the service's whole middleware stack. It printed the first two rows, then the stack's server
 * died with `ENOENT: mkdir ''` (it opened a store at BENCH_STORE, unset) and the bench with `child exited with 1`.
 * The fixed answer reads no store, so the bench takes an empty one of its own. One short run per server.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

describe('npm run bench:cpu -- floor', function () {
  this.timeout(180_000);

  it('measures the three servers without a BENCH_STORE', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, BENCH_SECONDS: '1', BENCH_REPEAT: '1' };
    delete env.BENCH_STORE;
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/cpu.ts', 'floor'], { env, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const rows = r.stdout.split('\n').filter((l) => /^\| (bare|koa|stack) \|/.test(l));
    assert.deepEqual(
      rows.map((l) => l.split('|')[1]!.trim()),
      ['bare', 'koa', 'stack'],
    );
    // Each row: CPU µs per request and req/s, measured (non-zero), and no non-2xx answers noted.
    for (const l of rows) assert.match(l, /^\| \w+ \| \d+\.\d \| [1-9]\d* \|$/, l);
  });
});
