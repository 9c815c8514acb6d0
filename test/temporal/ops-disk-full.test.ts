/**
 * `ops keys create` (and every other command that writes) on a disk the embedded store keeps its reserve on: the
 * store refuses the write, and the operator's line says what did not happen and to run the command again. The
 * store's own "writing resumes by itself" holds for the sync and the recomputes (their runs retry) and was printed
 * for a key nothing ever creates (seen on a 200 MB tmpfs filled to 109 MB free: exit 1, no key, "resumes by itself").
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseKeysArgs, runKeysCommand } from '../../api/access/ops-keys.js';
import { openEmbeddedStore, StoreDiskFullError } from '../../mongo/adapters/embedded.js';
import { ACCESS_COLLECTIONS } from '../../mongo/collections/access.js';
import { diskFullLine } from '../../temporal/ops.js';

const ACCOUNT = 'a'.repeat(56);

describe('ops on a disk under the store reserve', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'cds-ops-disk-full-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('keys create: the line says the key was not created and to run the command again, not that it resumes', async () => {
    const path = join(dir, 'store');
    const setup = await openEmbeddedStore({ path });
    await setup.ensureIndexes([...ACCESS_COLLECTIONS]);
    await setup.close();
    // A reserve just above the disk's free space: how a nearly full disk looks to the store.
    const fs = statfsSync(dir);
    const store = await openEmbeddedStore({ path, minFreeBytes: fs.bavail * fs.bsize + 1024 ** 2 });
    try {
      const argv = ['keys', 'create', ACCOUNT, '--name', 'ci key'];
      const err: unknown = await runKeysCommand(store, parseKeysArgs(argv.slice(1))).then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(err instanceof StoreDiskFullError, String(err));
      // The oracle: the store holds no key for the account afterwards.
      const listed = await runKeysCommand(store, { cmd: 'list', account: ACCOUNT });
      assert.match(listed.join('\n'), /0 key\(s\)/);
      const line = diskFullLine(argv, err.detail);
      assert.match(line, /^the key was not created: the disk holding the store \(.*\) has \d+ MB free/);
      assert.ok(line.includes(`then run \`npm run ops -- keys create ${ACCOUNT} --name 'ci key'\` again`), line);
      assert.doesNotMatch(line, /resumes by itself/);
      assert.equal(line.split('\n').length, 1);
    } finally {
      await store.close();
    }
  });

  it('names what did not happen for each writing command', () => {
    const d = 'the disk holding the store (/d/store) has 100 MB free, under the 128 MB …: nothing was written';
    assert.match(diskFullLine(['keys', 'revoke', 'k1'], d), /^the key was not revoked \(it still works\): /);
    assert.match(diskFullLine(['keys', 'plan', ACCOUNT, 'pro'], d), /^the plan was not changed: /);
    for (const argv of [
      ['retry', 'r:1'],
      ['trigger', 'market'],
      ['resync', '--from', 'origin'],
      ['sync', 'restart'],
    ])
      assert.match(diskFullLine(argv, d), /^no run was queued: .*then run `npm run ops -- .*` again/);
  });
});
