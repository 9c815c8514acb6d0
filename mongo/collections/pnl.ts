/**
 * Precomputed wallet PnL, written by the `pnl` recompute (activities/pnl/precompute.ts, every 10 minutes) for the
 * wallets that traded in the last 24 h of chain time; `_id` = the maker (stake address, else the address, as trades
 * record it). GET /wallet/{address}/pnl serves a document while it still covers the wallet's trades (same newest
 * trade, same status, no pending order since settled) and is recent; otherwise it computes on demand. Documents
 * of wallets no longer active are deleted by the next run. Never rolled back: a rollback changes the trades, which
 * makes the document stop covering them.
 */
import type { WalletPnl } from '../../cardano/pnl/fifo.js';
import type { PnlCoverage } from '../../activities/pnl/wallet.js';
import type { PnlSkipReason } from '../../cardano/pnl/trade.js';
import { defineCollection } from '../store.js';

export interface WalletPnlDoc {
  _id: string;
  maker: string;
  /** The FIFO answer as computed (amounts whole ADA / USD numbers, as the API presents them). */
  pnl: WalletPnl;
  skipped: Record<PnlSkipReason, number>;
  /** The trades it covers: newest trade id and status, pending trade `_id`s. */
  covers: PnlCoverage;
  /** When it was computed (ISO, wall clock of the recompute): marks (prices, ADA/USD) are those of that time. */
  computedAt: string;
  /** Indexed chain tip slot when it was computed. */
  slot: number;
}

export const WALLET_PNL = defineCollection<WalletPnlDoc>({ name: 'wallet_pnl' });

export const PNL_COLLECTIONS = [WALLET_PNL];
