/**
 * One token (XTK, 4 decimals from the registry) in two ADA pools, an ADA/USDM pool (ADA/USD = 0.5 now), its trades
 * and candles over ten days, and the ADA/USD history: the ADA/USDM pool at 0.4 from 8 days ago until 2 min ago,
 * when it moved to 0.5 (its states, and the adausd candles they make).
 *
 * Raw prices: pool 1 holds 100,000 ADA against 2,000,000 XTK = 1e11 lovelace / 2e10 base units = 5 lovelace per
 * base unit → 5 × 10^4 / 10^6 = 0.05 ADA per XTK.
 */
import { POOL_STATES } from '../../mongo/collections/market.js';
import { put, type Store } from '../../mongo/store.js';
import {
  DAY,
  HOUR,
  MIN,
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

export const XTK = unitOf('7a', 'XTK');
export const OTHER = unitOf('7b', 'NOLOGO');
export const SUPPLY_RAW = '100000000000'; // 10,000,000 XTK

export const POOL1 = pool({ id: 1, tokenB: XTK, reserveARaw: '100000000000', reserveBRaw: '20000000000' });
export const POOL2 = pool({
  id: 2,
  dex: 'sundaeswap-v3',
  tokenB: XTK,
  reserveARaw: '10000000000',
  reserveBRaw: '1000000000',
  feeAToB: 0.005,
  feeBToA: 0.005,
  createdSlot: slotAt(2 * DAY),
});
export const STABLE_POOL = pool({ id: 3, tokenB: USDM, reserveARaw: '1000000000000', reserveBRaw: '500000000000' });
export const OTHER_POOL = pool({
  id: 4,
  dex: 'wingriders-v2',
  tokenB: OTHER,
  reserveARaw: '3000000',
  reserveBRaw: '7',
});

const M1 = 'stake1u8m1';
/** Complete trades at these ages (seconds ago), ADA value, side, maker; plus one pending and one older than 7 d. */
export const TRADES = [
  trade({ id: 1, token: XTK, slot: slotAt(10 * DAY), valueLovelace: '9000000000', maker: 'stake1u8old' }),
  trade({ id: 2, token: XTK, slot: slotAt(3 * DAY), valueLovelace: '1000000000', maker: 'stake1u8m4' }),
  trade({ id: 3, token: XTK, slot: slotAt(20 * HOUR), side: 'sell', valueLovelace: '300000000', maker: 'stake1u8m3' }),
  trade({ id: 4, token: XTK, slot: slotAt(3 * HOUR), valueLovelace: '200000000', maker: M1 }),
  trade({
    id: 5,
    token: XTK,
    slot: slotAt(30 * MIN),
    side: 'sell',
    valueLovelace: '500000000',
    maker: 'stake1u8m2',
    poolId: 2,
    dex: 'sundaeswap-v3',
  }),
  trade({
    id: 6,
    token: XTK,
    slot: slotAt(2 * MIN),
    valueLovelace: '1000000000',
    amountInRaw: '1000000000',
    amountOutRaw: '200000000',
    priceRaw: 5,
    maker: M1,
  }),
  trade({ id: 7, token: XTK, slot: slotAt(MIN), status: 'pending', amountOutRaw: null, valueLovelace: '5000000000' }),
];

const tokenSeries = `token:${XTK}`;
export const CANDLE_DOCS = [
  candle(tokenSeries, '1h', NOW_SEC - 8 * DAY, 4),
  candle(tokenSeries, '15m', NOW_SEC - 25 * HOUR, 4),
  candle(tokenSeries, '5m', NOW_SEC - 7 * HOUR, 5),
  candle(tokenSeries, '1m', NOW_SEC - 2 * HOUR, 2.5, { volumeLovelace: '200000000', trades: 1 }),
  candle(tokenSeries, '1m', NOW_SEC - 2 * MIN, 5, {
    open: 4,
    high: 6,
    low: 4,
    volumeLovelace: '1000000000',
    trades: 1,
  }),
  candle('pool:1', '1m', NOW_SEC - 2 * MIN, 5, { open: 4, high: 6, low: 4, volumeLovelace: '1000000000', trades: 1 }),
  candle('adausd', '1h', NOW_SEC - 8 * DAY, 0.4),
  candle('adausd', '15m', NOW_SEC - 25 * HOUR, 0.4),
  candle('adausd', '1m', NOW_SEC - 2 * MIN, 0.5),
];

export async function seedScenario(store: Store): Promise<void> {
  await prepare(store);
  await store.write([
    ...checkpointOps(),
    ...putAll.pools([POOL1, POOL2, STABLE_POOL, OTHER_POOL]),
    ...putAll.tokens([
      token(XTK, {
        totalSupplyRaw: SUPPLY_RAW,
        poolIds: [1, 2],
        primaryPoolId: 1,
        firstPoolSlot: slotAt(2 * DAY),
        firstPoolExact: true,
      }),
      token(USDM, { poolIds: [3], primaryPoolId: 3, totalSupplyRaw: '1000000000000' }),
      token(OTHER, { poolIds: [4], primaryPoolId: 4, totalSupplyRaw: '1000', firstPoolExact: false }),
    ]),
    meta(XTK, 'XTK', 4),
    meta(USDM, 'USDM', 6),
    ...putAll.trades(TRADES),
    ...putAll.candles(CANDLE_DOCS),
    // Pool 1 (XTK's primary pool) over time — the displayed price (reserve A / reserve B, lovelace per base unit):
    // 8 days ago 4, 25 h ago 4 (half today's ADA depth), 2 h ago 2.5, 1 min ago 5 (today's reserves). Pool 2 created
    // 2 days ago.
    put(POOL_STATES, {
      _id: `0000000001|${String(slotAt(8 * DAY)).padStart(12, '0')}|${'a8'.repeat(32)}`,
      poolId: 1,
      slot: slotAt(8 * DAY),
      txId: 'a8'.repeat(32),
      reserveARaw: '40000000000',
      reserveBRaw: '10000000000',
      priceRaw: 4,
      tvlLovelace: '80000000000',
    }),
    put(POOL_STATES, {
      _id: `0000000001|${String(slotAt(2 * HOUR)).padStart(12, '0')}|${'a2'.repeat(32)}`,
      poolId: 1,
      slot: slotAt(2 * HOUR),
      txId: 'a2'.repeat(32),
      reserveARaw: '50000000000',
      reserveBRaw: '20000000000',
      priceRaw: 2.5,
      tvlLovelace: '100000000000',
    }),
    put(POOL_STATES, {
      _id: `0000000001|${String(slotAt(DAY + HOUR)).padStart(12, '0')}|${'aa'.repeat(32)}`,
      poolId: 1,
      slot: slotAt(DAY + HOUR),
      txId: 'aa'.repeat(32),
      reserveARaw: '50000000000',
      reserveBRaw: '12500000000',
      priceRaw: 4,
      tvlLovelace: '100000000000',
    }),
    put(POOL_STATES, {
      _id: `0000000001|${String(slotAt(MIN)).padStart(12, '0')}|${'bb'.repeat(32)}`,
      poolId: 1,
      slot: slotAt(MIN),
      txId: 'bb'.repeat(32),
      reserveARaw: '100000000000',
      reserveBRaw: '20000000000',
      priceRaw: 5,
      tvlLovelace: '200000000000',
    }),
    // The ADA/USDM pool: 1,000,000 ADA against 400,000 USDM (0.4) 8 days ago, 500,000 USDM (0.5) since 2 min ago.
    put(POOL_STATES, {
      _id: `0000000003|${String(slotAt(8 * DAY)).padStart(12, '0')}|${'d8'.repeat(32)}`,
      poolId: 3,
      slot: slotAt(8 * DAY),
      txId: 'd8'.repeat(32),
      reserveARaw: '1000000000000',
      reserveBRaw: '400000000000',
      priceRaw: 2.5,
      tvlLovelace: '2000000000000',
    }),
    put(POOL_STATES, {
      _id: `0000000003|${String(slotAt(2 * MIN)).padStart(12, '0')}|${'d2'.repeat(32)}`,
      poolId: 3,
      slot: slotAt(2 * MIN),
      txId: 'd2'.repeat(32),
      reserveARaw: '1000000000000',
      reserveBRaw: '500000000000',
      priceRaw: 2,
      tvlLovelace: '2000000000000',
    }),
    put(POOL_STATES, {
      _id: `0000000002|${String(slotAt(2 * DAY)).padStart(12, '0')}|${'cc'.repeat(32)}`,
      poolId: 2,
      slot: slotAt(2 * DAY),
      txId: 'cc'.repeat(32),
      reserveARaw: '10000000000',
      reserveBRaw: '1000000000',
      priceRaw: 10,
      tvlLovelace: '20000000000',
    }),
  ]);
}
