/**
 * A TEMPORAL_ADDRESS that does not answer, as an operator meets it: `npm run worker` and `npm run schedules:apply`
 * stop with exit code 1 and one line naming the address and the reason, no stack trace (the worker printed
 * `fatal: TransportError: …` and the Temporal core's stack). `npm run ops -- status` still prints what the store
 * knows (the sync checkpoint) before that line: the sync's state is what the operator looks for when Temporal is down.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../config/index.js';
import { CHECKPOINTS } from '../../mongo/collections/sync-state.js';
import { openStore } from '../../mongo/open.js';
import { put } from '../../mongo/store.js';

describe('a Temporal frontend that cannot be reached', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'cds-temporal-unreachable-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const entryPoints: [string, string, RegExp][] = [
    ['npm run worker', 'temporal/worker.ts', /^TEMPORAL_ADDRESS=127\.0\.0\.1:1: Temporal is unreachable: .*refused/im],
    [
      'npm run schedules:apply',
      'temporal/schedules-apply.ts',
      /^schedules:apply failed: Temporal at 127\.0\.0\.1:1 is unreachable/m,
    ],
  ];
  for (const [what, script, line] of entryPoints)
    it(`${what}: exit 1, one line naming the address and the reason`, () => {
      const r = spawnSync(process.execPath, ['--import', 'tsx', script], {
        env: {
          ...process.env,
          TEMPORAL_ADDRESS: '127.0.0.1:1',
          MONGODB_URI: '',
          DATA_DIR: dir,
          OGMIOS_URL: 'ws://127.0.0.1:1',
          LOG_LEVEL: 'warn',
        },
        encoding: 'utf8',
        timeout: 90_000,
      });
      const out = `${r.stdout}${r.stderr}`;
      assert.equal(r.status, 1, out);
      assert.match(r.stderr, line, out);
      assert.doesNotMatch(out, /fatal:|^\s+at /m, 'no stack trace');
    });

  it("npm run ops -- status: the store's sync checkpoint, then one line naming the address; exit 1", async () => {
    // An embedded store with a checkpoint at height 42 (ops never creates a store: it must exist).
    const store = await openStore(loadConfig({ DATA_DIR: dir, MONGODB_URI: '' }));
    await store.ensureIndexes([CHECKPOINTS]);
    const point = { slot: 420, id: 'cd'.repeat(32), height: 42 };
    await store.write([
      put(CHECKPOINTS, { _id: 'sync', ...point, points: [point], tip: point, updatedAt: new Date().toISOString() }),
    ]);
    await store.close();
    for (const args of [['status'], ['runs']]) {
      const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/ops.ts', ...args], {
        env: { ...process.env, TEMPORAL_ADDRESS: '127.0.0.1:1', MONGODB_URI: '', DATA_DIR: dir, LOG_LEVEL: 'warn' },
        encoding: 'utf8',
        timeout: 90_000,
      });
      const out = `${r.stdout}${r.stderr}`;
      assert.equal(r.status, 1, out);
      assert.equal(r.stderr.trim().split('\n').length, 1, out);
      assert.match(r.stderr, /^Temporal at 127\.0\.0\.1:1 is unreachable: /, out);
      assert.doesNotMatch(out, /fatal:|^\s+at /m, 'no stack trace');
      if (args[0] === 'status') {
        assert.match(r.stdout, /^store: embedded$/m, out);
        assert.match(r.stdout, /^sync: height 42, slot 420\b/m, out);
      } else assert.equal(r.stdout, '', out);
    }
  });
});
