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

/**
 * Constant product with the fee rounded up and the remaining reserve rounded up, so any rounding favours the pool
 * (WingRiders V1 `computeExpectedRawSwapAmount`, dex-blockfrost-adapter src/utils.ts; SundaeSwap V1 per dexter):
 *
 *   fee = ⌈in·fee/den⌉,  out = rOut − ⌈rIn·rOut / (rIn + in − fee)⌉
 *
 * It pays up to a few base units less than `cpAmountOut` for the same fee.
 */
export function cpCeilAmountOut(
  reserveIn: bigint,
  reserveOut: bigint,
  amountIn: bigint,
  feeNumerator: bigint,
  feeDenominator: bigint,
): bigint {
  if (amountIn <= 0n || reserveIn <= 0n || reserveOut <= 0n) return 0n;
  const fee = ceilDiv(amountIn * feeNumerator, feeDenominator);
  return reserveOut - ceilDiv(reserveIn * reserveOut, reserveIn + amountIn - fee);
}

/** Smallest input giving at least `amountOut` under `cpCeilAmountOut` (bisection over the monotone output). */
export function cpCeilAmountIn(
  reserveIn: bigint,
  reserveOut: bigint,
  amountOut: bigint,
  feeNumerator: bigint,
  feeDenominator: bigint,
): bigint | null {
  if (amountOut <= 0n) return 0n;
  if (amountOut >= reserveOut || reserveIn <= 0n || feeNumerator >= feeDenominator) return null;
  const out = (x: bigint) => cpCeilAmountOut(reserveIn, reserveOut, x, feeNumerator, feeDenominator);
  let hi = 1n;
  while (out(hi) < amountOut) hi *= 2n;
  let lo = 1n;
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if (out(mid) >= amountOut) hi = mid;
    else lo = mid + 1n;
  }
  return lo;
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
