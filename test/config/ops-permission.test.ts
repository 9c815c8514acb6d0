/**
 * `npm run ops` run by a user who may not open the service's store (another user's DATA_DIR, as after `sudo npm
 * start`): exit 1 and one line naming DATA_DIR, not lmdb's bare 'Permission denied: Attempting to setup locks'. The
 * store is made by this (root) process and the command run as `nobody` through setpriv; elsewhere the case is
 * skipped with a line saying so.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedStore } from '../../mongo/adapters/embedded.js';
import { ALL_COLLECTIONS } from '../../mongo/collections/index.js';

const SETPRIV = '/usr/bin/setpriv';
const NOBODY = '65534';
const AS_NOBODY = [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'];
/** A mainnet stake address (a real one, from the recorded block 11322313): `keys create` writes to the store. */
const ACCOUNT = 'stake1uxt4uu2d5l4f7amgv75rauk3stxmx69pwfwmum9vtyjww2g7uhk22';

describe('npm run ops over a store its user may not open', function () {
  this.timeout(120_000);
  let dir = '';
  before(async function () {
    if (process.getuid?.() !== 0 || !existsSync(SETPRIV)) {
      console.log('      skipped: needs root and setpriv to run ops as another user');
      this.skip();
    }
    // The checkout must be readable by that user (a clone under a private home folder is not).
    const reads = spawnSync(SETPRIV, [
      ...AS_NOBODY,
      process.execPath,
      '-e',
      "require('fs').accessSync('scripts/ops.ts')",
    ]);
    if (reads.status !== 0) {
      console.log('      skipped: user nobody cannot read this checkout');
      this.skip();
    }
    dir = mkdtempSync(join(tmpdir(), 'cds-ops-perm-'));
    const store = await openEmbeddedStore({ path: join(dir, 'store') });
    await store.ensureIndexes(ALL_COLLECTIONS);
    await store.close();
    // The folders readable by all, the lock file (which every lmdb reader writes) by its owner only.
    chmodSync(dir, 0o755);
    chmodSync(join(dir, 'store', 'lock.mdb'), 0o600);
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a command that writes (keys create): exit 1 and one line naming DATA_DIR and what to do', () => {
    const r = spawnSync(
      SETPRIV,
      [...AS_NOBODY, process.execPath, '--import', 'tsx', 'scripts/ops.ts', 'keys', 'create', ACCOUNT],
      {
        env: { ...process.env, DATA_DIR: dir, HOME: tmpdir(), TEMPORAL_ADDRESS: '', MONGODB_URI: '' },
        encoding: 'utf8',
        timeout: 90_000,
      },
    );
    const out = `${r.stdout}${r.stderr}`;
    assert.equal(r.status, 1, out);
    assert.deepEqual(r.stderr.trim().split('\n'), [
      `cannot open the store under DATA_DIR=${dir}: Permission denied: Attempting to setup locks (run ops as the user that runs the service)`,
    ]);
  });
});
