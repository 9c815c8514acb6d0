/**
 * The tool server's HTTP rules as raw requests, per revision: 2026-07-28 (headers MCP-Protocol-Version, Mcp-Method,
 * Mcp-Name, `_meta`, server/discover, resultType, tools/list cache hints, −32020/−32022, 404 for unknown methods),
 * 2025-11-25 / 2025-06-18 / 2025-03-26 (initialize without a session, the short form: one tools/call with only
 * content-type and accept), GET/DELETE, Origin guard; the server card; keys and limits (X-API-Key, the anonymous
 * per-IP limit, the PnL tool's extra limit for both eras, 429 with the spec's body).
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { pino } from 'pino';
import { createAccess, type Access } from '../../api/access/index.js';
import Koa from 'koa';
import { createApp } from '../../api/app.js';
import { fastReplay, type FastReplayDeps } from '../../api/fast-replay.js';
import { loadConfig } from '../../config/index.js';
import { acquireWorld, releaseWorld, type World } from './world.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};
/** The revisions the spec's Versioning section promises, newest first. */
const SERVED = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'];
const JSON_ACCEPT = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function listen(app: {
  callback(): Parameters<typeof createServer>[1];
}): Promise<{ url: string; server: Server }> {
  const server = createServer(app.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** The JSON-RPC message of an answer, JSON or the first SSE `data:` line. */
async function rpc(res: Response): Promise<Json> {
  const text = await res.text();
  if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    const line = text.split('\n').find((l) => l.startsWith('data: '));
    return JSON.parse(line!.slice(6)) as Json;
  }
  return JSON.parse(text) as Json;
}

describe('MCP over raw HTTP: revisions, headers, errors, server card', function () {
  this.timeout(300_000);
  let world: World;
  let url = '';
  let site = '';
  let server: Server;
  let unit = '';

  const modern = (method: string, params: Json, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'POST',
      headers: {
        ...JSON_ACCEPT,
        'mcp-protocol-version': MODERN,
        'mcp-method': method,
        ...(method === 'tools/call' ? { 'mcp-name': String(params.name) } : {}),
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: META } }),
    });
  const legacy = (body: Json, headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', headers: { ...JSON_ACCEPT, ...headers }, body: JSON.stringify(body) });

  before(async () => {
    world = await acquireWorld();
    ({ url: site, server } = await listen(createApp(world.deps)));
    url = `${site}/api/mcp`;
    const tokens = (await (await fetch(`${site}/api/v1/tokens?sort=liquidity&pageSize=1`)).json()) as Json;
    unit = tokens.items[0].asset.unit;
  });
  after(async () => {
    server?.close();
    await releaseWorld();
  });

  describe('2026-07-28', () => {
    it('tools/call with headers and _meta: 200 JSON, resultType complete, serverInfo, the tool result', async () => {
      const res = await modern('tools/call', { name: 'get_token', arguments: { unit } });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      const m = await rpc(res);
      assert.equal(m.id, 7);
      assert.equal(m.result.resultType, 'complete');
      assert.equal(m.result._meta['io.modelcontextprotocol/serverInfo'].name, 'cardano-data-service');
      assert.equal(m.result.structuredContent.asset.unit, unit);
      assert.equal(res.headers.get('mcp-session-id'), null, 'no session');
    });

    it('tools/list carries ttlMs and cacheScope; server/discover lists every supported revision', async () => {
      const list = await rpc(await modern('tools/list', {}));
      assert.equal(list.result.ttlMs, 3_600_000);
      assert.equal(list.result.cacheScope, 'public');
      assert.equal(list.result.tools.length, 20);
      const d = await rpc(await modern('server/discover', {}));
      // discover lists the revisions a per-request `_meta` request can name: the 2025 ones are reached through
      // initialize (the SDK's DiscoverResult contract), so only 2026-07-28 here.
      assert.deepEqual(d.result.supportedVersions, [MODERN]);
      assert.ok(d.result.capabilities.tools);
      assert.match(d.result.instructions, /Cardano/);
    });

    it('header rules: missing or mismatched headers are 400 −32020', async () => {
      const cases: [string, Response][] = [
        ['no Mcp-Method', await modern('tools/list', {}, { 'mcp-method': '' })],
        ['no Mcp-Name', await modern('tools/call', { name: 'get_token', arguments: { unit } }, { 'mcp-name': '' })],
        [
          'Mcp-Name ≠ body',
          await modern('tools/call', { name: 'get_token', arguments: { unit } }, { 'mcp-name': 'get_pool' }),
        ],
        ['version header ≠ _meta', await modern('tools/list', {}, { 'mcp-protocol-version': '2025-11-25' })],
      ];
      for (const [what, res] of cases) {
        assert.equal(res.status, 400, what);
        assert.equal((await rpc(res)).error.code, -32020, what);
      }
    });

    it('an unsupported revision is 400 −32022 naming the supported ones; an unknown method 404 −32601', async () => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { ...JSON_ACCEPT, 'mcp-protocol-version': '2027-01-01', 'mcp-method': 'tools/list' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/list',
          params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2027-01-01' } },
        }),
      });
      assert.equal(res.status, 400);
      const m = await rpc(res);
      assert.equal(m.error.code, -32022);
      // A modern (per-request `_meta`) request can name only the modern revision: the 2025 ones are reached
      // through initialize (mcp-koa-temporal.md: `data.supported=["2026-07-28"]`).
      assert.deepEqual(m.error.data.supported, [MODERN]);
      assert.equal(m.error.data.requested, '2027-01-01');
      const unknown = await modern('prompts/nothing', {});
      assert.equal(unknown.status, 404);
      assert.equal((await rpc(unknown)).error.code, -32601);
    });

    it('the tool list never changes: listChanged false, and subscriptions/listen is acknowledged then closed', async () => {
      const d = await rpc(await modern('server/discover', {}));
      assert.deepEqual(d.result.capabilities.tools, { listChanged: false });
      const init = await rpc(
        await legacy({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }),
      );
      assert.deepEqual(init.result.capabilities.tools, { listChanged: false });
      // The stream held open (a keep-alive every few seconds, nothing else) until the client left: this read would
      // time out. Now the acknowledgement names no notification and the answer ends.
      const res = await modern('subscriptions/listen', { notifications: { toolsListChanged: true } }, {});
      const text = await Promise.race([
        res.text(),
        new Promise<string>((_, reject) => setTimeout(() => reject(new Error('the listen stream stayed open')), 5_000)),
      ]);
      const messages = text
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => JSON.parse(l.slice(6)) as Json);
      assert.equal(messages[0]!.method, 'notifications/subscriptions/acknowledged');
      assert.deepEqual(messages[0]!.params.notifications, {});
      assert.equal(messages.at(-1)!.result.resultType, 'complete');
    });

    it('a bad argument is a result with isError, not a protocol error', async () => {
      const m = await rpc(await modern('tools/call', { name: 'get_token', arguments: { unit: 'nope' } }));
      assert.equal(m.result.isError, true);
      assert.match(m.result.content[0].text, /call it again/);
    });
  });

  for (const version of ['2025-11-25', '2025-06-18', '2025-03-26']) {
    describe(version, () => {
      it('initialize answers the revision and mints no session', async () => {
        const res = await legacy(
          {
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
          },
          { 'mcp-protocol-version': version },
        );
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('mcp-session-id'), null);
        const m = await rpc(res);
        assert.equal(m.result.protocolVersion, version);
        assert.equal(m.result.serverInfo.name, 'cardano-data-service');
      });

      it('the short form: one tools/call with only content-type and accept', async () => {
        const res = await legacy(
          { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_token', arguments: { unit } } },
          {
            'mcp-protocol-version': version,
          },
        );
        assert.equal(res.status, 200);
        const m = await rpc(res);
        assert.equal(m.result.structuredContent.asset.unit, unit);
      });
    });
  }

  it('revisions older than 2025-03-26 are not served: initialize is offered 2025-11-25, a call is refused', async () => {
    for (const old of ['2024-11-05', '2024-10-07']) {
      const init = await rpc(
        await legacy({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: old, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }),
      );
      assert.equal(init.result.protocolVersion, '2025-11-25', old);
      const call = await legacy(
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_token', arguments: { unit } } },
        { 'mcp-protocol-version': old },
      );
      assert.equal(call.status, 400, old);
      const m = await rpc(call);
      const listed = /supported versions: ([^)]*)\)/.exec(m.error.message)?.[1]?.split(', ');
      assert.deepEqual([...(listed ?? [])].sort(), [...SERVED].sort(), m.error.message);
    }
    const card = (await (await fetch(`${url}/server-card`)).json()) as Json;
    assert.deepEqual(card.remotes[0].supportedProtocolVersions, SERVED);
  });

  it('the short form with no version header at all', async () => {
    const res = await legacy({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'search', arguments: { query: 'usd' } },
    });
    assert.equal(res.status, 200);
    assert.ok((await rpc(res)).result.structuredContent.hits.length > 0);
  });

  /**
   * HTTP's Accept rules (RFC 9110 12.5.1): media types are case-insensitive, and the ranges of every type and of
   * every subtype of one type accept them. The older revisions' transport answered 406 unless the header held the
   * two literal strings, so the every-type range (curl's default Accept) or an upper-case header was refused although
   * it accepts both the JSON and the event stream those revisions answer with. One refusing either is still 406.
   */
  it('the older revisions take an Accept that accepts both types by HTTP rules (ranges, any case); one refusing either is 406', async () => {
    const call = {
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { name: 'search', arguments: { query: 'usd' } },
    };
    for (const version of ['2025-11-25', '2025-06-18', '2025-03-26', null]) {
      const v: Record<string, string> = version ? { 'mcp-protocol-version': version } : {};
      for (const accept of [
        '*/*',
        'application/*, text/*',
        'APPLICATION/JSON, TEXT/EVENT-STREAM',
        'text/*, */*;q=0.5',
      ]) {
        const res = await legacy(call, { ...v, accept });
        assert.equal(res.status, 200, `${version} ${accept}`);
        assert.ok((await rpc(res)).result.structuredContent.hits.length > 0, `${version} ${accept}`);
      }
      for (const accept of ['application/json', 'text/event-stream', 'text/html']) {
        const res = await legacy(call, { ...v, accept });
        assert.equal(res.status, 406, `${version} ${accept}`);
      }
    }
  });

  it('a JSON-RPC batch is served under 2025-03-26 (or no version header) and refused by the revisions without batches', async () => {
    const pings = [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ];
    // 2025-06-18 removed batching from the transport ("MUST be a single JSON-RPC request, notification, or
    // response"); 2025-11-25 and 2026-07-28 kept it out.
    for (const version of ['2025-06-18', '2025-11-25', '2026-07-28']) {
      const res = await legacy(pings as unknown as Json, { 'mcp-protocol-version': version });
      assert.equal(res.status, 400, version);
      const m = await rpc(res);
      assert.equal(m.error.code, -32600, version);
      assert.match(m.error.message, new RegExp(`${version} takes one JSON-RPC message per POST`));
    }
    // 2025-03-26 allows batches, and a request without the header is taken as 2025-03-26.
    for (const headers of [{ 'mcp-protocol-version': '2025-03-26' }, {}] as Record<string, string>[]) {
      const res = await legacy(pings as unknown as Json, headers);
      assert.equal(res.status, 200);
      const ids = (await res.text())
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => (JSON.parse(l.slice(6)) as Json).id as number);
      assert.deepEqual(ids.sort(), [1, 2]);
    }
  });

  it('a batch that cancels one of its own requests ends: that request unanswered, the others answered', async () => {
    // The SDK drops the cancelled request's answer and then waited for it: the POST stayed open with keep-alives
    // until the client gave up (the signal's timeout below fails the test instead of hanging it).
    const cancel = (requestId: number | string) => ({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId, reason: 'no longer needed' },
    });
    const call = (id: number | string) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'search', arguments: { query: 'usd' } },
    });
    const ping = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'ping' });
    const answered = async (batch: Json[]) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { ...JSON_ACCEPT, 'mcp-protocol-version': '2025-03-26' },
        body: JSON.stringify(batch),
        signal: AbortSignal.timeout(15_000),
      });
      const text = await res.text();
      const ids = text
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => (JSON.parse(l.slice(6)) as Json).id as number | string);
      return { status: res.status, ids };
    };
    // Before or after the request it names; the other requests of the batch are answered, the stream ends.
    assert.deepEqual(await answered([cancel(9), call(9), ping(10)]), { status: 200, ids: [10] });
    assert.deepEqual(await answered([call(9), cancel(9), ping(10)]), { status: 200, ids: [10] });
    // Nothing left to answer: the 202 of a batch of notifications.
    assert.deepEqual(await answered([cancel('a'), ping('a')]), { status: 202, ids: [] });
    // An id of another type names another request (JSON-RPC: 9 is not "9"); one naming no request changes nothing.
    assert.deepEqual(await answered([cancel('9'), ping(9), cancel(5)]), { status: 200, ids: [9] });
  });

  it('a revision the header names and the server does not serve is a 400 listing the served ones', async () => {
    // The SDK took a header sorting after 2026-07-28 for a modern request and answered that `_meta` was missing.
    for (const version of ['2027-01-01', 'latest', '2024-11-05']) {
      const res = await legacy({ jsonrpc: '2.0', id: 5, method: 'tools/list' }, { 'mcp-protocol-version': version });
      assert.equal(res.status, 400, version);
      const m = await rpc(res);
      assert.equal(m.id, 5);
      assert.equal(m.error.code, -32022, version);
      assert.deepEqual(m.error.data, { supported: SERVED, requested: version });
      assert.match(
        m.error.message,
        new RegExp(`Unsupported protocol version: ${version} \\(supported versions: ${SERVED.join(', ')}\\)`),
      );
    }
  });

  it('GET and DELETE are 405; bad JSON is −32700; a foreign browser Origin is 403; no error is cacheable', async () => {
    const get = await fetch(url);
    assert.equal(get.status, 405);
    const del = await fetch(url, { method: 'DELETE' });
    assert.equal(del.status, 405);
    const bad = await fetch(url, { method: 'POST', headers: JSON_ACCEPT, body: '{"jsonrpc":' });
    assert.equal(bad.status, 400);
    // As every error the middleware answers: the SDK's own errors too (they said nothing on caching).
    for (const res of [get, del, bad]) assert.equal(res.headers.get('cache-control'), 'no-store', String(res.status));
    assert.equal((await rpc(bad)).error.code, -32700);
    const evil = await modern('tools/list', {}, { origin: 'https://evil.example' });
    assert.equal(evil.status, 403);
    const own = await modern('tools/list', {}, { origin: 'https://cds.example' });
    assert.equal(own.status, 200);
  });

  /**
   * Sends `request` as written on a new connection and resolves with all the server sent until it closed. An answer
   * that waits for the rest of a stated 5 MB is no answer: it gives up after 10 s with what came.
   */
  const rawExchange = (request: string) =>
    new Promise<string>((resolve) => {
      const { hostname, port } = new URL(url);
      const socket = connect(Number(port), hostname);
      let out = '';
      socket.on('data', (d: Buffer) => (out += d.toString('latin1')));
      socket.on('error', () => {});
      socket.on('close', () => resolve(out));
      setTimeout(() => socket.destroy(), 10_000).unref();
      socket.write(request);
    });

  it('a body over 4 MiB of another media type, or to DELETE, is 413, never a 500', async () => {
    // The SDK reads such a body itself (toWebRequest) and refuses one over its 4 MiB: by its stated length at once.
    const exchange = (head: string) => rawExchange(`${head}Content-Length: 5000000\r\n\r\n${'a'.repeat(1000)}`);
    for (const head of [
      'POST /api/mcp HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n',
      'POST /api/mcp HTTP/1.1\r\nHost: x\r\n',
      'DELETE /api/mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n',
    ]) {
      const answer = await exchange(`${head}Accept: application/json, text/event-stream\r\n`);
      const status = Number(answer.split(' ')[1]);
      assert.equal(status, 413, `${head.split('\r\n')[0]}: ${answer.slice(answer.indexOf('{'))}`);
      const m = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Json;
      assert.match(m.error.message, /Payload Too Large/);
      assert.match(answer, /\r\ncache-control: no-store\r\n/i);
    }
  });

  it('a JSON body over 4 MiB is the same 413 JSON-RPC error as any other body over 4 MiB, connection closed', async () => {
    // Oracle: the SDK's own answer to a body over its 4 MiB (toNodeHandler, and this endpoint for text/plain above):
    // 413 { jsonrpc, error: { code -32000, message 'Payload Too Large: …' }, id: null }, Connection: close. A JSON
    // body is read by api/mcp/body.ts instead, which answered { error: 'request body over 4 MiB' } and kept the
    // connection: a JSON-RPC client found no error.message, and the rest of the body was read to be thrown away.
    const exchange = (head: string, body: string) =>
      rawExchange(`${head}Accept: application/json, text/event-stream\r\n${body}`);
    const json = 'POST /api/mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n';
    const modern = `${json}MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: search\r\n`;
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'a'.repeat(4_300_000) } });
    const chunked = `Transfer-Encoding: chunked\r\n\r\n${big.length.toString(16)}\r\n${big}\r\n0\r\n\r\n`;
    for (const [head, body] of [
      // A stated length over 4 MiB: refused at once, as the SDK does, with only the first bytes sent.
      [json, `Content-Length: 5000000\r\n\r\n${'a'.repeat(1000)}`],
      [modern, `Content-Length: 5000000\r\n\r\n${'a'.repeat(1000)}`],
      // No stated length: refused once 4 MiB have been read.
      [json, chunked],
    ] as const) {
      const answer = await exchange(head, body);
      assert.equal(Number(answer.split(' ')[1]), 413, answer.slice(0, 300));
      const m = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Json;
      assert.equal(m.jsonrpc, '2.0');
      assert.equal(m.error.code, -32000);
      assert.match(m.error.message, /^Payload Too Large: Request body must not exceed 4194304 bytes$/);
      assert.equal(m.id, null);
      assert.match(answer, /\r\ncache-control: no-store\r\n/i);
      assert.match(answer, /\r\nconnection: close\r\n/i);
    }
  });

  it('a compressed body is 415 naming its Content-Encoding, not a parse error of JSON it holds', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    for (const coding of ['gzip', 'br']) {
      const bytes = coding === 'gzip' ? gzipSync(body) : brotliCompressSync(body);
      const res = await fetch(url, {
        method: 'POST',
        headers: { ...JSON_ACCEPT, 'content-encoding': coding },
        body: bytes,
      });
      assert.equal(res.status, 415, coding);
      assert.equal(res.headers.get('accept-encoding'), 'identity', coding);
      const m = await rpc(res);
      assert.equal(m.error.code, -32000, coding);
      assert.match(m.error.message, new RegExp(`Content-Encoding ${coding}.*send it uncompressed`), coding);
    }
    // The same JSON uncompressed (or said to be identity) is served.
    const plain = await fetch(url, {
      method: 'POST',
      headers: { ...JSON_ACCEPT, 'content-encoding': 'identity' },
      body,
    });
    assert.equal(plain.status, 200);
    assert.ok(Array.isArray((await rpc(plain)).result.tools));
  });

  it("a browser's CORS preflight is granted only to an Origin the guard lets through", async () => {
    const preflight = (origin: string) =>
      fetch(url, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, mcp-protocol-version',
        },
      });
    for (const origin of ['https://cds.example', 'http://localhost:5173']) {
      const ok = await preflight(origin);
      assert.equal(ok.status, 204, origin);
      assert.equal(ok.headers.get('access-control-allow-origin'), '*', origin);
      assert.match(ok.headers.get('access-control-allow-methods') ?? '', /POST/, origin);
    }
    // Granting it would have the browser send a POST that the guard answers 403.
    const evil = await preflight('https://evil.example');
    assert.equal(evil.headers.get('access-control-allow-origin'), null);
    assert.equal(evil.status, 403);
    assert.match(((await evil.json()) as Json).error, /Origin https:\/\/evil\.example is not allowed/);
  });

  it('serves the server card: v1 schema, reverse-DNS name, short description, media type, CORS, caching', async () => {
    const res = await fetch(`${url}/server-card`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/mcp-server-card+json');
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('cache-control'), 'public, max-age=300', 'as every discovery file (README)');
    const etag = res.headers.get('etag');
    assert.ok(etag);
    const card = (await res.json()) as Json;
    assert.equal(card.$schema, 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json');
    assert.equal(card.name, 'example.cds/cardano-data');
    assert.ok(card.description.length <= 100);
    assert.equal(card.remotes[0].url, 'https://cds.example/api/mcp');
    assert.equal(card.remotes[0].type, 'streamable-http');
    // The card's schema (modelcontextprotocol/experimental-ext-server-card schema.json, v1): these properties only,
    // and what a client sends to a remote is the remote's `headers`. The optional key was a top-level
    // `authentication: { header }`, which no card reader looks for.
    const cardFields = ['$schema', '_meta', 'description', 'icons', 'name', 'remotes', 'repository', 'title'];
    for (const k of Object.keys(card)) assert.ok([...cardFields, 'version', 'websiteUrl'].includes(k), k);
    const remoteFields = ['headers', 'supportedProtocolVersions', 'type', 'url', 'variables'];
    for (const k of Object.keys(card.remotes[0])) assert.ok(remoteFields.includes(k), `remotes[0].${k}`);
    assert.deepEqual(card.remotes[0].headers, [
      {
        name: 'X-API-Key',
        description: 'Optional API key: raises the rate limits (anonymous callers share a per-IP limit).',
        isRequired: false,
        isSecret: true,
      },
    ]);
    // Conditional GET over node:http (fetch adds no-cache headers to conditional requests).
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve) =>
      request(`${url}/server-card`, { headers: { 'if-none-match': etag } }, (r) => {
        r.resume();
        resolve(r.statusCode ?? 0);
      }).end(),
    );
    assert.equal(status, 304);
  });

  describe('answer replay (API_CACHE_MS)', () => {
    let cached: { url: string; server: Server };
    let other = '';
    /** Tool-server requests that reached the middleware chain (the rest were replayed before it). */
    let chained = 0;
    before(async () => {
      // The app's own handler is the fast path in front of Koa's; this one counts what passes through to Koa.
      const app = createApp({ ...world.deps, cacheMs: 60_000 }) as Koa & { replay: FastReplayDeps | null };
      const chain = Koa.prototype.callback.call(app);
      assert.ok(app.replay);
      const handler = fastReplay(app.replay, (req, res) => {
        if (req.url?.startsWith('/api/mcp')) chained++;
        return chain(req, res);
      });
      cached = await listen({ callback: () => handler });
      const tokens = (await (await fetch(`${site}/api/v1/tokens?sort=liquidity&pageSize=2`)).json()) as Json;
      other = tokens.items[1].asset.unit;
    });
    after(() => cached?.server.close());

    const call = (id: number | string, name: string, args: Json, headers: Record<string, string> = {}) =>
      fetch(`${cached.url}/api/mcp`, {
        method: 'POST',
        headers: {
          ...JSON_ACCEPT,
          // fetch asks for br/gzip by default and decodes silently; these tests compare lengths with the text.
          'accept-encoding': 'identity',
          'mcp-protocol-version': MODERN,
          'mcp-method': 'tools/call',
          'mcp-name': name,
          ...headers,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name, arguments: args, _meta: META },
        }),
      });

    it('a repeated call gets the same answer under its own id; header rules still apply to it', async () => {
      const first = await call(1, 'get_token', { unit });
      const firstBody = await first.text();
      const again = await call('second', 'get_token', { unit });
      assert.equal(again.status, 200);
      assert.equal(again.headers.get('content-length'), String(Buffer.byteLength(await again.clone().text())));
      const m = await rpc(again);
      assert.equal(m.id, 'second');
      assert.deepEqual(m.result, (JSON.parse(firstBody) as Json).result);
      const mismatched = await call(3, 'get_token', { unit }, { 'mcp-name': 'get_pool' });
      assert.equal(mismatched.status, 400);
      assert.equal((await rpc(mismatched)).error.code, -32020);
      const noVersion = await call(4, 'get_token', { unit }, { 'mcp-protocol-version': '2025-11-25' });
      assert.equal((await rpc(noVersion)).error.code, -32020);
    });

    it('replays an anonymous call before the middleware chain; PnL, keyed, legacy and new calls take the chain', async () => {
      const args = { unit: other, limit: 2 };
      const first = await call(20, 'get_recent_trades', args);
      assert.equal(first.status, 200);
      const firstBody = await first.text();
      assert.equal((JSON.parse(firstBody) as Json).result.structuredContent.items.length, 2);
      const before = chained;
      const replays = [];
      for (const id of [21, 'x-22', 23]) replays.push(await call(id, 'get_recent_trades', args));
      assert.equal(chained, before, 'the repeated calls were replayed');
      const ids = new Set<string | null>();
      for (const [i, res] of replays.entries()) {
        assert.equal(res.status, 200);
        const text = await res.text();
        assert.equal(res.headers.get('content-length'), String(Buffer.byteLength(text)));
        assert.equal(res.headers.get('content-type'), first.headers.get('content-type'));
        assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
        ids.add(res.headers.get('x-request-id'));
        const m = JSON.parse(text) as Json;
        assert.equal(m.id, [21, 'x-22', 23][i]);
        assert.deepEqual(m.result, (JSON.parse(firstBody) as Json).result);
      }
      assert.equal(ids.size, 3, 'a request id per answer');
      // Each of these reaches the chain every time: a key, the PnL tool (its own limit), a legacy revision, and
      // a call with other arguments (its own answer, learned on its first call).
      const counted = async (send: () => Promise<Response>) => {
        const n = chained;
        for (let i = 0; i < 2; i++) assert.equal((await send()).status, 200);
        return chained - n;
      };
      assert.equal(await counted(() => call(30, 'get_recent_trades', args, { 'x-api-key': 'k' })), 2);
      assert.equal(await counted(() => call(31, 'get_wallet_pnl', { address: 'stake1x' })), 2);
      const shortForm = () =>
        fetch(`${cached.url}/api/mcp`, {
          method: 'POST',
          headers: JSON_ACCEPT,
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 32,
            method: 'tools/call',
            params: { name: 'get_recent_trades', arguments: args },
          }),
        });
      assert.equal(await counted(shortForm), 2);
      assert.equal(await counted(() => call(33, 'get_recent_trades', { ...args, limit: 3 })), 1);
      // A body of another media type is refused (415), not replayed.
      const seq = await call(34, 'get_recent_trades', args, { 'content-type': 'application/json-seq' });
      assert.equal(seq.status, 415);
    });

    it('compresses answers of 1 KB or more in the coding the caller takes, its own id written in, on every path', async () => {
      const { request } = await import('node:http');
      /** One POST over node:http, which (unlike fetch) hands back the bytes as sent. */
      const raw = (headers: Record<string, string>, body: Json) =>
        new Promise<{ headers: Record<string, string | string[] | undefined>; bytes: Buffer }>((resolve, reject) => {
          const req = request(`${cached.url}/api/mcp`, { method: 'POST', headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
          });
          req.on('error', reject);
          req.end(JSON.stringify(body));
        });
      const callHeaders = (name: string, coding: string) => ({
        ...JSON_ACCEPT,
        'accept-encoding': coding,
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': name,
      });
      const callBody = (id: number | string, name: string, args: Json) => ({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name, arguments: args, _meta: META },
      });
      const args = { unit: other, limit: 7 };
      const identity = await raw(callHeaders('get_recent_trades', 'identity'), callBody(0, 'get_recent_trades', args));
      assert.equal(identity.headers['content-encoding'], undefined);
      assert.match(String(identity.headers.vary), /Accept-Encoding/);
      const expected = (JSON.parse(identity.bytes.toString()) as Json).result;
      assert.ok(identity.bytes.length > 1024, `${identity.bytes.length} bytes`);
      const decoders: Record<string, (b: Buffer) => Buffer> = { br: brotliDecompressSync, gzip: gunzipSync };
      for (const [coding, decode] of Object.entries(decoders)) {
        const n = chained;
        // A fresh answer (keyed: the middleware chain and the SDK), its replay by the tool-server cache (keyed
        // again), then an anonymous caller replayed by the fast path before the chain, under ids of every shape.
        const paths: [string | number, Record<string, string>][] = [
          [`${coding}-fresh`, { 'x-api-key': `key-${coding}` }],
          [1e6, { 'x-api-key': `key-${coding}` }],
          ['"quoted" ü', {}],
          [-3, {}],
        ];
        for (const [id, extra] of paths) {
          const headers = { ...callHeaders('get_recent_trades', `${coding}, identity;q=0.5`), ...extra };
          const sent = await raw(
            headers,
            callBody(id, 'get_recent_trades', { ...args, limit: coding === 'br' ? 8 : 9 }),
          );
          assert.equal(sent.headers['content-encoding'], coding, String(id));
          assert.equal(sent.headers['content-length'], String(sent.bytes.length));
          assert.match(String(sent.headers.vary), /Accept-Encoding/);
          const m = JSON.parse(decode(sent.bytes).toString()) as Json;
          assert.equal(m.id, id);
          assert.equal(m.result.structuredContent.items.length, coding === 'br' ? 8 : 9);
          assert.deepEqual(m.result.structuredContent.items.slice(0, 7), expected.structuredContent.items);
          assert.ok(sent.bytes.length < identity.bytes.length / 3, `${coding}: ${sent.bytes.length} bytes`);
        }
        assert.equal(chained - n, 3, 'the last anonymous call was replayed before the chain');
      }
      // tools/list is built per request (no cache keeps it) and compressed as any other answer.
      const list = { jsonrpc: '2.0', id: 9, method: 'tools/list', params: { _meta: META } };
      const listHeaders = (coding: string) => ({
        ...JSON_ACCEPT,
        'accept-encoding': coding,
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/list',
      });
      const plain = await raw(listHeaders('identity'), list);
      const br = await raw(listHeaders('br'), list);
      assert.equal(br.headers['content-encoding'], 'br');
      assert.deepEqual(JSON.parse(brotliDecompressSync(br.bytes).toString()), JSON.parse(plain.bytes.toString()));
      assert.ok(br.bytes.length < plain.bytes.length / 4, `tools/list: ${plain.bytes.length} → ${br.bytes.length}`);
    });

    it('a body nested 100,000 deep is a 400 −32600 at once in both eras (it was left without any answer)', async () => {
      const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
      const meta = JSON.stringify(META);
      const bodies: [string, Record<string, string>][] = [
        [
          `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"query":${deep}},"_meta":${meta}}}`,
          { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'search' },
        ],
        [`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":{"query":${deep}}}}`, {}],
      ];
      for (const base of [cached.url, site])
        for (const [body, headers] of bodies) {
          const res = await fetch(`${base}/api/mcp`, {
            method: 'POST',
            headers: { ...JSON_ACCEPT, ...headers },
            body,
            signal: AbortSignal.timeout(10_000),
          });
          assert.equal(res.status, 400, base);
          const m = await rpc(res);
          assert.equal(m.error.code, -32600);
          assert.match(m.error.message, /nests deeper than 100 levels/);
        }
      // A few levels of nesting is an argument the tool refuses (a result with isError), as any wrong type.
      const shallow = await call(40, 'search', { query: [[['usd']]] });
      assert.equal(shallow.status, 200);
      const r = (await rpc(shallow)).result;
      assert.equal(r.isError, true);
      assert.match(r.content[0].text, /query must be a search text/);
    });

    it('concurrent callers with different arguments and ids each get their own answer', async () => {
      const calls = Array.from({ length: 24 }, (_, i) => {
        const u = i % 2 ? unit : other;
        return call(100 + i, 'get_token', { unit: u }).then(async (r) => ({ i, u, m: await rpc(r) }));
      });
      for (const { i, u, m } of await Promise.all(calls)) {
        assert.equal(m.id, 100 + i);
        assert.equal(m.result.structuredContent.asset.unit, u);
      }
    });
  });

  describe('keys and limits', () => {
    let access: Access;
    let limitedConfig: ReturnType<typeof loadConfig>;
    let limited: { url: string; server: Server };
    before(async () => {
      const config = (limitedConfig = loadConfig({
        SITE_URL: 'https://cds.example',
        RATE_LIMIT_ANON_PER_MIN: '6',
        RATE_LIMIT_PNL_ANON_PER_MIN: '2',
        // Callers told apart by X-Forwarded-For: one per-minute window each.
        TRUST_PROXY: 'true',
      }));
      access = await createAccess({ store: world.store, config, log: pino({ level: 'silent' }) });
      limited = await listen(createApp({ ...world.deps, config, access }));
    });
    after(async () => {
      limited?.server.close();
      await access?.close();
    });

    it('accepts X-API-Key (limit headers on the answer) and refuses an unknown key with 401', async () => {
      const mcp = `${limited.url}/api/mcp`;
      const { key } = await access.registry.create('stake1uxmcptest', 'mcp');
      const res = await fetch(mcp, {
        method: 'POST',
        headers: { ...JSON_ACCEPT, 'x-api-key': key },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'search', arguments: { query: 'usd' } },
        }),
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-ratelimit-limit'), '120');
      assert.ok(res.headers.get('x-daily-remaining'));
      const bad = await fetch(mcp, { method: 'POST', headers: { ...JSON_ACCEPT, 'x-api-key': 'nope' }, body: '{}' });
      assert.equal(bad.status, 401);
    });
    it('limits get_wallet_pnl to 2 a minute per IP in both eras, then the anonymous limit; 429 has the spec body', async () => {
      const mcp = `${limited.url}/api/mcp`;
      const pnlBody = {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_wallet_pnl', arguments: { address: 'stake1x' } },
      };
      // Legacy short form (no Mcp-Name header) and modern form count against the same PnL limit.
      const a = await fetch(mcp, { method: 'POST', headers: JSON_ACCEPT, body: JSON.stringify(pnlBody) });
      const b = await fetch(mcp, {
        method: 'POST',
        headers: {
          ...JSON_ACCEPT,
          'mcp-protocol-version': MODERN,
          'mcp-method': 'tools/call',
          'mcp-name': 'get_wallet_pnl',
        },
        body: JSON.stringify({ ...pnlBody, params: { ...pnlBody.params, _meta: META } }),
      });
      // An older revision never checks Mcp-Name: a header naming another tool does not slip the call past its limit.
      const c = await fetch(mcp, {
        method: 'POST',
        headers: { ...JSON_ACCEPT, 'mcp-name': 'get_pool' },
        body: JSON.stringify(pnlBody),
      });
      assert.deepEqual([a.status, b.status, c.status], [200, 200, 429]);
      const body = (await c.json()) as Json;
      assert.match(body.error, /wallet profit and loss/);
      assert.equal(typeof body.hint, 'string');
      assert.equal(body.docs, 'https://cds.example/docs#limits');
      assert.equal(body.retryAfter, Number(c.headers.get('retry-after')));
      // Other tools go on (the PnL limit is only for PnL) until the anonymous limit of 6 a minute.
      const search = JSON.stringify({ ...pnlBody, params: { name: 'search', arguments: { query: 'a' } } });
      const rest: number[] = [];
      let last: Response | null = null;
      for (let i = 0; i < 6 && !rest.includes(429); i++) {
        last = await fetch(mcp, { method: 'POST', headers: JSON_ACCEPT, body: search });
        rest.push(last.status);
      }
      assert.equal(rest[0], 200);
      assert.equal(rest.at(-1), 429);
      assert.match(((await last!.json()) as Json).error, /6 requests per minute per IP/);
    });

    it('reads no body before the key check and the per-minute limit let the request through', async () => {
      // A 1 MiB tool call of which only the start is sent: an answer before the rest means the body was not awaited.
      const statusLine = (headers: string, port = new URL(limited.url).port) =>
        new Promise<string>((resolve) => {
          let got = '';
          const socket = connect(Number(port), '127.0.0.1', () =>
            socket.write(
              'POST /api/mcp HTTP/1.1\r\nHost: cds.example\r\nContent-Type: application/json\r\n' +
                `Accept: application/json, text/event-stream\r\nContent-Length: 1048576\r\n${headers}\r\n` +
                '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"query":"',
            ),
          );
          socket.on('data', (d: Buffer) => (got += d.toString('latin1')));
          socket.on('error', () => {});
          setTimeout(() => {
            socket.destroy();
            resolve(got.split('\r\n')[0] ?? '');
          }, 1000);
        });
      // An invalid key: 401 at once, whatever the body would have been.
      const badKey = `cds_${'A'.repeat(43)}`;
      assert.equal(
        await statusLine(`X-API-Key: ${badKey}\r\nX-Forwarded-For: 198.51.100.60\r\n`),
        'HTTP/1.1 401 Unauthorized',
      );
      // Seven at once from one IP with a limit of 6: six are let through (and wait for their bodies), the seventh is
      // refused without its body being awaited.
      const lines = await Promise.all(
        Array.from({ length: 7 }, () => statusLine('X-Forwarded-For: 198.51.100.61\r\n')),
      );
      assert.deepEqual(lines.sort(), ['', '', '', '', '', '', 'HTTP/1.1 429 Too Many Requests']);
      // The same through the answer replay's fast path (API_CACHE_MS), which reads small modern calls itself.
      const replaying = await listen(createApp({ ...world.deps, config: limitedConfig, access, cacheMs: 60_000 }));
      try {
        const modern =
          `MCP-Protocol-Version: ${MODERN}\r\nMcp-Method: tools/call\r\nMcp-Name: search\r\n` +
          'X-Forwarded-For: 198.51.100.62\r\n';
        const viaReplay = await Promise.all(
          Array.from({ length: 7 }, () => statusLine(modern, new URL(replaying.url).port)),
        );
        assert.deepEqual(viaReplay.sort(), ['', '', '', '', '', '', 'HTTP/1.1 429 Too Many Requests']);
      } finally {
        replaying.server.closeAllConnections();
        replaying.server.close();
      }
    });

    it('a path in another case or with more trailing slashes is the same surface: same key check, same limit', async () => {
      const base = limited.url;
      // The routers match paths in any case and with any trailing slashes; the access layer decides the same way.
      for (const path of ['/api/MCP', '/api/mcp//', '/Api/Mcp/'])
        assert.equal(
          (
            await fetch(base + path, {
              method: 'POST',
              headers: { ...JSON_ACCEPT, 'x-api-key': 'nope', 'x-forwarded-for': '203.0.113.21' },
              body: '{}',
            })
          ).status,
          401,
          path,
        );
      for (const path of ['/api/MD/market', '/API/md/market/', '/API/V1/tokens'])
        assert.equal(
          (await fetch(base + path, { headers: { 'x-api-key': 'nope', 'x-forwarded-for': '203.0.113.22' } })).status,
          401,
          path,
        );
      // One anonymous window of 6 on the Markdown surface, whatever the case of the path.
      const ip = { 'x-forwarded-for': '203.0.113.20' };
      const paths = [
        '/api/md/market',
        '/api/MD/market',
        '/Api/Md/market/',
        '/api/md/MARKET',
        '/API/MD/market',
        '/api/md/market//',
      ];
      const statuses: number[] = [];
      for (const path of [...paths, '/API/MD/MARKET'])
        statuses.push((await fetch(base + path, { headers: ip })).status);
      assert.deepEqual(statuses.slice(-1), [429], statuses.join(' '));
      assert.ok(
        statuses.slice(0, 6).every((st) => st !== 429),
        statuses.join(' '),
      );
    });

    it('a caller over its limit gets 429 before its body is read: no parse error, no 413', async () => {
      const mcp = `${limited.url}/api/mcp`;
      const headers = { ...JSON_ACCEPT, 'x-forwarded-for': '203.0.113.30' };
      const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) statuses.push((await fetch(mcp, { method: 'POST', headers, body: list })).status);
      assert.equal(statuses.at(-1), 429, statuses.join(' '));
      assert.equal((await fetch(mcp, { method: 'POST', headers, body: '{bad' })).status, 429);
      const big = await fetch(mcp, { method: 'POST', headers, body: 'x'.repeat(5 * 1024 * 1024) });
      assert.equal(big.status, 429);
      // Another caller's malformed body is still its parse error.
      const other = { ...JSON_ACCEPT, 'x-forwarded-for': '203.0.113.31' };
      assert.equal((await fetch(mcp, { method: 'POST', headers: other, body: '{bad' })).status, 400);
    });

    it('counts a 2026-07-28 get_wallet_pnl call whose Mcp-Name is in SEP-2243 Base64 form against the PnL limit', async () => {
      // The SDK decodes `=?base64?…?=` and serves the call; the access layer read the header as written, so such a
      // client made 25 PnL calls a minute past the limit of 20 (npm start's devnet, rate limits on).
      const call = (id: number) =>
        fetch(`${limited.url}/api/mcp`, {
          method: 'POST',
          headers: {
            ...JSON_ACCEPT,
            'mcp-protocol-version': MODERN,
            'mcp-method': 'tools/call',
            'mcp-name': `=?base64?${Buffer.from('get_wallet_pnl').toString('base64')}?=`,
            'x-forwarded-for': '203.0.113.41',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: { name: 'get_wallet_pnl', arguments: { address: 'stake1x' }, _meta: META },
          }),
        });
      const first = await call(1);
      assert.equal(first.status, 200);
      assert.equal(((await first.json()) as Json).id, 1, 'the SDK takes the Base64 name: a tool result, no −32020');
      assert.equal((await call(2)).status, 200);
      const third = await call(3);
      assert.equal(third.status, 429);
      assert.match(((await third.json()) as Json).error, /wallet profit and loss/);
    });

    it('counts every get_wallet_pnl call of a legacy batch against the PnL limit', async () => {
      const mcp = `${limited.url}/api/mcp`;
      const batch = (n: number, ip: string) =>
        fetch(mcp, {
          method: 'POST',
          headers: { ...JSON_ACCEPT, 'mcp-protocol-version': '2025-03-26', 'x-forwarded-for': ip },
          body: JSON.stringify(
            Array.from({ length: n }, (_, i) => ({
              jsonrpc: '2.0',
              id: i + 1,
              method: 'tools/call',
              params: { name: 'get_wallet_pnl', arguments: { address: 'stake1x' } },
            })),
          ),
        });
      // Two calls in one batch spend the whole window of 2: the next single call is refused.
      const two = await batch(2, '203.0.113.8');
      assert.equal(two.status, 200);
      assert.equal((await batch(1, '203.0.113.8')).status, 429);
      // Three calls are over the window of 2: the batch is refused.
      const three = await batch(3, '203.0.113.9');
      assert.equal(three.status, 429);
      assert.match(((await three.json()) as Json).error, /wallet profit and loss/);
    });
  });
});
