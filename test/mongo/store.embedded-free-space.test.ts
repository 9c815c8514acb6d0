/**
 * The embedded store keeps free space on its disk: a full disk corrupts lmdb's store for every other process (its
 * commit fails, the writer goes on with record structures it failed to store, and the API, `ops` and the next start
 * read no document at all; seen on a 40 MB tmpfs under `npm start`). A write that would go below the reserve is
 * refused before lmdb sees it, with a message naming the disk, and what was written stays readable.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIN_FREE_BYTES, openEmbeddedStore, StoreDiskFullError } from '../../mongo/adapters/embedded.js';
import { defineCollection, put } from '../../mongo/store.js';

const NOTES = defineCollection<{ _id: string; n: number }>({ name: 'notes' });
const STATUS = defineCollection<{ _id: string; error: string }>({ name: 'status' });

describe('the embedded store keeps free space on its disk', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'cds-free-space-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a write (and a clear) while the disk has less free than the reserve; what was written stays', async () => {
    const path = join(dir, 'store');
    const fs = statfsSync(tmpdir());
    const free = fs.bavail * fs.bsize;
    // A disk with room: the default reserve (128 MB) is kept, and writes go through.
    if (free > 2 * MIN_FREE_BYTES) {
      const store = await openEmbeddedStore({ path });
      await store.ensureIndexes([NOTES]);
      await store.write([put(NOTES, { _id: 'a', n: 1 })]);
      await store.close();
    }
    // The same disk with a reserve just above its free space: as a nearly full disk looks to the store.
    const store = await openEmbeddedStore({ path, minFreeBytes: free + 1024 ** 2, unguarded: [STATUS.name] });
    try {
      await store.ensureIndexes([STATUS]);
      const before = await store.collection(NOTES).get('a');
      await assert.rejects(store.write([put(NOTES, { _id: 'b', n: 2 })]), (e: Error) => {
        assert.ok(e instanceof StoreDiskFullError, String(e));
        assert.ok(e.message.includes(`the disk holding the store (${path}) has `), e.message);
        assert.match(e.message, /MB free, under the \d+ MB the store keeps free .*nothing was written/);
        return true;
      });
      await assert.rejects(store.clear([NOTES.name]), StoreDiskFullError);
      // The status record that says why is still written (down to a quarter of the reserve), alone in its batch.
      await store.write([put(STATUS, { _id: 'sync', error: 'disk full' })]);
      assert.equal((await store.collection(STATUS).get('sync'))?.error, 'disk full');
      await assert.rejects(
        store.write([put(STATUS, { _id: 'sync', error: 'x' }), put(NOTES, { _id: 'c', n: 3 })]),
        StoreDiskFullError,
      );
      assert.equal(await store.collection(NOTES).get('b'), null);
      assert.deepEqual(await store.collection(NOTES).get('a'), before);
    } finally {
      await store.close();
    }
  });
});
