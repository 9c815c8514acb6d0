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
 *                  trade valued through a side's ADA price, a point for each of its two tokens); OHLC follow
 *                  the individual trade prices exactly as above, and the bucket's volume-weighted price is
 *                  `volumeLovelace / volumeTokenRaw` (both sums are exact integers, so the read side derives it
 *                  without rounding drift).
 *  - `adausd`      one point per state change of an ADA/USD-stablecoin pool; price = Σ stablecoin reserve /
 *                  Σ ADA reserve over every known ADA/stablecoin pool at that moment (stablecoin base units per
 *                  lovelace, liquidity-weighted, so a shallow or off-peg pool moves it little). It is a price
 *                  index: volumes stay "0" and `trades` counts the observations.
 */
import { CANDLE_INTERVALS, type CandleDoc, type CandleInterval } from '../../mongo/collections/market.js';
import { candleId } from './ids.js';

export interface CandlePoint {
  series: string;
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

/** The candle after adding a point to it (a new object; `prev` is not changed). */
export function addPoint(prev: CandleDoc | null, p: CandlePoint, interval: CandleInterval): CandleDoc {
  const time = bucketOf(p.timeSec, interval);
  if (!prev)
    return {
      _id: candleId(p.series, interval, time),
      series: p.series,
      interval,
      time,
      open: p.price,
      high: p.price,
      low: p.price,
      close: p.price,
      volumeLovelace: String(p.lovelace),
      volumeTokenRaw: String(p.tokenRaw),
      trades: 1,
    };
  return {
    ...prev,
    high: Math.max(prev.high, p.price),
    low: Math.min(prev.low, p.price),
    close: p.price,
    volumeLovelace: String(BigInt(prev.volumeLovelace) + p.lovelace),
    volumeTokenRaw: String(BigInt(prev.volumeTokenRaw) + p.tokenRaw),
    trades: prev.trades + 1,
  };
}
