import { partialSliceRetried } from './partial-write.js';
import { tempStore } from './helpers.js';

describe('sync: a slice whose write fails part-way (embedded store)', function () {
  this.timeout(60_000);
  for (const failAt of [2, 4]) {
    it(`write #${failAt} half-applied, then retried: the store equals an uninterrupted sync`, async () => {
      const clean = await tempStore();
      const broken = await tempStore();
      try {
        await partialSliceRetried(clean.store, broken.store, failAt);
      } finally {
        await clean.cleanup();
        await broken.cleanup();
      }
    });
  }
});
