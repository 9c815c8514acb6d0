/**
 * `npm run mongo:indexes` as a self-hoster runs it before the first start (README "Running against real
 * infrastructure"): it lists every collection of the store once, with its indexes. It listed wallet_lots,
 * wallet_pnl_points and ada_usd_now twice (declared by the market sync's collections and again as the PnL
 * collections), creating their indexes twice at every start, and a resync cleared them twice. A collection is one
 * name: the listing (and the resync's list) holds each name once.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RESYNC_CLEARS } from '../../activities/sync/reset.js';

describe('npm run mongo:indexes', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'cds-indexes-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('lists each collection once, with its indexes', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/mongo-indexes.ts'], {
      env: { ...process.env, MONGODB_URI: '', DATA_DIR: dir, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.equal(lines[0], `indexes of embedded store in ${dir}:`);
    const names = lines.slice(1).flatMap((l) => /^ {2}([a-z_]+): /.exec(l)?.[1] ?? []);
    assert.ok(names.includes('wallet_lots') && names.includes('blocks'), r.stdout);
    const twice = names.filter((n, i) => names.indexOf(n) !== i);
    assert.deepEqual(twice, [], 'listed more than once');
  });

  it('a resync clears each collection once', () => {
    const twice = RESYNC_CLEARS.filter((n, i) => RESYNC_CLEARS.indexOf(n) !== i);
    assert.deepEqual(twice, []);
  });
});
