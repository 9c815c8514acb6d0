/**
 * The view of a DEX trade that wallet PnL needs, and its derivation from a stored trade (mongo/collections/market.ts).
 * Pure.
 *
 * A trade counts for PnL when it completed and one side is ADA: a buy spent lovelace for the token, a sell spent
 * the token for lovelace. Token/token swaps have no ADA value at their time and are left out (counted as skipped):
 * a token sold for another token therefore shows up later as an unmatched sell, which the PnL reports apart.
 * Amounts stay exact integers (raw base units, lovelace) — the FIFO works on them — and carry decimal-adjusted
 * numbers beside them for display, scaled from the exact decimal expansion (one rounding, at the end).
 */
import { lovelaceToAda, scaleInteger } from '../units.js';
import type { TradeDoc } from '../../mongo/collections/market.js';
import { adaLeg, sideOf } from '../trades.js';

export interface PnlTrade {
  /** Order among trades of one time: the trade id (ids are assigned in chain order). */
  seq: number;
  /** Unix seconds of the trade's slot. */
  time: number;
  slot: number;
  /** The token traded against ADA (policy id ‖ asset name hex). */
  unit: string;
  side: 'buy' | 'sell';
  /** Token side in raw base units: received by a buy, given by a sell. Positive. */
  tokenRaw: bigint;
  /** ADA side in lovelace: paid by a buy, received by a sell. */
  lovelace: bigint;
  /**
   * Fees the trader paid outside the ADA side, lovelace: added to a buy's cost, taken from a sell's proceeds.
   * Stored trades carry none (their ADA side is what entered or left the pool), so the converter sets 0.
   */
  feeLovelace: bigint;
  /** Token decimals (off-chain metadata; 0 when unknown). */
  decimals: number;
  /** tokenRaw · 10^-decimals. */
  tokenAmount: number;
  /** lovelace in whole ADA. */
  adaAmount: number;
}

/** Builds a PnlTrade from exact amounts (the decimal-adjusted views are derived; fee defaults to 0). */
export function pnlTrade(
  t: Omit<PnlTrade, 'tokenAmount' | 'adaAmount' | 'feeLovelace'> & { feeLovelace?: bigint },
): PnlTrade {
  return {
    ...t,
    feeLovelace: t.feeLovelace ?? 0n,
    tokenAmount: scaleInteger(t.tokenRaw, t.decimals),
    adaAmount: lovelaceToAda(t.lovelace),
  };
}

export type PnlSkipReason = 'notComplete' | 'noAdaSide' | 'zeroAmount';

/**
 * The PnL view of a stored trade, or why it has none: pending and cancelled trades moved nothing; token/token
 * swaps have no ADA side; a trade with a zero token side has no price.
 */
export function pnlTradeFromDoc(
  doc: TradeDoc,
  decimals: number,
  timeOfSlot: (slot: number) => number,
): PnlTrade | PnlSkipReason {
  if (doc.status !== 'complete' || doc.amountOutRaw === null) return 'notComplete';
  const side = sideOf(doc.tokenIn, doc.tokenOut);
  const leg = adaLeg(doc.tokenIn, doc.tokenOut, BigInt(doc.amountInRaw), BigInt(doc.amountOutRaw));
  if (side === null || leg === null) return 'noAdaSide';
  if (leg.tokenRaw <= 0n) return 'zeroAmount';
  return pnlTrade({
    seq: doc.id,
    time: timeOfSlot(doc.slot),
    slot: doc.slot,
    unit: doc.token,
    side,
    tokenRaw: leg.tokenRaw,
    lovelace: leg.lovelace,
    // What the batcher took: added to a buy's cost, taken from a sell's proceeds.
    feeLovelace: BigInt(doc.batcherFeeLovelace ?? 0),
    decimals,
  });
}

/** Converts a wallet's stored trades, counting what was left out and why. */
export function pnlTradesFromDocs(
  docs: Iterable<TradeDoc>,
  decimalsOf: (unit: string) => number,
  timeOfSlot: (slot: number) => number,
): { trades: PnlTrade[]; skipped: Record<PnlSkipReason, number> } {
  const trades: PnlTrade[] = [];
  const skipped: Record<PnlSkipReason, number> = { notComplete: 0, noAdaSide: 0, zeroAmount: 0 };
  for (const doc of docs) {
    const t = pnlTradeFromDoc(doc, decimalsOf(doc.token), timeOfSlot);
    if (typeof t === 'string') skipped[t] += 1;
    else trades.push(t);
  }
  return { trades, skipped };
}
