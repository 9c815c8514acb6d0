/**
 * From a decoded DEX pool state to the stored pool view. Pure.
 *
 * Orientation: the DEX's own pair order is kept, except that ADA is always tokenA (reserves and per-direction
 * fees are swapped with it), so `priceRaw = reserveA / reserveB` is lovelace per token base unit for every ADA
 * pool (weighted pools: (reserveA / weightA) / (reserveB / weightB)). Reserves are the DEX's tradable reserves
 * (datum or value minus treasuries/oil), raw integer strings.
 */
import type { PoolDoc } from '../../mongo/collections/market.js';
import { LOVELACE } from '../../cardano/dex/plutus-data.js';
import type { PoolState } from '../../cardano/dex/types.js';
import { adaPoolTvlLovelace, priceOfReserves, spotReserves, type SideWeights } from '../../cardano/market.js';

export interface PoolView extends SideWeights {
  tokenA: string;
  tokenB: string;
  reserveA: bigint;
  reserveB: bigint;
  feeAToB: number;
  feeBToA: number;
}

export function poolView(s: PoolState): PoolView {
  const den = Number(s.fee.denominator);
  const flip = s.tokenB === LOVELACE && s.tokenA !== LOVELACE;
  const aToB = Number(s.fee.aToB) / den;
  const bToA = Number(s.fee.bToA) / den;
  const view: PoolView = flip
    ? { tokenA: s.tokenB, tokenB: s.tokenA, reserveA: s.reserveB, reserveB: s.reserveA, feeAToB: bToA, feeBToA: aToB }
    : { tokenA: s.tokenA, tokenB: s.tokenB, reserveA: s.reserveA, reserveB: s.reserveB, feeAToB: aToB, feeBToA: bToA };
  const w = s.weights;
  if (!w) return view;
  const [weightA, weightB] = flip ? [w.b, w.a] : [w.a, w.b];
  return { ...view, weightA: Number(weightA), weightB: Number(weightB) };
}

/** The pool's spot price (tokenA base units per tokenB base unit, weights applied); null when a reserve is empty. */
export function spotPriceOf(v: PoolView): number | null {
  const { a, b } = spotReserves(v.reserveA, v.reserveB, v);
  return priceOfReserves(a, b);
}

/**
 * Both sides in lovelace: an ADA pool's ADA reserve over ADA's share of the weights (twice it at equal weights);
 * null otherwise (no on-sync valuation).
 */
export const tvlOf = (v: PoolView): string | null =>
  v.tokenA === LOVELACE ? String(adaPoolTvlLovelace(v.reserveA, v)) : null;

/** The units of a pool that get token documents. */
export const nonAdaUnits = (v: Pick<PoolView, 'tokenA' | 'tokenB'>): string[] =>
  [v.tokenA, v.tokenB].filter((u, i, all) => u !== LOVELACE && all.indexOf(u) === i);

/** The ADA pool with the deepest ADA reserve (ties: the lower id), or null when the token has no ADA pool. */
export function primaryPool(pools: readonly Pick<PoolDoc, 'id' | 'tokenA' | 'reserveARaw'>[]): number | null {
  let best: { id: number; ada: bigint } | null = null;
  for (const p of pools) {
    if (p.tokenA !== LOVELACE) continue;
    const ada = BigInt(p.reserveARaw);
    if (!best || ada > best.ada || (ada === best.ada && p.id < best.id)) best = { id: p.id, ada };
  }
  return best?.id ?? null;
}
