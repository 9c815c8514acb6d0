/**
 * Market data on a devnet-synced store, checked against the chain itself: the devnet's canonical blocks (where each
 * transaction sits), the pool states the sync recorded from the chain's pool outputs, and figures computed here by
 * hand from them. Covers what a demanding user found wrong: trades without a pool, token/token pools without
 * volume, price changes that were not of the displayed price, and newest-first lists out of chain order.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { pino } from 'pino';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import type { ChainSource } from '../../activities/chain/source.js';
import { defaultExtensions } from '../../activities/extensions.js';
import { createRecomputeActivities } from '../../activities/recompute/index.js';
import { importRegistry } from '../../activities/registry/import.js';
import { createSyncActivities } from '../../activities/sync/index.js';
import { createApp } from '../../api/app.js';
import { loadConfig } from '../../config/index.js';
import { startDevnet, type Devnet } from '../../devnet/index.js';
import { TOKEN_STATS } from '../../mongo/collections/market-read.js';
import { POOL_STATES, POOLS, TRADES, type PoolDoc, type TradeDoc } from '../../mongo/collections/market.js';
import { storeClock } from '../../mongo/collections/clock.js';
import { USD_STABLECOINS } from '../../mongo/collections/ada-usd.js';
import type { Store } from '../../mongo/store.js';
import { canonicalBlocks } from '../governance/chain-expected.js';
import { tempStore } from '../sync/helpers.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies
const NOW = Date.UTC(2026, 10, 20, 12);
const HOUR_MS = 3_600_000;
const LOVELACE = 'lovelace';

describe('market data on the devnet, checked against the chain', function () {
  this.timeout(300_000);
  let devnet: Devnet;
  let chain: ChainSource;
  let store: Store;
  let server: Server;
  let base = '';
  let cleanup: () => Promise<void>;
  /** Displayed prices (GET /tokens/{unit}) and primary pools at NOW, before the chain moves on an hour. */
  const earlier = new Map<string, { priceAda: number; priceUsd: number | null; primaryPoolId: number | null }>();
  const get = async (path: string): Promise<Json> => {
    const res = await fetch(base + path);
    assert.equal(res.status, 200, path);
    return (await res.json()) as Json;
  };
  const scan = async <D extends { _id: string }>(spec: Parameters<Store['collection']>[0]): Promise<D[]> => {
    const out: D[] = [];
    for await (const d of store.collection(spec).scan()) out.push(d as unknown as D);
    return out;
  };
  /** A fresh sync each time: its chain-sync session finds the blocks published since. */
  const syncToTip = async (sync: ReturnType<typeof createSyncActivities>) => {
    for (;;) {
      const r = await sync.syncSlice({ maxBlocks: 500, waitMs: 0 });
      if (r.atTip && r.blocks === 0) break;
    }
  };
  const recomputeAt = async (nowMs: number) => {
    const r = createRecomputeActivities({ store, now: () => nowMs });
    await r.recomputeTokenStats();
    await r.recomputeRankings();
    await r.recomputeMarketOverview();
  };

  before(async () => {
    const t = await tempStore();
    store = t.store;
    await importRegistry(store, new URL('../../registry', import.meta.url).pathname);
    devnet = await startDevnet({ seed: 'market-data', backfillHours: 6, blockMs: 0, forkRate: 0, now: () => NOW });
    chain = await connectOgmios(devnet.url);
    const newSync = () =>
      createSyncActivities({ store, chain, k: 2160, network: 'mainnet', extensions: defaultExtensions() });
    await syncToTip(newSync());
    await recomputeAt(NOW);
    let clock = NOW;
    const config = loadConfig({ RATE_LIMITS: 'false', API_CACHE_MS: '0' });
    server = createServer(createApp({ store, config, log: pino({ level: 'silent' }), now: () => clock }).callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    const stats = await scan<{ _id: string; primaryPoolId: number | null }>(TOKEN_STATS);
    for (const s of stats) {
      const body = await get(`/tokens/${s._id}`);
      if (body.stats.priceAda !== null)
        earlier.set(s._id, {
          priceAda: body.stats.priceAda,
          priceUsd: body.stats.priceUsd,
          primaryPoolId: s.primaryPoolId,
        });
    }
    // One more hour of chain (a block per 20 s), then the recomputes an hour after the first ones.
    for (let i = 0; i < 180; i++) devnet.step();
    await syncToTip(newSync());
    clock = NOW + HOUR_MS;
    await recomputeAt(clock);
    cleanup = async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await chain.close();
      await devnet.close();
      await t.cleanup();
    };
  });
  after(async () => cleanup?.());

  it('every trade names an integer pool of its DEX and pair, pending and cancelled Splash and WingRiders V2 orders too', async () => {
    const pools = new Map((await scan<PoolDoc>(POOLS)).map((p) => [p.id, p]));
    const trades = await scan<TradeDoc>(TRADES);
    const pairOnly = trades.filter((t) => t.status !== 'complete' && (t.dex === 'splash' || t.dex === 'wingriders-v2'));
    // The devnet's batchers execute most orders within a block or two; some are cancelled (refunded) instead.
    assert.deepEqual(
      [...new Set(pairOnly.map((t) => t.dex))].sort(),
      ['splash', 'wingriders-v2'],
      'orders of both DEXes that did not execute',
    );
    for (const t of trades) {
      assert.ok(Number.isInteger(t.poolId), `trade ${t.id} (${t.dex} ${t.status}) has poolId ${t.poolId}`);
      const p = pools.get(t.poolId as number)!;
      assert.equal(p.dex, t.dex, `trade ${t.id}`);
      assert.deepEqual([p.tokenA, p.tokenB].sort(), [t.tokenIn, t.tokenOut].sort(), `trade ${t.id}: the pool's pair`);
    }
    // As a user reads them: the token's trade list, every item with an integer poolId.
    const sample = pairOnly.slice(0, 5);
    for (const t of sample) {
      const page = await get(`/tokens/${t.token}/trades?limit=100`);
      for (const item of page.items as Json[]) assert.ok(Number.isInteger(item.poolId), `${t.token}: ${item.poolId}`);
    }
  });

  it('token/token pools have volume: each trade valued at a side’s ADA price at execution (hand-computed)', async () => {
    const pools = await scan<PoolDoc>(POOLS);
    const states = await scan<{ _id: string; poolId: number; slot: number; reserveARaw: string; reserveBRaw: string }>(
      POOL_STATES,
    );
    const statesOf = new Map<number, typeof states>();
    for (const s of states) statesOf.set(s.poolId, [...(statesOf.get(s.poolId) ?? []), s]);
    const adaPoolsOf = (unit: string) => pools.filter((p) => p.tokenA === LOVELACE && p.tokenB === unit);
    /** lovelace per base unit of `unit` just before `slot`: the deepest ADA pool's last state before it. */
    const adaPriceBefore = (unit: string, slot: number): { ada: bigint; token: bigint } | 'ambiguous' | null => {
      let best: { ada: bigint; token: bigint } | null = null;
      for (const p of adaPoolsOf(unit)) {
        const list = (statesOf.get(p.id) ?? []).sort((a, b) => a.slot - b.slot);
        if (list.some((s) => s.slot === slot)) return 'ambiguous'; // moved in the same block: order unknown here
        const last = list.filter((s) => s.slot < slot).pop();
        if (!last) continue;
        const r = { ada: BigInt(last.reserveARaw), token: BigInt(last.reserveBRaw) };
        if (!best || r.ada > best.ada) best = r;
      }
      return best;
    };
    const { clock } = await storeClock(store);
    const from24h = clock.msToSlot(NOW + HOUR_MS - 24 * HOUR_MS); // the last recompute's window: its now − 24 h
    const tokenPools = pools.filter((p) => p.tokenA !== LOVELACE);
    assert.ok(tokenPools.length >= 2, 'the devnet has token/token pools');
    const trades = await scan<TradeDoc>(TRADES);
    let checked = 0;
    let poolsWithVolume = 0;
    for (const p of tokenPools) {
      const mine = trades.filter((t) => t.poolId === p.id && t.status === 'complete');
      let sum = 0n;
      let exact = true;
      for (const t of mine) {
        let expected: bigint | null = null;
        for (const [unit, amount] of [
          [t.tokenIn, t.amountInRaw],
          [t.tokenOut, t.amountOutRaw],
        ] as const) {
          const r = adaPriceBefore(unit, t.slot);
          if (r === 'ambiguous') exact = false;
          if (r === null) continue;
          if (r !== 'ambiguous') expected = (BigInt(amount!) * r.ada) / r.token;
          break;
        }
        assert.notEqual(t.valueLovelace, null, `trade ${t.id} in token/token pool ${p.id} is valued`);
        if (expected !== null) {
          assert.equal(t.valueLovelace, String(expected), `trade ${t.id}`);
          checked++;
        }
        if (t.slot >= from24h) sum += BigInt(t.valueLovelace!);
      }
      if (!mine.length) continue;
      const shown = await get(`/pools/${p.id}`);
      assert.ok(shown.volume24h > 0, `pool ${p.id} volume24h`);
      if (exact) assert.equal(shown.volume24h, Number(sum) / 1e6, `pool ${p.id}: Σ of its valued trades`);
      const { candles } = await get(`/pools/${p.id}/candles?interval=1h`);
      const candleVolume = (candles as Json[]).reduce((s, c) => s + c.volume, 0);
      const allVolume = mine.reduce((s, t) => s + BigInt(t.valueLovelace!), 0n);
      assert.ok(Math.abs(candleVolume - Number(allVolume) / 1e6) < 1e-6, `pool ${p.id}: candle volume = Σ trades`);
      poolsWithVolume++;
    }
    assert.ok(checked >= 10, `${checked} token/token trades checked by hand`);
    assert.ok(poolsWithVolume >= 2, `${poolsWithVolume} token/token pools with volume`);
  });

  it('token/token pools have a TVL: each side at its token’s ADA price, counted in the market overview (hand-computed)', async () => {
    const pools = await scan<PoolDoc>(POOLS);
    // The reserves the last recompute saw (no block was synced since): a token's ADA price is read from its
    // deepest ADA pool (the sync's primary pool; ties: the lower id), lovelace per base unit = ADA / token reserve.
    const deepestAdaPool = (unit: string) =>
      pools
        .filter((p) => p.tokenA === LOVELACE && p.tokenB === unit && BigInt(p.reserveBRaw) > 0n)
        .sort((a, b) =>
          BigInt(b.reserveARaw) > BigInt(a.reserveARaw)
            ? 1
            : BigInt(b.reserveARaw) < BigInt(a.reserveARaw)
              ? -1
              : a.id - b.id,
        )[0];
    const sideLovelace = (unit: string, raw: string): bigint | null => {
      const src = deepestAdaPool(unit);
      return src ? (BigInt(raw) * BigInt(src.reserveARaw)) / BigInt(src.reserveBRaw) : null;
    };
    const expectedTvl = new Map<number, bigint | null>();
    for (const p of pools) {
      if (p.tokenA === LOVELACE) {
        expectedTvl.set(p.id, 2n * BigInt(p.reserveARaw));
        continue;
      }
      const a = sideLovelace(p.tokenA, p.reserveARaw);
      const b = sideLovelace(p.tokenB, p.reserveBRaw);
      // A side without an ADA price counts as much as the priced one (equal value at the pool's own price).
      expectedTvl.set(p.id, a === null ? (b === null ? null : 2n * b) : b === null ? 2n * a : a + b);
    }
    const tokenPools = pools.filter((p) => p.tokenA !== LOVELACE);
    assert.ok(tokenPools.length >= 2, 'the devnet has token/token pools');
    let valued = 0;
    for (const p of tokenPools) {
      const expected = expectedTvl.get(p.id) ?? null;
      const shown = await get(`/pools/${p.id}`);
      if (expected === null) assert.equal(shown.tvlAda, null, `pool ${p.id}: neither token has an ADA pool`);
      else {
        assert.ok(
          Math.abs(shown.tvlAda - Number(expected) / 1e6) < 1e-6,
          `pool ${p.id}: ${shown.tvlAda} vs ${expected}`,
        );
        valued++;
      }
    }
    assert.ok(valued >= 2, `${valued} token/token pools valued`);
    // The overview's TVL is every pool's, token/token ones included, overall and per DEX.
    const overview = await get('/market/overview');
    const total = [...expectedTvl.values()].reduce<bigint>((s, v) => s + (v ?? 0n), 0n);
    assert.ok(Math.abs(overview.tvlAda - Number(total) / 1e6) < 1e-3, `overview ${overview.tvlAda} vs ${total}`);
    for (const d of overview.dexes as Json[]) {
      const dexTotal = pools
        .filter((p) => p.dex === d.dex)
        .reduce<bigint>((s, p) => s + (expectedTvl.get(p.id) ?? 0n), 0n);
      assert.ok(Math.abs(d.tvlAda - Number(dexTotal) / 1e6) < 1e-3, `${d.dex}: ${d.tvlAda} vs ${dexTotal}`);
    }
    // The TVL-ranked pool list places them by that figure.
    const ranked = (await get('/pools?sort=tvl&pageSize=200')).items as Json[];
    for (const p of tokenPools.filter((x) => expectedTvl.get(x.id) !== null))
      assert.notEqual(ranked.find((r) => r.id === p.id)?.tvlAda ?? null, null, `pool ${p.id} ranked with its TVL`);
    // So the published description of the list must not say pools without an ADA side come last.
    const doc = await get('/openapi.json');
    const description = String(doc.paths['/pools'].get.description);
    assert.doesNotMatch(description, /no ADA side\) come last/);
    assert.match(description, /neither of whose tokens has an ADA pool/);
  });

  it('a token/token trade is a trade of both its tokens: lists, 24 h stats and ADA candles of either side (hand-computed)', async () => {
    const pools = await scan<PoolDoc>(POOLS);
    const trades = (await scan<TradeDoc>(TRADES)).sort((a, b) => a.seq - b.seq);
    const { clock } = await storeClock(store);
    const from24h = clock.msToSlot(NOW + HOUR_MS - 24 * HOUR_MS);
    const decimals = new Map<string, number>();
    const decimalsOf = async (unit: string) => {
      if (!decimals.has(unit)) decimals.set(unit, (await get(`/tokens/${unit}`)).asset.decimals ?? 0);
      return decimals.get(unit)!;
    };
    const minute = (t: TradeDoc) => Math.floor(clock.slotToMs(t.slot) / 60_000) * 60;
    const valued = trades.filter((t) => t.status === 'complete' && t.valueLovelace !== null);
    /** The trade is the last of `unit`'s valued trades in its minute: `unit`'s ADA price there is this trade's. */
    const lastOfMinute = (t: TradeDoc, unit: string) => {
      const ofMinute = valued.filter((u) => (u.tokenIn === unit || u.tokenOut === unit) && minute(u) === minute(t));
      // Over several pools the minute's ADA price is their volume-weighted close, not one trade's.
      return ofMinute.pop() === t && ofMinute.every((u) => u.poolId === t.poolId);
    };
    let soldShown = 0;
    let statsChecked = 0;
    let candlesChecked = 0;
    for (const p of pools.filter((q) => q.tokenA !== LOVELACE)) {
      const mine = valued.filter((t) => t.poolId === p.id);
      if (!mine.length) continue;
      for (const unit of [p.tokenA, p.tokenB]) {
        // Its 24 h stats: every complete trade it was bought or sold in, whatever the other side.
        const window = trades.filter((t) => t.status === 'complete' && t.slot >= from24h);
        const { stats } = await get(`/tokens/${unit}`);
        assert.equal(stats.buys24h, window.filter((t) => t.tokenOut === unit).length, `${unit} buys24h`);
        assert.equal(stats.sells24h, window.filter((t) => t.tokenIn === unit).length, `${unit} sells24h`);
        assert.equal(stats.txns24h, stats.buys24h + stats.sells24h, `${unit} txns24h`);
        statsChecked++;
        // Its trade list holds the pool's trades in which it was sold.
        const listed = new Map<number, Json>();
        let cursor: string | null = null;
        do {
          const page: Json = await get(`/tokens/${unit}/trades?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
          for (const item of page.items as Json[]) listed.set(item.id, item);
          cursor = page.nextCursor;
        } while (cursor);
        const unitScale = 10 ** (await decimalsOf(unit)) / 1e6;
        for (const t of mine) {
          const item = listed.get(t.id);
          assert.ok(item, `trade ${t.id} (${unit} traded in pool ${p.id}) in /tokens/${unit}/trades`);
          // Shown from the listed token's side: its buy or sell, at the ADA price the trade implies for it.
          const sold = t.tokenIn === unit;
          assert.equal(item.side, sold ? 'sell' : 'buy', `trade ${t.id} in ${unit}'s list`);
          const amount = BigInt(sold ? t.amountInRaw : t.amountOutRaw!);
          const expected = (Number(BigInt(t.valueLovelace!)) / Number(amount)) * unitScale;
          assert.ok(Math.abs(item.priceAda / expected - 1) < 1e-9, `trade ${t.id}: ${item.priceAda} vs ${expected}`);
          if (sold) soldShown++;
        }
        // Its candles on this pool, in ADA: where this pool's trade was the minute's last of the other token as
        // well as the only one of the pool, the close is the trade's ADA value over the amount of `unit` in it.
        const other = unit === p.tokenA ? p.tokenB : p.tokenA;
        const { candles, quote } = await get(`/tokens/${unit}/candles?pool=${p.id}&interval=1m`);
        assert.equal(quote, 'ADA');
        const byTime = new Map((candles as Json[]).map((c) => [c.time, c]));
        const scale = 10 ** (await decimalsOf(unit)) / 1e6;
        for (const t of mine) {
          const c = byTime.get(minute(t));
          if (!c || c.trades !== 1 || !lastOfMinute(t, other)) continue;
          const amount = BigInt(unit === t.tokenIn ? t.amountInRaw : t.amountOutRaw!);
          const expected = (Number(BigInt(t.valueLovelace!)) / Number(amount)) * scale;
          assert.ok(
            Math.abs(c.close / expected - 1) < 1e-9,
            `${unit} in pool ${p.id} at ${c.time}: ${c.close} vs ${expected}`,
          );
          assert.ok(c.low <= c.open && c.open <= c.high && c.low <= c.close && c.close <= c.high, 'OHLC order');
          if (unit === p.tokenB) {
            const pc = (await get(`/pools/${p.id}/candles?interval=1m&from=${c.time}&to=${c.time}`)).candles[0];
            assert.ok(Math.abs(pc.close / expected - 1) < 1e-9, `/pools/${p.id}/candles: tokenB's ADA price`);
          }
          candlesChecked++;
        }
      }
    }
    assert.ok(soldShown >= 10, `${soldShown} token/token sells found in the sold token's list`);
    assert.ok(statsChecked >= 4, `${statsChecked} tokens' stats checked`);
    assert.ok(candlesChecked >= 10, `${candlesChecked} token/token candles checked by hand`);
  });

  it('pool=all candles: each pool’s own ADA candle weighted by its ADA volume in the bucket, volumes summed', async () => {
    const pools = await scan<PoolDoc>(POOLS);
    // Tokens traded in several pools, all against ADA: each pool's candles are the token's ADA price there.
    const poolsOf = new Map<string, PoolDoc[]>();
    for (const p of pools) for (const u of [p.tokenA, p.tokenB]) poolsOf.set(u, [...(poolsOf.get(u) ?? []), p]);
    let buckets = 0;
    let weighted = 0;
    for (const [unit, mine] of poolsOf) {
      if (unit === LOVELACE || mine.length < 2 || mine.some((p) => p.tokenA !== LOVELACE)) continue;
      const all = (await get(`/tokens/${unit}/candles?pool=all&interval=1h`)).candles as Json[];
      const perPool = await Promise.all(
        mine.map(async (p) => {
          const { candles } = await get(`/tokens/${unit}/candles?pool=${p.id}&interval=1h`);
          return new Map((candles as Json[]).map((c) => [c.time, c]));
        }),
      );
      for (const c of all) {
        const parts = perPool.map((m) => m.get(c.time)).filter((x): x is Json => x !== undefined && x.trades > 0);
        const volume = parts.reduce((sum, x) => sum + x.volume, 0);
        assert.ok(Math.abs(c.volume - volume) < 1e-6 * Math.max(1, volume), `${unit} ${c.time}: summed volume`);
        assert.equal(
          c.trades,
          parts.reduce((sum, x) => sum + x.trades, 0),
          `${unit} ${c.time}: summed trades`,
        );
        for (const f of ['open', 'high', 'low', 'close'] as const) {
          const expected = parts.reduce((sum, x) => sum + x[f] * x.volume, 0) / volume;
          assert.ok(Math.abs(c[f] / expected - 1) < 1e-9, `${unit} ${c.time} ${f}: ${c[f]} vs ${expected}`);
        }
        buckets++;
        if (parts.length > 1) weighted++;
      }
    }
    assert.ok(weighted >= 5, `${weighted} of ${buckets} hourly candles combined two or more pools`);
  });

  it('change1h is the change of the displayed price: GET /tokens now vs an hour ago', async () => {
    const stats = new Map(
      (await scan<{ _id: string; primaryPoolId: number | null }>(TOKEN_STATS)).map((s) => [s._id, s]),
    );
    let compared = 0;
    let moved = 0;
    for (const [unit, then] of earlier) {
      if (stats.get(unit)?.primaryPoolId !== then.primaryPoolId) continue; // the displayed price moved pools
      const now = (await get(`/tokens/${unit}`)).stats;
      const expected = now.priceAda / then.priceAda - 1;
      assert.ok(
        Math.abs(now.change1h - expected) < 1e-9 * Math.max(1, Math.abs(expected)),
        `${unit}: change1h ${now.change1h} vs displayed ${then.priceAda} → ${now.priceAda} (${expected})`,
      );
      compared++;
      if (expected !== 0) moved++;
    }
    assert.ok(compared >= 10 && moved >= 5, `${compared} tokens compared, ${moved} whose displayed price moved`);
  });

  it('change1hUsd is the change of the displayed USD price: GET /tokens now vs an hour ago (stablecoins too)', async () => {
    const stats = new Map(
      (await scan<{ _id: string; primaryPoolId: number | null }>(TOKEN_STATS)).map((s) => [s._id, s]),
    );
    let compared = 0;
    for (const [unit, then] of earlier) {
      if (stats.get(unit)?.primaryPoolId !== then.primaryPoolId || then.priceUsd === null) continue;
      const now = (await get(`/tokens/${unit}`)).stats;
      const expected = now.priceUsd / then.priceUsd - 1;
      assert.ok(
        Math.abs(now.change1hUsd - expected) < 1e-9 * Math.max(1, Math.abs(expected)),
        `${unit}: change1hUsd ${now.change1hUsd} vs displayed ${then.priceUsd} → ${now.priceUsd} USD (${expected})`,
      );
      compared++;
    }
    assert.ok(compared >= 10, `${compared} tokens compared`);
  });

  it('a trade’s valueUsd is at the ADA/USD rate of its point of the chain, never a later one (hand-computed from the stablecoin pools)', async () => {
    const pools = await scan<PoolDoc>(POOLS);
    const states = await scan<{ _id: string; poolId: number; slot: number; reserveARaw: string; reserveBRaw: string }>(
      POOL_STATES,
    );
    const stable = pools.filter((p) => p.tokenA === LOVELACE && USD_STABLECOINS.has(p.tokenB));
    assert.ok(stable.length >= 2, 'the devnet has ADA/stablecoin pools');
    assert.ok(
      stable.every((p) => p.weightA === undefined),
      'constant-product pools: the reserve ratio is the price',
    );
    const lastState = (poolId: number, slot: number) =>
      states
        .filter((s) => s.poolId === poolId && s.slot <= slot)
        .sort((a, b) => a.slot - b.slot)
        .pop();
    // The market overview's estimator (reference dex-nft-handles.md §6.1): the ADA-weighted median over the pools at
    // least 25,000 ADA deep (all when none is), of the fiat-backed coins among them when any is there.
    const FIAT = new Set([
      'c48cbb3d5e57ed56e276bc45f99ab39abe94e6cd7ac39fb402da47ad0014df105553444d', // USDM
      '1f3aec8bfe7ea4fe14c5f121e2a92e301afe414147860d557cac7e345553444378', // USDCx
      '25c5de5f5b286073c593edfd77b48abc7a48e5a4f3d4cd9d428ff93555534443', // wanUSDC
      '25c5de5f5b286073c593edfd77b48abc7a48e5a4f3d4cd9d428ff93555534454', // wanUSDT
    ]);
    const medianAfter = (slot: number): number | null => {
      const all = stable.flatMap((p) => {
        const last = lastState(p.id, slot);
        if (!last) return [];
        const ada = Number(last.reserveARaw) / 1e6;
        const rate = Number(last.reserveBRaw) / 10 ** USD_STABLECOINS.get(p.tokenB)! / ada;
        return ada > 0 && rate > 0 ? [{ rate, ada, fiat: FIAT.has(p.tokenB) }] : [];
      });
      const deep = all.filter((r) => r.ada >= 25_000);
      const pick = deep.length ? deep : all;
      const rates = pick.some((r) => r.fiat) ? pick.filter((r) => r.fiat) : pick;
      rates.sort((a, b) => a.rate - b.rate);
      const half = rates.reduce((t, r) => t + r.ada, 0) / 2;
      let acc = 0;
      for (const r of rates) if ((acc += r.ada) >= half) return r.rate;
      return null;
    };
    const stableSlots = new Set(states.filter((s) => stable.some((p) => p.id === s.poolId)).map((s) => s.slot));
    const { clock } = await storeClock(store);
    let checked = 0;
    for (const unit of [...earlier.keys()].slice(0, 6)) {
      const { items } = await get(`/tokens/${unit}/trades?limit=200`);
      for (const t of items as Json[]) {
        if (t.valueAda === null || t.valueAda === 0) continue;
        const slot = clock.msToSlot(Date.parse(t.time));
        // A completed trade: the pools as its block left them. Where a stablecoin pool moved in the trade's own
        // block, its order within the block decides, which pool states (one per block) cannot tell: skipped.
        // A pending one: the adausd series (the same estimator) by the end of the minute before the trade's minute.
        let rate: number | null;
        if (t.status === 'complete') {
          if (stableSlots.has(slot)) continue;
          rate = medianAfter(slot);
        } else rate = medianAfter(clock.msToSlot(Math.floor(Date.parse(t.time) / 60_000) * 60_000) - 1);
        if (rate === null) assert.equal(t.valueUsd, null, `${t.txHash}: no rate known yet`);
        else {
          const expected = t.valueAda * rate;
          assert.ok(Math.abs(t.valueUsd - expected) < 1e-9 * expected, `${t.txHash}: ${t.valueUsd} USD ≠ ${expected}`);
          checked++;
        }
      }
    }
    assert.ok(checked >= 100, `${checked} trades checked`);
  });

  it('newest-first trade lists (token, pool, wallet) follow chain order: block, then position in the block', async () => {
    const position = new Map<string, [number, number]>();
    for (const b of canonicalBlocks(devnet))
      (b.transactions ?? []).forEach((tx, i) => position.set(tx.id, [b.height ?? 0, i]));
    const trades = await scan<TradeDoc>(TRADES);
    const count = (f: (t: TradeDoc) => boolean) => trades.filter(f).length;
    const busiest = <K>(key: (t: TradeDoc) => K): K => {
      const n = new Map<K, number>();
      for (const t of trades) n.set(key(t), (n.get(key(t)) ?? 0) + 1);
      return [...n].sort((a, b) => b[1] - a[1])[0]![0];
    };
    const token = busiest((t) => t.token);
    const pool = busiest((t) => t.poolId);
    const maker = busiest((t) => t.maker);
    for (const [path, total] of [
      // A token's trades: the ones it was bought in (listed under it) and the ones it was sold in, token/token too.
      [`/tokens/${token}/trades`, count((t) => t.token === token || t.tokenIn === token)],
      [`/pools/${pool}/trades`, count((t) => t.poolId === pool)],
      [`/wallet/${maker}/trades`, count((t) => t.maker === maker)],
    ] as const) {
      const seen: Json[] = [];
      let cursor: string | null = null;
      do {
        const page: Json = await get(`${path}?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
        seen.push(...(page.items as Json[]));
        cursor = page.nextCursor;
      } while (cursor);
      assert.equal(seen.length, total, `${path}: every trade once`);
      assert.equal(new Set(seen.map((t) => t.id)).size, total, `${path}: no repeats`);
      let inversions = 0;
      for (let i = 1; i < seen.length; i++) {
        const [h0, i0] = position.get(seen[i - 1]!.txHash)!;
        const [h1, i1] = position.get(seen[i]!.txHash)!;
        if (h1 > h0 || (h1 === h0 && i1 > i0)) inversions++;
      }
      assert.equal(inversions, 0, `${path}: ${inversions} inversions among ${seen.length} trades`);
    }
  });

  /**
   * The spec's order of a /tokens page, checked on the presented rows: the sort value (missing last in either
   * direction); equal values by the tie-break — liquidity for mcap, fdv and volume, volume for the others —
   * descending (missing last), then by unit. Ascending reverses the groups of equal values only.
   */
  const TOKEN_SORTS: {
    sort: string;
    periods: boolean;
    quotes?: boolean;
    value: (s: Json, p: string) => unknown;
    tie: (s: Json, p: string) => unknown;
    asc?: boolean;
  }[] = [
    { sort: 'volume', periods: true, value: (s, p) => s.windows[p].volume, tie: (s) => s.liquidityAda },
    { sort: 'volume24h', periods: false, value: (s) => s.volume24h, tie: (s) => s.liquidityAda },
    { sort: 'txns', periods: true, value: (s, p) => s.windows[p].txns, tie: (s, p) => s.windows[p].volume },
    { sort: 'txns24h', periods: false, value: (s) => s.txns24h, tie: (s) => s.windows['24h'].volume },
    { sort: 'gainers', periods: true, quotes: true, value: () => null, tie: (s, p) => s.windows[p].volume },
    { sort: 'losers', periods: true, quotes: true, value: () => null, tie: (s, p) => s.windows[p].volume, asc: true },
    { sort: 'mcap', periods: false, value: (s) => s.mcapAda, tie: (s) => s.liquidityAda },
    { sort: 'fdv', periods: false, value: (s) => s.fdvUsd, tie: (s) => s.liquidityAda },
    { sort: 'makers', periods: false, value: (s) => s.makers24h, tie: (s) => s.volume24h },
    { sort: 'liquidity', periods: false, value: (s) => s.liquidityAda, tie: (s) => s.volume24h },
    { sort: 'holders', periods: false, value: (s) => s.holders, tie: (s) => s.volume24h },
    {
      sort: 'rank',
      periods: false,
      value: (s) => (s.mcapAda !== null && s.liquidityAda !== null ? Math.sqrt(s.mcapAda * s.liquidityAda) : null),
      tie: (s) => s.volume24h,
    },
    { sort: 'trending', periods: false, value: (s) => s.windows['1h'].txns, tie: (s) => s.volume24h },
    // Age: seconds since the first pool; ascending (youngest first) by default.
    {
      sort: 'age',
      periods: false,
      value: (s) => (s.firstPoolTime === null ? null : -Date.parse(s.firstPoolTime)),
      tie: (s) => s.volume24h,
    },
    { sort: 'new', periods: false, value: (s) => -Date.parse(s.firstPoolTime), tie: (s) => s.volume24h, asc: true },
  ];
  const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  /** Negative when a comes first in a descending list (missing last). */
  const descCmp = (a: number | null, b: number | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : b - a);
  const checkOrder = (rows: { unit: string; v: number | null; t: number | null }[], asc: boolean, what: string) => {
    for (let i = 1; i < rows.length; i++) {
      const a = rows[i - 1]!;
      const b = rows[i]!;
      const byValue = a.v === null || b.v === null ? descCmp(a.v, b.v) : asc ? a.v - b.v : b.v - a.v;
      const c = byValue !== 0 ? byValue : descCmp(a.t, b.t) || (a.unit < b.unit ? -1 : 1);
      assert.ok(
        c <= 0 || (byValue === 0 && descCmp(a.t, b.t) === 0 && a.unit < b.unit),
        `${what}: row ${i} ${JSON.stringify([a, b])}`,
      );
      if (byValue === 0)
        assert.ok(descCmp(a.t, b.t) < 0 || (descCmp(a.t, b.t) === 0 && a.unit < b.unit), `${what}: tie at row ${i}`);
      else assert.ok(byValue < 0, `${what}: value order at row ${i}: ${a.v} then ${b.v}`);
    }
  };

  it('a ranking page is one snapshot: every /tokens sort × period and /pools sort in order by its presented fields while stats move on', async () => {
    // Catch-up: the chain and the token stats move on (more blocks, a token-stats recompute) before the rankings
    // recompute runs again. A page must still be ordered by the figures it presents.
    for (let i = 0; i < 60; i++) devnet.step();
    const sync = createSyncActivities({ store, chain, k: 2160, network: 'mainnet', extensions: defaultExtensions() });
    for (;;) {
      const r = await sync.syncSlice({ maxBlocks: 500, waitMs: 0 });
      if (r.atTip && r.blocks === 0) break;
    }
    await createRecomputeActivities({ store, now: () => NOW + HOUR_MS + 1_200_000 }).recomputeTokenStats();
    let lists = 0;
    let rowsChecked = 0;
    for (const def of TOKEN_SORTS)
      for (const period of def.periods ? ['5m', '1h', '6h', '24h'] : ['24h'])
        for (const quote of def.quotes ? ['USD', 'ADA'] : ['USD'])
          for (const order of def.sort === 'gainers' || def.sort === 'losers' || def.sort === 'new'
            ? [null]
            : ['desc', 'asc']) {
            const q = `sort=${def.sort}&period=${period}&quote=${quote}&pageSize=200&minLiquidity=0${order ? `&order=${order}` : ''}`;
            const body = await get(`/tokens?${q}`);
            const rows = (body.items as Json[]).map((it) => {
              const s = it.stats as Json;
              const change = quote === 'USD' ? s.windows[period].changeUsd : s.windows[period].change;
              const v = def.sort === 'gainers' || def.sort === 'losers' ? change : def.value(s, period);
              return { unit: it.asset.unit as string, v: num(v), t: num(def.tie(s, period)) };
            });
            // The direction the answer states (gainers, losers, new, rank and trending fix their own).
            const asc = body.order === 'asc';
            if (order) assert.ok(['rank', 'trending'].includes(def.sort) || body.order === order, q);
            checkOrder(rows, asc, q);
            lists++;
            rowsChecked += rows.length;
          }
    for (const sort of ['tvl', 'volume24h']) {
      const body = await get(`/pools?sort=${sort}&pageSize=200`);
      const rows = (body.items as Json[]).map((p) => ({
        unit: String(p.id).padStart(8, '0'),
        v: num(sort === 'tvl' ? p.tvlAda : p.volume24h),
        t: num(sort === 'tvl' ? p.volume24h : p.tvlAda),
      }));
      checkOrder(rows, false, `/pools?sort=${sort}`);
      rowsChecked += rows.length;
    }
    assert.ok(lists >= 40 && rowsChecked >= 500, `${lists} lists, ${rowsChecked} rows`);
  });
});
