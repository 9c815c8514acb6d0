/**
 * A TEMPORAL_ADDRESS that does not answer, as an operator meets it: `npm run worker` and `npm run schedules:apply`
 * stop with exit code 1 and one line naming the address and the reason, no stack trace (the worker printed
 * `fatal: TransportError: …` and the Temporal core's stack).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
});
