/**
 * News ingest end to end: realistic RSS 2.0 and Atom documents (test/fixtures/news/, shaped like Cardano news feeds:
 * CDATA, HTML in descriptions, named and numeric entities, xhtml content) served by a local HTTP server next to a
 * failing, a non-feed and a hanging URL → ingest activity → documents → GET /news.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { FEED_MAX_BYTES, fetchFeedText } from '../../activities/news/fetch.js';
import { createNewsActivities } from '../../activities/news/index.js';
import { parseFeed } from '../../activities/news/parse.js';
import { createApp } from '../../api/app.js';
import { NEWS, NEWS_FEEDS, type NewsDoc } from '../../mongo/collections/news.js';
import type { Store } from '../../mongo/store.js';
import { serveTestApp } from '../api/seed.js';
import { tempStore } from '../sync/helpers.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies
const fixture = (name: string) => readFileSync(new URL(`../fixtures/news/${name}`, import.meta.url), 'utf8');
const RSS = fixture('cardano-foundation.rss.xml');
const ATOM = fixture('iog-blog.atom.xml');
const NOW = Date.UTC(2026, 10, 20, 12);

async function all(store: Store): Promise<NewsDoc[]> {
  const out: NewsDoc[] = [];
  for await (const d of store.collection(NEWS).scan()) out.push(d);
  return out;
}

describe('news feeds', function () {
  this.timeout(30_000);
  let server: Server;
  let base = '';
  let endlessSent = 0;
  /** The conditional feeds' state: the document's version, whether the host is down, what each request sent. */
  const cond = {
    version: 1,
    down: false,
    extra: '',
    requests: [] as { url: string; inm: string | undefined; ims: string | undefined }[],
  };
  let env: Awaited<ReturnType<typeof tempStore>>;
  const url = (p: string) => `${base}${p}`;
  /** The items /future carries: [title, publication time]. */
  const futureItems: [string, number][] = [];
  const futureFeed = () =>
    `<?xml version="1.0"?><rss version="2.0"><channel><title>Skewed</title>${futureItems
      .map(
        ([t, ms]) =>
          `<item><title>${t}</title><link>https://news.test/${t}</link><pubDate>${new Date(ms).toUTCString()}</pubDate></item>`,
      )
      .join('')}</channel></rss>`;

  before(async () => {
    server = createServer((req, res) => {
      if (req.url === '/cf/feed') {
        res.writeHead(200, { 'content-type': 'application/rss+xml; charset=UTF-8' }).end(RSS);
      } else if (req.url === '/iog/feed.atom') {
        res.writeHead(200, { 'content-type': 'application/atom+xml' }).end(ATOM);
      } else if (req.url === '/broken') {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('upstream error');
      } else if (req.url === '/page') {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html><body>Not a feed</body></html>');
      } else if (req.url === '/endless') {
        // A feed streamed without a length that never ends: counts what it got to send before the reader stopped.
        res.writeHead(200, { 'content-type': 'application/rss+xml' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const more = () => {
          while (!res.destroyed && res.write(chunk)) endlessSent += chunk.length;
        };
        res.on('drain', more);
        more();
      } else if (req.url === '/cond/rss' || req.url === '/cond/atom') {
        // A feed server that honours validators: the RSS one by ETag, the Atom one by Last-Modified.
        const rss = req.url === '/cond/rss';
        cond.requests.push({ url: req.url, inm: req.headers['if-none-match'], ims: req.headers['if-modified-since'] });
        const etag = `"rss-${cond.version}"`;
        const modified = new Date(Date.UTC(2026, 10, 20, 11, cond.version)).toUTCString();
        if (cond.down) res.writeHead(503).end();
        else if (rss ? req.headers['if-none-match'] === etag : req.headers['if-modified-since'] === modified)
          res.writeHead(304).end();
        else
          res
            .writeHead(200, rss ? { etag } : { 'last-modified': modified })
            .end(rss ? RSS.replace('</channel>', cond.extra + '</channel>') : ATOM);
      } else if (req.url === '/future') {
        // A feed whose clock or timezone is wrong for one item (dated a year ahead), beside correctly dated ones.
        res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(futureFeed());
      } else if (req.url === '/hang') {
        // Never answers: the ingest must time out on it.
      } else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    env = await tempStore();
  });
  after(async () => {
    server.closeAllConnections();
    server.close();
    await env.cleanup();
  });

  describe('parsing', () => {
    it('reads RSS 2.0 items: CDATA, escaped HTML, entities, dates, links', () => {
      const f = parseFeed(RSS);
      assert.equal(f.format, 'rss');
      assert.equal(f.title, 'Cardano Foundation – News');
      assert.equal(f.items.length, 4);
      const [a, b] = f.items;
      assert.equal(a?.title, 'Cardano’s Plomin hard fork: what node operators need to know');
      assert.equal(a?.link, 'https://cardanofoundation.org/blog/plomin-hard-fork-node-operators');
      assert.equal(a?.guid, 'https://cardanofoundation.org/?p=18422');
      assert.equal(a?.publishedMs, Date.UTC(2026, 10, 19, 15, 30));
      assert.match(a?.summaryHtml ?? '', /<strong>10\.1\.4<\/strong>/);
      assert.equal(b?.title, 'Tokenized real-world assets on Cardano: a Q&A with the Originate team');
      assert.equal(f.items[2]?.publishedMs, Date.UTC(2026, 10, 13, 11, 15), 'a +0100 offset is honoured');
    });

    it('reads Atom entries: html and xhtml content, alternate links, published or updated', () => {
      const f = parseFeed(ATOM);
      assert.equal(f.format, 'atom');
      assert.equal(f.title, 'Input | Output Blog');
      assert.deepEqual(
        f.items.map((i) => [i.link, i.publishedMs]),
        [
          ['https://iohk.io/en/blog/posts/2026/11/18/leios-scaling-throughput/', Date.UTC(2026, 10, 18, 10)],
          ['https://iohk.io/en/blog/posts/2026/11/16/hydra-1-0/', Date.UTC(2026, 10, 16, 13, 20)],
          ['https://iohk.io/en/blog/posts/2026/11/12/midnight-devnet/', Date.UTC(2026, 10, 12, 9)],
        ],
      );
      assert.match(f.items[1]?.summaryHtml ?? '', /<em>incremental commits<\/em> and decommits/);
    });

    it('refuses documents that are not feeds', () => {
      assert.throws(() => parseFeed('<html><body><p>Not a feed</p></body></html>'), /neither an RSS nor an Atom/);
      assert.throws(() => parseFeed('<!doctype html><html><body>x</body></html>'), /not well-formed XML/);
      assert.throws(() => parseFeed('<rss><channel><item>'), /XML|channel/);
    });
  });

  it('stops reading a feed sent without a length once it passes the size cap', async () => {
    await assert.rejects(fetchFeedText(url('/endless'), { timeoutMs: 20_000 }), /document too large/);
    assert.ok(endlessSent < 3 * FEED_MAX_BYTES, `the server sent ${endlessSent} bytes before the reader stopped`);
  });

  describe('ingestion and GET /news', () => {
    let first: Awaited<ReturnType<ReturnType<typeof createNewsActivities>['ingestNewsFeeds']>>;
    let feeds: string[];

    before(async () => {
      feeds = [url('/cf/feed'), url('/iog/feed.atom'), url('/broken')];
      first = await createNewsActivities({ store: env.store, feeds, now: () => NOW }).ingestNewsFeeds();
    });

    it('writes plain-text documents from the good feeds and records the failing one', async () => {
      assert.equal(first.ok, 2);
      assert.deepEqual(first.failed, [{ url: url('/broken'), error: 'HTTP 500 Internal Server Error' }]);
      const docs = await all(env.store);
      // 7 items; the Cardano Summit recap (46 days old) is beyond the 30-day retention.
      assert.equal(docs.length, 6);
      assert.equal(first.pruned, 1);
      const plomin = docs.find((d) => d.link?.endsWith('plomin-hard-fork-node-operators'));
      assert.equal(plomin?.source, 'Cardano Foundation – News');
      assert.equal(
        plomin?.summary,
        'Stake pool operators should upgrade to node 10.1.4 before the epoch boundary. The upgrade enables CIP-1694 ' +
          'governance actions & DRep voting. The post Cardano’s Plomin hard fork: what node operators need to know ' +
          'appeared first on Cardano Foundation.',
      );
      const grants = docs.find((d) => d.link?.endsWith('developer-grants-round-3'));
      assert.equal(grants?.headline, 'Developer grants: Round 3 results');
      assert.equal(grants?.summary, '42 projects funded 1.2 M ADA awarded', 'script dropped, entities decoded');
      const rwa = docs.find((d) => d.link?.endsWith('originate-rwa-qa'));
      assert.equal(rwa?.summary, 'How supply-chain data & on-chain attestations meet traceability — an interview.');
      const status = await env.store.collection(NEWS_FEEDS).get(url('/broken'));
      assert.equal(status?.ok, false);
      assert.match(status?.error ?? '', /HTTP 500/);
    });

    it('re-ingests idempotently: same ids, first-seen times kept', async () => {
      const before = (await all(env.store)).map((d) => [d._id, d.firstSeenAt, d.publishedAt]).sort();
      const again = await createNewsActivities({ store: env.store, feeds, now: () => NOW + 900_000 }).ingestNewsFeeds();
      assert.equal(again.ok, 2);
      const after = (await all(env.store)).map((d) => [d._id, d.firstSeenAt, d.publishedAt]).sort();
      assert.deepEqual(after, before);
    });

    it('serves the items newest first with source, time, summary and link, paged by cursor', async () => {
      const app = createServer(
        createApp({
          store: env.store,
          config: { SITE_URL: 'http://api.test', CARDANO_NETWORK: 'mainnet', TRUST_PROXY: false, NEWS_FEEDS: feeds },
          log: pino({ level: 'silent' }),
        }).callback(),
      );
      await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
      const api = `http://127.0.0.1:${(app.address() as AddressInfo).port}/api/v1`;
      const get = async (p: string) => {
        const res = await fetch(api + p);
        return { status: res.status, body: (await res.json()) as Json };
      };
      try {
        const { status, body } = await get('/news');
        assert.equal(status, 200);
        assert.equal(body.reason, null);
        assert.deepEqual(
          body.items.map((i: Json) => i.headline),
          [
            'Cardano’s Plomin hard fork: what node operators need to know',
            'Leios: scaling Cardano’s throughput',
            'Tokenized real-world assets on Cardano: a Q&A with the Originate team',
            'Hydra head protocol 1.0 release',
            'Developer grants: Round 3 results',
            'Midnight devnet opens to partner chains',
          ],
        );
        assert.deepEqual(Object.keys(body.items[0]).sort(), [
          'headline',
          'id',
          'link',
          'publishedAt',
          'source',
          'summary',
        ]);
        assert.equal(body.items[1].publishedAt, '2026-11-18T10:00:00.000Z');
        assert.equal(body.nextCursor, null);
        assert.deepEqual(
          body.feeds.map((f: Json) => [f.url, f.ok]),
          feeds.map((u) => [u, !u.endsWith('/broken')]),
        );

        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const page: { body: Json } = await get(`/news?limit=4${cursor ? `&cursor=${cursor}` : ''}`);
          seen.push(...page.body.items.map((i: Json) => i.id));
          cursor = page.body.nextCursor;
        } while (cursor);
        assert.deepEqual(
          seen,
          body.items.map((i: Json) => i.id),
        );

        const hydra = await get('/news?q=HYDRA');
        assert.deepEqual(
          hydra.body.items.map((i: Json) => i.link),
          ['https://iohk.io/en/blog/posts/2026/11/16/hydra-1-0/'],
        );
        // Words, not one phrase (get_news: "items mentioning these words"): the headline is 'Hydra head protocol 1.0
        // release', so both words in another order find it; a word no item carries beside them finds nothing.
        for (const q of ['release%20hydra', 'hydra%20%20release', 'HYDRA%201.0'])
          assert.deepEqual(
            (await get(`/news?q=${q}`)).body.items.map((i: Json) => i.link),
            ['https://iohk.io/en/blog/posts/2026/11/16/hydra-1-0/'],
            q,
          );
        assert.deepEqual((await get('/news?q=hydra%20leios')).body.items, []);
        assert.equal((await get('/news?limit=0')).status, 400);
        assert.equal((await get('/news?limit=201')).status, 400);
        assert.equal((await get('/news?cursor=bm9wZQ')).status, 400);

        // A cursor pages the list it came from: the same search (its words in any case) pages on, every item once;
        // another search's cursor, or a position written by hand, is a 400, as the cursor's description promises.
        const cardano = (await get('/news?q=cardano')).body.items.map((i: Json) => i.id);
        assert.ok(cardano.length >= 3 && cardano.length < body.items.length, 'a search that pages and filters');
        const paged: string[] = [];
        let next: string | null = null;
        for (let n = 0; n === 0 || next; n++) {
          const q = n % 2 === 0 ? 'cardano' : 'CARDANO';
          const page: { body: Json } = await get(`/news?q=${q}&limit=1${next ? `&cursor=${next}` : ''}`);
          paged.push(...page.body.items.map((i: Json) => i.id));
          next = page.body.nextCursor;
        }
        assert.deepEqual(paged, cardano);
        const ofAll = (await get('/news?limit=1')).body.nextCursor;
        const ofCardano = (await get('/news?q=cardano&limit=1')).body.nextCursor;
        for (const [what, p] of [
          ['the whole list’s cursor in a search', `/news?q=cardano&cursor=${ofAll}`],
          ['a search’s cursor in the whole list', `/news?cursor=${ofCardano}`],
          ['a search’s cursor in another search', `/news?q=hydra&cursor=${ofCardano}`],
        ]) {
          const res = await get(p as string);
          assert.equal(res.status, 400, what);
          assert.match(res.body.error, /^invalid parameter cursor: not a cursor of this list/, what);
        }
        const second = body.items[1] as Json;
        const handWritten = Buffer.from(`n${Date.parse(second.publishedAt)}|${second.id}`).toString('base64url');
        assert.equal((await get(`/news?cursor=${handWritten}`)).status, 400, 'a position written by hand');
      } finally {
        app.close();
      }
    });

    it('asks an unchanged feed conditionally (ETag, Last-Modified): a 304 keeps its items and counts as a good fetch', async () => {
      const store = await tempStore();
      try {
        const condFeeds = [url('/cond/rss'), url('/cond/atom')];
        const run = (at: number) =>
          createNewsActivities({ store: store.store, feeds: condFeeds, now: () => at }).ingestNewsFeeds();
        const items = async () => (await all(store.store)).map((d) => d.headline).sort();
        const first = await run(NOW);
        assert.equal(first.unchanged, 0);
        const stored = await items();
        assert.equal(stored.length, 6);
        assert.deepEqual(
          cond.requests.map((r) => [r.inm, r.ims]),
          [
            [undefined, undefined],
            [undefined, undefined],
          ],
          'nothing ingested yet: unconditional',
        );

        cond.requests.length = 0;
        const second = await run(NOW + 900_000);
        assert.deepEqual([second.ok, second.unchanged, second.items, second.failed], [2, 2, 0, []]);
        assert.deepEqual(cond.requests.map((r) => [r.url, r.inm, r.ims]).sort(), [
          ['/cond/atom', undefined, 'Fri, 20 Nov 2026 11:01:00 GMT'],
          ['/cond/rss', '"rss-1"', undefined],
        ]);
        assert.deepEqual(await items(), stored, 'a 304 keeps the items');
        const status = await store.store.collection(NEWS_FEEDS).get(url('/cond/rss'));
        assert.deepEqual(
          [status?.ok, status?.items, status?.lastOkAt, status?.etag],
          [true, 4, new Date(NOW + 900_000).toISOString(), '"rss-1"'],
        );

        // The feed changes: its new document (a new item) is fetched and ingested.
        cond.version = 2;
        cond.extra =
          '<item><title>Chang upgrade: a recap</title><link>https://cardanofoundation.org/blog/chang-recap</link>' +
          '<guid>https://cardanofoundation.org/?p=18500</guid><pubDate>Fri, 20 Nov 2026 09:00:00 +0000</pubDate></item>';
        const third = await run(NOW + 1_800_000);
        assert.equal(third.unchanged, 0);
        assert.ok((await items()).includes('Chang upgrade: a recap'));
        assert.equal((await store.store.collection(NEWS_FEEDS).get(url('/cond/rss')))?.etag, '"rss-2"');

        // After a failed fetch the next one asks for the whole document again.
        cond.down = true;
        await assert.rejects(run(NOW + 2_700_000), /every news feed failed/);
        cond.down = false;
        cond.requests.length = 0;
        const fourth = await run(NOW + 3_600_000);
        assert.equal(fourth.unchanged, 0);
        assert.deepEqual(
          cond.requests.map((r) => [r.inm, r.ims]),
          [
            [undefined, undefined],
            [undefined, undefined],
          ],
        );
      } finally {
        await store.cleanup();
      }
    });

    it('throws when every feed fails (the run is recorded as failed), after recording each failure', async () => {
      const store = (await tempStore()) as Awaited<ReturnType<typeof tempStore>>;
      try {
        const broken = [url('/broken'), url('/page'), url('/hang')];
        await assert.rejects(
          createNewsActivities({ store: store.store, feeds: broken, timeoutMs: 300 }).ingestNewsFeeds(),
          /every news feed failed: .*HTTP 500.*not well-formed XML.*timed out after 300 ms/,
        );
        const statuses = await store.store.collection(NEWS_FEEDS).getMany(broken);
        assert.deepEqual(
          statuses.map((s) => s?.ok),
          [false, false, false],
        );
      } finally {
        await store.cleanup();
      }
    });
  });

  it('keeps an item dated in the future at the time it was first seen, not back at the top on every later fetch', async () => {
    const store = await tempStore();
    const feeds = [url('/future')];
    const api = await serveTestApp(store.store, {
      config: { SITE_URL: 'http://api.test', CARDANO_NETWORK: 'mainnet', TRUST_PROXY: false, NEWS_FEEDS: feeds },
    });
    const H = 3_600_000;
    try {
      futureItems.splice(0, futureItems.length, ['skewed', NOW + 365 * 24 * H], ['older', NOW - H]);
      await createNewsActivities({ store: store.store, feeds, now: () => NOW }).ingestNewsFeeds();
      // Two hours later the feed publishes a new article (an hour ago by then) and still carries the skewed one.
      futureItems.unshift(['fresh', NOW + H]);
      await createNewsActivities({ store: store.store, feeds, now: () => NOW + 2 * H }).ingestNewsFeeds();
      const res = await api.get('/api/v1/news');
      assert.equal(res.status, 200);
      // Oracle: the skewed item was first seen at NOW; the new article was published at NOW + 1 h, after it.
      assert.deepEqual(
        (res.body as Json).items.map((i: Json) => [i.headline, i.publishedAt]),
        [
          ['fresh', new Date(NOW + H).toISOString()],
          ['skewed', new Date(NOW).toISOString()],
          ['older', new Date(NOW - H).toISOString()],
        ],
      );
    } finally {
      await api.close();
      await store.cleanup();
    }
  });

  it('answers an empty list and why when NEWS_FEEDS is not set', async () => {
    const api = await serveTestApp(env.store);
    try {
      const res = await api.get('/api/v1/news');
      assert.equal(res.status, 200);
      const body = res.body as Json;
      assert.deepEqual(body.items, []);
      assert.equal(body.nextCursor, null);
      assert.match(body.reason, /No news feeds are configured.*NEWS_FEEDS/);
    } finally {
      await api.close();
    }
  });
});
