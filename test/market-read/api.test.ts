import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { createRecomputeActivities } from '../../activities/recompute/index.js';
import { importRegistry } from '../../activities/registry/import.js';
import { TOKENS, TOKEN_META } from '../../mongo/collections/market.js';
import { put } from '../../mongo/store.js';
import { serveTestApp, startTestApi, type TestApi } from '../api/seed.js';
import { DAY, MIN, NOW_MS, NOW_SEC, TIP_HEIGHT, USDM, checkpointOps, token } from './seed.js';
import { OTHER, XTK, seedScenario } from './scenario.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

/** BTN (Butane) from the real registry snapshot: a 960×960 PNG logo. */
const BTN = '016be5325fd988fea98ad422fcfd53e5352cacfced5c106a932a35a442544e';
/** A CIP-68 (333) token whose reference datum carries its logo inline. */
const CIP68 = '7c'.repeat(28) + '0014df10' + Buffer.from('CIPT').toString('hex');
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** node:http GET: fetch adds no-cache headers to conditional requests, which defeats 304. */
function rawGet(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

describe('market REST: units, candles, trades, pools, overview, logos, errors', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi(
      async (store) => {
        // The registry first: the import removes metadata of subjects not in the snapshot (the test tokens').
        const r = await importRegistry(store, path.resolve(process.cwd(), 'registry'));
        assert.ok(r.files > 100);
        const usdmMeta = await store.collection(TOKEN_META).get(USDM);
        await seedScenario(store);
        // The scenario's own USDM metadata (decimals only) is replaced by the registry entry again.
        if (usdmMeta) await store.write([put(TOKEN_META, usdmMeta)]);
        await store.write([
          put(
            TOKENS,
            token(CIP68, {
              cip68: {
                name: 'Cip Token',
                ticker: 'CIPT',
                decimals: 2,
                description: null,
                url: null,
                logo: `data:image/png;base64,${PIXEL}`,
              },
            }),
          ),
        ]);
        const acts = createRecomputeActivities({ store, now: () => NOW_MS });
        await acts.recomputeTokenStats();
        await acts.recomputeRankings();
        await acts.recomputeMarketOverview();
      },
      { now: () => NOW_MS },
    );
  });
  after(() => api.close());
  const get = async (p: string, status = 200) => {
    const r = await api.get(`/api/v1${p}`);
    assert.equal(r.status, status, `${p}: ${JSON.stringify(r.body)}`);
    return r.body as Json;
  };

  it('every JSON answer names the time of the indexed tip block it reflects (asOf); bounded ranges say coverageFrom', async () => {
    const tipTime = new Date(NOW_MS).toISOString();
    for (const p of [
      '/tokens',
      `/tokens/${XTK}`,
      `/tokens/${XTK}/candles?interval=1h`,
      `/tokens/${XTK}/trades`,
      `/tokens/${XTK}/series/liquidity`,
      `/tokens/${XTK}/holders`,
      '/pools',
      '/pools/1',
      '/pools/1/candles?interval=1m',
      '/pools/1/trades',
      '/market/overview',
      `/swap/quote?in=lovelace&out=${XTK}&amount=10`,
    ]) {
      const r = await api.get(`/api/v1${p}`);
      assert.equal(r.status, 200, p);
      assert.equal((r.body as Json).asOf, tipTime, p);
    }
    // Bounded history says so: the only indexed block is the tip, so any range starting earlier is not covered.
    const candles = await get(`/tokens/${XTK}/candles?interval=1h`);
    assert.equal(candles.coverageFrom, tipTime, 'the default 1000 hours reach before the first indexed block');
    const recent = await get(`/tokens/${XTK}/candles?interval=1h&from=${NOW_SEC}`);
    assert.equal(recent.coverageFrom, null, 'a range inside the indexed history is covered');
    assert.equal((await get(`/tokens/${XTK}/series/liquidity?days=7`)).coverageFrom, tipTime);
    const trades = await get(`/tokens/${XTK}/trades?limit=200`);
    assert.equal(trades.nextCursor, null);
    assert.equal(trades.coverageFrom, tipTime, 'the last page reaches the start of the indexed history');
    const firstPage = await get(`/tokens/${XTK}/trades?limit=1`);
    assert.ok(firstPage.nextCursor);
    assert.equal(firstPage.coverageFrom, null);
    const spec = (await get('/openapi.json')) as Json;
    for (const [path, item] of Object.entries(spec.paths as Record<string, Json>)) {
      const schema = item.get.responses['200'].content?.['application/json']?.schema;
      if (schema?.type === 'object' && path !== '/openapi.json')
        assert.ok(schema.properties.asOf, `${path} declares asOf`);
    }
  });

  it('GET /tokens/{unit}: AssetRef, stats and pools in whole ADA and decimal-adjusted amounts', async () => {
    const t = await get(`/tokens/${XTK.toUpperCase()}?logos=url`);
    assert.deepEqual(t.asset, {
      unit: XTK,
      policyId: XTK.slice(0, 56),
      nameHex: XTK.slice(56),
      name: 'XTK token',
      ticker: 'XTK',
      decimals: 4,
      logo: null,
      logoUrl: null,
      displayName: 'XTK',
    });
    assert.equal(t.stats.priceAda, 0.05);
    assert.equal(t.stats.liquidityAda, 220_000);
    assert.equal(t.stats.windows['24h'].volume, 2000);
    assert.equal(t.stats.search, undefined, 'ranking helpers stay internal');
    assert.equal(t.primaryPoolId, 1);
    assert.equal(t.description, 'About XTK');
    assert.equal(t.adaUsd, 0.5);
    const [p1, p2] = t.pools as [Json, Json];
    assert.equal(p1.id, 1, 'deepest pool first');
    assert.equal(p1.tokenA.unit, 'lovelace');
    assert.equal(p1.tokenA.ticker, 'ADA');
    assert.equal(p1.reserveA, 100_000);
    assert.equal(p1.reserveB, 2_000_000);
    // Exact base units beside the decimal-adjusted figures (a JSON number loses digits above 2^53).
    assert.equal(p1.reserveARaw, '100000000000', '100,000 ADA in lovelace');
    assert.equal(p1.reserveBRaw, String(2_000_000n * 10n ** BigInt(p1.tokenB.decimals)));
    assert.equal(p1.price, 0.05, 'the token price equals its primary pool’s reserve ratio');
    assert.equal(p1.tvlAda, 200_000);
    assert.equal(p1.feePercent, 0.3);
    assert.equal(p1.volume24h, 1500);
    assert.equal(p1.txns24h, 3);
    assert.equal(p2.createdTime, new Date(NOW_MS - 2 * DAY * 1000).toISOString());
    assert.equal(p2.lastStateTime, new Date(NOW_MS - MIN * 1000).toISOString());
  });

  it('AssetRef metadata precedence: registry, then CIP-68, then the asset name; logos as data URI or URL', async () => {
    const q = await get(`/swap/quote?in=lovelace&out=${CIP68}&amount=1`);
    assert.equal(q.tokenOut.name, 'Cip Token');
    assert.equal(q.tokenOut.decimals, 2);
    assert.equal(q.tokenOut.logo, `data:image/png;base64,${PIXEL}`);
    assert.equal(q.tokenOut.logoUrl, `http://api.test/api/v1/assets/${CIP68}/logo`);
    const o = await get(`/pools/4`);
    assert.equal(o.tokenB.name, 'NOLOGO', 'decoded asset name');
    assert.equal(o.tokenB.decimals, 0);
    assert.equal(o.tokenB.displayName, 'NOLOGO');
    assert.equal(o.reserveB, 7);
    assert.equal(o.tokenB.logoUrl, null);
  });

  it('GET /tokens lists rows with stats; logos=url swaps the inline image for its URL', async () => {
    const l = await get('/tokens?sort=volume&minLiquidity=0');
    assert.equal(l.items[0].asset.unit, XTK);
    assert.equal(l.adaUsd, 0.5);
    const usdm = (l.items as Json[]).find((i) => i.asset.unit === USDM);
    assert.ok(usdm, 'USDM trades in a pool');
    assert.equal(usdm.asset.ticker, 'USDM', 'registry metadata');
    assert.equal(usdm.asset.logoUrl, `http://api.test/api/v1/assets/${USDM}/logo`);
    assert.match(usdm.asset.logo, /^data:image\/png;base64,/);
    // The text filter folds compatibility forms as the search tool does: full-width "ｘＴｋ" is XTK.
    for (const q of ['xtk', 'ｘＴｋ'])
      assert.deepEqual(
        (await get(`/tokens?sort=volume&minLiquidity=0&q=${encodeURIComponent(q)}`)).items.map(
          (i: Json) => i.asset.unit,
        ),
        [XTK],
        q,
      );
    const u = await get('/tokens?sort=volume&logos=url');
    const again = (u.items as Json[]).find((i) => i.asset.unit === USDM);
    assert.equal(again?.asset.logo, again?.asset.logoUrl);
  });

  it('candles: pool, all pools (poolId 0), USD quote, from/to in seconds or milliseconds', async () => {
    const primary = await get(`/tokens/${XTK}/candles?interval=1m`);
    assert.equal(primary.poolId, 1);
    assert.deepEqual(primary.candles, [
      { time: NOW_SEC - 2 * MIN, open: 0.04, high: 0.06, low: 0.04, close: 0.05, volume: 1000, trades: 1 },
    ]);
    const all = await get(`/tokens/${XTK}/candles?interval=1m&pool=all&from=${NOW_SEC - 3 * 3600}&to=${NOW_SEC}`);
    assert.equal(all.poolId, 0);
    assert.deepEqual(
      (all.candles as Json[]).map((c) => [c.time, c.close]),
      [
        [NOW_SEC - 7200, 0.025],
        [NOW_SEC - 120, 0.05],
      ],
    );
    const ms = await get(`/tokens/${XTK}/candles?interval=1m&pool=all&from=${(NOW_SEC - 600) * 1000}&to=${NOW_MS}`);
    assert.deepEqual(
      (ms.candles as Json[]).map((c) => c.time),
      [NOW_SEC - 120],
    );
    const usd = await get(`/tokens/${XTK}/candles?interval=1m&pool=1&quote=USD`);
    assert.equal(usd.quote, 'USD');
    assert.equal(usd.candles[0].close, 0.025, '0.05 ADA × 0.5 USD');
    const pool = await get(`/pools/1/candles?interval=1m`);
    assert.equal(pool.poolId, 1);
    assert.equal(pool.candles[0].close, 0.05);
  });

  it('trades: newest first, decimal-adjusted, opaque cursor pages', async () => {
    const first = await get(`/tokens/${XTK}/trades?limit=2`);
    assert.deepEqual(
      (first.items as Json[]).map((t) => [t.id, t.status]),
      [
        [7, 'pending'],
        [6, 'complete'],
      ],
    );
    const t6 = first.items[1] as Json;
    assert.equal(t6.amountIn, 1000, '1e9 lovelace');
    assert.equal(t6.amountOut, 20_000, '2e8 base units at 4 decimals');
    assert.equal(t6.priceAda, 0.05);
    assert.equal(t6.valueAda, 1000);
    assert.equal(t6.time, new Date(NOW_MS - 2 * MIN * 1000).toISOString());
    assert.equal(t6.tokenOut.ticker, 'XTK');
    assert.equal(first.items[0].amountOut, null);
    // The amounts exact in base units beside the decimal-adjusted numbers; null with amountOut.
    assert.deepEqual([t6.amountInRaw, t6.amountOutRaw], ['1000000000', '200000000']);
    assert.equal(first.items[0].amountOutRaw, null);
    assert.equal(typeof first.nextCursor, 'string');
    const rest = await get(`/tokens/${XTK}/trades?limit=10&cursor=${first.nextCursor}`);
    assert.deepEqual(
      (rest.items as Json[]).map((t) => t.id),
      [5, 4, 3, 2, 1],
    );
    assert.equal(rest.nextCursor, null);
    // A cursor belongs to its list: on another list (the pool of the same trades), or altered, it is refused.
    for (const path of [
      `/pools/1/trades?limit=10&cursor=${first.nextCursor}`,
      `/tokens/${XTK}/trades?limit=10&cursor=${Buffer.from(
        Buffer.from(first.nextCursor, 'base64url').toString().replace(/^t\d+/, 't9'),
      ).toString('base64url')}`,
    ]) {
      assert.match((await get(path, 400)).error, /invalid parameter cursor/);
    }
    const pool2 = await get('/pools/2/trades');
    assert.deepEqual(
      (pool2.items as Json[]).map((t) => t.id),
      [5],
    );
  });

  it('liquidity series: daily points from pool states; holders answers empty until indexed', async () => {
    const s = await get(`/tokens/${XTK}/series/liquidity?days=3`);
    assert.equal(s.metric, 'liquidity');
    const day = Math.floor(NOW_SEC / DAY) * DAY;
    assert.deepEqual(s.points, [
      { time: day - 2 * DAY, value: 100_000 },
      { time: day - DAY, value: 120_000 },
      { time: day, value: 220_000 },
    ]);
    const holders = await get(`/tokens/${XTK}/series/holders`);
    assert.deepEqual(holders, {
      metric: 'holders',
      points: [],
      asOf: holders.asOf,
      coverageFrom: holders.coverageFrom,
    });
    assert.match(holders.asOf, /^\d{4}-\d\d-\d\dT/);
  });

  it('liquidity series of an index behind the clock ends on the day of its tip', async () => {
    // The same store read two days after its tip block (a catch-up, a chain source down): the scenario's pool states
    // give the same three days as at the tip, and no point for the two days it holds no blocks of.
    const lagging = await serveTestApp(api.store, { now: () => NOW_MS + 2 * DAY * 1000 });
    try {
      const r = await lagging.get(`/api/v1/tokens/${XTK}/series/liquidity?days=3`);
      assert.equal(r.status, 200);
      const s = r.body as Json;
      const day = Math.floor(NOW_SEC / DAY) * DAY;
      assert.deepEqual(s.points, [
        { time: day - 2 * DAY, value: 100_000 },
        { time: day - DAY, value: 120_000 },
        { time: day, value: 220_000 },
      ]);
      assert.equal(s.asOf, new Date(NOW_MS).toISOString());
    } finally {
      await lagging.close();
    }
  });

  it('candles of an index behind the clock: the default range ends at its tip, not 1000 intervals before now', async () => {
    // The same store read two days after its tip block: 1000 minutes before now hold none of its candles.
    const lagging = await serveTestApp(api.store, { now: () => NOW_MS + 2 * DAY * 1000 });
    try {
      for (const path of [`/api/v1/tokens/${XTK}/candles?interval=1m`, '/api/v1/pools/1/candles?interval=1m']) {
        const r = await lagging.get(path);
        assert.equal(r.status, 200, path);
        // The scenario's one trade of the last minutes (as at the tip: the candles test above).
        assert.deepEqual(
          ((r.body as Json).candles as Json[]).map((c) => [c.time, c.close]),
          [[NOW_SEC - 2 * MIN, 0.05]],
          path,
        );
      }
      // An asked range is the range asked: the two days after the tip hold no candle.
      const after = await lagging.get(`/api/v1/tokens/${XTK}/candles?interval=1m&from=${NOW_SEC + 60}`);
      assert.deepEqual((after.body as Json).candles, []);
    } finally {
      await lagging.close();
    }
  });

  it('GET /pools: by TVL or 24 h volume, DEX filter, paging', async () => {
    const tvl = await get('/pools?logos=url');
    assert.deepEqual(
      (tvl.items as Json[]).map((p) => p.id),
      [3, 1, 2, 4],
    );
    assert.equal(tvl.total, 4);
    const vol = await get('/pools?sort=volume24h&pageSize=2&page=1&logos=url');
    assert.deepEqual(
      (vol.items as Json[]).map((p) => p.id),
      [1, 2],
    );
    const dex = await get('/pools?dex=sundaeswap-v3&logos=url');
    assert.deepEqual(
      (dex.items as Json[]).map((p) => p.id),
      [2],
    );
  });

  it('GET /market/overview: totals, DEXes, lists as token rows, sync lag from the checkpoint', async () => {
    const o = await get('/market/overview?logos=url');
    assert.equal(o.adaUsd, 0.5);
    assert.equal(o.volume24h, 2000);
    assert.equal(o.txns24h, 4);
    assert.equal(o.topGainers[0].asset.unit, XTK);
    assert.equal(o.topGainers[0].stats.change24h, 0.25);
    assert.deepEqual(o.sync, { lagSeconds: 40, height: 11_500_000, tipHeight: 11_500_002 });
  });

  it('GET /assets/{unit}/logo: the image, its type, a week of cache, ETag and 304', async () => {
    const url = `${api.url}/api/v1/assets/${BTN}/logo`;
    const r = await rawGet(url);
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'image/png');
    assert.equal(r.headers['cache-control'], 'public, max-age=604800');
    // The image is the same whatever the Accept (no Markdown form): a shared cache keeps one copy for every
    // browser's <img> Accept, not one per Accept header (Vary).
    assert.doesNotMatch(String(r.headers.vary ?? ''), /\baccept\b/i);
    assert.equal(r.body.subarray(1, 4).toString('latin1'), 'PNG');
    const sha = createHash('sha256').update(r.body).digest('hex');
    assert.equal(r.headers.etag, `"${sha}"`);
    const again = await rawGet(url, { 'If-None-Match': r.headers.etag as string });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    const inline = await rawGet(`${api.url}/api/v1/assets/${CIP68}/logo`);
    assert.equal(inline.status, 200);
    assert.deepEqual(inline.body, Buffer.from(PIXEL, 'base64'));
    const none = await rawGet(`${api.url}/api/v1/assets/${OTHER}/logo`);
    assert.equal(none.status, 404);
    assert.match(JSON.parse(none.body.toString()).error, /no logo/);
  });

  it('answers 400 { error } to bad parameters', async () => {
    for (const p of [
      '/tokens?sort=hot',
      '/tokens?pageSize=0',
      '/tokens?pageSize=201',
      '/tokens?page=0',
      '/tokens?period=2h',
      '/tokens?order=up',
      '/tokens?quote=EUR',
      '/tokens?minLiquidity=-1',
      `/tokens/${XTK}/candles?interval=2m`,
      `/tokens/${XTK}/candles?from=200&to=100`,
      `/tokens/${XTK}/candles?from=${NOW_MS}&to=${NOW_SEC - 10}`,
      `/tokens/${XTK}/candles?pool=first`,
      '/tokens/xyz',
      `/tokens/${XTK}z`,
      `/tokens/${XTK}/trades?limit=0`,
      `/tokens/${XTK}/trades?limit=201`,
      `/tokens/${XTK}/trades?cursor=bm9wZQ`,
      `/tokens/${XTK}/series/price`,
      '/pools?sort=fees',
      '/pools?dex=nope',
      '/pools/abc',
      '/pools/1/candles?interval=1w',
      `/swap/quote?out=${XTK}&amount=1`,
      '/swap/quote?in=lovelace&amount=1',
      `/swap/quote?in=lovelace&out=${XTK}`,
      `/swap/quote?in=lovelace&out=${XTK}&amount=0`,
      `/swap/quote?in=lovelace&out=${XTK}&amount=abc`,
      '/swap/quote?in=lovelace&out=lovelace&amount=1',
      '/swap/quote?in=ada&out=lovelace&amount=1',
      '/assets/xyz/logo',
    ]) {
      const r = await api.get(`/api/v1${p}`);
      assert.equal(r.status, 400, `${p}: ${JSON.stringify(r.body)}`);
      assert.equal(typeof (r.body as Json).error, 'string', p);
    }
    // A from in the future without a to: the message names the to the caller never sent (now, its default).
    const future = await api.get(`/api/v1/tokens/${XTK}/candles?from=${NOW_SEC + 3600}`);
    assert.equal(
      (future.body as Json).error,
      `invalid parameter from: must not be after now (${NOW_SEC}, unix seconds), the default of to`,
    );
  });

  it('answers 404 { error } to unknown tokens and pools', async () => {
    const unknown = '99'.repeat(28) + '01';
    for (const p of [
      `/tokens/${unknown}`,
      `/tokens/${unknown}/candles`,
      `/tokens/${unknown}/trades`,
      `/tokens/${unknown}/series/liquidity`,
      `/tokens/${XTK}/candles?pool=3`,
      `/tokens/${XTK}/candles?pool=999`,
      '/pools/999',
      '/pools/999/candles',
      '/pools/999/trades',
      `/swap/quote?in=lovelace&out=${unknown}&amount=1`,
      `/assets/${unknown}/logo`,
    ]) {
      const r = await api.get(`/api/v1${p}`);
      assert.equal(r.status, 404, `${p}: ${JSON.stringify(r.body)}`);
      assert.equal(typeof (r.body as Json).error, 'string', p);
    }
  });

  it('a token only minted, in no DEX pool, is the same 404 on its candles, trades and liquidity as on itself', async () => {
    // CIP68 has a token document (its on-chain metadata) and no pool: the devnet's minted-only tokens look so.
    // Its candles, trades and liquidity series answered 200 with nothing in them (candles under poolId 0, which
    // means pool=all), while GET /tokens/{unit} said the token has no market data.
    for (const p of [
      `/tokens/${CIP68}`,
      `/tokens/${CIP68}/candles`,
      `/tokens/${CIP68}/candles?pool=all&quote=USD`,
      `/tokens/${CIP68}/trades`,
      `/tokens/${CIP68}/series/liquidity`,
    ]) {
      const r = await api.get(`/api/v1${p}`);
      assert.equal(r.status, 404, `${p}: ${JSON.stringify(r.body)}`);
      assert.match((r.body as Json).error, /has no indexed DEX pool/, p);
    }
    // What is not market data still answers: its logo and a (routeless) swap quote.
    assert.equal((await rawGet(`${api.url}/api/v1/assets/${CIP68}/logo`)).status, 200);
    assert.deepEqual((await get(`/swap/quote?in=lovelace&out=${CIP68}&amount=1`)).routes, []);
  });
});

describe('market overview while a market recompute is half-written', () => {
  it("its lists show the figures they were ordered by, not a later run's token stats already written", async () => {
    let now = NOW_MS;
    const api = await startTestApi(seedScenario, { now: () => NOW_MS });
    try {
      const acts = createRecomputeActivities({ store: api.store, now: () => now });
      await acts.recomputeTokenStats();
      await acts.recomputeRankings();
      await acts.recomputeMarketOverview();
      const overview = async () => (await api.get('/api/v1/market/overview?logos=url')).body as Json;
      const first = await overview();
      assert.equal(first.topGainers[0].asset.unit, XTK);
      assert.equal(first.topGainers[0].stats.change24h, 0.25);
      // The next run, a day later with the chain a day on (XTK untraded for 24 h): its token stats are written, its
      // overview is not yet.
      now = NOW_MS + DAY * 1000 + 3_600_000;
      await api.store.write(checkpointOps(40, DAY + 3_600));
      await acts.recomputeTokenStats();
      const live = (await api.get(`/api/v1/tokens/${XTK}?logos=url`)).body as Json;
      assert.notEqual(live.stats.change24h, 0.25, 'the new run changed the figures');
      const mid = await overview();
      assert.equal(mid.updatedAt, first.updatedAt);
      assert.deepEqual(mid.topGainers, first.topGainers, 'the gainers as ranked, with the figures they were ranked by');
      assert.deepEqual(mid.trending, first.trending);
      // The run completes: the overview and its rows are the new run's.
      await acts.recomputeRankings();
      await acts.recomputeMarketOverview();
      const done = await overview();
      assert.notEqual(done.updatedAt, first.updatedAt);
      for (const row of [...done.topGainers, ...done.topLosers, ...done.trending] as Json[])
        assert.ok(row.stats.updatedAt <= done.updatedAt, row.asset.unit);
    } finally {
      await api.close();
    }
  });
});

describe('market overview sync lag once the index is at the chain tip', () => {
  it('sync.lagSeconds is the age of the newest block, and the published description says so', async () => {
    // The index holds the chain tip (the source reports the same slot), whose block was made 90 s before now: the
    // overview shows height = tipHeight with a lag of 90 s, which "seconds between the chain tip and the indexed
    // tip" (0 here) would leave an agent unable to read.
    const api = await startTestApi(
      async (store) => {
        await seedScenario(store);
        await store.write(checkpointOps(0));
        const acts = createRecomputeActivities({ store, now: () => NOW_MS });
        await acts.recomputeTokenStats();
        await acts.recomputeRankings();
        await acts.recomputeMarketOverview();
      },
      { now: () => NOW_MS + 90_000 },
    );
    try {
      const o = (await api.get('/api/v1/market/overview')).body as Json;
      assert.equal(o.sync.lagSeconds, 90);
      assert.equal(o.sync.height, TIP_HEIGHT);
      const spec = (await api.get('/api/v1/openapi.json')).body as Json;
      const body = spec.paths['/market/overview'].get.responses['200'].content['application/json'].schema;
      const lag = body.properties.sync.properties.lagSeconds;
      assert.match(lag.description, /now − time of the indexed tip block/);
      assert.match(lag.description, /age of the newest block/);
    } finally {
      await api.close();
    }
  });
});
