/**
 * The HTTP edges of the API as an attacker or a careless client meets them: secrets never reach the log after a
 * parser error, every method no route implements is 405 (never the router's 501), security headers on every
 * answer, CORS only for what a browser may do on a read-only API, and the parser's own refusals as JSON `{ error }`.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import { createAccess, type Access } from '../../api/access/index.js';
import { createApp } from '../../api/app.js';
import { loggerOptions } from '../../api/log.js';
import { restRoutes } from '../../api/routes/index.js';
import { startApi, type RunningApi } from '../../api/server.js';
import { loadConfig } from '../../config/index.js';
import { STAKE, TIP, seedChain, startTestApi, type TestApi } from './seed.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

/** The production logger's options over an in-memory sink. */
function capturedLog(): { log: Logger; text: () => string } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString('utf8'));
      cb();
    },
  });
  return { log: pino(loggerOptions('trace'), sink), text: () => lines.join('') };
}

/** Writes `bytes` on a fresh connection and returns everything the server sends until it closes. */
function rawExchange(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let out = '';
    socket.on('data', (d: Buffer) => (out += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(out));
    socket.write(bytes);
    setTimeout(() => socket.end(), 1500).unref();
  });
}

/**
 * Sends `head`, then `drip` every 50 ms (a slowloris client) until the server closes the connection; returns what
 * it sent. Gives up after `giveUpMs` (what arrived by then is returned: nothing, when the server never answered).
 */
function tricklingExchange(url: string, head: string, drip: string, giveUpMs = 10_000): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let out = '';
    const timer = setInterval(() => socket.writable && socket.write(drip), 50);
    const done = () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve(out);
    };
    const giveUp = setTimeout(done, giveUpMs);
    socket.on('data', (d: Buffer) => (out += d.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', done);
    socket.write(head);
  });
}

/** Every form a secret can take in a JSON log line: as text, and as the byte list JSON makes of a Buffer. */
function secretForms(secret: string): string[] {
  const bytes = [...Buffer.from(secret)].join(',');
  return [secret, bytes, Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('hex')];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Splits a raw HTTP/1.1 answer into status, lower-cased headers and body. */
function parseRaw(raw: string): { status: number; headers: Record<string, string>; body: string } {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of headerLines) {
    const i = l.indexOf(':');
    headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

describe('API hardening: secrets never in logs after HTTP parse errors', function () {
  let api: TestApi;
  let access: Access;
  let key: string;
  before(async () => {
    api = await startTestApi(seedChain);
    access = await createAccess({
      store: api.store,
      config: loadConfig({ SITE_URL: 'http://api.test', LOG_LEVEL: 'silent' }),
      log: pino({ level: 'silent' }),
    });
    key = (await access.registry.create('stake1uxplanted', 'planted')).key;
  });
  after(async () => {
    await access.close();
    await api.close();
  });

  const SESSION = 'cds_session=PLANTEDSESSION0123456789abcdef';
  const secretRequest = (k: string) =>
    `GET /api/v1/explorer/blocks/${TIP.height} HTTP/1.1\r\nHost: api.test\r\nx-api-key: ${k}\r\n` +
    `Authorization: Bearer ${k}\r\nCookie: ${SESSION}\r\n\r\n`;
  // Each of these makes Node's parser fail with the whole packet (the planted key included) as `rawPacket`.
  const attacks = (k: string) => ({
    'pipelined bad request line': `${secretRequest(k)}BAD LINE\r\n\r\n`,
    'trailing bytes after a body': `${secretRequest(k).replace('\r\n\r\n', '\r\nContent-Length: 2\r\n\r\n')}okGARBAGE\x00\r\n\r\n`,
    'bad request line with the key': `GET / HTTP/9 9\r\nx-api-key: ${k}\r\nCookie: ${SESSION}\r\n\r\n`,
  });

  /** The service (startApi) over the test's store and access layer, logging into a captured log. */
  const startLoggedApi = async () => {
    const { log, text } = capturedLog();
    const running: RunningApi = await startApi(
      {
        store: api.store,
        config: { SITE_URL: 'http://api.test', CARDANO_NETWORK: 'mainnet', TRUST_PROXY: false },
        log,
        access,
      },
      { port: 0, host: '127.0.0.1' },
    );
    return { running, text };
  };

  const assertNoSecret = (logText: string) => {
    for (const secret of [key, SESSION.split('=')[1]!])
      for (const form of secretForms(secret)) assert.ok(!logText.includes(form), `log holds ${secret} as ${form}`);
  };

  it('the service (startApi, clientError handler) logs none of the planted key, bearer or cookie', async () => {
    const { running, text } = await startLoggedApi();
    try {
      for (const [name, bytes] of Object.entries(attacks(key))) {
        const raw = await rawExchange(running.url, bytes);
        assert.match(raw, /HTTP\/1\.1 (200|400)/, name);
      }
      await sleep(100);
      assert.match(text(), /refused a malformed request/);
      assertNoSecret(text());
    } finally {
      await running.close();
    }
  });

  it('the app alone (no clientError handler: the socket error reaches Koa) logs none of them either', async () => {
    // Before the fix this logged `koa error` with err.rawPacket: the request bytes, key and cookie included.
    const { log, text } = capturedLog();
    const plain = pino({ level: 'trace' }, { write: (l: string) => plainLines.push(l) });
    const plainLines: string[] = [];
    for (const logger of [log, plain]) {
      const app = createApp({
        store: api.store,
        config: { SITE_URL: 'http://api.test', CARDANO_NETWORK: 'mainnet', TRUST_PROXY: false },
        log: logger,
      });
      const server = http.createServer(app.callback());
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
      try {
        await rawExchange(url, attacks(key)['pipelined bad request line']);
        await sleep(100);
      } finally {
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
      }
    }
    assert.match(text(), /koa error/, 'the parse error did reach Koa');
    assert.match(plainLines.join(''), /HPE_INVALID_METHOD/);
    assertNoSecret(text());
    // Even a logger without the service's options (the app reduces the error itself).
    assertNoSecret(plainLines.join(''));
  });

  it('a client that closes its connection in the middle of a body is no error-level line', async () => {
    const { running, text } = await startLoggedApi();
    const { port } = new URL(running.url);
    try {
      // Bodies read by the tool server and the account area: half sent, then the connection is gone.
      for (const path of ['/api/mcp', '/account/api/nonce']) {
        await new Promise<void>((resolve) => {
          const socket = net.connect(Number(port), '127.0.0.1', () => {
            socket.write(
              `POST ${path} HTTP/1.1\r\nHost: api.test\r\nContent-Type: application/json\r\n` +
                'Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":',
            );
            setTimeout(() => socket.destroy(), 200);
          });
          socket.on('close', () => resolve());
        });
      }
      await sleep(200);
      const lines = text()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { level: number; path?: string; status?: number });
      assert.deepEqual(
        lines.filter((l) => l.path !== undefined).map((l) => [l.path, l.status, l.level]),
        [
          ['/api/mcp', 400, 30],
          ['/account/api/nonce', 400, 30],
        ],
      );
      assert.deepEqual(
        lines.filter((l) => l.level >= 50),
        [],
      );
    } finally {
      await running.close();
    }
  });

  it('the process logger drops rawPacket and secret headers from any error or object it is given', () => {
    const { log, text } = capturedLog();
    const err = Object.assign(new Error('Parse Error: Invalid method encountered'), {
      code: 'HPE_INVALID_METHOD',
      rawPacket: Buffer.from(secretRequest(key)),
    });
    log.error({ err }, 'raw error');
    log.info({ req: { headers: { 'x-api-key': key, authorization: `Bearer ${key}`, cookie: SESSION } } }, 'req');
    log.info({ headers: { 'x-api-key': key } }, 'bare headers');
    log.info({ ctx: { rawPacket: Buffer.from(key) } }, 'nested');
    assert.match(text(), /HPE_INVALID_METHOD/);
    assertNoSecret(text());
  });
});

describe('API hardening: methods, headers, CORS, parser refusals', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi(seedChain);
  });
  after(() => api.close());

  /** A concrete URL for each documented path (placeholders filled with well-formed values). */
  const concrete = (p: string) =>
    `/api/v1${p}`.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'metric' ? 'price' : 'x'));

  it('answers 405 with Allow and { error } to every method no route implements, on every documented path', async () => {
    const paths = restRoutes().map((r) => concrete(r.path));
    assert.ok(paths.length > 30);
    for (const path of paths)
      for (const method of ['TRACE', 'PUT', 'POST', 'DELETE', 'PATCH', 'PROPFIND', 'QUERY']) {
        const raw = await rawExchange(
          api.url,
          `${method} ${path} HTTP/1.1\r\nHost: api.test\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
        );
        const r = parseRaw(raw);
        assert.equal(r.status, 405, `${method} ${path}: ${raw.slice(0, 200)}`);
        assert.match(r.headers.allow ?? '', /GET/, `${method} ${path}`);
        assert.doesNotMatch(r.headers.allow ?? '', /PUT|POST|DELETE/);
        assert.match((JSON.parse(r.body) as Json).error, /not allowed/);
      }
  });

  it('data answers are kept by a cache only to revalidate (no-cache, 304 by ETag); openapi.json for 5 minutes', async () => {
    // node:http: fetch adds `cache-control: no-cache` to a conditional request, which makes any answer a 200.
    const get = (path: string, headers: Record<string, string>) =>
      new Promise<http.IncomingMessage>((resolve, reject) => {
        http
          .get(api.url + path, { headers }, (res) => {
            res.resume();
            res.on('end', () => resolve(res));
          })
          .on('error', reject);
      });
    for (const path of [
      `/api/v1/explorer/blocks/${TIP.height}`,
      `/api/v1/explorer/address/${STAKE}`,
      `/api/md/wallet/${STAKE}`,
      '/api/md/tokens',
    ]) {
      const r = await get(path, { 'accept-encoding': 'br' });
      assert.equal(r.statusCode, 200, path);
      assert.equal(r.headers['cache-control'], 'no-cache', path);
      // A 304 carries the Cache-Control its 200 would (RFC 9110 15.4.5).
      const again = await get(path, { 'accept-encoding': 'br', 'if-none-match': r.headers.etag ?? '' });
      assert.equal(again.statusCode, 304, path);
      assert.equal(again.headers['cache-control'], 'no-cache', path);
    }
    const openapi = await get('/api/v1/openapi.json', {});
    assert.equal(openapi.headers['cache-control'], 'public, max-age=300');
  });

  it('error answers are never kept by a shared cache, and a thrown error keeps the Vary of its answer', async () => {
    for (const [path, status] of [
      ['/api/v1/tokens/xx', 400],
      [`/api/v1/tokens/${'ab'.repeat(28)}`, 404],
      ['/api/v1/nope', 404],
    ] as const) {
      const r = await fetch(api.url + path);
      assert.equal(r.status, status, path);
      assert.equal(r.headers.get('cache-control'), 'no-store', path);
      // JSON or Markdown by Accept: the error is one of two representations too.
      if (status === 400) assert.match(r.headers.get('vary') ?? '', /Accept/, path);
    }
    const put = await fetch(`${api.url}/api/v1/tokens`, { method: 'PUT' });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get('cache-control'), 'no-store');
  });

  it('the tool server answers TRACE with 405 and { error }, never a 500', async () => {
    for (const method of ['TRACE']) {
      const r = parseRaw(
        await rawExchange(api.url, `${method} /api/mcp HTTP/1.1\r\nHost: api.test\r\nConnection: close\r\n\r\n`),
      );
      assert.equal(r.status, 405, method);
      assert.equal(r.headers.allow, 'POST');
      assert.match((JSON.parse(r.body) as Json).error, /not allowed/);
    }
  });

  it('answers 404 { error } to an unknown method on an unknown path (no 501)', async () => {
    const r = parseRaw(
      await rawExchange(api.url, 'TRACE /api/v1/nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    );
    assert.equal(r.status, 404);
    assert.equal(r.headers.allow, undefined);
    assert.match((JSON.parse(r.body) as Json).error, /no route/);
  });

  it('carries nosniff, Referrer-Policy, X-Frame-Options and a frame-ancestors CSP on every kind of answer', async () => {
    for (const [path, status] of [
      [`/api/v1/explorer/blocks/${TIP.height}`, 200],
      ['/api/v1/openapi.json', 200],
      ['/api/v1/explorer/blocks/nope', 400],
      ['/api/v1/explorer/blocks/999999999', 404],
      ['/api/v1/nope', 404],
      ['/healthz', 200],
    ] as const) {
      const r = await api.get(path);
      assert.equal(r.status, status, path);
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff', path);
      assert.equal(r.headers.get('referrer-policy'), 'no-referrer', path);
      assert.equal(r.headers.get('x-frame-options'), 'DENY', path);
      assert.match(r.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/, path);
      assert.match(r.headers.get('content-security-policy') ?? '', /default-src 'none'/, path);
      // Public data: readable cross-origin (logos are embedded by other sites).
      assert.equal(r.headers.get('cross-origin-resource-policy'), 'cross-origin', path);
      // Served over http here: no HSTS (it would only be honoured over https).
      assert.equal(r.headers.get('strict-transport-security'), null, path);
    }
    // Headers only a rendered document acts on: on HTML pages, not on data answers (JSON, Markdown).
    const documentOnly = ['cross-origin-opener-policy', 'origin-agent-cluster', 'x-dns-prefetch-control'];
    const page = await api.get('/docs');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    for (const h of documentOnly) assert.notEqual(page.headers.get(h), null, `/docs ${h}`);
    for (const path of [`/api/v1/explorer/blocks/${TIP.height}`, '/api/md/market', '/api/v1/nope']) {
      const r = await api.get(path);
      for (const h of [...documentOnly, 'x-xss-protection', 'x-download-options'])
        assert.equal(r.headers.get(h), null, `${path} ${h}`);
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff', path);
    }
    const wrongMethod = await fetch(`${api.url}/api/v1/openapi.json`, { method: 'DELETE' });
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.get('x-content-type-options'), 'nosniff');
  });

  it('advertises only GET, HEAD, OPTIONS in CORS preflights of the read-only API', async () => {
    const res = await fetch(`${api.url}/api/v1/explorer/blocks/1`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET' },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.deepEqual((res.headers.get('access-control-allow-methods') ?? '').split(',').sort(), [
      'GET',
      'HEAD',
      'OPTIONS',
    ]);
  });

  it('a client trickling its headers or its body gets 408 { error } (never a dropped connection), once', async () => {
    const running = await startApi(
      {
        store: api.store,
        config: { SITE_URL: 'http://api.test', CARDANO_NETWORK: 'mainnet', TRUST_PROXY: false },
        log: pino({ level: 'silent' }),
      },
      { port: 0, host: '127.0.0.1', headersTimeoutMs: 400, requestTimeoutMs: 800 },
    );
    try {
      const timedOut = (raw: string, what: string) => {
        const a = parseRaw(raw);
        assert.equal(a.status, 408, `${what}: ${JSON.stringify(raw.slice(0, 200))}`);
        assert.match(a.headers['content-type'] ?? '', /application\/json/);
        assert.deepEqual(JSON.parse(a.body), { error: 'request timed out' });
        assert.equal(raw.match(/HTTP\/1\.1 \d{3} /g)?.length, 1, `${what}: one answer`);
      };
      // Header lines that never end (the request is never dispatched).
      timedOut(await tricklingExchange(running.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\n', 'X-A: b\r\n'), 'headers');
      // A tool-server body of 1000 bytes sent a byte at a time: the request waits for its body when the timeout
      // fires. It was dropped without any answer.
      const post =
        'POST /api/mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{';
      timedOut(await tricklingExchange(running.url, post, ' '), 'body');
      // Answered before its body arrived (405): the later timeout adds no second status line to the connection.
      const early = await tricklingExchange(
        running.url,
        'POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
        ' ',
      );
      assert.equal(parseRaw(early).status, 405);
      assert.equal(early.match(/HTTP\/1\.1 \d{3} /g)?.length, 1, 'one answer');
    } finally {
      await running.close();
    }
  });

  it('a pipelined request is answered once the answer before it went out: a client reading nothing holds one', async () => {
    const { log, text } = capturedLog();
    const running = await startApi(
      {
        store: api.store,
        config: { SITE_URL: 'http://api.test', CARDANO_NETWORK: 'mainnet', TRUST_PROXY: false },
        log,
      },
      { port: 0, host: '127.0.0.1' },
    );
    const answered = () => text().match(/"msg":"request"/g)?.length ?? 0;
    try {
      // 100 GETs of the OpenAPI document (~200 KB each, 20 MB in all) in one write, on a connection whose answers
      // are not read: the kernel's socket buffers take a few MB, the rest would wait in the API's memory.
      const size = (await (await fetch(`${running.url}/api/v1/openapi.json`)).arrayBuffer()).byteLength;
      assert.ok(size > 100_000, `openapi.json is ${size} bytes`);
      const before = answered();
      const { port } = new URL(running.url);
      const socket = net.connect(Number(port), '127.0.0.1');
      socket.pause();
      const n = 100;
      socket.write('GET /api/v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(n));
      await new Promise((r) => setTimeout(r, 1_500));
      const made = answered() - before;
      assert.ok(made < n / 2, `${made} of ${n} pipelined answers made while the client read none`);
      // Read, and every answer comes, in order.
      let received = '';
      socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
      socket.resume();
      const deadline = Date.now() + 20_000;
      while ((received.match(/HTTP\/1\.1 200 OK/g)?.length ?? 0) < n && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      assert.equal(received.match(/HTTP\/1\.1 200 OK/g)?.length, n);
      socket.destroy();
    } finally {
      await running.close();
    }
  });

  it('a client that stops reading a large answer is disconnected after the idle timeout; one reading slowly is not', async () => {
    const running = await startApi(
      {
        store: api.store,
        config: { SITE_URL: 'http://api.test', CARDANO_NETWORK: 'mainnet', TRUST_PROXY: false },
        log: pino({ level: 'silent' }),
      },
      { port: 0, host: '127.0.0.1', idleTimeoutMs: 1_000 },
    );
    const connections = () =>
      new Promise<number>((resolve, reject) => running.server.getConnections((e, n) => (e ? reject(e) : resolve(n))));
    const { port } = new URL(running.url);
    try {
      // 50 OpenAPI documents (~10 MB) asked for on one connection, and none read: past the kernel's socket buffers
      // the rest waited in the API's memory for as long as the client kept the connection open.
      const stalled = net.connect(Number(port), '127.0.0.1');
      stalled.pause();
      const closed = new Promise<void>((resolve) => stalled.once('close', () => resolve()));
      stalled.on('error', () => undefined);
      stalled.write('GET /api/v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(50));
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(await connections(), 1);
      const deadline = Date.now() + 20_000;
      while ((await connections()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      assert.equal(await connections(), 0, 'the stalled connection is closed by the server');
      stalled.resume();
      await closed;
      // A client taking 64 KB every 200 ms (under half the idle timeout between reads) gets all 5 answers.
      const slow = net.connect(Number(port), '127.0.0.1');
      slow.pause();
      slow.write('GET /api/v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(5));
      let received = '';
      const until = Date.now() + 60_000;
      while ((received.match(/HTTP\/1\.1 200 OK/g)?.length ?? 0) < 5 && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 200));
        const chunk = slow.read(65_536) as Buffer | null;
        if (chunk) received += chunk.toString('latin1');
      }
      assert.equal(received.match(/HTTP\/1\.1 200 OK/g)?.length, 5);
      slow.destroy();
    } finally {
      await running.close();
    }
  });

  it('parser-level refusals (431, 414, bad request line, no Host, Expect) answer JSON { error }', async () => {
    const running = await startApi(
      {
        store: api.store,
        config: { SITE_URL: 'http://api.test', CARDANO_NETWORK: 'mainnet', TRUST_PROXY: false },
        log: pino({ level: 'silent' }),
      },
      { port: 0, host: '127.0.0.1' },
    );
    // Refused before the app sees them (or where it never does), they carry every data answer's security headers.
    const secured = (r: { status: number; headers: Record<string, string> }) => {
      assert.equal(r.headers['x-content-type-options'], 'nosniff', String(r.status));
      assert.equal(r.headers['x-frame-options'], 'DENY', String(r.status));
      assert.equal(r.headers['referrer-policy'], 'no-referrer', String(r.status));
      const csp = r.headers['content-security-policy'] ?? '';
      assert.match(csp, /default-src 'none'/, String(r.status));
      assert.match(csp, /frame-ancestors 'none'/, String(r.status));
      assert.equal(r.headers['cache-control'], 'no-store', String(r.status));
    };
    try {
      const big = parseRaw(
        await rawExchange(running.url, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
      );
      assert.equal(big.status, 431);
      secured(big);
      assert.match(big.headers['content-type'] ?? '', /application\/json/);
      assert.deepEqual(JSON.parse(big.body), { error: 'request headers too large' });
      // A request target over 8 KB is 414, below Node's 16 KB header limit and past it (where the parser refuses it).
      const tooLong = { error: 'URL too long: at most 8192 bytes of path and query' };
      for (const n of [8_200, 20_000]) {
        const long = parseRaw(
          await rawExchange(running.url, `GET /api/v1/tokens?q=${'a'.repeat(n)} HTTP/1.1\r\nHost: x\r\n\r\n`),
        );
        assert.equal(long.status, 414, `${n}`);
        secured(long);
        assert.match(long.headers['content-type'] ?? '', /application\/json/);
        assert.deepEqual(JSON.parse(long.body), tooLong);
      }
      const fetched = await fetch(`${running.url}/api/v1/tokens?q=${'a'.repeat(9_000)}`);
      assert.equal(fetched.status, 414);
      assert.deepEqual(await fetched.json(), tooLong);
      // CONNECT (a proxy tunnel) gets the same 405 { error } as any other method the service does not take.
      const connect = parseRaw(await rawExchange(running.url, 'CONNECT example.org:443 HTTP/1.1\r\nHost: x\r\n\r\n'));
      assert.equal(connect.status, 405);
      secured(connect);
      assert.match(JSON.parse(connect.body).error, /CONNECT is not allowed/);
      for (const line of ['GET / HTTP/9 9', 'G\x01T / HTTP/1.1', 'GET /a b c HTTP/1.1']) {
        const bad = parseRaw(await rawExchange(running.url, `${line}\r\nHost: x\r\n\r\n`));
        assert.equal(bad.status, 400, line);
        assert.match(bad.headers['content-type'] ?? '', /application\/json/);
        assert.deepEqual(JSON.parse(bad.body), { error: 'malformed HTTP request' });
      }
      // What Node itself refuses after parsing (an HTTP/1.1 request without Host; an Expect it cannot meet) is
      // refused with the same JSON body, not Node's empty one.
      const noHost = parseRaw(await rawExchange(running.url, 'GET /healthz HTTP/1.1\r\n\r\n'));
      assert.equal(noHost.status, 400);
      secured(noHost);
      assert.match(noHost.headers['content-type'] ?? '', /application\/json/);
      assert.match(JSON.parse(noHost.body).error, /Host header is required/);
      const expect = parseRaw(
        await rawExchange(running.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n'),
      );
      assert.equal(expect.status, 417);
      assert.match(JSON.parse(expect.body).error, /unsupported Expect header/);
      // HTTP/1.0 has no Host requirement, and 100-continue is answered and then served.
      const old = parseRaw(await rawExchange(running.url, 'GET /healthz HTTP/1.0\r\n\r\n'));
      assert.notEqual(old.status, 400);
      const cont = await rawExchange(
        running.url,
        'GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n',
      );
      assert.match(cont, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 (200|503) /);
    } finally {
      await running.close();
    }
  });

  it("a Host that is no host[:port] is 400 { error } on every surface, never the tool server's 500", async () => {
    // RFC 9112 3.2: a request whose Host has an invalid value is answered 400. The tool server builds its request URL
    // from Host (`http://{host}/api/mcp`): each of these made it throw, answered 500 "Internal server error".
    const running = await startApi(
      {
        store: api.store,
        config: { SITE_URL: 'http://api.test', CARDANO_NETWORK: 'mainnet', TRUST_PROXY: false },
        log: pino({ level: 'silent' }),
      },
      { port: 0, host: '127.0.0.1' },
    );
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'get_market_overview',
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    });
    const mcp = (host: string) =>
      rawExchange(
        running.url,
        `POST /api/mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
          'Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n' +
          'Mcp-Method: tools/call\r\nMcp-Name: get_market_overview\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      ).then(parseRaw);
    const rest = (host: string) =>
      rawExchange(running.url, `GET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`).then(parseRaw);
    try {
      for (const host of ['a b', 'x:99999', '[::1', '%zz', '@', 'x:abc', 'user@api.test', 'x/y']) {
        for (const answer of [await mcp(host), await rest(host)]) {
          assert.equal(answer.status, 400, host);
          assert.match(answer.headers['content-type'] ?? '', /application\/json/);
          assert.equal(answer.headers['cache-control'], 'no-store');
          assert.match((JSON.parse(answer.body) as { error: string }).error, /invalid Host header/, host);
        }
      }
      // Host names, addresses and ports as clients send them are served.
      for (const host of ['api.test', 'localhost:8330', '127.0.0.1:80', '[::1]:8330', 'xn--ls8h.la']) {
        assert.equal((await rest(host)).status, 200, host);
        assert.equal((await mcp(host)).status, 200, host);
      }
    } finally {
      await running.close();
    }
  });

  it('a request with more than one Host header is 400 { error }, not served as its first Host', async () => {
    // RFC 9112 3.2: a server MUST answer 400 to a request with more than one Host field line. Node keeps the first
    // and drops the rest, so the request was served as a request for the first Host, while a proxy or cache in front
    // may have taken the last one (the disagreement request smuggling and cache poisoning rely on).
    const running = await startApi(
      {
        store: api.store,
        config: { SITE_URL: 'http://api.test', CARDANO_NETWORK: 'mainnet', TRUST_PROXY: false },
        log: pino({ level: 'silent' }),
      },
      { port: 0, host: '127.0.0.1' },
    );
    const get = (path: string, hosts: string) =>
      rawExchange(running.url, `GET ${path} HTTP/1.1\r\n${hosts}Connection: close\r\n\r\n`).then(parseRaw);
    try {
      for (const path of ['/healthz', `/api/v1/explorer/blocks/${TIP.height}`, '/api/md/market', '/api/mcp']) {
        for (const hosts of ['Host: api.test\r\nHost: evil.test\r\n', 'Host: api.test\r\nhost: api.test\r\n']) {
          const answer = await get(path, hosts);
          assert.equal(answer.status, 400, `${path} ${hosts}`);
          assert.match(answer.headers['content-type'] ?? '', /application\/json/);
          assert.equal(answer.headers['cache-control'], 'no-store');
          assert.match((JSON.parse(answer.body) as { error: string }).error, /more than one Host header/);
        }
      }
      // One Host is served as before.
      assert.equal((await get('/healthz', 'Host: api.test\r\n')).status, 200);
      assert.equal((await get(`/api/v1/explorer/blocks/${TIP.height}`, 'Host: api.test\r\n')).status, 200);
    } finally {
      await running.close();
    }
  });
});
