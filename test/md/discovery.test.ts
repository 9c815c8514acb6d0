/**
 * Discovery files on a devnet-synced service, checked against what the service actually serves: llms.txt links every
 * Markdown view and the OpenAPI document (and they resolve), llms-full.txt documents every operation and parameter
 * of the served /api/v1/openapi.json (and every MCP tool when the tool list exists), the AI catalog has both `type`
 * and `mediaType` on each entry, the sitemap's pages resolve, and /docs shows the configured limits.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';
import { pino } from 'pino';
import { createAccess } from '../../api/access/index.js';
import { loadTools } from '../../api/discovery/routes.js';
import { MD_VIEWS } from '../../api/md/routes.js';
import { startStack, type Stack } from './stack.js';

describe('discovery files', function () {
  this.timeout(240_000);
  let s: Stack;
  const get = async (path: string) => {
    const res = await fetch(path.startsWith('http') ? path : s.url + path);
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
  };
  before(async () => {
    // With the access layer (the account page is a sitemap page); limits off so the crawl below is not throttled.
    s = await startStack({
      seed: 'md-discovery',
      hours: 2,
      env: { RATE_LIMIT_ANON_PER_MIN: '37' },
      access: (config, store) => createAccess({ store, config, log: pino({ level: 'silent' }) }),
    });
  });
  after(async () => s?.close());

  it('llms.txt: title, summary, sections of links to the views, the OpenAPI and the MCP endpoint; links resolve', async () => {
    const a = await get('/llms.txt');
    assert.equal(a.status, 200);
    assert.equal(a.type, 'text/markdown; charset=utf-8');
    const lines = a.text.split('\n');
    assert.match(lines[0]!, /^# \S/);
    assert.match(lines[2]!, /^> \S/);
    // The summary names everything the spec's "What the service does" lists the service as publishing.
    for (const what of [
      'token prices',
      'liquidity',
      'volume',
      'candles',
      'trades',
      'holders',
      'DEX pools',
      'wallets',
      'PnL',
      'NFT collections',
      'blocks',
      'transactions',
      'addresses',
      'stake pools',
      'storage-network overview',
      'market overview',
      'swap quotes',
    ])
      assert.ok(lines[2]!.includes(what), what);
    assert.ok(lines.filter((l) => l.startsWith('## ')).length >= 3);
    // A view taking an id is named by its URL template (as code: no page answers the template itself, the literal
    // {unit} is a 400); the others are links.
    for (const v of MD_VIEWS)
      assert.ok(
        a.text.includes(v.path.includes('{') ? `\`${s.url}/api/md${v.path}\`` : `(${s.url}/api/md${v.path})`),
        v.path,
      );
    for (const u of ['/api/v1/openapi.json', '/api/mcp)', '/api/mcp/server-card', '/llms-full.txt', '/docs'])
      assert.ok(a.text.includes(`${s.url}${u}`), u);
    const links = [...a.text.matchAll(/\]\((http[^)\s]+)\)/g)].map((m) => m[1] as string);
    for (const u of links) {
      // The tool server's endpoint answers POST (its own surface, tested with it); every other link is a page.
      if (u === `${s.url}/api/mcp`) continue;
      assert.equal((await get(u)).status, 200, u);
    }
  });

  it('llms-full.txt documents every served operation and parameter, and every MCP tool when there is a tool list', async () => {
    const openapi = JSON.parse((await get('/api/v1/openapi.json')).text) as {
      paths: Record<string, Record<string, { parameters?: { name: string }[] }>>;
    };
    const a = await get('/llms-full.txt');
    assert.equal(a.status, 200);
    for (const [path, ops] of Object.entries(openapi.paths))
      for (const [method, op] of Object.entries(ops)) {
        const at = a.text.indexOf(`### ${method.toUpperCase()} ${path}\n`);
        assert.ok(at >= 0, `${method} ${path}`);
        const section = a.text.slice(at, a.text.indexOf('\n### ', at + 1));
        for (const p of op.parameters ?? []) assert.ok(section.includes(`| ${p.name}`), `${path} ${p.name}`);
      }
    for (const name of ['SwapRoute', 'AssetRef', 'TokenRow', 'Trade'])
      assert.ok(a.text.includes(`### ${name}\n`), name);
    assert.ok(a.text.includes('37 requests per minute per IP'), 'limits from the configuration');
    // The spec's notation for the site's address is not a URL a reader can use.
    assert.ok(!a.text.includes('{site_url}'), 'no {site_url} placeholder');
    // As api/access/limits.ts counts a batch (test/access/limits.test.ts): an agent learns it before its 429.
    assert.match(a.text, /batch .*counts each message as a request, per minute and per day/);
    const tools = await loadTools();
    if (tools) for (const t of tools) assert.ok(a.text.includes(`### ${t.name}\n`), t.name);
    else console.log('      (no api/mcp/tools.ts on this branch yet: tool section points at tools/list)');
  });

  /**
   * The tool section named the endpoint and the revisions but not how a request is made: the 2026-07-28 headers
   * (MCP-Protocol-Version, Mcp-Method, Mcp-Name) and `_meta` keys the server refuses a call without (400 −32020 or
   * −32602), which the spec's tool-server section spells out. An agent with only an HTTP tool, reading this file,
   * could not call a tool. Oracle: the server itself answers the request the file shows.
   */
  it('llms-full.txt shows how to call a tool, and the server answers the request it shows', async () => {
    const a = await get('/llms-full.txt');
    const example = /```http\n([\s\S]*?)\n```/.exec(a.text.slice(a.text.indexOf('## Tool server (MCP)')));
    assert.ok(example, 'an HTTP example in the tool section');
    const [head, body] = example[1]!.split('\n\n') as [string, string];
    const [requestLine, ...headerLines] = head.split('\n');
    const [method, target] = requestLine!.split(' ') as [string, string];
    assert.equal(method, 'POST');
    assert.equal(target, `${s.url}/api/mcp`);
    const headers = Object.fromEntries(
      headerLines.map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]),
    );
    for (const h of ['MCP-Protocol-Version', 'Mcp-Method', 'Mcp-Name']) assert.ok(headers[h], h);
    const res = await fetch(target, { method, headers, body });
    assert.equal(res.status, 200);
    const answer = (await res.json()) as { result: { isError?: boolean; structuredContent: { asOf: unknown } } };
    assert.notEqual(answer.result.isError, true, JSON.stringify(answer).slice(0, 300));
    assert.ok(answer.result.structuredContent.asOf !== undefined, 'a tool result');
    // The older revisions' short form is named too.
    assert.match(a.text, /single `?tools\/call`? with only `?Content-Type`? and `?Accept`?/);
  });

  it('ai-catalog.json lists the MCP server card, the OpenAPI and llms.txt with both type and mediaType', async () => {
    const a = await get('/.well-known/ai-catalog.json');
    assert.equal(a.status, 200);
    assert.match(a.type, /^application\/json/);
    const c = JSON.parse(a.text) as { entries: { url: string; type: string; mediaType: string }[] };
    for (const u of ['/api/mcp/server-card', '/api/v1/openapi.json', '/llms.txt'])
      assert.ok(
        c.entries.some((e) => e.url === s.url + u),
        u,
      );
    for (const e of c.entries) assert.ok(e.type && e.mediaType, e.url);
    // The catalog's (and the server card's) site URL answers: it leads to the documentation page.
    const root = await fetch(`${s.url}/`, { redirect: 'manual' });
    assert.equal(root.status, 302);
    assert.equal(new URL(root.headers.get('location') ?? '', s.url).pathname, '/docs');
    assert.equal((await get('/')).status, 200);
  });

  it('sitemap.xml lists the pages and views, and they resolve', async () => {
    const a = await get('/sitemap.xml');
    assert.equal(a.status, 200);
    const doc = new XMLParser().parse(a.text) as { urlset: { url: { loc: string; lastmod: string }[] } };
    const locs = doc.urlset.url.map((u) => u.loc);
    for (const p of ['/docs', '/swap', '/api/md/market', '/api/md/dashboard', '/api/md/tokens'])
      assert.ok(locs.includes(s.url + p), p);
    const tokenPages = locs.filter((l) => l.includes('/api/md/token/'));
    assert.ok(tokenPages.length >= 5, `token pages ${tokenPages.length}`);
    assert.ok(locs.some((l) => l.includes('/api/md/stake-pool/')));
    const tipDay = new Date(s.devnet.systemStartMs + s.devnet.tip().slot * 1000).toISOString().slice(0, 10);
    assert.equal(doc.urlset.url[0]!.lastmod, tipDay);
    for (const l of locs) assert.equal((await get(l)).status, 200, l);
    // Kept by a cache as the other discovery files are, and revalidated by its ETag (fetch would send no-cache).
    const res = await fetch(s.url + '/sitemap.xml');
    assert.equal(res.headers.get('cache-control'), 'public, max-age=300');
    const etag = res.headers.get('etag') ?? '';
    assert.ok(etag);
    const again = await fetch(s.url + '/sitemap.xml', {
      headers: { 'if-none-match': etag, 'cache-control': 'max-age=0' },
    });
    assert.equal(again.status, 304);
    // robots.txt names it: a crawler finds the sitemap from the site root.
    const robots = await fetch(s.url + '/robots.txt');
    assert.equal(robots.status, 200);
    assert.equal(robots.headers.get('content-type'), 'text/plain; charset=utf-8');
    const rules = await robots.text();
    assert.match(rules, /^User-agent: \*$/m);
    assert.doesNotMatch(rules, /^Disallow: \/\s*$/m, 'nothing is closed to crawlers');
    const named = /^Sitemap: (\S+)$/m.exec(rules)?.[1];
    assert.equal(named, s.url + '/sitemap.xml');
    assert.equal((await fetch(named)).status, 200);
  });

  it('llms-full.txt, the pages, the views index and /metrics are compressed for a client that accepts it, like every answer of 1 KB or more', async () => {
    const raw = (path: string, headers: Record<string, string>) =>
      new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        httpGet(s.url + path, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        }).on('error', reject);
      });
    const plain = await raw('/llms-full.txt', {});
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(plain.body.length > 20_000, `${plain.body.length} bytes`);
    const br = await raw('/llms-full.txt', { 'accept-encoding': 'br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.match(String(br.headers.vary), /accept-encoding/i);
    assert.ok(br.body.length < plain.body.length / 3, `${br.body.length} of ${plain.body.length} bytes`);
    assert.deepEqual(brotliDecompressSync(br.body), plain.body);
    const again = await raw('/llms-full.txt', { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    assert.equal(again.status, 304);
    // The pages (the swap page's ~55 KB script bundle above all) and the views' index the same way.
    for (const path of ['/swap', '/swap/swap.js', '/account', '/account/account.js', '/api/md']) {
      const identity = await raw(path, {});
      assert.equal(identity.status, 200, path);
      assert.ok(identity.body.length >= 1024, `${path}: ${identity.body.length} bytes`);
      for (const coding of ['br', 'gzip'] as const) {
        const coded = await raw(path, { 'accept-encoding': coding });
        assert.equal(coded.headers['content-encoding'], coding, path);
        assert.match(String(coded.headers.vary), /accept-encoding/i, path);
        assert.ok(coded.body.length < identity.body.length, `${path} ${coding}: ${coded.body.length} bytes`);
        const decoded = coding === 'br' ? brotliDecompressSync(coded.body) : gunzipSync(coded.body);
        assert.deepEqual(decoded, identity.body, `${path} ${coding}`);
        assert.notEqual(coded.headers.etag, identity.headers.etag, `${path}: another representation, another ETag`);
        const fresh = { 'accept-encoding': coding, 'if-none-match': String(coded.headers.etag) };
        assert.equal((await raw(path, fresh)).status, 304, path);
      }
    }
    const metrics = await raw('/metrics', { 'accept-encoding': 'gzip' });
    assert.equal(metrics.status, 200);
    assert.equal(metrics.headers['content-encoding'], 'gzip');
    assert.match(gunzipSync(metrics.body).toString('utf8'), /^cardano_sync_healthy \d/m);
  });

  it('/docs shows surfaces, keys and the configured limits', async () => {
    const a = await get('/docs');
    assert.equal(a.status, 200);
    assert.match(a.type, /^text\/html/);
    for (const t of ['<td>37</td>', 'x-api-key', 'Retry-After', '/api/md', '/api/mcp', `${s.url}/account`, '10,000'])
      assert.ok(a.text.includes(t), t);
    assert.match(a.text, /batch .*counts each message as a request, per minute and per day/);
  });

  it('/docs: every link it gives answers (the Markdown views taking an id are named, not linked)', async () => {
    const html = (await get('/docs')).text;
    const links = [...html.matchAll(/href="(http[^"]+)"/g)].map((m) => (m[1] as string).replace(/&amp;/g, '&'));
    assert.ok(links.includes(`${s.url}/api/md/market`), 'a view without an id is linked');
    for (const v of MD_VIEWS.filter((m) => m.path.includes('{')))
      assert.ok(html.includes(`<code>/api/md${v.path}</code>`), `${v.path} named`);
    for (const u of links) assert.equal((await get(u)).status, 200, u);
  });

  it('/docs is allowed its own inline stylesheet by its CSP, and nothing else inline', async () => {
    const res = await fetch(`${s.url}/docs`);
    const html = await res.text();
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1] as string);
    assert.equal(styles.length, 1, 'one inline stylesheet');
    assert.ok(!/<script|\sstyle=|\son[a-z]+=/i.test(html), 'no script, no style or event attributes');
    // CSP Level 2: an inline <style> applies only when style-src (else default-src) lists the sha-256 of its text.
    const csp = new Map(
      (res.headers.get('content-security-policy') ?? '')
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name!.toLowerCase(), values]),
    );
    const hash = `'sha256-${createHash('sha256').update(styles[0]!).digest('base64')}'`;
    assert.deepEqual(csp.get('style-src') ?? csp.get('default-src'), [hash]);
    assert.deepEqual(csp.get('default-src'), ["'none'"]);
    assert.equal(csp.get('script-src'), undefined, 'no script source');
    assert.deepEqual(csp.get('frame-ancestors'), ["'none'"]);
  });
});
