/**
 * The REST micro-cache (api/micro-cache.ts): identical requests inside the window are answered from bytes, a new
 * sync checkpoint (block or rollback) or the end of the window makes the next request read the store again, and
 * errors are never kept.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import { microCache } from '../../api/micro-cache.js';
import { openEmbeddedStore } from '../../mongo/adapters/embedded.js';
import { CHECKPOINTS } from '../../mongo/collections/sync-state.js';
import { put, type Store } from '../../mongo/store.js';
import { checkpoint } from './checkpoint.js';

describe('REST micro-cache', () => {
  let dir: string;
  let store: Store;
  let url: string;
  let server: ReturnType<Koa['listen']>;
  let now = 1_000_000;
  let reads = 0;
  let blockMidRead = false;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cds-micro-'));
    store = await openEmbeddedStore({ path: dir });
    await store.ensureIndexes([CHECKPOINTS]);
    await store.write([put(CHECKPOINTS, checkpoint(10, 'aa'))]);
    const app = new Koa();
    app.use(microCache({ store, ttlMs: 1000, clock: () => now }));
    app.use(async (ctx) => {
      reads++;
      if (ctx.path === '/missing') {
        ctx.status = 404;
        ctx.body = { error: 'not found' };
        return;
      }
      if (ctx.path === '/block-mid-read' && blockMidRead) {
        // A block commits while this answer is read: what it carries is the new block's state.
        blockMidRead = false;
        await store.write([put(CHECKPOINTS, checkpoint(21, 'b21'))]);
      }
      ctx.etag = `"v${reads}"`;
      // /big: an answer worth compressing (a token list with inline logos is ~1 MB).
      const filler = ctx.path === '/big' ? 'lovelace '.repeat(2000) : undefined;
      ctx.body = { path: ctx.path, q: ctx.querystring, read: reads, ...(filler ? { filler } : {}) };
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((res) => server.once('listening', res));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = async (p: string) => {
    const r = await fetch(url + p);
    return { status: r.status, etag: r.headers.get('etag'), type: r.headers.get('content-type'), text: await r.text() };
  };

  it('answers an identical request inside the window from the stored bytes, with its ETag and 304', async () => {
    const first = await get('/tokens?sort=volume');
    const again = await get('/tokens?sort=volume');
    assert.equal(reads, 1, 'the second request did not reach the handler');
    assert.equal(again.text, first.text);
    assert.equal(again.etag, first.etag);
    assert.match(again.type ?? '', /application\/json/);
    // node:http, not fetch: fetch adds `cache-control: no-cache` to a request carrying If-None-Match.
    const status = await new Promise<number | undefined>((res, rej) =>
      http
        .get(`${url}/tokens?sort=volume`, { headers: { 'if-none-match': first.etag ?? '' } }, (r) => {
          r.resume();
          res(r.statusCode);
        })
        .on('error', rej),
    );
    assert.equal(status, 304);
    assert.equal(reads, 1);
    const other = await get('/tokens?sort=mcap');
    assert.equal(JSON.parse(other.text).q, 'sort=mcap', 'another query string is another answer');
  });

  it('reads again after a new block or a rollback changes the checkpoint', async () => {
    const before = await get('/pools');
    await store.write([put(CHECKPOINTS, checkpoint(9, 'bb'))]); // rolled back one block onto another branch
    const after = await get('/pools');
    assert.notEqual(JSON.parse(after.text).read, JSON.parse(before.text).read);
  });

  it('keeps no answer read while the checkpoint moved: a rollback back to where it began reads again', async () => {
    // Devnet and mainnet forks: block 21 lands while an answer is read (it carries block 21's state), then a fork
    // rolls the chain back to block 20. The answer was read at 21, so it must not be served as block 20's.
    await store.write([put(CHECKPOINTS, checkpoint(20, 'a20'))]);
    blockMidRead = true;
    const during = await get('/block-mid-read');
    assert.equal(blockMidRead, false, 'the block landed during the read');
    await store.write([put(CHECKPOINTS, checkpoint(20, 'a20'))]); // rolled back to block 20
    const afterRollback = await get('/block-mid-read');
    assert.notEqual(
      JSON.parse(afterRollback.text).read,
      JSON.parse(during.text).read,
      "the answer read at block 21 was served as block 20's",
    );
    // Read at block 20 throughout, an answer is kept as before.
    const again = await get('/block-mid-read');
    assert.equal(JSON.parse(again.text).read, JSON.parse(afterRollback.text).read);
  });

  it('reads again once the window has passed', async () => {
    const before = await get('/market/overview');
    now += 1001;
    const after = await get('/market/overview');
    assert.notEqual(JSON.parse(after.text).read, JSON.parse(before.text).read);
  });

  it('never keeps an error answer', async () => {
    const n = reads;
    assert.equal((await get('/missing')).status, 404);
    assert.equal((await get('/missing')).status, 404);
    assert.equal(reads, n + 2);
  });

  /** node:http GET with explicit headers (fetch would negotiate and decode on its own). */
  const raw = (p: string, headers: Record<string, string>) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((res, rej) =>
      http
        .get(url + p, { headers }, (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => res({ status: r.statusCode ?? 0, headers: r.headers, body: Buffer.concat(chunks) }));
        })
        .on('error', rej),
    );

  it('compresses a large answer once per cached entry in the coding the client prefers, each with its own ETag', async () => {
    now += 10_000; // a fresh window
    const plain = await raw('/big', { 'accept-encoding': 'identity' });
    const readsAfterFirst = reads;
    const br = await raw('/big', { 'accept-encoding': 'gzip;q=0.5, br' });
    const gz = await raw('/big', { 'accept-encoding': 'gzip' });
    const br2 = await raw('/big', { 'accept-encoding': 'br' });
    assert.equal(reads, readsAfterFirst, 'every coding is served from the cached answer');
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(gz.headers['content-encoding'], 'gzip');
    for (const r of [plain, br, gz]) assert.match(String(r.headers.vary), /Accept-Encoding/i);
    assert.deepEqual(brotliDecompressSync(br.body), plain.body);
    assert.deepEqual(gunzipSync(gz.body), plain.body);
    assert.ok(br.body.length * 5 < plain.body.length, `br ${br.body.length} of ${plain.body.length} bytes`);
    assert.deepEqual(br2.body, br.body, 'the same compressed bytes again');
    // Three representations, three validators; each revalidates to 304 only with its own.
    const tags = [plain, br, gz].map((r) => String(r.headers.etag));
    assert.equal(new Set(tags).size, 3);
    assert.equal((await raw('/big', { 'accept-encoding': 'br', 'if-none-match': tags[1] ?? '' })).status, 304);
    assert.equal((await raw('/big', { 'accept-encoding': 'br', 'if-none-match': tags[0] ?? '' })).status, 200);
    // HEAD: the headers of the GET answer in the same coding (length of the compressed bytes), no body.
    const head = await new Promise<http.IncomingMessage>((res, rej) =>
      http
        .request(url + '/big', { method: 'HEAD', headers: { 'accept-encoding': 'br' } }, (r) => {
          r.resume();
          r.on('end', () => res(r));
        })
        .on('error', rej)
        .end(),
    );
    assert.equal(head.headers['content-encoding'], 'br');
    assert.equal(head.headers.etag, br.headers.etag);
    assert.equal(Number(head.headers['content-length']), br.body.length);
    assert.match(String(head.headers.vary), /Accept-Encoding/i);
    assert.equal(reads, readsAfterFirst, 'HEAD is answered from the cached answer too');
    // A client taking br as much as gzip gets br, whatever order it names them in: a browser's and curl
    // --compressed's headers list gzip first. A lower q for br is still the client's word.
    for (const ae of ['gzip, deflate, br, zstd', 'deflate, gzip, br, zstd', 'gzip, *', 'gzip;q=0.8, br;q=0.8'])
      assert.equal((await raw('/big', { 'accept-encoding': ae })).headers['content-encoding'], 'br', ae);
    for (const ae of ['gzip, br;q=0.9', 'gzip, br;q=0', 'gzip'])
      assert.equal((await raw('/big', { 'accept-encoding': ae })).headers['content-encoding'], 'gzip', ae);
    // A small answer is not worth compressing.
    const small = await raw('/tokens?sort=small', { 'accept-encoding': 'br' });
    assert.equal(small.headers['content-encoding'], undefined);
  });
});
