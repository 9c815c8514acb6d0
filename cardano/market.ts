/**
 * Pure market figures over pool and token documents: candle series ids, ADA prices of raw prices, the pool a token's
 * price is read from and a pool's TVL. Shared by the recomputes that write token stats and the reads that serve them.
 */
import { scaleInteger } from './units.js';
import { LOVELACE } from './token-metadata.js';
import type { PoolDoc, TokenDoc } from '../mongo/collections/market.js';

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
