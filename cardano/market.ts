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

/** Weights of a pool's two sides (PoolDoc.weightA/weightB): absent unless the pool is weighted. */
export interface SideWeights {
  weightA?: number;
  weightB?: number;
}

/**
 * Reserves as a constant-product pool with the same spot price would hold them, for every figure read off a
 * reserve ratio (price, ADA value of a token amount). A weighted pool's spot price (tokenA per tokenB) is
 * (reserveA / weightA) / (reserveB / weightB), i.e. reserveA × weightB against reserveB × weightA: a Splash 20/80
 * ADA pool holding 1,000 ADA against 4,000 tokens prices the token at 1 ADA, not 0.25. Equal or absent weights
 * leave the reserves as they are.
 */
export function spotReserves(a: bigint, b: bigint, w: SideWeights): { a: bigint; b: bigint } {
  const { weightA, weightB } = w;
  if (weightA === undefined || weightB === undefined || weightA === weightB) return { a, b };
  return { a: a * BigInt(weightB), b: b * BigInt(weightA) };
}

/** spotReserves of a pool document (or a pool state read with its pool's weights). */
export const docSpotReserves = (p: { reserveARaw: string; reserveBRaw: string } & SideWeights) =>
  spotReserves(BigInt(p.reserveARaw), BigInt(p.reserveBRaw), p);

/** tokenA base units per tokenB base unit; null when either reserve is empty. */
export const priceOfReserves = (a: bigint, b: bigint): number | null =>
  a > 0n && b > 0n ? Number(a) / Number(b) : null;

/** Spot price, tokenA base units per tokenB base unit (spotReserves); null while a reserve is 0. */
export function spotPriceRaw(p: { reserveARaw: string; reserveBRaw: string } & SideWeights): number | null {
  const { a, b } = docSpotReserves(p);
  return priceOfReserves(a, b);
}

/**
 * An ADA pool's value in lovelace: its ADA reserve over ADA's share of the pool's value, the weight of tokenA over
 * both weights (at spot price each side holds value in proportion to its weight): twice the ADA reserve at equal
 * weights, five times it in a 20/80 pool. Integer lovelace, rounded down.
 */
export function adaPoolTvlLovelace(reserveA: bigint, w: SideWeights): bigint {
  const { weightA, weightB } = w;
  if (weightA === undefined || weightB === undefined || weightA <= 0) return 2n * reserveA;
  return (reserveA * BigInt(weightA + weightB)) / BigInt(weightA);
}

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
  p.tvlLovelace !== null ? BigInt(p.tvlLovelace) : isAdaPool(p) ? adaPoolTvlLovelace(BigInt(p.reserveARaw), p) : null;

/**
 * Both sides of a token/token pool in lovelace: each side at its token's ADA price, from the reserves of the ADA
 * pool that price is read from (`priceSource`: primaryAdaPool), as a token/token trade's volume is valued; a side
 * whose token has no ADA pool counts as much as the other (the pool holds its two sides at equal value at its own
 * price; in a weighted pool, in proportion to their weights). null when neither token has an ADA pool. Integer
 * lovelace, rounded down per side.
 */
export function pairTvlLovelace(p: PoolDoc, priceSource: (unit: string) => PoolDoc | null): bigint | null {
  const side = (unit: string, raw: string): bigint | null => {
    const src = priceSource(unit);
    const spot = src ? docSpotReserves(src) : null;
    return spot && spot.b > 0n ? (BigInt(raw) * spot.a) / spot.b : null;
  };
  const a = side(p.tokenA, p.reserveARaw);
  const b = side(p.tokenB, p.reserveBRaw);
  const wa = BigInt(p.weightA ?? 1);
  const wb = BigInt(p.weightB ?? 1);
  if (a === null) return b === null ? null : (b * (wa + wb)) / wb;
  return b === null ? (a * (wa + wb)) / wa : a + b;
}

/**
 * A pool's TVL in lovelace as answers show it: an ADA pool's own (live, from its document), else the token/token
 * valuation of the last token-stats recompute (POOL_STATS.tvlLovelace; absent in documents written before it).
 */
export const shownTvlLovelace = (p: PoolDoc, stats: Pick<PoolStatsDoc, 'tvlLovelace'> | null): bigint | null =>
  poolTvlLovelace(p) ?? (stats?.tvlLovelace ? BigInt(stats.tvlLovelace) : null);
