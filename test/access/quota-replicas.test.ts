import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedStore } from '../../mongo/adapters/embedded.js';
import type { Store } from '../../mongo/store.js';
import { DailyQuota } from '../../api/access/quota.js';

/** Two API replicas' daily quotas over one store, each flushing when the test says (the 1 s timer is not started). */
describe('access: a daily quota shared by two replicas', function () {
  let dir: string;
  let store: Store;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'access-quota-replicas-'));
    store = await openEmbeddedStore({ path: join(dir, 'store') });
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a replica idle for a while counts the other replica's requests made meanwhile", async () => {
    let t = Date.parse('2026-03-10T08:00:00Z');
    const a = new DailyQuota(store, () => t);
    const b = new DailyQuota(store, () => t);
    const limit = 10;
    const key = 'hash-of-a-key';
    // Replica B serves the key once, then nothing more for 30 s.
    assert.equal((await b.take(key, limit)).remaining, 9);
    await b.flush();
    // Meanwhile replica A serves it 6 times (each flush writes its count, as the timer does every second).
    for (let i = 0; i < 6; i++) {
      t += 1_000;
      await a.take(key, limit);
      await a.flush();
      await b.flush();
    }
    t += 30_000;
    // 7 requests were served today in all: B's next request leaves 2, whatever B read before its idle spell.
    assert.deepEqual(await b.take(key, limit), { allowed: true, remaining: 2, retryAfter: 0 });
    assert.equal((await b.take(key, limit)).remaining, 1);
    assert.equal((await b.take(key, limit)).remaining, 0);
    assert.equal((await b.take(key, limit)).allowed, false);
    await a.close();
    await b.close();
  });
});
