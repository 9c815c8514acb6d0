/**
 * Constant-product (x·y = k) swap arithmetic with the fee taken from the input, in exact integers as the
 * validators compute it (Minswap V1/V2 `calculate_amount_out`/`calculate_amount_in`, SundaeSwap V3 `swap_takes`,
 * MuesliSwap, Splash CFMM with its retained-fee multiplier):
 *
 *   out = ⌊ (den − fee)·in·rOut / (den·rIn + (den − fee)·in) ⌋
 *   in  = ⌊ rIn·out·den / ((rOut − out)·(den − fee)) ⌋ + 1
 */

export function cpAmountOut(
  reserveIn: bigint,
  reserveOut: bigint,
  amountIn: bigint,
  feeNumerator: bigint,
  feeDenominator: bigint,
): bigint {
  if (amountIn <= 0n || reserveIn <= 0n || reserveOut <= 0n) return 0n;
  const inWithFee = (feeDenominator - feeNumerator) * amountIn;
  return (inWithFee * reserveOut) / (feeDenominator * reserveIn + inWithFee);
}

/** Smallest input giving at least `amountOut`; null when the pool cannot pay that much. */
export function cpAmountIn(
  reserveIn: bigint,
  reserveOut: bigint,
  amountOut: bigint,
  feeNumerator: bigint,
  feeDenominator: bigint,
): bigint | null {
  if (amountOut <= 0n) return 0n;
  if (amountOut >= reserveOut || reserveIn <= 0n || feeNumerator >= feeDenominator) return null;
  return (reserveIn * amountOut * feeDenominator) / ((reserveOut - amountOut) * (feeDenominator - feeNumerator)) + 1n;
}
