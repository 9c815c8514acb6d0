import assert from 'node:assert/strict';
import http from 'node:http';
import type Koa from 'koa';
import { MongoServerSelectionError } from 'mongodb';
import { pino } from 'pino';
import { startApi } from '../../api/server.js';
import { TooManyRequestsError, UnauthorizedError } from '../../api/errors.js';
import type { AccessLayer } from '../../api/deps.js';
import { SYNC_HEALTH, SYNC_HEALTH_ID } from '../../mongo/collections/sync-state.js';
import { put, type Collection, type CollectionSpec, type Store } from '../../mongo/store.js';
import { TIP, seedChain, startTestApi, type TestApi } from './seed.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

/** GET with node:http: undici's fetch adds no-cache headers to conditional requests, which defeats 304. */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; etag?: string; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, etag: res.headers.etag, body }));
      })
      .on('error', reject);
  });
}

/** GET with node:http, answering the status, headers and body length (the body as sent, not decoded). */
function rawGetHeaders(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; length: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let length = 0;
        res.on('data', (c: Buffer) => (length += c.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, length }));
      })
      .on('error', reject);
  });
}

/** `s` whose reads answer `whenDown()` (a driver error, or a wait that never ends) while `down()` is true. */
function switchable(s: Store, down: () => boolean, whenDown: () => Promise<never>): Store {
  return {
    ...s,
    kind: s.kind,
    collection: <D extends { _id: string }>(spec: CollectionSpec<D>): Collection<D> => {
      const c = s.collection(spec);
      const when =
        <A extends unknown[], R>(f: (...a: A) => R) =>
        (...a: A): R =>
          (down() ? whenDown() : f(...a)) as R;
      return {
        ...c,
        get: when(c.get.bind(c)),
        getMany: when(c.getMany.bind(c)),
        find: when(c.find.bind(c)),
        findKeys: when(c.findKeys.bind(c)),
        count: when(c.count.bind(c)),
        scan: (...a: Parameters<typeof c.scan>) => {
          if (!down()) return c.scan(...a);
          return (async function* () {
            yield* [] as D[];
            await whenDown();
          })();
        },
      };
    },
  };
}

describe('API app: probes, request ids, errors, CORS, conditional GET', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi(seedChain);
  });
  after(() => api.close());

  it('GET /healthz answers while the process is up', async () => {
    const r = await api.get('/healthz');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { status: 'ok' });
  });

  it('GET /readyz reports the indexed tip once the sync has a checkpoint', async () => {
    const r = await api.get('/readyz');
    assert.equal(r.status, 200);
    assert.equal((r.body as Json).status, 'ready');
    assert.equal((r.body as Json).height, TIP.height);
  });

  it('echoes a sane inbound request id and replaces an unsafe one', async () => {
    const kept = await api.get('/healthz', { 'X-Request-Id': 'lb-7f3a9c21.0001' });
    assert.equal(kept.headers.get('x-request-id'), 'lb-7f3a9c21.0001');
    const replaced = await api.get('/healthz', { 'X-Request-Id': 'short' });
    assert.match(replaced.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    const minted = await api.get('/api/v1/explorer/blocks/1');
    assert.match(minted.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });

  it('answers 404 { error } for unknown routes, inside and outside /api/v1', async () => {
    for (const p of ['/api/v1/nope', '/api/v1/explorer', '/nope']) {
      const r = await api.get(p);
      assert.equal(r.status, 404, p);
      assert.match((r.body as Json).error, /no route GET/);
      assert.match(r.headers.get('content-type') ?? '', /application\/json/);
    }
  });

  it('answers 405 { error } for other methods on a known path', async () => {
    const res = await fetch(`${api.url}/api/v1/explorer/blocks/1`, { method: 'DELETE' });
    assert.equal(res.status, 405);
    assert.match(((await res.json()) as Json).error, /not allowed/);
  });

  it('never answers 500 to malformed percent-encoding or odd query strings', async () => {
    for (const p of [
      '/api/v1/explorer/tx/%E0%A4%A',
      '/api/v1/explorer/tx/abc?logos=url&logos=url',
      '/api/v1/explorer/address/%00',
    ]) {
      const r = await api.get(p);
      assert.equal(r.status, 400, p);
      assert.equal(typeof (r.body as Json).error, 'string');
    }
  });

  it('lets browsers read ETag, request id and limit headers (CORS)', async () => {
    const r = await api.get(`/api/v1/explorer/blocks/${TIP.height}`, { Origin: 'https://example.org' });
    assert.equal(r.headers.get('access-control-allow-origin'), '*');
    const exposed = (r.headers.get('access-control-expose-headers') ?? '').toLowerCase();
    for (const h of [
      'etag',
      'x-request-id',
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-daily-remaining',
      'retry-after',
    ])
      assert.ok(exposed.includes(h), h);
  });

  it('answers 304 when If-None-Match carries the current ETag', async () => {
    const url = `${api.url}/api/v1/explorer/blocks/${TIP.height}`;
    const first = await rawGet(url, {});
    assert.equal(first.status, 200);
    assert.ok(first.etag);
    const again = await rawGet(url, { 'If-None-Match': first.etag });
    assert.equal(again.status, 304);
    assert.equal(again.body, '');
    const stale = await rawGet(url, { 'If-None-Match': '"something-else"' });
    assert.equal(stale.status, 200);
  });

  it('a 304 carries the Vary and validator its 200 would, and a coding the client takes is chosen before If-None-Match', async () => {
    // RFC 9110 15.4.5: a 304 carries the Vary (and ETag, Cache-Control) a 200 to the same request would. The REST
    // route used to answer the 304 itself, before the compression step had added `Vary: Accept-Encoding` and chosen
    // the representation: a CDN revalidating a compressed answer got a 304 saying the answer varies on Origin and
    // Accept only, and a br-accepting client sending the identity ETag got 304 on a cold cache but 200 br on a warm.
    for (const path of ['/api/v1/openapi.json', `/api/v1/explorer/blocks/${TIP.height}`]) {
      const url = api.url + path;
      const plain = await rawGetHeaders(url, { 'Accept-Encoding': 'identity' });
      assert.equal(plain.status, 200, path);
      assert.ok(plain.length >= 1024, `${path} is large enough to be compressed (${plain.length} bytes)`);
      const br = await rawGetHeaders(url, { 'Accept-Encoding': 'br' });
      assert.equal(br.headers['content-encoding'], 'br', path);
      assert.match(String(plain.headers.vary), /Accept-Encoding/, path);

      const again = await rawGetHeaders(url, {
        'Accept-Encoding': 'identity',
        'If-None-Match': String(plain.headers.etag),
      });
      assert.equal(again.status, 304, path);
      assert.equal(again.headers.vary, plain.headers.vary, `${path}: the 304's Vary is the 200's`);
      assert.equal(again.headers.etag, plain.headers.etag, path);
      assert.equal(again.headers['cache-control'], plain.headers['cache-control'], path);

      const brAgain = await rawGetHeaders(url, { 'Accept-Encoding': 'br', 'If-None-Match': String(br.headers.etag) });
      assert.equal(brAgain.status, 304, path);
      assert.equal(brAgain.headers.vary, br.headers.vary, path);
      assert.equal(brAgain.headers.etag, br.headers.etag, path);

      // The identity validator does not name the br representation this request selects: it gets that in full.
      const crossed = await rawGetHeaders(url, {
        'Accept-Encoding': 'br',
        'If-None-Match': String(plain.headers.etag),
      });
      assert.equal(crossed.status, 200, path);
      assert.equal(crossed.headers['content-encoding'], 'br', path);
      assert.equal(crossed.headers.etag, br.headers.etag, path);
    }
  });
});

describe('API app: failures', () => {
  it('GET /readyz answers 503 before the sync has written a checkpoint', async () => {
    const api = await startTestApi(async () => {});
    try {
      const r = await api.get('/readyz');
      assert.equal(r.status, 503);
      assert.match((r.body as Json).error, /not ready/);
      assert.equal((await api.get('/healthz')).status, 200);
      // No position yet: the position gauges have no sample (they said height 0, lag 0 s: in sync).
      const text = await (await fetch(`${api.url}/metrics`)).text();
      for (const name of ['cardano_sync_height', 'cardano_sync_tip_height', 'cardano_sync_lag_seconds'])
        assert.doesNotMatch(text, new RegExp(`^${name} `, 'm'), name);
      assert.match(text, /^cardano_sync_healthy 0$/m);
    } finally {
      await api.close();
    }
  });

  it('turns an unexpected failure into 500 { error: "internal error" } without leaking details', async () => {
    const boom = () => Promise.reject(new Error('lmdb: secret internal detail at /var/lib/data'));
    const failing = (s: Store): Store => ({
      ...s,
      kind: s.kind,
      collection: <D extends { _id: string }>(spec: CollectionSpec<D>): Collection<D> => ({
        ...s.collection(spec),
        get: boom,
        getMany: boom,
        find: boom,
        findKeys: boom,
        count: boom,
      }),
    });
    const lines: Json[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Json) });
    const api = await startTestApi(seedChain, { wrapStore: failing, log });
    try {
      const r = await api.get(`/api/v1/explorer/blocks/${TIP.height}`, { 'X-Request-Id': 'trace-0000-0001' });
      assert.equal(r.status, 500);
      assert.deepEqual(r.body, { error: 'internal error' });
      // The operator sees the cause and the access line, both under the request id.
      const cause = lines.find((l) => l.msg === 'unhandled error');
      assert.equal(cause?.reqId, 'trace-0000-0001');
      assert.match(String(cause?.err?.message), /secret internal detail/);
      const access = lines.find((l) => l.msg === 'request');
      assert.deepEqual(
        [access?.reqId, access?.method, access?.path, access?.status, typeof access?.ms],
        ['trace-0000-0001', 'GET', `/api/v1/explorer/blocks/${TIP.height}`, 500, 'number'],
      );
      const ready = await api.get('/readyz');
      assert.equal(ready.status, 503);
      assert.match((ready.body as Json).error, /store does not answer/);
    } finally {
      await api.close();
    }
  });
});

describe('API app: the store does not answer (MongoDB down)', () => {
  it('answers 503 with Retry-After on every surface and probe, and /metrics still answers with sync_healthy 0', async () => {
    // What the MongoDB driver throws once no server answered within serverSelectionTimeoutMS (seen with FerretDB
    // stopped: every answer, /healthz/jobs and /metrics were 500 "internal error").
    let down = false;
    const gone = (): Promise<never> =>
      Promise.reject(
        new MongoServerSelectionError(
          'connect ECONNREFUSED 127.0.0.1:27017',
          {} as ConstructorParameters<typeof MongoServerSelectionError>[1],
        ),
      );
    const api = await startTestApi(seedChain, { wrapStore: (s) => switchable(s, () => down, gone) });
    try {
      assert.equal((await api.get(`/api/v1/explorer/blocks/${TIP.height}`)).status, 200);
      const up = await (await fetch(`${api.url}/metrics`)).text();
      assert.match(up, new RegExp(`^cardano_sync_height ${TIP.height}$`, 'm'));
      down = true;
      // Past the sync gate's calm window (250 ms after its last read found nothing to withhold), so the gate reads
      // the store for each request too, as it does through any outage longer than that.
      await new Promise((res) => setTimeout(res, 300));
      // The Markdown view answers as every surface does, and in Markdown to a client asking for it.
      for (const [path, accept] of [
        [`/api/v1/explorer/blocks/${TIP.height - 1}`, '*/*'],
        ['/api/md/market', '*/*'],
        ['/api/md/market', 'text/markdown'],
      ] as const) {
        const r = await api.get(path, { accept });
        assert.equal(r.status, 503, path);
        assert.equal(r.headers.get('retry-after'), '5', path);
        if (accept === '*/*') assert.deepEqual(r.body, { error: 'the store does not answer; retry shortly' });
        else {
          assert.match(r.headers.get('content-type') ?? '', /^text\/markdown/);
          assert.match(String(r.body), /HTTP 503[\s\S]*the store does not answer/);
        }
      }
      for (const path of ['/readyz', '/healthz/sync', '/healthz/jobs']) {
        const r = await api.get(path);
        assert.equal(r.status, 503, path);
        assert.match((r.body as Json).error, /the store does not answer/, path);
        // What to do, as the probes' other 503s (a stall, a failing job) say it.
        assert.match((r.body as Json).action, /MONGODB_URI/, path);
      }
      const metrics = await fetch(`${api.url}/metrics`);
      assert.equal(metrics.status, 200);
      const text = await metrics.text();
      assert.match(text, /^cardano_sync_healthy 0$/m);
      // The position is unknown, not 0: with FerretDB stopped the scrape said height 0 and lag 0 s, so an alert on
      // the lag saw a service in sync. Before the outage the seeded tip was there.
      for (const name of [
        'cardano_sync_height',
        'cardano_sync_tip_height',
        'cardano_sync_lag_seconds',
        'cardano_sync_generation',
      ])
        assert.doesNotMatch(text, new RegExp(`^${name} `, 'm'), name);
      assert.match(text, /^http_request_duration_seconds_count\{[^}]*status="503"[^}]*\} \d+$/m);
    } finally {
      await api.close();
    }
  });
});

describe('API app: the store holds every read (MongoDB down, the driver waiting for a server)', () => {
  it('answers the probes 503 within their budget and /metrics with sync_healthy 0 within its own', async function () {
    this.timeout(30_000);
    // The MongoDB driver holds each operation for serverSelectionTimeoutMS (30 s by default) before it fails: seen
    // with FerretDB stopped, /readyz took 30 s to answer, longer than any Kubernetes probe waits (1-5 s).
    let down = false;
    const never = <T>(): Promise<T> => new Promise<T>(() => undefined);
    const api = await startTestApi(seedChain, { wrapStore: (s) => switchable(s, () => down, never) });
    try {
      assert.equal((await api.get('/readyz')).status, 200);
      down = true;
      for (const path of ['/readyz', '/healthz/sync', '/healthz/jobs']) {
        const t0 = performance.now();
        const r = await api.get(path);
        const ms = performance.now() - t0;
        assert.equal(r.status, 503, path);
        assert.match((r.body as Json).error, /the store does not answer/, path);
        assert.ok(ms < 3_000, `${path} answered in ${Math.round(ms)} ms`);
      }
      const t0 = performance.now();
      const metrics = await fetch(`${api.url}/metrics`);
      const text = await metrics.text();
      const ms = performance.now() - t0;
      assert.equal(metrics.status, 200);
      assert.match(text, /^cardano_sync_healthy 0$/m);
      // Under Prometheus' default scrape_timeout (10 s).
      assert.ok(ms < 7_000, `/metrics answered in ${Math.round(ms)} ms`);
    } finally {
      await api.close();
    }
  });
});

describe('API app: the log of probe answers', () => {
  it('logs a 503 of /readyz and /healthz/* as one warn-level request line; other 5xx stay errors', async () => {
    const lines: Json[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Json) });
    // A sync stalled on a rollback it could not undo: /healthz/sync is 503, and so is every chain answer.
    const at = new Date().toISOString();
    const stalled = async (store: Store) => {
      await seedChain(store);
      await store.write([
        put(SYNC_HEALTH, {
          _id: SYNC_HEALTH_ID,
          contactAt: at,
          tip: null,
          failing: null,
          stall: {
            kind: 'rollback-too-deep',
            reason: 'sync stalled: rollback beyond the undo window, resync needed',
            action: 'resync',
            error: 'RollbackTooDeepError',
            since: at,
            abandonedAbove: 0,
          },
          generation: 0,
          lastDeepRollback: null,
          updatedAt: at,
        }),
      ]);
    };
    const api = await startTestApi(stalled, {
      log,
      workerDown: () => ({ reason: 'the embedded worker is restarting', since: at }),
    });
    // The request line and every other line under its request id.
    const reqIdOf = (path: string) => lines.find((l) => l.msg === 'request' && l.path === path)?.reqId as unknown;
    const linesOf = (path: string) => lines.filter((l) => l.path === path || l.reqId === reqIdOf(path));
    try {
      for (const path of ['/readyz', '/healthz/sync']) {
        const r = await api.get(path);
        assert.equal(r.status, 503, path);
        const logged = linesOf(path);
        assert.deepEqual(
          logged.map((l) => [l.level, l.msg, l.status]),
          [[40, 'request', 503]],
          `${path}: ${JSON.stringify(logged)}`,
        );
      }
      // A chain answer withheld by the stall is a service failure: error level, with its reason.
      const chain = `/api/v1/explorer/blocks/${TIP.height}`;
      assert.equal((await api.get(chain)).status, 503);
      const logged = linesOf(chain);
      assert.deepEqual(logged.map((l) => [l.level, l.msg]).sort(), [
        [40, 'service error'],
        [50, 'request'],
      ]);
    } finally {
      await api.close();
    }
  });
});

describe('API app: the access layer', () => {
  const seen: string[] = [];
  const surface =
    (name: string): Koa.Middleware =>
    async (ctx, next) => {
      seen.push(`${name} ${ctx.path}`);
      if (ctx.get('x-api-key') === 'revoked') throw new UnauthorizedError();
      if (ctx.get('x-api-key') === 'exhausted')
        throw new TooManyRequestsError(42, {
          hint: 'send an API key for higher limits',
          docs: 'http://api.test/docs#limits',
          headers: { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '0' },
        });
      ctx.set('X-RateLimit-Limit', '60');
      await next();
    };
  const access: AccessLayer = { rest: surface('rest'), md: surface('md'), mcp: surface('mcp') };
  let api: TestApi;
  before(async () => {
    api = await startTestApi(seedChain, { access });
  });
  after(() => api.close());
  beforeEach(() => (seen.length = 0));

  it('runs each surface middleware only on its own paths (the logo route is REST: its key is checked)', async () => {
    await api.get(`/api/v1/explorer/blocks/${TIP.height}`);
    await api.get('/api/v1/openapi.json');
    await api.get('/api/md/market');
    await api.get('/api/mcp');
    await api.get('/api/v1/assets/abc/logo');
    await api.get('/healthz');
    assert.deepEqual(seen, [
      `rest /api/v1/explorer/blocks/${TIP.height}`,
      'rest /api/v1/openapi.json',
      'md /api/md/market',
      'mcp /api/mcp',
      'rest /api/v1/assets/abc/logo',
    ]);
  });

  it('passes 401 and the rich 429 body through with Retry-After and limit headers', async () => {
    const revoked = await api.get('/api/v1/explorer/blocks/1', { 'x-api-key': 'revoked' });
    assert.equal(revoked.status, 401);
    assert.deepEqual(revoked.body, { error: 'invalid or revoked API key' });

    const r = await api.get('/api/v1/explorer/blocks/1', { 'x-api-key': 'exhausted', Origin: 'https://x.org' });
    assert.equal(r.status, 429);
    assert.deepEqual(r.body, {
      error: 'rate limit exceeded',
      hint: 'send an API key for higher limits',
      docs: 'http://api.test/docs#limits',
      retryAfter: 42,
    });
    assert.equal(r.headers.get('retry-after'), '42');
    assert.equal(r.headers.get('x-ratelimit-remaining'), '0');
    assert.equal(r.headers.get('access-control-allow-origin'), '*');
    assert.ok(r.headers.get('x-request-id'));
  });
});

describe('startApi', () => {
  it('listens on the given port and host and closes cleanly', async () => {
    const api = await startTestApi(seedChain);
    const running = await startApi(
      {
        store: api.store,
        config: { SITE_URL: 'http://api.test', CARDANO_NETWORK: 'mainnet', TRUST_PROXY: false },
        log: pino({ level: 'silent' }),
      },
      { port: 0, host: '127.0.0.1' },
    );
    try {
      assert.match(running.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${running.url}/api/v1/explorer/blocks/${TIP.height}`);
      assert.equal(res.status, 200);
      assert.equal(((await res.json()) as Json).hash, TIP.id);
    } finally {
      await running.close();
      await api.close();
    }
    assert.equal(running.server.listening, false);
  });
});

describe('TRUST_PROXY', () => {
  for (const trust of [true, false])
    it(`${trust ? 'takes' : 'ignores'} the client IP from X-Forwarded-For when TRUST_PROXY=${trust}`, async () => {
      let ip = '';
      const record: Koa.Middleware = async (ctx, next) => {
        ip = ctx.ip;
        await next();
      };
      const api = await startTestApi(seedChain, {
        config: { SITE_URL: 'http://api.test', CARDANO_NETWORK: 'mainnet', TRUST_PROXY: trust },
        access: { rest: record, md: record, mcp: record },
      });
      try {
        await api.get('/api/v1/openapi.json', { 'X-Forwarded-For': '203.0.113.7' });
        assert.equal(ip, trust ? '203.0.113.7' : '127.0.0.1');
      } finally {
        await api.close();
      }
    });
});
