/**
 * Two API replicas sharing per-minute counters through a real redis-server (koa-ratelimit's redis driver over
 * ioredis). Starts its own server on a free loopback port; skips visibly when redis-server is not installed
 * (.ci/install-system-deps.sh installs it in CI).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { createAccess } from '../../api/access/index.js';
import { redisClient } from '../../api/access/shared-counters.js';
import { createApp } from '../../api/app.js';
import { openMemoryStore } from '../../mongo/adapters/embedded.js';
import { MemoryStore } from './memory-store.js';
import { burst, captureLog, request, startTestApp, statuses, testConfig, TestWallet } from './helpers.js';
import { freePort } from '../free-port.js';

const hasRedis = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).status === 0;

async function waitForPing(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    r.on('error', () => {}); // refused while the server starts; connect() rejects too
    try {
      await r.connect();
      if ((await r.ping()) === 'PONG') return;
    } catch {
      // not up yet
    } finally {
      r.disconnect();
    }
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('redis-server did not start');
}

describe('access: shared limits across replicas (redis)', function () {
  let server: ChildProcess | null = null;
  let url = '';
  const clients: Redis[] = [];
  const apps: Awaited<ReturnType<typeof startTestApp>>[] = [];

  before(async function () {
    if (!hasRedis) {
      console.log('skipped: redis-server not installed');
      this.skip();
    }
    const port = await freePort();
    server = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    url = `redis://127.0.0.1:${port}`;
    await waitForPing(url);
  });
  afterEach(async () => {
    for (const a of apps.splice(0)) await a.close();
    for (const c of clients.splice(0)) await c.quit();
  });
  after(async () => {
    if (!server) return;
    const exited = new Promise((res) => server!.once('exit', res));
    server.kill('SIGTERM');
    await exited;
  });

  async function twoReplicas(env: Record<string, string>) {
    const store = new MemoryStore(); // the shared database of both replicas
    const config = testConfig({ REDIS_URL: url, ...env });
    for (let i = 0; i < 2; i++) {
      const redis = new Redis(url);
      clients.push(redis);
      apps.push(await startTestApp(store, config, { redis }));
    }
    await clients[0]!.flushall();
    return apps;
  }

  it('lets exactly N of N+k requests through across two instances, per IP and per key', async () => {
    const [a, b] = await twoReplicas({
      RATE_LIMIT_ANON_PER_MIN: '6',
      PLAN_LIMITS: 'free=5/1000,plus=10/1000,pro=20/1000',
    });
    const anon = await burst(10, (i) => request(`${(i % 2 ? a : b)!.url}/api/v1/ping`));
    assert.deepEqual(statuses(anon), { 200: 6, 429: 4 });
    const limited = anon.find((x) => x.status === 429)!;
    const retryAfter = Number(limited.headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 61, `Retry-After ${retryAfter}`);
    assert.equal((limited.body as { retryAfter: number }).retryAfter, retryAfter);

    const { key } = await a!.access.registry.create('stake1uxredis', 'shared');
    const keyed = await burst(9, (i) =>
      request(`${(i % 2 ? a : b)!.url}/api/v1/ping`, { headers: { 'x-api-key': key } }),
    );
    assert.deepEqual(statuses(keyed), { 200: 5, 429: 4 });
    for (const x of keyed) assert.equal(x.headers.get('x-ratelimit-limit'), '5');
  });

  it('shows a key its shared window on the logo without spending it; the reset is whole unix seconds', async () => {
    const [a, b] = await twoReplicas({ PLAN_LIMITS: 'free=5/1000,plus=10/1000,pro=20/1000' });
    const { key } = await a!.access.registry.create('stake1uxredislogo', 'logo');
    const headers = { 'x-api-key': key };
    const counted = await request(`${a!.url}/api/v1/ping`, { headers });
    assert.equal(counted.headers.get('x-ratelimit-remaining'), '4');
    const reset = counted.headers.get('x-ratelimit-reset') ?? '';
    assert.match(reset, /^[0-9]+$/);
    const logos = await burst(8, (i) => request(`${(i % 2 ? a : b)!.url}/api/v1/assets/abc/logo`, { headers }));
    assert.deepEqual(statuses(logos), { 200: 8 });
    for (const l of logos) {
      assert.equal(l.headers.get('x-ratelimit-limit'), '5');
      assert.equal(l.headers.get('x-ratelimit-remaining'), '4');
      assert.match(l.headers.get('x-ratelimit-reset') ?? '', /^[0-9]+$/);
      assert.ok(Math.abs(Number(l.headers.get('x-ratelimit-reset')) - Number(reset)) <= 1);
    }
    const next = await request(`${b!.url}/api/v1/ping`, { headers });
    assert.equal(next.headers.get('x-ratelimit-remaining'), '3', 'the logos spent nothing');
  });

  it('never names a reset before the shared window ends: waiting until X-RateLimit-Reset is not refused again', async () => {
    const [a, b] = await twoReplicas({
      RATE_LIMIT_ANON_PER_MIN: '3',
      PLAN_LIMITS: 'free=5/1000,plus=10/1000,pro=20/1000',
    });
    // When the window really ends, by Redis's own record: the oldest request it counts (ms) plus the minute.
    const windowEnd = async (pattern: string) => {
      const [key] = await clients[0]!.keys(pattern);
      const [, oldest] = await clients[0]!.zrange(key!, '0', '0', 'WITHSCORES');
      return (Number(oldest) + 60_000) / 1000;
    };
    const anon = [];
    for (let i = 0; i < 4; i++) anon.push(await request(`${(i % 2 ? a : b)!.url}/api/v1/ping`));
    assert.deepEqual(
      anon.map((x) => x.status),
      [200, 200, 200, 429],
    );
    const anonEnd = await windowEnd('cds:rl:anon-rest:*');
    for (const x of anon) {
      const reset = Number(x.headers.get('x-ratelimit-reset'));
      assert.ok(Number.isInteger(reset), `whole seconds: ${reset}`);
      // Before: the driver's floored value, up to a second before the window ends (a caller waiting for it met 429).
      assert.ok(reset >= anonEnd, `X-RateLimit-Reset ${reset} is before the window ends at ${anonEnd}`);
      assert.ok(reset - anonEnd < 1.001, `X-RateLimit-Reset ${reset} is within a second of ${anonEnd}`);
    }

    const { key } = await a!.access.registry.create('stake1uxredisreset', 'reset');
    const keyed = await request(`${b!.url}/api/v1/ping`, { headers: { 'x-api-key': key } });
    const logo = await request(`${a!.url}/api/v1/assets/abc/logo`, { headers: { 'x-api-key': key } });
    const keyEnd = await windowEnd('cds:rl:key:*');
    for (const x of [keyed, logo]) {
      const reset = Number(x.headers.get('x-ratelimit-reset'));
      assert.ok(reset >= keyEnd && reset - keyEnd < 1.001, `X-RateLimit-Reset ${reset}, window ends ${keyEnd}`);
    }
  });

  it('accepts a signed nonce once across both instances', async () => {
    const [a, b] = await twoReplicas({});
    const wallet = new TestWallet();
    const n = (await request(`${a!.url}/account/api/nonce`, { method: 'POST', body: { address: wallet.address } }))
      .body as { payload: string };
    const signed = { address: wallet.address, ...wallet.signData(wallet.address, n.payload) };
    const both = await Promise.all(
      [a!, b!].map((x) => request(`${x.url}/account/api/session`, { method: 'POST', body: signed })),
    );
    assert.deepEqual(both.map((x) => x.status).sort(), [200, 401]);
  });
});

describe('access: Redis stops and comes back while two replicas serve (REDIS_URL)', function () {
  this.timeout(60_000);
  let server: ChildProcess | null = null;
  let port = 0;
  const start = async () => {
    server = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    await waitForPing(`redis://127.0.0.1:${port}`);
  };
  const stop = async () => {
    const s = server;
    server = null;
    if (!s || s.exitCode !== null) return;
    const exited = new Promise((res) => s.once('exit', res));
    s.kill('SIGKILL'); // as a crash: no goodbye to the clients
    await exited;
  };
  before(async function () {
    if (!hasRedis) {
      console.log('skipped: redis-server not installed');
      this.skip();
    }
    port = await freePort();
    await start();
  });
  after(stop);

  it('answers at once while Redis is down, each replica counting alone, and shares the counters again after', async () => {
    const url = `redis://127.0.0.1:${port}`;
    const config = testConfig({ REDIS_URL: url, RATE_LIMIT_ANON_PER_MIN: '6' });
    const store = new MemoryStore();
    const clients = [new Redis(url), new Redis(url)];
    const captured = captureLog();
    const apps = [
      await startTestApp(store, config, { redis: clients[0]!, log: captured.log }),
      await startTestApp(store, config, { redis: clients[1]!, log: captured.log }),
    ];
    const [a, b] = apps;
    const ready = async () => {
      for (let i = 0; i < 200 && clients.some((c) => c.status !== 'ready'); i++)
        await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(
        clients.map((c) => c.status),
        ['ready', 'ready'],
      );
    };
    try {
      await ready();
      await clients[0]!.flushall();
      const shared = await burst(10, (i) => request(`${(i % 2 ? a : b)!.url}/api/v1/ping`));
      assert.deepEqual(statuses(shared), { 200: 6, 429: 4 }, 'one window across both replicas');

      await stop();
      for (let i = 0; i < 100 && clients.some((c) => c.status === 'ready'); i++)
        await new Promise((r) => setTimeout(r, 20));
      const t0 = performance.now();
      const alone = await Promise.all(
        [a!, b!].map((x) => burst(8, () => request(`${x.url}/api/v1/ping`)).then(statuses)),
      );
      const ms = performance.now() - t0;
      // Before: every request waited for the client to give up (10-15 s in production) and was a 500.
      assert.deepEqual(alone, [
        { 200: 6, 429: 2 },
        { 200: 6, 429: 2 },
      ]);
      assert.ok(ms < 2_000, `16 requests answered in ${Math.round(ms)} ms`);
      assert.ok(
        captured.lines.some((l) => /redis does not answer: per-minute limits count in this process/.test(l)),
        'the fallback is logged',
      );

      await start();
      await ready();
      await clients[0]!.flushall();
      const again = await burst(10, (i) => request(`${(i % 2 ? a : b)!.url}/api/v1/ping`));
      assert.deepEqual(statuses(again), { 200: 6, 429: 4 }, 'shared again');
      assert.ok(captured.lines.some((l) => /redis answers again/.test(l)));
    } finally {
      for (const x of apps) await x.close();
      for (const c of clients) c.disconnect();
    }
  });

  it('counts in each replica at once, and says so, when Redis stops answering on an open connection; shares again after', async () => {
    const url = `redis://127.0.0.1:${port}`;
    const config = testConfig({ REDIS_URL: url, RATE_LIMIT_ANON_PER_MIN: '6' });
    const store = new MemoryStore();
    // The client the service opens for REDIS_URL (a command unanswered for 1 s counts as no answer).
    const clients = [redisClient(url), redisClient(url)];
    const captured = captureLog();
    const apps = [
      await startTestApp(store, config, { redis: clients[0]!, log: captured.log }),
      await startTestApp(store, config, { redis: clients[1]!, log: captured.log }),
    ];
    const [a, b] = apps;
    const logged = (re: RegExp) => captured.lines.filter((l) => re.test(l)).length;
    const frozen = server!;
    try {
      for (let i = 0; i < 200 && clients.some((c) => c.status !== 'ready'); i++)
        await new Promise((r) => setTimeout(r, 50));
      await clients[0]!.flushall();
      const shared = await burst(10, (i) => request(`${(i % 2 ? a : b)!.url}/api/v1/ping`));
      assert.deepEqual(statuses(shared), { 200: 6, 429: 4 }, 'one window across both replicas');

      // A frozen Redis (as a host whose packets are dropped): the connection stays open, commands go unanswered.
      frozen.kill('SIGSTOP');
      const t0 = performance.now();
      const alone = await Promise.all(
        [a!, b!].map(async (x) => {
          const answers = [];
          for (let i = 0; i < 8; i++) answers.push(await request(`${x.url}/api/v1/ping`));
          return statuses(answers);
        }),
      );
      const ms = performance.now() - t0;
      assert.deepEqual(alone, [
        { 200: 6, 429: 2 },
        { 200: 6, 429: 2 },
      ]);
      // Before: every one of the 8 requests of a replica waited for its command to time out (1 s each, 8 s), and
      // nothing was logged. Now the first one waits, the others count in the replica at once.
      assert.ok(ms < 4_000, `8 requests per replica answered in ${Math.round(ms)} ms`);
      assert.equal(logged(/redis does not answer: per-minute limits count in this process/), 2, 'once per replica');

      frozen.kill('SIGCONT');
      for (let i = 0; i < 100 && logged(/redis answers again/) < 2; i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal(logged(/redis answers again/), 2, 'each replica says it shares the counters again');
      await clients[0]!.flushall();
      const again = await burst(10, (i) => request(`${(i % 2 ? a : b)!.url}/api/v1/ping`));
      assert.deepEqual(statuses(again), { 200: 6, 429: 4 }, 'shared again');
    } finally {
      frozen.kill('SIGCONT');
      for (const x of apps) await x.close();
      for (const c of clients) c.disconnect();
    }
  });

  it('tells operators in /metrics whether Redis shares the counters: 1, 0 while it is down, 1 once it is back', async () => {
    const url = `redis://127.0.0.1:${port}`;
    const config = testConfig({ REDIS_URL: url });
    const store = await openMemoryStore();
    const redis = redisClient(url);
    const { log } = captureLog();
    const access = await createAccess({ store, config, log, redis });
    const api = http.createServer(createApp({ store, config, log, access }).callback());
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    const scrape = async () => {
      const text = (await request(`http://127.0.0.1:${(api.address() as AddressInfo).port}/metrics`)).text;
      return /^cardano_rate_limit_counters_shared (\d+)$/m.exec(text)?.[1] ?? 'no sample';
    };
    const until = async (want: string) => {
      for (let i = 0; i < 100 && (await scrape()) !== want; i++) await new Promise((r) => setTimeout(r, 100));
      return scrape();
    };
    try {
      assert.equal(await until('1'), '1', 'shared while Redis answers');
      await stop();
      assert.equal(await until('0'), '0', 'each replica counts alone while Redis is down');
      await start();
      assert.equal(await until('1'), '1', 'shared again');
    } finally {
      api.closeAllConnections();
      await new Promise((resolve) => api.close(resolve));
      await access.close();
      redis.disconnect();
      await store.close();
      if (!server) await start(); // the next test needs Redis
    }
  });

  it('signs a wallet in at once while Redis is down, the nonce still single-use', async () => {
    const url = `redis://127.0.0.1:${port}`;
    const store = new MemoryStore();
    const redis = new Redis(url);
    const app = await startTestApp(store, testConfig({ REDIS_URL: url }), { redis });
    try {
      for (let i = 0; i < 200 && redis.status !== 'ready'; i++) await new Promise((r) => setTimeout(r, 50));
      await stop();
      for (let i = 0; i < 100 && redis.status === 'ready'; i++) await new Promise((r) => setTimeout(r, 20));
      assert.notEqual(redis.status, 'ready');
      const wallet = new TestWallet();
      const t0 = performance.now();
      const n = await request(`${app.url}/account/api/nonce`, { method: 'POST', body: { address: wallet.address } });
      assert.equal(n.status, 200, JSON.stringify(n.body));
      const signed = {
        address: wallet.address,
        ...wallet.signData(wallet.address, (n.body as { payload: string }).payload),
      };
      const session = await request(`${app.url}/account/api/session`, { method: 'POST', body: signed });
      // Before: the nonce's Redis claim failed and the sign-in was a 500.
      assert.equal(session.status, 200, JSON.stringify(session.body));
      assert.match(session.headers.get('set-cookie') ?? '', /^cds_session=cdss_/);
      assert.ok(performance.now() - t0 < 2_000, 'answered at once');
      const replay = await request(`${app.url}/account/api/session`, { method: 'POST', body: signed });
      assert.equal(replay.status, 401);
      assert.match((replay.body as { error: string }).error, /already used nonce/);
    } finally {
      await app.close();
      redis.disconnect();
      await start();
    }
  });
});
