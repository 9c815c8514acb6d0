/** The access layer mounted by the real app factory (api/app.ts), in front of the real /api/v1 routes. */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAccess, type Access } from '../../api/access/index.js';
import { createApp } from '../../api/app.js';
import { openMemoryStore } from '../../mongo/adapters/embedded.js';
import type { Store } from '../../mongo/store.js';
import { burst, captureLog, request, statuses, testConfig } from './helpers.js';

describe('access: mounted by createApp', function () {
  let store: Store;
  let access: Access;
  let server: http.Server;
  let url: string;

  before(async () => {
    store = await openMemoryStore();
    const config = testConfig({ RATE_LIMIT_ANON_PER_MIN: '4' });
    const { log } = captureLog();
    access = await createAccess({ store, config, log });
    server = http.createServer(createApp({ store, config, log, access }).callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await access.close();
    await store.close();
  });

  it('limits anonymous REST calls, serves keyed ones with the headers, refuses bad keys, serves the account page', async () => {
    // A bad key is refused (and spends one of the IP's 4 anonymous calls).
    const bad = await request(`${url}/api/v1/openapi.json`, { headers: { authorization: 'Bearer cds_wrong' } });
    assert.equal(bad.status, 401);
    assert.deepEqual(Object.keys(bad.body as object), ['error']);
    const anon = await burst(5, () => request(`${url}/api/v1/openapi.json`));
    assert.deepEqual(statuses(anon), { 200: 3, 429: 2 });
    const limited = anon.find((a) => a.status === 429)!;
    assert.deepEqual(Object.keys(limited.body as object).sort(), ['docs', 'error', 'hint', 'retryAfter']);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);

    const { key } = await access.registry.create('stake1uxapp', 'app');
    const keyed = await request(`${url}/api/v1/openapi.json`, {
      headers: { 'x-api-key': key, origin: 'https://x.example' },
    });
    assert.equal(keyed.status, 200);
    assert.equal(keyed.headers.get('x-ratelimit-limit'), '120');
    assert.equal(keyed.headers.get('x-daily-remaining'), '9999');
    assert.match(keyed.headers.get('access-control-expose-headers') ?? '', /X-Daily-Remaining/);

    // The logo route is outside the limits even when the IP's allowance is spent.
    const logo = await request(`${url}/api/v1/assets/abc/logo`);
    assert.notEqual(logo.status, 429);
    assert.equal((await fetch(`${url}/account`)).status, 200);
  });
});
