/**
 * Market data end to end on the devnet: DEX activity in real on-chain formats → Ogmios client → sync with the
 * market extension → recomputes → REST. Checks what a user would cross-check: a candle's volume is the sum of its
 * trades, the token's price is its primary pool's reserve ratio, every sort answers and orders, ADA/USD is derived
 * on chain and the sync lag is small.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { pino } from 'pino';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import { defaultExtensions } from '../../activities/extensions.js';
import { createRecomputeActivities } from '../../activities/recompute/index.js';
import { importRegistry } from '../../activities/registry/import.js';
import { createSyncActivities } from '../../activities/sync/index.js';
import { createApp } from '../../api/app.js';
import { loadConfig } from '../../config/index.js';
import { startDevnet } from '../../devnet/index.js';
import { tempStore } from '../sync/helpers.js';

interface Candle {
  time: number;
  volume: number;
  trades: number;
  close: number;
}
interface Trade {
  poolId: number;
  time: string;
  status: string;
  valueAda: number | null;
}

describe('market data end to end on the devnet', function () {
  this.timeout(240_000);
  let server: Server;
  let base = '';
  let cleanup: () => Promise<void>;
  const get = async <T>(path: string): Promise<{ status: number; body: T }> => {
    const res = await fetch(base + path);
    return { status: res.status, body: (await res.json()) as T };
  };

  before(async () => {
    const t = await tempStore();
    await importRegistry(t.store, new URL('../../registry', import.meta.url).pathname);
    const devnet = await startDevnet({ seed: 'e2e-market', backfillHours: 6, blockMs: 3_600_000, forkRate: 0.05 });
    const chain = await connectOgmios(devnet.url);
    const sync = createSyncActivities({
      store: t.store,
      chain,
      k: 2160,
      network: 'mainnet',
      extensions: defaultExtensions(),
    });
    for (;;) {
      const r = await sync.syncSlice({ maxBlocks: 500, waitMs: 100 });
      if (r.atTip && r.blocks === 0) break;
    }
    const recompute = createRecomputeActivities({ store: t.store });
    await recompute.recomputeTokenStats();
    await recompute.recomputeRankings();
    await recompute.recomputeMarketOverview();
    const config = loadConfig({ RATE_LIMITS: 'false' });
    server = createServer(createApp({ store: t.store, config, log: pino({ level: 'silent' }) }).callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    cleanup = async () => {
      server.close();
      await chain.close();
      await devnet.close();
      await t.cleanup();
    };
  });
  after(async () => cleanup?.());

  it('lists tokens with prices, liquidity and volume, and every sort answers in order', async () => {
    const { status, body } = await get<{
      items: { stats: { priceAda: number | null; liquidityAda: number | null; volume24h: number } }[];
      total: number;
    }>('/tokens?sort=volume&pageSize=50&logos=url');
    assert.equal(status, 200);
    assert.ok(body.items.length >= 10, `tokens listed (${body.items.length})`);
    assert.ok(body.items.every((i) => i.stats.priceAda !== null && (i.stats.liquidityAda ?? 0) > 0));
    const volumes = body.items.map((i) => i.stats.volume24h);
    assert.deepEqual(
      volumes,
      [...volumes].sort((a, b) => b - a),
      'volume sort is descending',
    );
    assert.ok(volumes[0]! > 0);
    const liq = await get<{ items: { stats: { liquidityAda: number | null } }[] }>(
      '/tokens?sort=liquidity&order=asc&pageSize=50&logos=url',
    );
    const l = liq.body.items.map((i) => i.stats.liquidityAda ?? Infinity);
    assert.deepEqual(
      l,
      [...l].sort((a, b) => a - b),
      'liquidity ascending',
    );
    for (const sort of [
      'volume',
      'volume24h',
      'mcap',
      'gainers',
      'losers',
      'change',
      'age',
      'new',
      'txns',
      'txns24h',
      'makers',
      'liquidity',
      'fdv',
      'holders',
      'rank',
      'trending',
    ])
      assert.equal((await get(`/tokens?sort=${sort}&logos=url`)).status, 200, `sort=${sort}`);
  });

  it("the token's price is its primary pool's reserve ratio, and each candle's volume is the sum of its trades", async () => {
    const top = await get<{ items: { asset: { unit: string } }[] }>(
      '/tokens?sort=txns&period=24h&pageSize=1&logos=url',
    );
    const unit = top.body.items[0]!.asset.unit;
    const token = await get<{
      stats: { priceAda: number };
      primaryPoolId: number;
      pools: { id: number; tokenA: { unit: string }; price: number | null; reserveA: number; reserveB: number }[];
    }>(`/tokens/${unit}?logos=url`);
    assert.equal(token.status, 200);
    const primary = token.body.pools.find((p) => p.id === token.body.primaryPoolId)!;
    assert.equal(primary.tokenA.unit, 'lovelace');
    assert.ok(
      Math.abs(token.body.stats.priceAda / (primary.reserveA / primary.reserveB) - 1) < 1e-9,
      'price = reserveA / reserveB',
    );

    const trades: Trade[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: Trade[]; nextCursor: string | null } } = await get(
        `/pools/${primary.id}/trades?limit=200&logos=url${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      trades.push(...page.body.items);
      cursor = page.body.nextCursor;
    } while (cursor);
    const complete = trades.filter((t) => t.status === 'complete' && t.valueAda !== null);
    assert.ok(complete.length >= 5, `trades (${complete.length})`);
    const candles = await get<{ candles: Candle[] }>(`/pools/${primary.id}/candles?interval=1h`);
    assert.ok(candles.body.candles.length > 0);
    for (const c of candles.body.candles) {
      const inBucket = complete.filter((t) => {
        const s = Date.parse(t.time) / 1000;
        return s >= c.time && s < c.time + 3600;
      });
      assert.equal(c.trades, inBucket.length, `trades in candle ${c.time}`);
      const sum = inBucket.reduce((n, t) => n + (t.valueAda ?? 0), 0);
      assert.ok(
        Math.abs(c.volume - sum) < 1e-6 * Math.max(1, sum),
        `volume of candle ${c.time}: ${c.volume} vs ${sum}`,
      );
    }
  });

  it('derives ADA/USD on chain and reports a small sync lag', async () => {
    const o = await get<{ adaUsd: number; dexes: { dex: string }[]; sync: { lagSeconds: number } }>(
      '/market/overview?logos=url',
    );
    assert.equal(o.status, 200);
    assert.ok(o.body.adaUsd > 0.3 && o.body.adaUsd < 1.2, `adaUsd ${o.body.adaUsd}`);
    assert.deepEqual(o.body.dexes.map((d) => d.dex).sort(), ['minswap-v2', 'splash', 'sundaeswap-v3', 'wingriders-v2']);
    assert.ok(o.body.sync.lagSeconds >= 0 && o.body.sync.lagSeconds < 120);
  });

  it('quotes a swap with the pool math and rejects bad parameters', async () => {
    const top = await get<{ items: { asset: { unit: string } }[] }>('/tokens?sort=liquidity&pageSize=1&logos=url');
    const unit = top.body.items[0]!.asset.unit;
    const q = await get<{ best: { amountOut: number } | null; routes: unknown[] }>(
      `/swap/quote?in=lovelace&out=${unit}&amount=100`,
    );
    assert.equal(q.status, 200);
    assert.ok(q.body.best && q.body.best.amountOut > 0);
    for (const bad of [
      '/swap/quote?in=lovelace&amount=1',
      '/tokens?sort=bogus',
      '/tokens?pageSize=0',
      '/tokens?pageSize=201',
      `/tokens/${unit}/candles?interval=2m`,
      `/tokens/${unit}/candles?from=20&to=10`,
      '/tokens/xyz',
    ])
      assert.equal((await get(bad)).status, 400, bad);
    assert.equal((await get(`/tokens/${'ab'.repeat(28)}00`)).status, 404);
    assert.equal((await get('/pools/999999')).status, 404);
  });
});
