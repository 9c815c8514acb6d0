/** Trade facts derived from the two assets and amounts of a swap. Pure. */
import { stakeAddressOf } from './address.js';
import { LOVELACE } from './dex/plutus-data.js';

export const sideOf = (tokenIn: string, tokenOut: string): 'buy' | 'sell' | null =>
  tokenIn === LOVELACE ? 'buy' : tokenOut === LOVELACE ? 'sell' : null;

/** The unit a trade is listed under: the non-ADA side; tokenOut for token/token trades. */
export const tradeToken = (tokenIn: string, tokenOut: string): string =>
  tokenIn === LOVELACE ? tokenOut : tokenOut === LOVELACE ? tokenIn : tokenOut;

/** The ADA side (lovelace) and token side (raw) of a trade, or null when neither side is ADA. */
export function adaLeg(
  tokenIn: string,
  tokenOut: string,
  amountIn: bigint,
  amountOut: bigint,
): { lovelace: bigint; tokenRaw: bigint } | null {
  if (tokenIn === LOVELACE && tokenOut !== LOVELACE) return { lovelace: amountIn, tokenRaw: amountOut };
  if (tokenOut === LOVELACE && tokenIn !== LOVELACE) return { lovelace: amountOut, tokenRaw: amountIn };
  return null;
}

/** Lovelace per token base unit, null without a positive token side. */
export const priceOfLeg = (leg: { lovelace: bigint; tokenRaw: bigint } | null): number | null =>
  leg && leg.tokenRaw > 0n ? Number(leg.lovelace) / Number(leg.tokenRaw) : null;

/** The trader as the spec lists makers: the stake address when the address has one, else the address itself. */
export const makerOf = (address: string | null): string | null =>
  address ? (stakeAddressOf(address) ?? address) : null;
