/**
 * The embedded store on a full disk (a file size limit stands in for it: lmdb's commit fails the same way, 'Input/output
 * error'): a write whose commit fails is rejected to its caller with the cause, the batches before it stay whole and
 * readable, and the process goes on. The failed commit also rejected promises lmdb hands to no caller; unhandled, they
 * ended the process (the embedded worker crashed at each start until npm start gave up, its API with it).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CHILD = new URL('./disk-full-child.ts', import.meta.url).pathname;

describe('the embedded store on a full disk', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'cds-disk-full-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('rejects the write that does not fit, naming the cause; the process and the written batches go on', () => {
    // 4 MiB per file (ulimit -f counts KiB); Node ignores SIGXFSZ, so a write past it fails (EFBIG) as on a full disk.
    const r = spawnSync(
      'bash',
      ['-c', 'ulimit -f 4096 && exec "$0" --import tsx "$1" "$2"', process.execPath, CHILD, join(dir, 'store')],
      { encoding: 'utf8', timeout: 50_000 },
    );
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
    const seen = JSON.parse(r.stdout.trim().split('\n').at(-1) as string) as {
      written: number;
      error: string;
      stored: number;
      lastStored: boolean;
    };
    assert.ok(seen.written > 2, JSON.stringify(seen));
    assert.match(seen.error, /^Error: lmdb commit failed: /);
    // All or nothing: every batch written before the failure, none of the failed one.
    assert.equal(seen.stored, seen.written * 200);
    assert.ok(seen.lastStored);
  });
});
