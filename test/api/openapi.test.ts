import assert from 'node:assert/strict';
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { compileErrors, validate } from '@readme/openapi-parser';
import { pino } from 'pino';
import type { ApiDeps } from '../../api/deps.js';
import { restRouter } from '../../api/routes/index.js';
import { openMemoryStore } from '../../mongo/adapters/embedded.js';
import { startTestApi, type TestApi } from './seed.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the document

describe('OpenAPI document (GET /api/v1/openapi.json)', () => {
  let api: TestApi;
  let doc: Json;
  before(async () => {
    api = await startTestApi(async () => {});
    const r = await api.get('/api/v1/openapi.json');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /application\/json/);
    doc = r.body as Json;
  });
  after(() => api.close());

  it('is a valid OpenAPI 3.1 document, version 1.0.0, served from SITE_URL/api/v1', async () => {
    const result = await validate(structuredClone(doc) as never);
    assert.ok(result.valid, result.valid ? '' : compileErrors(result));
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, '1.0.0');
    assert.deepEqual(doc.servers, [{ url: 'http://api.test/api/v1' }]);
  });

  it('allows anonymous calls or an x-api-key header or a bearer key', () => {
    assert.deepEqual(doc.security, [{}, { apiKey: [] }, { bearer: [] }]);
    assert.deepEqual(doc.components.securitySchemes.apiKey, { type: 'apiKey', in: 'header', name: 'x-api-key' });
    assert.equal(doc.components.securitySchemes.bearer.scheme, 'bearer');
  });

  it('lists 400, 401, 404 and 429 on every operation, 429 with the richer body and Retry-After', () => {
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      const op = (item as Json).get as Json;
      for (const status of ['200', '400', '401', '404', '429']) assert.ok(op.responses[status], `${path} ${status}`);
      const logos = (op.parameters as Json[]).find((p) => p.name === 'logos');
      assert.deepEqual(logos?.schema.enum, ['url'], `${path} accepts logos`);
    }
    const tooMany = doc.components.responses.TooManyRequests;
    assert.ok(tooMany.headers['Retry-After']);
    assert.equal(tooMany.content['application/json'].schema.$ref, '#/components/schemas/RateLimitError');
    assert.deepEqual(doc.components.schemas.RateLimitError.required, ['error', 'hint', 'docs', 'retryAfter']);
    assert.deepEqual(doc.components.schemas.Error.required, ['error']);
  });

  it('declares the rate-limit headers on every success and 429 answer', () => {
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      const ok = (item as Json).get.responses['200'];
      for (const h of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Daily-Remaining'])
        assert.equal(ok.headers?.[h]?.schema?.type, 'integer', `${path} 200 ${h}`);
    }
    assert.equal(doc.components.responses.TooManyRequests.headers['X-RateLimit-Reset'].schema.type, 'integer');
  });

  it('is compressed for a client that accepts it, as every REST answer of 1 KB or more (with its own ETag)', async () => {
    const raw = (headers: Record<string, string>, method = 'GET') =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }>((resolve, reject) => {
        http
          .request(api.url + '/api/v1/openapi.json', { method, headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }),
            );
          })
          .on('error', reject)
          .end();
      });
    const plain = await raw({ 'accept-encoding': 'identity' });
    const br = await raw({ 'accept-encoding': 'br, gzip' });
    const gz = await raw({ 'accept-encoding': 'gzip' });
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.deepEqual(JSON.parse(brotliDecompressSync(br.bytes).toString('utf8')), doc);
    assert.deepEqual(JSON.parse(gunzipSync(gz.bytes).toString('utf8')), doc);
    assert.ok(br.bytes.length * 4 < plain.bytes.length, `${br.bytes.length} of ${plain.bytes.length} bytes`);
    for (const r of [plain, br, gz]) assert.match(String(r.headers.vary), /Accept-Encoding/);
    assert.notEqual(br.headers.etag, plain.headers.etag);
    assert.equal((await raw({ 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) })).status, 304);
    const head = await raw({ 'accept-encoding': 'br' }, 'HEAD');
    assert.equal(head.headers['content-encoding'], 'br');
    assert.equal(head.headers['content-length'], String(br.bytes.length));
  });

  it('gives every object and array in the document a schema of its members (no bare `object`)', () => {
    const bare: string[] = [];
    const walk = (s: unknown, at: string) => {
      if (Array.isArray(s)) return s.forEach((x, i) => walk(x, `${at}/${i}`));
      if (!s || typeof s !== 'object') return;
      const o = s as Json;
      const types = [o.type].flat();
      // The Path Item objects inside the openapi.json answer's own schema are described by the OpenAPI spec itself.
      if (types.includes('object') && !o.properties && !o.additionalProperties && !o.$ref) bare.push(at);
      if (types.includes('array') && !o.items) bare.push(at);
      for (const [k, v] of Object.entries(o)) walk(v, `${at}/${k}`);
    };
    walk(doc.components.schemas, '#/components/schemas');
    for (const [path, item] of Object.entries(doc.paths as Json))
      walk((item as Json).get.responses['200'].content, `${path} 200`);
    assert.deepEqual(
      bare.filter((b) => !b.endsWith('/paths/additionalProperties')),
      [],
    );
  });

  it('GET /api/v1 (the base URL itself) names the description, the docs, the other surfaces and every operation', async () => {
    for (const root of ['/api/v1', '/api/v1/']) {
      const r = await api.get(root);
      assert.equal(r.status, 200, root);
      const index = r.body as Json;
      assert.equal(index.openapi, 'http://api.test/api/v1/openapi.json');
      assert.equal(index.version, doc.info.version);
      assert.equal(index.toolServer, 'http://api.test/api/mcp');
      // Every operation of the OpenAPI document, at its absolute path, with the document's summary.
      const documented = Object.entries(doc.paths as Record<string, Json>).map(([p, item]) => [
        item.get.operationId,
        p === '/' ? '/api/v1' : `/api/v1${p}`,
        item.get.summary,
      ]);
      assert.deepEqual(
        (index.operations as Json[]).map((o) => [o.operationId, o.path, o.summary]),
        documented,
      );
    }
    // The links it gives are served.
    const index = (await api.get('/api/v1')).body as Json;
    for (const link of [index.openapi, index.docs, index.markdown, index.llms])
      assert.equal((await api.get(new URL(link as string).pathname)).status, 200, link);
  });

  it('documents every GET route the app serves under /api/v1', async () => {
    const store = await openMemoryStore();
    // The app sends every /api/v1 request to this router (api/app.ts).
    const v1 = restRouter({
      store,
      config: { SITE_URL: 'http://api.test', CARDANO_NETWORK: 'mainnet', TRUST_PROXY: false },
      log: pino({ level: 'silent' }),
    } as ApiDeps);
    const served = v1.stack
      .filter((layer) => layer.methods.includes('GET') && /^\/api\/v1(\/|$)/.test(String(layer.path)))
      .map(
        (layer) =>
          String(layer.path)
            .slice('/api/v1'.length)
            .replace(/:(\w+)/g, '{$1}') || '/',
      );
    assert.ok(served.includes('/explorer/blocks/{id}'), 'the walk finds the mounted routes');
    for (const p of served) assert.ok(doc.paths[p]?.get, `GET ${p} is served but missing from the OpenAPI document`);
    assert.deepEqual(
      Object.keys(doc.paths).sort(),
      [...new Set(served)].sort(),
      'and nothing is documented but not served',
    );
    await store.close();
  });
});
