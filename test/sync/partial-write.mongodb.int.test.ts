/**
 * The partial-slice retry of partial-write.test.ts on a real MongoDB-wire server (MONGODB_URI; CI runs it on
 * FerretDB), where a write batch really is applied statement by statement: the retried sync ends with the same
 * chain digest as an uninterrupted sync into the embedded store.
 */
import { mongoUri, tempMongoStore } from '../mongo/temp-db.js';
import { tempStore } from './helpers.js';
import { partialSliceRetried } from './partial-write.js';

describe('sync: a slice whose write fails part-way (MONGODB_URI)', function () {
  this.timeout(300_000);
  before(function () {
    if (!mongoUri) {
      console.log('    skipped: partial-slice retry on MongoDB (set MONGODB_URI to run it)');
      this.skip();
    }
  });

  it('write #3 half-applied on MongoDB, then retried: the digest equals the embedded store synced in one go', async () => {
    const clean = await tempStore();
    const broken = await tempMongoStore('partial');
    try {
      await partialSliceRetried(clean.store, broken.store, 3);
    } finally {
      await clean.cleanup();
      await broken.cleanup();
    }
  });
});
