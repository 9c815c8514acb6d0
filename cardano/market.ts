/**
 * Pure market figures over pool and token documents: candle series ids, ADA prices of raw prices, the pool a token's
 * price is read from and a pool's TVL. Shared by the recomputes that write token stats and the reads that serve them.
 */
import { scaleInteger } from './units.js';
import { LOVELACE } from './token-metadata.js';
import type { PoolDoc, TokenDoc } from '../mongo/collections/market.js';
import type { PoolStatsDoc } from '../mongo/collections/market-read.js';

export const tokenSeries = (unit: string) => `token:${unit}`;
export const poolSeries = (poolId: number) => `pool:${poolId}`;

/** ADA price of a raw price (lovelace per token base unit). */
export const adaPrice = (raw: number, decimals: number): number => (raw * 10 ** decimals) / 1e6;

export const lovelaceNumber = (lovelace: bigint | string): number => scaleInteger(String(lovelace), 6);

export const isAdaPool = (p: PoolDoc) => p.tokenA === LOVELACE;

/** The pool the token's price is read from: the sync's primary pool if it is an ADA pool, else the deepest. */
export function primaryAdaPool(token: TokenDoc, pools: readonly PoolDoc[]): PoolDoc | null {
  const ada = pools.filter(isAdaPool);
  const named = ada.find((p) => p.id === token.primaryPoolId);
  if (named) return named;
  let best: PoolDoc | null = null;
  for (const p of ada) if (!best || BigInt(p.reserveARaw) > BigInt(best.reserveARaw)) best = p;
  return best;
}

/** Both sides of an ADA pool in lovelace. */
export const poolTvlLovelace = (p: PoolDoc): bigint | null =>
  p.tvlLovelace !== null ? BigInt(p.tvlLovelace) : isAdaPool(p) ? 2n * BigInt(p.reserveARaw) : null;

/**
 * Both sides of a token/token pool in lovelace: each side at its token's ADA price, from the reserves of the ADA
 * pool that price is read from (`priceSource`: primaryAdaPool), as a token/token trade's volume is valued; a side
 * whose token has no ADA pool counts as much as the other (the pool holds its two sides at equal value at its own
 * price). null when neither token has an ADA pool. Integer lovelace, rounded down per side.
 */
export function pairTvlLovelace(p: PoolDoc, priceSource: (unit: string) => PoolDoc | null): bigint | null {
  const side = (unit: string, raw: string): bigint | null => {
    const src = priceSource(unit);
    const token = src ? BigInt(src.reserveBRaw) : 0n;
    return src && token > 0n ? (BigInt(raw) * BigInt(src.reserveARaw)) / token : null;
  };
  const a = side(p.tokenA, p.reserveARaw);
  const b = side(p.tokenB, p.reserveBRaw);
  if (a === null) return b === null ? null : 2n * b;
  return b === null ? 2n * a : a + b;
}

/**
 * A pool's TVL in lovelace as answers show it: an ADA pool's own (live, from its document), else the token/token
 * valuation of the last token-stats recompute (POOL_STATS.tvlLovelace; absent in documents written before it).
 */
export const shownTvlLovelace = (p: PoolDoc, stats: Pick<PoolStatsDoc, 'tvlLovelace'> | null): bigint | null =>
  poolTvlLovelace(p) ?? (stats?.tvlLovelace ? BigInt(stats.tvlLovelace) : null);
