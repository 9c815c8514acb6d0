import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedStore } from '../../mongo/adapters/embedded.js';
import { QUOTAS } from '../../mongo/collections/access.js';
import { request, startTestApp, testConfig } from './helpers.js';

describe('access: daily quota across a restart (embedded store)', function () {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'access-quota-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps counting the same UTC day after the API and its store are closed and reopened', async () => {
    const t = Date.parse('2026-03-10T08:00:00Z');
    const config = testConfig({ PLAN_LIMITS: 'free=100/5,plus=100/50,pro=100/500' });
    const path = join(dir, 'store');
    const call = (url: string, key: string) => request(`${url}/api/v1/ping`, { headers: { 'x-api-key': key } });

    let store = await openEmbeddedStore({ path });
    let app = await startTestApp(store, config, { now: () => t });
    const { key } = await app.access.registry.create('stake1uxrestart', 'restart');
    const first = [];
    for (let i = 0; i < 3; i++) first.push(await call(app.url, key));
    assert.deepEqual(
      first.map((a) => a.headers.get('x-daily-remaining')),
      ['4', '3', '2'],
    );
    await app.close(); // flushes the day's count
    await store.close();

    store = await openEmbeddedStore({ path });
    const docs = await store.collection(QUOTAS).find('byDay', { eq: ['2026-03-10'] });
    assert.deepEqual(
      docs.map((d) => d.count),
      [3],
    );
    app = await startTestApp(store, config, { now: () => t + 3_600_000 });
    const second = [];
    for (let i = 0; i < 3; i++) second.push(await call(app.url, key));
    assert.deepEqual(
      second.map((a) => a.status),
      [200, 200, 429],
    );
    assert.deepEqual(
      second.map((a) => a.headers.get('x-daily-remaining')),
      ['1', '0', '0'],
    );
    await app.close();
    await store.close();
  });
});
