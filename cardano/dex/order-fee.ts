/**
 * The fee a batcher (executor, scooper, agent) took for executing one swap order, in lovelace, read from the two
 * outputs the execution links: the order output it spent and the result output it paid the trader.
 *
 * Every DEX here returns an order's value less what it swapped and its fee, plus what the swap paid out: a result's
 * lovelace = the order's lovelace − ADA swapped in (a buy) − fee + ADA paid out (a sell). The deposit (Minswap,
 * SundaeSwap) or oil (WingRiders) locked only to keep the order's UTxO comes back with the result, so it cancels.
 * So fee = order lovelace − result lovelace − ADA in + ADA out, in whatever way a DEX's batcher charges it
 * (Minswap V2's redeemer fee, SundaeSwap V3's amortised scoop fee, a flat agent fee).
 *
 * The figure is only as good as the pairing of the two outputs: a result output that also carries another order's
 * return, or change the executor merged into it, moves it. So it is trusted only from 0 up to the fee the order
 * itself allows (its datum's maximum, or the DEX's fixed fee); outside that, or for a DEX with no maximum to check
 * it against, it is unknown (null).
 */
import { LOVELACE } from './plutus-data.js';
import type { Unit } from './types.js';

export interface ExecutedAmounts {
  tokenIn: Unit;
  tokenOut: Unit;
  /** Raw units that went into the pool(s) for this order. */
  amountIn: bigint;
  /** Raw units paid to the trader. */
  amountOut: bigint;
}

export function chargedOrderFee(
  swap: ExecutedAmounts,
  orderLovelace: bigint,
  resultLovelace: bigint | null,
  maxFee: bigint | null,
): bigint | null {
  if (resultLovelace === null || maxFee === null) return null;
  const adaIn = swap.tokenIn === LOVELACE ? swap.amountIn : 0n;
  const adaOut = swap.tokenOut === LOVELACE ? swap.amountOut : 0n;
  const fee = orderLovelace - resultLovelace - adaIn + adaOut;
  return fee >= 0n && fee <= maxFee ? fee : null;
}

/**
 * A DEX's typical batcher fee in lovelace: the median of the fees its executed orders were charged (the lower
 * middle one of an even count, so the figure is one a batcher actually took), null without any. A median, because
 * a batch's shared fee (SundaeSwap V3 amortises its scoop fee over the orders of a scoop) spreads single figures
 * while the DEX's setting is what most orders pay.
 */
export function typicalOrderFee(fees: readonly bigint[]): bigint | null {
  if (!fees.length) return null;
  const sorted = [...fees].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted[Math.floor((sorted.length - 1) / 2)] as bigint;
}
