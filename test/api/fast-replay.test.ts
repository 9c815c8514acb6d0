/**
 * The replay fast path (api/fast-replay.ts) on a devnet-synced service with the cache window on and the anonymous
 * limit on: what a caller sees of a replayed answer must be what the full middleware chain would have sent — the
 * same bytes, its own request id, the same per-minute window and 429s — and no replay may outlive its block, cross a
 * header that chooses the answer, reach a keyed caller, or slip past the sync gate.
 */
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { createAccess } from '../../api/access/index.js';
import { SYNC_HEALTH, SYNC_HEALTH_ID } from '../../mongo/collections/sync-state.js';
import { put } from '../../mongo/store.js';
import { startStack, type Stack } from '../md/stack.js';

const LIMIT = 12;

describe('replay fast path: cached answers replayed before the middleware chain', function () {
  this.timeout(120_000);
  let stack: Stack;
  let unit = '';
  let key = '';
  before(async () => {
    let registry: Awaited<ReturnType<typeof createAccess>>['registry'] | undefined;
    stack = await startStack({
      seed: 'fast-replay',
      hours: 3,
      cacheMs: 60_000,
      // Each test is its own caller (X-Forwarded-For through a trusted proxy), with its own per-minute window.
      env: { RATE_LIMITS: 'true', RATE_LIMIT_ANON_PER_MIN: String(LIMIT), TRUST_PROXY: 'true' },
      access: async (config, store) => {
        const access = await createAccess({ store, config, log: pino({ level: 'silent' }) });
        registry = access.registry;
        return access;
      },
    });
    key = (await registry!.create('stake1uxtestaccount', 'replay test')).key;
    const tokens = (await (
      await fetch(`${stack.url}/api/v1/tokens?pageSize=1&logos=url`, { headers: { 'x-api-key': key } })
    ).json()) as { items: { asset: { unit: string } }[] };
    unit = tokens.items[0]!.asset.unit;
  });
  after(async () => stack?.close());

  /** `n` identical requests from one anonymous caller, in order. */
  const burst = async (path: string, n: number, headers: Record<string, string> = {}) => {
    const out: { status: number; headers: Headers; body: Buffer }[] = [];
    for (let i = 0; i < n; i++) {
      const res = await fetch(stack.url + path, { headers });
      out.push({ status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) });
    }
    return out;
  };

  /** LIMIT + 2 answers of one anonymous window (hand-counted): 1..LIMIT pass with LIMIT-1 … 0 left, then 429s. */
  const assertOneWindow = (answers: readonly { status: number; headers: Headers }[]) => {
    assert.deepEqual(
      answers.map((a) => a.status),
      [...Array<number>(LIMIT).fill(200), 429, 429],
    );
    assert.deepEqual(
      answers.slice(0, LIMIT).map((a) => Number(a.headers.get('x-ratelimit-remaining'))),
      Array.from({ length: LIMIT }, (_, i) => LIMIT - 1 - i),
    );
  };

  it('stops at the sync gate for a path in any case, as the routers match it and the full chain gates it', async () => {
    // The routers match /api/v1/Tokens/… as /api/v1/tokens/…; the replay must gate it as the same answer. First in
    // this file: no block is added before it, so the checkpoint stays the one the answer was kept at.
    const path = `/api/v1/Tokens/${unit}?logos=url`;
    const headers = { 'x-forwarded-for': '10.3.3.3' };
    assert.deepEqual(
      (await burst(path, 2, headers)).map((a) => a.status),
      [200, 200],
    );
    const health = await stack.store.collection(SYNC_HEALTH).get(SYNC_HEALTH_ID);
    assert.ok(health, 'the synced stack has a sync health document');
    const at = new Date().toISOString();
    // A deep rollback recorded as a new generation before any block is undone: the checkpoint (and so the kept
    // answer's key) is still the one it was read at, and no recompute has run on the new chain yet.
    await stack.store.write([
      put(SYNC_HEALTH, {
        ...health,
        generation: health.generation + 1,
        lastDeepRollback: { depth: 12, toHeight: 1, at },
        updatedAt: at,
      }),
    ]);
    // The gate reads the sync state at most every 250 ms.
    await new Promise((r) => setTimeout(r, 300));
    try {
      const [withheld] = await burst(path, 1, headers);
      assert.equal(withheld!.status, 503);
      assert.match(JSON.parse(withheld!.body.toString()).error as string, /recomputing after a rollback of 12 blocks/);
    } finally {
      await stack.store.write([put(SYNC_HEALTH, health)]);
      await new Promise((r) => setTimeout(r, 300));
    }
  });

  it('replays the same bytes with a request id each, counting every request in the anonymous window', async () => {
    const answers = await burst(`/api/md/token/${unit}`, LIMIT + 2);
    assertOneWindow(answers);
    const ok = answers.slice(0, LIMIT);
    for (const a of ok) {
      assert.deepEqual(a.body, ok[0]!.body);
      assert.equal(a.headers.get('etag'), ok[0]!.headers.get('etag'));
      assert.equal(a.headers.get('content-type'), 'text/markdown; charset=utf-8');
      assert.equal(a.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(a.headers.get('x-ratelimit-limit'), String(LIMIT));
    }
    assert.equal(new Set(ok.map((a) => a.headers.get('x-request-id'))).size, LIMIT, 'one request id per answer');
    const limited = JSON.parse(answers[LIMIT]!.body.toString()) as { error: string; retryAfter: number };
    assert.match(limited.error, new RegExp(`${LIMIT} requests per minute`));
    assert.ok(Number(answers[LIMIT]!.headers.get('retry-after')) > 0);

    // The replays were counted under the view's route, as operators read them.
    const metrics = await (await fetch(`${stack.url}/metrics`)).text();
    const count = new RegExp(
      `http_request_duration_seconds_count\\{surface="markdown",route="/api/md/token/:unit",method="GET",status="200"\\} (\\d+)`,
    ).exec(metrics);
    assert.equal(Number(count?.[1]), LIMIT);
  });

  /** A 2026-07-28 `tools/call` of get_token from the caller at `ip`. */
  const toolCall = (id: number, ip: string) =>
    fetch(`${stack.url}/api/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'get_token',
        'x-forwarded-for': ip,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: {
          name: 'get_token',
          arguments: { unit },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          },
        },
      }),
    });

  it("replays a tool call under each caller's id, counting every call in the tool server's anonymous window", async () => {
    const answers = [];
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await toolCall(i, '10.4.4.4');
      answers.push({ status: res.status, headers: res.headers, text: await res.text() });
    }
    assertOneWindow(answers);
    const ok = answers.slice(0, LIMIT).map((a) => JSON.parse(a.text) as { id: number; result: unknown });
    ok.forEach((m, i) => {
      assert.equal(m.id, i);
      assert.deepEqual(m.result, ok[0]!.result);
    });
    assert.equal(new Set(answers.map((a) => a.headers.get('x-request-id'))).size, LIMIT + 2);
    const metrics = await (await fetch(`${stack.url}/metrics`)).text();
    const count =
      /http_request_duration_seconds_count\{surface="mcp",route="\/api\/mcp",method="POST",status="200"\} (\d+)/.exec(
        metrics,
      );
    assert.equal(Number(count?.[1]), LIMIT);
  });

  it('refuses an id the tool server refuses even while an answer to the same call is kept', async () => {
    // The SDK takes a string or a safe integer as a JSON-RPC id (RequestIdSchema: string | int) and answers any other
    // number 400 "not a valid JSON-RPC message". Right after id 7 had the answer kept, the same call under such an id
    // was replayed 200: one request got 200 or 400 by whether someone had asked the same call within the window.
    for (const id of [1.5, 1e21, -2.5]) {
      assert.equal((await toolCall(7, '10.4.4.5')).status, 200);
      const res = await toolCall(id, '10.4.4.5');
      const text = await res.text();
      assert.equal(res.status, 400, `id ${id} after a kept answer: ${text.slice(0, 80)}`);
      assert.match(text, /not a valid JSON-RPC message/);
    }
  });

  it("echoes the caller's own request id on a replay", async () => {
    const path = `/api/v1/tokens/${unit}/holders`;
    await burst(path, 1, { 'x-api-key': key });
    const [a, b] = await burst(path, 2, { 'x-request-id': 'trace-0123456789', 'x-forwarded-for': '10.9.9.9' });
    assert.equal(a!.headers.get('x-request-id'), 'trace-0123456789');
    assert.equal(b!.headers.get('x-request-id'), 'trace-0123456789');
    assert.deepEqual(a!.body, b!.body);
  });

  it('keeps each representation apart: JSON, Markdown by Accept, brotli by Accept-Encoding (also named after gzip)', async () => {
    const path = `/api/v1/tokens/${unit}?logos=url`;
    const want = { json: 'application/json; charset=utf-8', md: 'text/markdown; charset=utf-8' };
    const kinds = [
      { headers: { accept: 'application/json', 'accept-encoding': 'identity' }, type: want.json, br: false },
      { headers: { accept: 'text/markdown', 'accept-encoding': 'identity' }, type: want.md, br: false },
      { headers: { accept: 'application/json', 'accept-encoding': 'br' }, type: want.json, br: true },
      // A browser's header: gzip named first, br as much wanted, so br.
      {
        headers: { accept: 'application/json', 'accept-encoding': 'gzip, deflate, br, zstd' },
        type: want.json,
        br: true,
      },
    ];
    // Other callers (one per kind, each its own window) ask for each in turn, three rounds: every answer is the one
    // it asked for.
    const seen = new Map<number, string>();
    for (let round = 0; round < 3; round++)
      for (const [i, k] of kinds.entries()) {
        const res = await fetch(stack.url + path, { headers: { ...k.headers, 'x-forwarded-for': `10.3.3.${3 + i}` } });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('content-type'), k.type);
        assert.equal(res.headers.get('content-encoding'), k.br ? 'br' : null);
        // fetch decodes a br body itself (and would fail on bytes that are not brotli).
        const text = await res.text();
        if (k.type === want.json) assert.equal((JSON.parse(text) as { asset: { unit: string } }).asset.unit, unit);
        else assert.match(text, /^# /);
        if (round === 0) seen.set(i, text);
        else assert.equal(text, seen.get(i));
      }
  });

  it('never replays to a keyed caller: its answer carries its plan limit and daily quota', async () => {
    const path = `/api/md/token/${unit}`;
    const keyed = await burst(path, 1, { 'x-api-key': key });
    assert.equal(keyed[0]!.status, 200);
    assert.notEqual(keyed[0]!.headers.get('x-ratelimit-limit'), String(LIMIT));
    assert.ok(keyed[0]!.headers.get('x-daily-remaining'));
  });

  it('ends with the block it was read at: a new block is served at once', async () => {
    const path = `/api/md/token/${unit}`;
    const headers = { 'x-forwarded-for': '10.1.1.1' };
    const before = (await burst(path, 2, headers)).map((a) => a.body.toString());
    assert.equal(before[0], before[1]);
    assert.match(before[0]!, new RegExp(`indexed block ${stack.devnet.tip().height}\\b`));
    stack.devnet.step();
    await stack.syncToTip();
    const after = (await burst(path, 1, headers))[0]!.body.toString();
    assert.match(after, new RegExp(`indexed block ${stack.devnet.tip().height}\\b`));
    assert.notEqual(after, before[0]);
  });

  it('stops at the sync gate: a stalled sync withholds the answer a replay would have sent', async () => {
    const path = `/api/v1/tokens/${unit}?logos=url`;
    const headers = { 'x-forwarded-for': '10.2.2.2' };
    assert.deepEqual(
      (await burst(path, 2, headers)).map((a) => a.status),
      [200, 200],
    );
    const kept = (await (await toolCall(98, '10.5.5.5')).json()) as { result: { isError?: boolean } };
    assert.notEqual(kept.result.isError, true);
    const at = new Date().toISOString();
    await stack.store.write([
      put(SYNC_HEALTH, {
        _id: SYNC_HEALTH_ID,
        contactAt: at,
        tip: stack.devnet.tip(),
        failing: null,
        stall: {
          kind: 'rollback-too-deep',
          reason: 'sync stalled: rollback beyond the undo window, resync needed',
          action: 'resync',
          error: 'test',
          since: at,
          abandonedAbove: 0,
        },
        generation: 0,
        lastDeepRollback: null,
        updatedAt: at,
      }),
    ]);
    // The gate reads the sync state at most every 250 ms.
    await new Promise((r) => setTimeout(r, 300));
    const [withheld] = await burst(path, 1, headers);
    assert.equal(withheld!.status, 503);
    assert.match(JSON.parse(withheld!.body.toString()).error as string, /withheld until a resync/);
    // The tool server's kept answer is withheld too: the tool says why.
    const tool = (await (await toolCall(99, '10.5.5.5')).json()) as {
      id: number;
      result: { isError?: boolean; content: { text: string }[] };
    };
    assert.equal(tool.id, 99);
    assert.equal(tool.result.isError, true);
    assert.match(tool.result.content[0]!.text, /withheld until a resync/);
  });
});
