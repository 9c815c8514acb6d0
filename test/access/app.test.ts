/** The access layer mounted by the real app factory (api/app.ts), in front of the real /api/v1 routes. */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAccess, type Access } from '../../api/access/index.js';
import { createApp } from '../../api/app.js';
import { openMemoryStore } from '../../mongo/adapters/embedded.js';
import type { Store } from '../../mongo/store.js';
import { burst, captureLog, request, statuses, testConfig } from './helpers.js';

/** A well-formed unit no token in this store has (no logo). */
const UNIT = `${'ab'.repeat(28)}4c4f474f`;

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
    // A bad key is refused, and is not charged to the IP's 4 anonymous calls.
    const bad = await request(`${url}/api/v1/openapi.json`, { headers: { authorization: 'Bearer cds_wrong' } });
    assert.equal(bad.status, 401);
    assert.deepEqual(Object.keys(bad.body as object), ['error']);
    assert.equal(bad.headers.get('x-ratelimit-remaining'), null);
    const anon = await burst(5, () => request(`${url}/api/v1/openapi.json`));
    assert.deepEqual(statuses(anon), { 200: 4, 429: 1 });
    const limited = anon.find((a) => a.status === 429)!;
    assert.deepEqual(Object.keys(limited.body as object).sort(), ['docs', 'error', 'hint', 'retryAfter']);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.match(limited.headers.get('x-ratelimit-reset') ?? '', /^[0-9]+$/);
    // The 429's docs link points at the docs page's section that documents the limits.
    const docs = new URL((limited.body as { docs: string }).docs);
    assert.equal(docs.hash, '#limits');
    const page = await (await fetch(`${url}${docs.pathname}`)).text();
    assert.match(page, /<h2 id="limits">Limits<\/h2>[\s\S]*429[\s\S]*Retry-After/);

    // With the anonymous allowance spent, an invalid or a revoked key is still the spec's 401, not 429.
    const revoked = await access.registry.create('stake1uxrevoked', 'revoked');
    await access.registry.revoke(revoked.view.id);
    const refused: Record<string, string>[] = [
      { 'x-api-key': 'cds_wrong' },
      { authorization: `Bearer ${revoked.key}` },
    ];
    for (const headers of refused) {
      const r = await request(`${url}/api/v1/openapi.json`, { headers });
      assert.equal(r.status, 401, JSON.stringify(headers));
      assert.match((r.body as { error: string }).error, /Invalid or revoked API key/);
    }

    const { key } = await access.registry.create('stake1uxapp', 'app');
    const keyed = await request(`${url}/api/v1/openapi.json`, {
      headers: { 'x-api-key': key, origin: 'https://x.example' },
    });
    assert.equal(keyed.status, 200);
    assert.equal(keyed.headers.get('x-ratelimit-limit'), '120');
    assert.equal(keyed.headers.get('x-ratelimit-remaining'), '119');
    assert.equal(keyed.headers.get('x-daily-remaining'), '9999');
    // Whole unix seconds, within the minute window.
    const reset = keyed.headers.get('x-ratelimit-reset') ?? '';
    assert.match(reset, /^[0-9]+$/);
    assert.ok(Number(reset) >= Date.now() / 1000 && Number(reset) <= Date.now() / 1000 + 61, reset);
    assert.match(keyed.headers.get('access-control-expose-headers') ?? '', /X-Daily-Remaining/);

    // The logo route is outside the limits even when the IP's allowance is spent: no token has a logo here (404),
    // `lovelace` is a unit without one (404).
    // The route in the forms the router takes too (any case, a trailing slash): the same route, never limited.
    for (const path of [`${UNIT}/logo`, 'lovelace/logo', `${UNIT}/LOGO`, `${UNIT}/Logo/`]) {
      const logo = await request(`${url}/api/v1/assets/${path}`);
      assert.equal(logo.status, 404, path);
      assert.match((logo.body as { error: string }).error, /logo/i, path);
      assert.equal(logo.headers.get('x-ratelimit-limit'), null, path);
    }
    assert.equal((await fetch(`${url}/account`)).status, 200);
  });

  it('checks a key sent to the logo route (401 when invalid, its limit headers when valid) without counting it', async () => {
    const { key } = await access.registry.create('stake1uxlogo', 'logo');
    const invalid = await request(`${url}/api/v1/assets/${UNIT}/logo`, { headers: { 'x-api-key': 'cds_nope' } });
    assert.equal(invalid.status, 401);
    assert.match((invalid.body as { error: string }).error, /Invalid or revoked API key/);
    const first = await request(`${url}/api/v1/openapi.json`, { headers: { 'x-api-key': key } });
    assert.equal(first.headers.get('x-ratelimit-remaining'), '119');
    const logos = await burst(130, () =>
      request(`${url}/api/v1/assets/${UNIT}/logo`, { headers: { authorization: `Bearer ${key}` } }),
    );
    assert.deepEqual(statuses(logos), { 404: 130 });
    for (const l of logos) {
      assert.equal(l.headers.get('x-ratelimit-limit'), '120');
      assert.equal(l.headers.get('x-ratelimit-remaining'), '119');
      assert.equal(l.headers.get('x-ratelimit-reset'), first.headers.get('x-ratelimit-reset'));
      assert.equal(l.headers.get('x-daily-remaining'), '9999');
    }
    // 130 logos later the key's minute and day are as the one counted call left them.
    const second = await request(`${url}/api/v1/openapi.json`, { headers: { 'x-api-key': key } });
    assert.equal(second.headers.get('x-ratelimit-remaining'), '118');
    assert.equal(second.headers.get('x-daily-remaining'), '9998');
  });

  it("never lets a shared cache keep a key's limit headers: a public answer is private to a keyed caller", async () => {
    // openapi.json and the indexes are kept by shared caches for 5 minutes, headers and all (RFC 9111 3.5 stores even
    // an Authorization request's answer when it says public): answered to a key, they carry its minute and day.
    const { key } = await access.registry.create('stake1uxcache', 'cache');
    for (const path of ['/api/v1/openapi.json', '/api/v1', '/api/md']) {
      for (const headers of <Record<string, string>[]>[{ 'x-api-key': key }, { authorization: `Bearer ${key}` }]) {
        const keyed = await request(`${url}${path}`, { headers });
        assert.equal(keyed.status, 200, path);
        assert.ok(keyed.headers.get('x-daily-remaining'), path);
        assert.equal(keyed.headers.get('cache-control'), 'private, max-age=300', path);
      }
    }
  });

  it("never lets a shared cache keep a key's day on a data answer: a keyed answer is private, its 304 too", async () => {
    // A data answer says no-cache: a shared cache keeps it and revalidates it for the next caller. That caller's 304
    // replaces only the headers it carries (RFC 9111 4.3.4), and an anonymous 304 has no X-Daily-Remaining: the key's
    // day stayed on the kept answer, served to everyone after it.
    const { key } = await access.registry.create('stake1uxdata', 'data');
    const keyed = await request(`${url}/api/v1/news`, { headers: { 'x-api-key': key } });
    assert.equal(keyed.status, 200);
    assert.ok(keyed.headers.get('x-daily-remaining'));
    assert.equal(keyed.headers.get('cache-control'), 'private, no-cache');
    const etag = keyed.headers.get('etag') ?? '';
    assert.ok(etag);
    // node:http: undici's fetch adds `Cache-Control: no-cache` to a conditional request, which defeats the 304.
    const revalidated = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http
        .get(`${url}/api/v1/news`, { headers: { 'x-api-key': key, 'if-none-match': etag } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res));
        })
        .on('error', reject),
    );
    assert.equal(revalidated.statusCode, 304);
    assert.equal(revalidated.headers['cache-control'], 'private, no-cache');
    // The anonymous answer (no key's headers on it) stays shareable: revalidated before each use.
    const server2 = http.createServer(createApp({ store, config: testConfig(), log: captureLog().log }).callback());
    await new Promise<void>((resolve) => server2.listen(0, '127.0.0.1', resolve));
    try {
      const anon = await fetch(`http://127.0.0.1:${(server2.address() as AddressInfo).port}/api/v1/news`);
      assert.equal(anon.status, 200);
      assert.equal(anon.headers.get('cache-control'), 'no-cache');
    } finally {
      server2.closeAllConnections();
      await new Promise((resolve) => server2.close(resolve));
    }
  });

  it('limits failed keys per IP on their own budget: 401 until it is spent, then 429', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 6; i++)
      answers.push((await request(`${url}/api/md/x`, { headers: { 'x-api-key': `cds_guess${i}` } })).status);
    // 4 failed keys a minute (RATE_LIMIT_ANON_PER_MIN here); the earlier tests' failures came from the same IP.
    assert.deepEqual(answers.slice(-2), [429, 429]);
    const tooMany = await request(`${url}/api/v1/openapi.json`, { headers: { 'x-api-key': 'cds_guess' } });
    assert.equal(tooMany.status, 429);
    assert.match((tooMany.body as { error: string }).error, /Too many invalid or revoked API keys from this IP/);
  });

  it('gives the account API no CORS at all (no preflight grant, no allow-origin)', async () => {
    const preflight = await fetch(`${url}/account/api/nonce`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    assert.equal(preflight.headers.get('access-control-allow-origin'), null);
    assert.equal(preflight.headers.get('access-control-allow-methods'), null);
    const page = await fetch(`${url}/account`, { headers: { Origin: 'https://evil.example' } });
    assert.equal(page.headers.get('access-control-allow-origin'), null);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
  });
});
