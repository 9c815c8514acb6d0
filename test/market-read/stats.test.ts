import assert from 'node:assert/strict';
import { createRecomputeActivities } from '../../activities/recompute/index.js';
import { openMemoryStore } from '../../mongo/adapters/embedded.js';
import {
  MARKET_OVERVIEW,
  POOL_STATS,
  RANKINGS,
  TOKEN_STATS,
  type TokenStatsDoc,
} from '../../mongo/collections/market-read.js';
import { POOL_STATES, POOLS } from '../../mongo/collections/market.js';
import { HOLDER_COUNTS, HOLDERS, quantitySortKey } from '../../mongo/collections/holders.js';
import { enterpriseAddress, rewardAddress } from '../../cardano/address.js';
import { minswapV2 } from '../../cardano/dex/minswap-v2.js';
import { del, put, type Store } from '../../mongo/store.js';
import {
  DAY,
  HOUR,
  NOW_MS,
  NOW_SEC,
  USDM,
  candle,
  checkpointOps,
  meta,
  pool,
  prepare,
  putAll,
  slotAt,
  token,
  trade,
  unitOf,
} from './seed.js';
import { OTHER, SUPPLY_RAW, XTK, seedScenario } from './scenario.js';

const MINSWAP_V2_POOL_SCRIPT = minswapV2.poolScriptHashes[0]!;

const close = (a: number | null, b: number, what: string) =>
  assert.ok(a !== null && Math.abs(a - b) < 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${a} ≠ ${b}`);

describe('market recomputes: token stats from hand-built pools, trades and candles', () => {
  let store: Store;
  let x: TokenStatsDoc;
  before(async () => {
    store = await openMemoryStore();
    await seedScenario(store);
    // XTK on chain: 10,000,000 in unspent outputs; its largest holders: a lock script without a stake key (a
    // treasury, 3,000,000), a Minswap V2 pool script (liquidity, 2,000,000) and a stake key (5,000,000).
    const holder = (h: string, raw: string) =>
      put(HOLDERS, {
        _id: `${XTK}|${h}`,
        unit: XTK,
        holder: h,
        quantityRaw: raw,
        slot: 1,
        sortKey: quantitySortKey(raw),
      });
    await store.write([
      put(HOLDER_COUNTS, { _id: XTK, unit: XTK, count: 3, supplyRaw: SUPPLY_RAW, slot: 1 }),
      holder(enterpriseAddress('mainnet', 'ab'.repeat(28), true), '30000000000'),
      holder(enterpriseAddress('mainnet', MINSWAP_V2_POOL_SCRIPT, true), '20000000000'),
      holder(rewardAddress('mainnet', 'cd'.repeat(28)), '50000000000'),
    ]);
    const r = await createRecomputeActivities({ store, now: () => NOW_MS }).recomputeTokenStats();
    assert.deepEqual(r, { tokens: 3, pools: 4 });
    x = (await store.collection(TOKEN_STATS).get(XTK)) as TokenStatsDoc;
  });
  after(() => store.close());

  it('price from the primary pool’s reserves, decimal-adjusted (raw 5 lovelace/base unit, 4 decimals → 0.05 ADA)', () => {
    close(x.priceAda, 0.05, 'priceAda');
    close(x.priceUsd, 0.025, 'priceUsd (ADA/USD 0.5 from the ADA/USDM pool)');
    assert.equal(x.primaryPoolId, 1);
  });

  it('liquidity is both sides of every ADA pool of the token, whole ADA', () => {
    assert.equal(x.liquidityAda, 220_000);
    close(x.liquidityUsd, 110_000, 'liquidityUsd');
    assert.equal(x.pools, 2);
  });

  it('windows count complete trades only, with the ADA side as volume', () => {
    assert.deepEqual(
      Object.fromEntries(Object.entries(x.windows).map(([w, s]) => [w, [s.volume, s.txns, s.buys, s.sells]])),
      {
        '5m': [1000, 1, 1, 0],
        '1h': [1500, 2, 1, 1],
        '6h': [1700, 3, 2, 1],
        '24h': [2000, 4, 2, 2],
        '7d': [3000, 5, 3, 2],
      },
    );
    assert.equal(x.volume24h, 2000);
    assert.equal(x.volume7d, 3000);
    assert.equal(x.txns24h, 4);
    assert.equal(x.buys24h, 2);
    assert.equal(x.sells24h, 2);
    assert.equal(x.makers24h, 3, 'one maker traded twice');
  });

  it('changes are of the displayed price: the primary pool’s reserve price now vs at the window start', () => {
    // Pool 1 states (lovelace per base unit): 8 d ago 4, 25 h ago 4, 2 h ago 2.5, now 5. The token candle series
    // (another pool's trades included) says otherwise (6 h: 5 → 5, 1 h: 2.5 at 2 h) and must not be what change* reports.
    close(x.windows['5m'].change, 1, '5m: 2.5 → 5');
    close(x.change1h, 1, '1h: 2.5 → 5');
    close(x.windows['6h'].change, 0.25, '6h: 4 (25 h ago) → 5');
    close(x.change24h, 0.25, '24h: 4 (25 h ago) → 5');
    close(x.change7d, 0.25, '7d: 4 → 5');
    // ADA/USD: the ADA/USDM pool at 0.4 from 8 days ago until 2 min ago, 0.5 since (no observation in the last
    // hours does not make the rate an hour ago unknown: it is the pool's last state before then).
    close(x.windows['5m'].changeUsd, 2 * (0.5 / 0.4) - 1, '5m USD: 2 × 1.25 − 1');
    close(x.change1hUsd, 2 * (0.5 / 0.4) - 1, '1h USD: 2 × 1.25 − 1');
    close(x.windows['6h'].changeUsd, 1.25 * (0.5 / 0.4) - 1, '6h USD: 1.25 × 1.25 − 1');
    close(x.change24hUsd, 1.25 * (0.5 / 0.4) - 1, 'ADA change combined with ADA/USD 0.4 → 0.5');
    close(x.change7dUsd, 0.5625, '7d USD: 1.25 × 1.25 − 1');
  });

  it('supply: circulating = on chain minus non-DEX script locks; market cap on it, fdv on the total', () => {
    assert.equal(x.totalSupply, 10_000_000);
    assert.equal(x.circulatingSupply, 7_000_000, '10,000,000 − 3,000,000 in the lock script (the pool circulates)');
    close(x.mcapAda, 350_000, 'mcapAda: 0.05 × 7,000,000');
    close(x.mcapUsd, 175_000, 'mcapUsd');
    close(x.fdvUsd, 250_000, 'fdvUsd: 0.05 × 10,000,000 × 0.5');
    assert.equal(x.holders, 3);
    assert.equal(x.firstPoolTime, new Date(NOW_MS - 2 * DAY * 1000).toISOString());
    assert.equal(x.firstPoolExact, true);
    assert.match(x.search, /xtk/);
  });

  it('pool stats: 24 h volume and trades per pool', async () => {
    const [p1, p2, p3] = await store.collection(POOL_STATS).getMany(['1', '2', '3']);
    assert.deepEqual([p1?.volume24h, p1?.txns24h], [1500, 3]);
    assert.deepEqual([p2?.volume24h, p2?.txns24h], [500, 1]);
    assert.deepEqual([p3?.volume24h, p3?.txns24h], [0, 0]);
  });

  it('tokens without decimals in any source are in base units; the stablecoin is priced in ADA', async () => {
    const [other, usdm] = await store.collection(TOKEN_STATS).getMany([OTHER, USDM]);
    close(other?.priceAda ?? null, 3 / 7, 'OTHER: 3 ADA for 7 units');
    close(usdm?.priceAda ?? null, 2, 'USDM: 1,000,000 ADA for 500,000 USDM');
  });

  it('rankings and overview are built from the stats; a pool that disappears drops out on the next run', async () => {
    const acts = createRecomputeActivities({ store, now: () => NOW_MS });
    await acts.recomputeRankings();
    await acts.recomputeMarketOverview();
    const o = await store.collection(MARKET_OVERVIEW).get('market');
    assert.equal(o?.adaUsd, 0.5);
    assert.equal(o?.volume24h, 2000);
    assert.equal(o?.txns24h, 4);
    assert.equal(o?.tvlAda, 2_220_006);
    assert.deepEqual(o?.dexes, [
      // The scenario's trades carry no batcher fee (batcher-fee.test.ts has those).
      { dex: 'minswap-v2', volume24h: 1500, tvlAda: 2_200_000, pools: 2, txns24h: 3, batcherFeeLovelace: null },
      { dex: 'sundaeswap-v3', volume24h: 500, tvlAda: 20_000, pools: 1, txns24h: 1, batcherFeeLovelace: null },
      { dex: 'wingriders-v2', volume24h: 0, tvlAda: 6, pools: 1, txns24h: 0, batcherFeeLovelace: null },
    ]);
    assert.deepEqual(o?.topGainers, [XTK]);
    assert.deepEqual(o?.topLosers, []);
    assert.deepEqual(o?.trending, [XTK]);
    const tvl = await store.collection(RANKINGS).get('pools|tvl|all');
    assert.deepEqual(tvl?.poolIds, [3, 1, 2, 4]);

    await store.write([del(POOLS, '4')]);
    await acts.recomputeTokenStats();
    assert.equal(await store.collection(TOKEN_STATS).get(OTHER), null);
    assert.equal(await store.collection(POOL_STATS).get('4'), null);
  });
});

describe('market recomputes: USD changes divide two ADA/USD rates of one estimator', () => {
  // Two ADA/stablecoin pools that disagree (USDM at 0.5 with 1,000,000 ADA, DJED at 0.6 with 200,000 ADA) and a
  // token at 0.05 ADA, all unchanged for 8 days: ADA/USD now is their TVL-weighted median 0.5, as it was at every
  // window start, so no USD price moved. The adausd series here holds their liquidity-weighted mean,
  // (500,000 + 120,000) / 1,200,000 = 0.51666… (what a store synced before the series followed the estimator keeps),
  // which the USD changes must not be measured against.
  const DJED = '8db269c3ec630e06ae29f74bc39edd1f87c819f1056206e879a1cd61446a65644d6963726f555344';
  const TOK = unitOf('7c', 'FLAT');
  let store: Store;
  before(async () => {
    store = await openMemoryStore();
    await prepare(store);
    const since = slotAt(8 * DAY);
    const pools = [
      pool({ id: 1, tokenB: TOK, reserveARaw: '100000000000', reserveBRaw: '20000000000', lastStateSlot: since }),
      pool({ id: 2, tokenB: USDM, reserveARaw: '1000000000000', reserveBRaw: '500000000000', lastStateSlot: since }),
      pool({ id: 3, tokenB: DJED, reserveARaw: '200000000000', reserveBRaw: '120000000000', lastStateSlot: since }),
    ];
    const mean = (500_000 + 120_000) / 1_200_000;
    await store.write([
      ...checkpointOps(),
      ...putAll.pools(pools),
      ...putAll.tokens([
        token(TOK, { poolIds: [1], primaryPoolId: 1, totalSupplyRaw: '100000000000' }),
        token(USDM, { poolIds: [2], primaryPoolId: 2 }),
        token(DJED, { poolIds: [3], primaryPoolId: 3 }),
      ]),
      meta(TOK, 'FLAT', 4),
      meta(USDM, 'USDM', 6),
      meta(DJED, 'DJED', 6),
      ...pools.map((p) =>
        put(POOL_STATES, {
          _id: `${String(p.id).padStart(10, '0')}|${String(since).padStart(12, '0')}|${'e0'.repeat(32)}`,
          poolId: p.id,
          slot: since,
          txId: 'e0'.repeat(32),
          reserveARaw: p.reserveARaw,
          reserveBRaw: p.reserveBRaw,
          priceRaw: p.priceRaw,
          tvlLovelace: p.tvlLovelace,
        }),
      ),
      ...putAll.candles(
        (['1m', '5m', '15m', '1h'] as const).map((iv) => candle('adausd', iv, NOW_SEC - 8 * DAY, mean)),
      ),
    ]);
    await createRecomputeActivities({ store, now: () => NOW_MS }).recomputeTokenStats();
  });
  after(() => store.close());

  it('nothing moved: every change and USD change is 0, the stablecoins’ USD changes too', async () => {
    for (const unit of [TOK, USDM, DJED]) {
      const s = (await store.collection(TOKEN_STATS).get(unit)) as TokenStatsDoc;
      for (const [w, v] of Object.entries(s.windows)) {
        assert.equal(v.change, 0, `${unit} ${w} change`);
        close(v.changeUsd, 0, `${unit} ${w} changeUsd`);
      }
    }
    const usdm = (await store.collection(TOKEN_STATS).get(USDM)) as TokenStatsDoc;
    close(usdm.priceUsd, 1, 'USDM is the median pool: 1 USD');
  });
});

describe('market recomputes: a USD stablecoin whose pool sets ADA/USD did not move in USD', () => {
  // The only ADA/stablecoin pool is USDM's: ADA/USD went 0.6463 → 0.6519 with it, so USDM's USD price stayed 1 and
  // its USD change is exactly 0 (in doubles, (1 + c) × (0.6519 / 0.6463) − 1 is −2.2e-16).
  let store: Store;
  before(async () => {
    store = await openMemoryStore();
    await prepare(store);
    const since = slotAt(8 * DAY);
    const then = { reserveARaw: '1000000000000', reserveBRaw: '646300000000' };
    const usdm = pool({ id: 2, tokenB: USDM, reserveARaw: '1000000000000', reserveBRaw: '651900000000' });
    const state = (slot: number, r: { reserveARaw: string; reserveBRaw: string }, tx: string) =>
      put(POOL_STATES, {
        _id: `${'2'.padStart(10, '0')}|${String(slot).padStart(12, '0')}|${tx.repeat(32)}`,
        poolId: 2,
        slot,
        txId: tx.repeat(32),
        ...r,
        priceRaw: Number(r.reserveARaw) / Number(r.reserveBRaw),
        tvlLovelace: String(2n * BigInt(r.reserveARaw)),
      });
    await store.write([
      ...checkpointOps(),
      ...putAll.pools([{ ...usdm, lastStateSlot: slotAt(60) }]),
      ...putAll.tokens([token(USDM, { poolIds: [2], primaryPoolId: 2 })]),
      meta(USDM, 'USDM', 6),
      state(since, then, 'e1'),
      state(slotAt(60), usdm, 'e2'),
    ]);
    await createRecomputeActivities({ store, now: () => NOW_MS }).recomputeTokenStats();
  });
  after(() => store.close());

  it('its 24 h change in ADA is the pool’s and in USD exactly 0', async () => {
    const s = (await store.collection(TOKEN_STATS).get(USDM)) as TokenStatsDoc;
    close(s.windows['24h'].change, 0.6463 / 0.6519 - 1, 'ADA change: fewer ADA per USDM');
    assert.equal(s.windows['24h'].changeUsd, 0);
    assert.equal(s.change24hUsd, 0);
  });
});

describe('market recomputes: a trade exactly at a window’s start is the window before’s, in volume as in change', () => {
  // One ADA pool of EDGE (0 decimals): 400,000 ADA for 100,000 EDGE (4 ADA each) since 30 h ago; a buy of 400,000 ADA
  // in the block exactly 24 h before the tip (800,000 ADA for 50,000 EDGE: 16 ADA), then, one second later, a sell of
  // 30,000 EDGE for 300,000 ADA (500,000 ADA for 80,000 EDGE: 6.25 ADA); no trade since. The 24 h window runs from
  // the price the buy left, 16 ADA (the displayed price of the tip 24 h ago), so by hand: 1 trade (the sell),
  // 300,000 ADA, and 6.25 / 16 − 1 = −60.9375 %; the buy belongs to the 24 h before, as its move does.
  const EDGE = unitOf('7d', 'EDGE');
  let store: Store;
  before(async () => {
    store = await openMemoryStore();
    await prepare(store);
    const edge = slotAt(DAY);
    const state = (slot: number, reserveARaw: string, reserveBRaw: string, tx: string) =>
      put(POOL_STATES, {
        _id: `${'1'.padStart(10, '0')}|${String(slot).padStart(12, '0')}|${tx.repeat(32)}`,
        poolId: 1,
        slot,
        txId: tx.repeat(32),
        reserveARaw,
        reserveBRaw,
        priceRaw: Number(reserveARaw) / Number(reserveBRaw),
        tvlLovelace: String(2n * BigInt(reserveARaw)),
      });
    await store.write([
      ...checkpointOps(),
      ...putAll.pools([
        pool({ id: 1, tokenB: EDGE, reserveARaw: '500000000000', reserveBRaw: '80000', lastStateSlot: edge + 1 }),
      ]),
      ...putAll.tokens([token(EDGE, { poolIds: [1], primaryPoolId: 1, totalSupplyRaw: '1000000' })]),
      meta(EDGE, 'EDGE', 0),
      state(slotAt(30 * HOUR), '400000000000', '100000', 'e1'),
      state(edge, '800000000000', '50000', 'e2'),
      state(edge + 1, '500000000000', '80000', 'e3'),
      ...putAll.trades([
        trade({
          token: EDGE,
          slot: edge,
          amountInRaw: '400000000000',
          amountOutRaw: '50000',
          valueLovelace: '400000000000',
        }),
        trade({
          token: EDGE,
          slot: edge + 1,
          side: 'sell',
          amountInRaw: '30000',
          amountOutRaw: '300000000000',
          valueLovelace: '300000000000',
        }),
      ]),
    ]);
    await createRecomputeActivities({ store, now: () => NOW_MS }).recomputeTokenStats();
  });
  after(() => store.close());

  it('the token’s 24 h: the sell only, and the move from the 16 ADA the buy left to 6.25 ADA', async () => {
    const s = (await store.collection(TOKEN_STATS).get(EDGE)) as TokenStatsDoc;
    close(s.priceAda, 6.25, 'priceAda');
    assert.deepEqual([s.txns24h, s.volume24h, s.buys24h, s.sells24h], [1, 300_000, 0, 1]);
    close(s.change24h, 6.25 / 16 - 1, 'change24h: 16 → 6.25 ADA');
    assert.deepEqual([s.windows['7d'].txns, s.windows['7d'].volume], [2, 700_000], 'both in the 7 d');
  });

  it('the pool’s 24 h figures count the same trade', async () => {
    const p = await store.collection(POOL_STATS).get('1');
    assert.deepEqual([p?.txns24h, p?.volume24h], [1, 300_000]);
  });
});
