/**
 * The Markdown surface carries its own anonymous limit and accepts keys like REST (spec: Limits 1, Authentication 2),
 * through the app's real middleware order (api/app.ts mounts the access layer's `md` middleware for /api/md).
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createAccess, type Access } from '../../api/access/index.js';
import { createApp } from '../../api/app.js';
import { loadConfig } from '../../config/index.js';
import { MemoryStore } from '../access/memory-store.js';

describe('Markdown surface: its own anonymous limit, keys accepted', () => {
  let server: Server;
  let access: Access;
  let url = '';
  before(async () => {
    const store = new MemoryStore();
    const config = loadConfig({ RATE_LIMIT_ANON_PER_MIN: '3', SITE_URL: 'http://md.test' });
    access = await createAccess({ store, config, log: pino({ level: 'silent' }) });
    server = createServer(createApp({ store, config, log: pino({ level: 'silent' }), access }).callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await access.close();
  });

  it('counts Markdown requests apart from REST, answers 429 with Retry-After, and honours an API key', async () => {
    const md = async (headers: Record<string, string> = {}) => fetch(`${url}/api/md/tokens?limit=2`, { headers });
    const bad = await md({ 'x-api-key': 'cds_not-a-real-key-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' });
    assert.equal(bad.status, 401, 'an unknown key is refused');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await md()).status);
    // 3 a minute: the 4th anonymous request at the latest is refused (the refused-key request may have counted).
    const first429 = statuses.indexOf(429);
    assert.ok(first429 >= 2 && first429 <= 3, `statuses ${statuses.join(',')}`);
    assert.ok(statuses.slice(first429).every((x) => x === 429));
    const over = await md();
    assert.ok(Number(over.headers.get('retry-after')) > 0);
    const body = (await over.json()) as { docs: string };
    console.log(`      429 docs link today: ${body.docs}`);

    // REST has its own anonymous counter: still open.
    assert.notEqual((await fetch(`${url}/api/v1/market/overview`)).status, 429);

    const { key } = await access.registry.create('stake1uxtestaccount', 'md key');
    const keyHeaders: Record<string, string>[] = [{ 'x-api-key': key }, { authorization: `Bearer ${key}` }];
    for (const header of keyHeaders) {
      const keyed = await md(header);
      assert.equal(keyed.status, 200, JSON.stringify(header));
      assert.equal(keyed.headers.get('content-type'), 'text/markdown; charset=utf-8');
      assert.equal(keyed.headers.get('x-ratelimit-limit'), '120');
    }

    // Nor token rankings: the list is not said to be empty ("Top 0 of 0 tokens") but not computed yet.
    const list = await (await md({ 'x-api-key': key })).text();
    assert.match(list, /token rankings are not computed yet \(the market recompute runs every 20 s\); retry shortly/);
    assert.doesNotMatch(list, /Top 0 of 0/);

    // An empty store has no market overview yet: the read layer's 503 comes back with its Retry-After, as Markdown
    // to a client asking for Markdown, else as the spec's { error }.
    const early = await fetch(`${url}/api/md/market`, { headers: { 'x-api-key': key, accept: 'text/markdown' } });
    assert.equal(early.status, 503);
    assert.equal(early.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.ok(Number(early.headers.get('retry-after')) > 0);
    assert.match(await early.text(), /^# Not ready yet \(HTTP 503\)\n\n\S/);
    const plain = await fetch(`${url}/api/md/market`, { headers: { 'x-api-key': key } });
    assert.equal(plain.status, 503);
    assert.ok(Number(plain.headers.get('retry-after')) > 0);
    assert.match(((await plain.json()) as { error: string }).error, /\S/);
  });
});
