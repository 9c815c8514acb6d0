/**
 * OHLCV candles of RAW prices (mongo/collections/market.ts CandleDoc). Pure.
 *
 * What one point does to the bucket `floor(timeSec / len) × len` of each interval:
 *  - open  = the price of the first point of the bucket (chain order: block, transaction, swap order);
 *  - high / low = max / min over the points; close = the price of the last point;
 *  - volumeLovelace += the ADA side, volumeTokenRaw += the token side, trades += 1.
 *
 * The series and what a point is:
 *  - `pool:<id>`   one point per complete trade in that pool (a token/token one when it could be valued in ADA),
 *                  in the pool's orientation: tokenA base units per tokenB base unit (lovelace per token base unit
 *                  for ADA pools).
 *  - `token:<unit>` one point per complete trade of the token over all its pools, at its ADA price (a token/token
 *                  trade valued through a side's ADA price, a point for each of its two tokens). This is the
 *                  `pool=all` aggregate, "volume-weighted price, summed volume": a bucket one pool traded in is
 *                  that pool's points as above (`poolId` names it); once two or more did, each keeps its own OHLC
 *                  and ADA volume of its points (`pools`), and the candle's open / high / low / close are their
 *                  averages weighted by each pool's ADA volume in the bucket (equal weights while every volume is
 *                  0), so a thin pool's odd trade moves the aggregate by its share of the volume instead of setting
 *                  its close or extremes; volumes and trades are summed.
 *  - `adausd`      one point per state change of an ADA/USD-stablecoin pool; price = ADA/USD by the estimator of
 *                  the rate now (mongo/collections/ada-usd.ts adaUsdFromPools: the ADA-weighted median of the deep
 *                  fiat-backed coins' pools) over the ADA/stablecoin pools as the chain stands at that point, USD
 *                  per ADA, so USD candles convert at the rate the USD prices use. It is a price index: volumes
 *                  stay "0" and `trades` counts the observations.
 */
import {
  CANDLE_INTERVALS,
  type CandleDoc,
  type CandleInterval,
  type CandlePoolPart,
} from '../../mongo/collections/market.js';
import { candleId } from './ids.js';

export interface CandlePoint {
  series: string;
  /** The pool that traded, for a `token:` series point (its per-pool part); absent on the other series. */
  poolId?: number;
  /** Unix seconds of the block. */
  timeSec: number;
  price: number;
  /** ADA side, lovelace (0 for adausd observations). */
  lovelace: bigint;
  /** Token side, raw units (0 for adausd observations). */
  tokenRaw: bigint;
}

export const INTERVALS = Object.keys(CANDLE_INTERVALS) as CandleInterval[];

export const bucketOf = (timeSec: number, interval: CandleInterval): number =>
  Math.floor(timeSec / CANDLE_INTERVALS[interval]) * CANDLE_INTERVALS[interval];

/** Every candle id a point touches (one per interval). */
export const candleIdsOf = (p: CandlePoint): string[] =>
  INTERVALS.map((iv) => candleId(p.series, iv, bucketOf(p.timeSec, iv)));

interface Ohlc {
  open: number;
  high: number;
  low: number;
  close: number;
}

const ohlcOf = (c: Ohlc): Ohlc => ({ open: c.open, high: c.high, low: c.low, close: c.close });

/** Prices after one more point: the first point opens, every point may set the extremes, the last one closes. */
const ohlcWith = (prev: Ohlc | null | undefined, price: number): Ohlc =>
  prev
    ? { open: prev.open, high: Math.max(prev.high, price), low: Math.min(prev.low, price), close: price }
    : { open: price, high: price, low: price, close: price };

/** The candle after adding a point to it (a new object; `prev` is not changed). */
export function addPoint(prev: CandleDoc | null, p: CandlePoint, interval: CandleInterval): CandleDoc {
  const time = bucketOf(p.timeSec, interval);
  // A bucket one pool traded in is that pool's candle: its prices follow the trades, and it names the pool.
  const single = p.poolId !== undefined && (!prev || (prev.poolId === p.poolId && !prev.pools));
  const pools = p.poolId === undefined || single ? null : poolPartsWith(prev as CandleDoc, p.poolId, p);
  return {
    _id: candleId(p.series, interval, time),
    series: p.series,
    interval,
    time,
    ...(pools ? volumeWeighted(pools) : ohlcWith(prev, p.price)),
    volumeLovelace: String(BigInt(prev?.volumeLovelace ?? 0) + p.lovelace),
    volumeTokenRaw: String(BigInt(prev?.volumeTokenRaw ?? 0) + p.tokenRaw),
    trades: (prev?.trades ?? 0) + 1,
    ...(pools ? { pools } : single ? { poolId: p.poolId } : {}),
  };
}

/**
 * The pool parts of an aggregate candle after `p` (a new list), once a second pool trades in the bucket: the
 * candle's own figures are the part of the one pool that traded before (pool id -1 for a candle stored before
 * pools were named).
 */
function poolPartsWith(prev: CandleDoc, poolId: number, p: CandlePoint): CandlePoolPart[] {
  const parts = prev.pools
    ? prev.pools.slice()
    : [{ poolId: prev.poolId ?? -1, ...ohlcOf(prev), volumeLovelace: prev.volumeLovelace }];
  const i = parts.findIndex((x) => x.poolId === poolId);
  const was = i < 0 ? null : (parts[i] as CandlePoolPart);
  const part = {
    poolId,
    ...ohlcWith(was, p.price),
    volumeLovelace: String(BigInt(was?.volumeLovelace ?? 0) + p.lovelace),
  };
  if (i < 0) parts.push(part);
  else parts[i] = part;
  return parts;
}

/** Open, high, low and close averaged over the parts, weighted by their ADA volume (equally while all are 0). */
function volumeWeighted(parts: readonly CandlePoolPart[]): Ohlc {
  const volumes = parts.map((x) => Number(x.volumeLovelace));
  const total = volumes.reduce((a, b) => a + b, 0);
  const weight = (k: number) => (total > 0 ? (volumes[k] as number) / total : 1 / parts.length);
  const avg = (f: (x: CandlePoolPart) => number) => parts.reduce((sum, x, k) => sum + f(x) * weight(k), 0);
  return { open: avg((x) => x.open), high: avg((x) => x.high), low: avg((x) => x.low), close: avg((x) => x.close) };
}
