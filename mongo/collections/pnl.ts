/**
 * Wallet PnL state, kept by the market sync extension (activities/market/) as each wallet's trades land: one
 * document per wallet (`_id` = the maker: stake address, else the address, as trades record it) holding its FIFO
 * lots and running totals per token (cardano/pnl/fifo.ts FifoState, integers as decimal strings). Written in the
 * sync's write batch and undo journal, so a rollback restores it exactly; GET /wallet/{address}/pnl reads this one
 * document and values its open lots at the current prices (cardano/pnl/fifo.ts valueFifo).
 *
 * Units: raw token base units and lovelace (decimal strings); costUsd and realisedUsd are USD at each trade's
 * ADA/USD rate (the on-chain rate the market sync saw at that block); times are unix seconds.
 */
import { defineCollection, type Store } from '../store.js';

export interface StoredLot {
  tokenRaw: string;
  costLovelace: string;
  costUsd: number | null;
  consumedRaw: string;
  chargedLovelace: string;
}

export interface StoredTokenLots {
  unit: string;
  lots: StoredLot[];
  buys: number;
  sells: number;
  volumeLovelace: string;
  boughtRaw: string;
  soldRaw: string;
  realisedLovelace: string;
  realisedUsd: number;
  usdKnown: boolean;
  unmatchedRaw: string;
  unmatchedLovelace: string;
  closed: number;
  wins: number;
}

export interface WalletLotsDoc {
  _id: string;
  tokens: StoredTokenLots[];
  buyCount: number;
  sellCount: number;
  unmatchedSells: number;
  realisedLovelace: string;
  /** Cumulative realised ADA PnL, one point per second with a closed position. */
  series: { time: number; value: number }[];
  /** The wallet's trades the FIFO leaves out, by reason (pending/cancelled orders, token/token swaps, zero amounts). */
  skipped: { notComplete: number; noAdaSide: number; zeroAmount: number };
  /** Slot of the last trade event applied. */
  slot: number;
}

export const WALLET_LOTS = defineCollection<WalletLotsDoc>({ name: 'wallet_lots' });

/** The wallet's PnL state (null: the index saw no trade of it). */
export const walletLots = (store: Store, maker: string): Promise<WalletLotsDoc | null> =>
  store.collection(WALLET_LOTS).get(maker);

/**
 * The latest on-chain ADA/USD rate (USD per ADA, from the ADA/stablecoin pools' reserves as the `adausd` candles
 * take it) as of the block being applied; `_id` = 'adausd'. Kept by the market sync (rolled back exactly) so a
 * trade's USD cost is the rate at its block.
 */
export interface AdaUsdNowDoc {
  _id: string;
  rate: number;
  slot: number;
}
export const ADA_USD_NOW = defineCollection<AdaUsdNowDoc>({ name: 'ada_usd_now' });
export const ADA_USD_NOW_ID = 'adausd';

export const PNL_COLLECTIONS = [WALLET_LOTS, ADA_USD_NOW];
