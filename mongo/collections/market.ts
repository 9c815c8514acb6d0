/**
 * Market documents derived from on-chain DEX pools (spec: "What the service does" 5 — every price comes from
 * pool reserves and executed swaps, never from an exchange feed).
 *
 * Written by the market sync extension (activities/market/), inside the sync slice: pools, pool_keys,
 * pool_states, trades, order_trades, candles, tokens, counters. They get exact rollbacks from the undo journal.
 * Written by scheduled recomputes: token_stats, rankings, market_overview.
 *
 * Units: raw on-chain integers as decimal strings (`…Raw`, `…Lovelace`). Prices are stored RAW — base units of
 * the quote per base unit of the token (lovelace per token base unit for ADA pairs) — because decimals are
 * off-chain metadata that may arrive or change after the trade; the read side decimal-adjusts
 * (`raw × 10^decimals / 10^6` for ADA prices). Times: unix seconds for candle buckets, slots elsewhere.
 */
import { defineCollection, type Store } from '../store.js';
import { ADA_USD_NOW, WALLET_LOTS, WALLET_PNL_POINTS } from './pnl.js';

/** Monotonic counters for the integer ids the spec gives pools and trades (`_id` = counter name). */
export interface CounterDoc {
  _id: string;
  value: number;
}
export const COUNTERS = defineCollection<CounterDoc>({ name: 'counters' });

/** `_id` = `${dex}:${dexPoolIdentifier}` → the integer pool id. */
export interface PoolKeyDoc {
  _id: string;
  poolId: number;
}
export const POOL_KEYS = defineCollection<PoolKeyDoc>({ name: 'pool_keys' });

export interface PoolDoc {
  /** String of the integer pool id (Pool.id of the spec). */
  _id: string;
  id: number;
  dex: string;
  /** The DEX's own identifier (pool NFT / identity token name, …). */
  identifier: string;
  /** Address of the current pool output. */
  address: string;
  /** Units (`lovelace` for ADA); tokenA is ADA whenever the pair has ADA. */
  tokenA: string;
  tokenB: string;
  reserveARaw: string;
  reserveBRaw: string;
  lpToken: string | null;
  totalLpRaw: string | null;
  /** Fee on the input as a fraction per direction (e.g. 0.003). */
  feeAToB: number;
  feeBToA: number;
  /** Current output reference `txId#index` of the pool UTxO. */
  utxo: string;
  createdSlot: number;
  /** true when the pool's creation transaction was seen; otherwise createdSlot is when it was first seen. */
  createdExact: boolean;
  lastStateSlot: number;
  /**
   * Weights of tokenA and tokenB in a weighted pool (Splash 20/80: 1 and 4; cardano/market.ts spotReserves); absent
   * on constant-product and stable pools, whose sides weigh the same.
   */
  weightA?: number;
  weightB?: number;
  /**
   * Spot price in base units (tokenA base units per tokenB base unit): reserveA / reserveB, weighted pools
   * (reserveA / weightA) / (reserveB / weightB); null when a reserve is 0.
   */
  priceRaw: number | null;
  /** Both sides valued in lovelace (2 × the ADA reserve for ADA pairs), null when no ADA valuation is known. */
  tvlLovelace: string | null;
  slot: number;
  /**
   * The current pool output as the adapter decodes it (optional; read by GET /swap/quote): its value (unit → raw
   * quantity, `lovelace` included) and its datum CBOR hex (inline, or resolved from its hash). With it a quote
   * rebuilds the exact PoolState (`adapter.decodePool`) — curve, per-direction fees, DEX-specific fee parts;
   * without it the quote falls back to reserves + fee fractions as constant product (marked `exact: false`).
   */
  poolOutput?: { value: Record<string, string>; datum: string | null };
}
export const POOLS = defineCollection<PoolDoc>({
  name: 'pools',
  indexes: [
    { name: 'byDex', fields: ['dex', 'id'] },
    { name: 'byTokenA', fields: ['tokenA', 'id'] },
    { name: 'byTokenB', fields: ['tokenB', 'id'] },
    // A wallet's LP tokens → the pools they are shares of (api/read/wallet.ts values them by pool share).
    { name: 'byLpToken', fields: ['lpToken'] },
  ],
});

/**
 * The pools whose LP token is one of `units` (unit → pool). A DEX mints one LP token per pool, so a unit names at
 * most one pool; units that are no LP token are absent from the map.
 */
export async function poolsByLpToken(store: Store, units: readonly string[]): Promise<Map<string, PoolDoc>> {
  const pools = store.collection(POOLS);
  const found = await Promise.all(units.map((u) => pools.find('byLpToken', { eq: [u], limit: 1 })));
  const out = new Map<string, PoolDoc>();
  units.forEach((u, i) => {
    const p = found[i]?.[0];
    if (p) out.set(u, p);
  });
  return out;
}

/** One state of a pool after a transaction; `_id` = `${poolId(10)}|${slot(12)}|${txId}`. */
export interface PoolStateDoc {
  _id: string;
  poolId: number;
  slot: number;
  txId: string;
  reserveARaw: string;
  reserveBRaw: string;
  priceRaw: number | null;
  tvlLovelace: string | null;
}
export const POOL_STATES = defineCollection<PoolStateDoc>({
  name: 'pool_states',
  indexes: [{ name: 'byPool', fields: ['poolId', 'slot'] }],
});

export type TradeStatus = 'pending' | 'complete' | 'cancelled';

export interface TradeDoc {
  /** String of the integer trade id, zero-padded to 12 digits so `_id` order is id order. */
  _id: string;
  id: number;
  poolId: number | null;
  dex: string;
  /** The transaction that executed (complete), cancelled (cancelled) or placed (pending) the order. */
  txHash: string;
  /** `txId#index` of the order output, null for direct pool swaps without an order UTxO. */
  orderRef: string | null;
  slot: number;
  status: TradeStatus;
  side: 'buy' | 'sell' | null;
  tokenIn: string;
  tokenOut: string;
  amountInRaw: string;
  amountOutRaw: string | null;
  /** The non-ADA unit of the trade (the token it is listed under); for token/token trades, tokenOut. */
  token: string;
  /** Lovelace per base unit of `token` at execution (raw); a token/token trade's through a side's ADA price, null without one. */
  priceRaw: number | null;
  /** ADA side of the trade in lovelace. */
  valueLovelace: string | null;
  /**
   * Lovelace the batcher took for executing the order (cardano/dex/order-fee.ts), besides the amounts swapped; null
   * while pending, when cancelled, or when it cannot be told. Absent on trades a store recorded before it existed.
   */
  batcherFeeLovelace?: string | null;
  /**
   * USD per ADA at the point of the chain where the trade executed: the estimator of the rate now (ADA-weighted
   * median of the deep fiat-backed stablecoin pools, mongo/collections/ada-usd.ts) over the pools as the chain left
   * them up to this swap, the rate wallet PnL costs the trade at. Null while no ADA/stablecoin pool is known. Absent
   * on pending and cancelled trades and on trades a store recorded before it existed: their `valueUsd` reads the
   * adausd series at the trade's minute.
   */
  adaUsd?: number | null;
  /** Stake address of the trader when the address has one, else the address. */
  maker: string | null;
  makerAddress: string | null;
  /**
   * Chain-order position of the trade's last event (placed, executed or cancelled): a counter the market extension
   * advances in block, transaction and swap order, so `seq` order is chain order (slot, then position in the block)
   * where trade ids are placement order (an order placed early and executed late keeps its low id). Written in the
   * same batch and undo journal as the trade, so a rollback restores it exactly. The newest-first lists read by it.
   */
  seq: number;
}
export const TRADES = defineCollection<TradeDoc>({
  name: 'trades',
  indexes: [
    { name: 'byPool', fields: ['poolId', 'seq'] },
    { name: 'byToken', fields: ['token', 'seq'] },
    // A token/token trade is listed under tokenOut (`token`); this index finds it under the token sold as well.
    { name: 'byTokenIn', fields: ['tokenIn', 'seq'] },
    { name: 'byMaker', fields: ['maker', 'seq'] },
    { name: 'byStatus', fields: ['status', 'id'] },
  ],
});

/** Where a trade sits in its newest-first lists: what a list cursor carries. */
export interface TradePosition {
  seq: number;
  id: number;
}

/** `_id` = order output reference → the trade that tracks it (pending → complete/cancelled). */
export interface OrderTradeDoc {
  _id: string;
  tradeId: number;
}
export const ORDER_TRADES = defineCollection<OrderTradeDoc>({ name: 'order_trades' });

export const CANDLE_INTERVALS = { '1m': 60, '5m': 300, '15m': 900, '1h': 3600, '4h': 14_400, '1d': 86_400 } as const;
export type CandleInterval = keyof typeof CANDLE_INTERVALS;

/**
 * OHLCV bucket of RAW prices. `series` is `pool:<id>` (tokenA base units per tokenB base unit, i.e. lovelace per
 * token base unit for ADA pairs), `token:<unit>` (lovelace per base unit over all ADA pools of the token,
 * volume-weighted) or `adausd` (stablecoin base units per lovelace, from the ADA/stablecoin pools).
 * `_id` = `${series}|${interval}|${time(12)}`.
 */
export interface CandleDoc {
  _id: string;
  series: string;
  interval: CandleInterval;
  /** Bucket start, unix seconds. */
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** ADA volume in lovelace (exact). */
  volumeLovelace: string;
  /** Token volume in raw units (for volume-weighted prices). */
  volumeTokenRaw: string;
  trades: number;
  /**
   * `token:` series only (activities/market/candles.ts), absent on candles written before they were kept. While one
   * pool traded in the bucket, `poolId` names it and the prices are its trades'; once two or more did, `pools` holds
   * each one's OHLC (ADA price per token base unit) and ADA volume, which the prices are the volume-weighted average
   * of.
   */
  poolId?: number;
  pools?: CandlePoolPart[];
}
export interface CandlePoolPart {
  /** The pool's id; -1 for what a candle written before parts were kept held. */
  poolId: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Lovelace (exact). */
  volumeLovelace: string;
}
export const CANDLES = defineCollection<CandleDoc>({
  name: 'candles',
  indexes: [{ name: 'bySeries', fields: ['series', 'interval', 'time'] }],
});

/** What the chain says of a token (sync-written, rolled back exactly); `_id` = unit. */
export interface TokenDoc {
  _id: string;
  policyId: string;
  nameHex: string;
  /** On-chain CIP-68 (333) fungible-token metadata from the reference NFT (100) datum, when present. */
  cip68: {
    name: string | null;
    ticker: string | null;
    decimals: number | null;
    description: string | null;
    url: string | null;
    logo: string | null;
  } | null;
  /** Minted minus burned, raw units. */
  totalSupplyRaw: string;
  /**
   * true when the document was created by a mint the index saw (supply counted from that mint); false when the
   * token was first seen in a pool, its minting predating the indexed range: totalSupplyRaw then holds only the
   * mints and burns seen since. Absent on documents written before the field existed.
   */
  supplyFromMint?: boolean;
  /** Pools the token trades in (integer ids). */
  poolIds: number[];
  primaryPoolId: number | null;
  firstPoolSlot: number | null;
  firstPoolExact: boolean;
  slot: number;
}
export const TOKENS = defineCollection<TokenDoc>({ name: 'tokens' });

/**
 * Off-chain token metadata from the CIP-26 token registry (`registry/mappings/*.json`, imported at start by
 * `importRegistry`; not chain-derived, never rolled back); `_id` = unit.
 */
export interface TokenMetaDoc {
  _id: string;
  name: string | null;
  ticker: string | null;
  /**
   * null when the entry gives none (CIP-26 decimals are optional) or an unusable value: the token's CIP-68 decimals
   * apply then, else 0. (Documents imported before held 0 for both; the next import at start rewrites them.)
   */
  decimals: number | null;
  description: string | null;
  url: string | null;
  hasLogo: boolean;
  /**
   * `logoVersion` of the LOGOS document (absent without a logo, and on documents imported before the field): a
   * reader that built a data URI from that image may reuse it while this is unchanged, without reading the image.
   */
  logoVersion?: string;
}
export const TOKEN_META = defineCollection<TokenMetaDoc>({ name: 'token_meta' });

/** The logo image of a token (registry `logo`, base64 PNG); `_id` = unit. Served by GET /assets/{unit}/logo. */
export interface LogoDoc {
  _id: string;
  contentType: string;
  base64: string;
  /** Strong ETag: sha-256 of the bytes. */
  etag: string;
}
export const LOGOS = defineCollection<LogoDoc>({ name: 'logos' });
/** What identifies a logo's bytes and media type: equal versions, equal data URIs. */
export const logoVersion = (l: Pick<LogoDoc, 'contentType' | 'etag'>) => `${l.contentType} ${l.etag}`;

/** Every collection the market sync extension writes (wallet PnL state included: mongo/collections/pnl.ts). */
export const MARKET_SYNC_COLLECTIONS = [
  COUNTERS,
  POOL_KEYS,
  POOLS,
  POOL_STATES,
  TRADES,
  ORDER_TRADES,
  CANDLES,
  TOKENS,
  WALLET_LOTS,
  WALLET_PNL_POINTS,
  ADA_USD_NOW,
];

// ---- named reads ----------------------------------------------------------------------------------------------

/** Pools with the unit on either side. */
export async function poolsOfUnit(store: Store, unit: string): Promise<PoolDoc[]> {
  const pools = store.collection(POOLS);
  const [a, b] = await Promise.all([pools.find('byTokenA', { eq: [unit] }), pools.find('byTokenB', { eq: [unit] })]);
  return [...a, ...b];
}

/** Whose trades: a token's (bought or sold), a pool's, or a maker's (stake address, else address). */
export type TradesOf = { token: string } | { poolId: number } | { maker: string };

/** Newest-first order of the trade lists: `seq` descending, then `_id` (the index's tie-break). */
const newerFirst = (a: TradeDoc, b: TradeDoc): number => b.seq - a.seq || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0);

/**
 * The first `limit` trades of several newest-first lists, each already cut at `limit`, without duplicates: a trade
 * of the merged first `limit` is within the first `limit` of its own list.
 */
export function mergeNewestFirst(lists: readonly TradeDoc[][], limit: number): TradeDoc[] {
  const seen = new Set<string>();
  const out: TradeDoc[] = [];
  for (const t of lists.flat().sort(newerFirst)) {
    if (seen.has(t._id)) continue;
    seen.add(t._id);
    out.push(t);
    if (out.length === limit) break;
  }
  return out;
}

/**
 * The indexes a trade list reads, with each one's key field. A token's trades are those it is listed under
 * (`byToken`: its ADA trades, and token/token trades it was bought in) and those it was sold in (`byTokenIn`, which
 * repeats its ADA sells: merged without duplicates).
 */
export function tradeIndexesOf(of: TradesOf): { index: string; field: string; key: string | number }[] {
  if ('token' in of)
    return [
      { index: 'byToken', field: 'token', key: of.token },
      { index: 'byTokenIn', field: 'tokenIn', key: of.token },
    ];
  if ('poolId' in of) return [{ index: 'byPool', field: 'poolId', key: of.poolId }];
  return [{ index: 'byMaker', field: 'maker', key: of.maker }];
}

/**
 * Trades in chain order (`seq`), newest first, strictly after `after` (the position of the last trade of the
 * previous page: a cursor) when given.
 */
export async function tradesNewestFirst(
  store: Store,
  of: TradesOf,
  limit: number,
  after?: TradePosition,
): Promise<TradeDoc[]> {
  const trades = store.collection(TRADES);
  const lists = await Promise.all(
    tradeIndexesOf(of).map(({ index, field, key }) => {
      const cursor =
        after === undefined ? {} : { after: { _id: String(after.id).padStart(12, '0'), seq: after.seq, [field]: key } };
      return trades.find(index, { eq: [key], reverse: true, limit, ...cursor });
    }),
  );
  return lists.length === 1 ? (lists[0] ?? []) : mergeNewestFirst(lists, limit);
}

/**
 * A candle's `_id`, as the market sync writes it and the reads below scan it: bucket start (unix seconds) as 12
 * digits, so within one series and interval the `_id` order is time order.
 */
export const candleId = (series: string, interval: CandleInterval, timeSec: number): string =>
  `${series}|${interval}|${String(timeSec).padStart(12, '0')}`;
/** The latest bucket start an `_id` can order (12 digits of unix seconds). */
const LAST_CANDLE_TIME = 999_999_999_999;

/**
 * Candles of a series and interval in [from, to] (unix seconds), oldest first; with `limit`, the latest ones. One
 * scan of the `_id` range, which holds the same documents in the same order as the bySeries index (times are whole
 * seconds ≥ 0), without an index entry and a separate document read per candle.
 */
export async function candlesInRange(
  store: Store,
  series: string,
  interval: CandleInterval,
  range: { from?: number; to: number; limit?: number },
): Promise<CandleDoc[]> {
  const from = Math.max(0, Math.ceil(range.from ?? 0));
  const to = Math.min(LAST_CANDLE_TIME, Math.floor(range.to));
  if (!(from <= to)) return [];
  const docs = await store.collection(CANDLES).find('_id', {
    gte: candleId(series, interval, from),
    lte: candleId(series, interval, to),
    reverse: true,
    ...(range.limit !== undefined ? { limit: range.limit } : {}),
  });
  return docs.reverse();
}

/** The last candle of a series starting before `before` (unix seconds). */
export async function candleBefore(
  store: Store,
  series: string,
  interval: CandleInterval,
  before: number,
): Promise<CandleDoc | null> {
  // Whole-second times: time < before ⇔ time ≤ ceil(before) − 1.
  const last = Math.min(LAST_CANDLE_TIME, Math.ceil(before) - 1);
  if (!(last >= 0)) return null;
  const [c] = await store.collection(CANDLES).find('_id', {
    gte: candleId(series, interval, 0),
    lte: candleId(series, interval, last),
    reverse: true,
    limit: 1,
  });
  return c ?? null;
}

/** A pool's state as of a slot: the last state at or before it. */
export async function poolStateAt(store: Store, poolId: number, slot: number): Promise<PoolStateDoc | null> {
  const [s] = await store.collection(POOL_STATES).find('byPool', { eq: [poolId], lte: slot, reverse: true, limit: 1 });
  return s ?? null;
}
