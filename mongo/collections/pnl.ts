/**
 * Wallet PnL state, kept by the market sync extension (activities/market/) as each wallet's trades land: one
 * document per wallet (`_id` = the maker: stake address, else the address, as trades record it) holding its FIFO
 * lots and running totals per token (cardano/pnl/fifo.ts FifoState, integers as decimal strings), and one document
 * per point of its cumulative realised PnL series (WALLET_PNL_POINTS). The series grows with the wallet's history
 * (a trading bot closes positions every few minutes for years), so it is not part of the wallet's document: a trade
 * rewrites only what is bounded by its open positions and adds at most one point. Both are written in the sync's
 * write batch and undo journal, so a rollback restores them exactly; GET /wallet/{address}/pnl reads the document and
 * the wallet's points and values its open lots at the current prices (cardano/pnl/fifo.ts valueFifo).
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
  /**
   * Stores synced before WALLET_PNL_POINTS existed kept the series here; the market sync moves it into points when
   * the wallet next trades (in that block's batch and undo record), and a read takes these before the points.
   */
  series?: PnlPointDoc[];
  /** The wallet's trades the FIFO leaves out, by reason (pending/cancelled orders, token/token swaps, zero amounts). */
  skipped: { notComplete: number; noAdaSide: number; zeroAmount: number };
  /** Slot of the last trade event applied. */
  slot: number;
}

export const WALLET_LOTS = defineCollection<WalletLotsDoc>({ name: 'wallet_lots' });

/** A point of a wallet's series: cumulative realised ADA PnL after its closes of that second (unix seconds). */
export interface PnlPointDoc {
  time: number;
  value: number;
}

/**
 * One point of a wallet's cumulative realised PnL series, one per second with a closed position (several closes in
 * one block are one point: the value after the last). `_id` = `${maker}|${time, 12 digits}`, so a wallet's series
 * is one `_id` range in time order and a point's id is new in every block (a block's time is its own).
 */
export interface WalletPnlPointDoc extends PnlPointDoc {
  _id: string;
  maker: string;
}
export const WALLET_PNL_POINTS = defineCollection<WalletPnlPointDoc>({ name: 'wallet_pnl_points' });

const pnlPointId = (maker: string, time: number): string => `${maker}|${String(time).padStart(12, '0')}`;

/** The documents of a wallet's series points. */
export function pnlPointDocs(maker: string, points: readonly PnlPointDoc[]): WalletPnlPointDoc[] {
  return points.map((p) => ({ _id: pnlPointId(maker, p.time), maker, time: p.time, value: p.value }));
}

/** The wallet's PnL state (null: the index saw no trade of it). */
export const walletLots = (store: Store, maker: string): Promise<WalletLotsDoc | null> =>
  store.collection(WALLET_LOTS).get(maker);

/**
 * The wallet's series points in time order (its `_id` range). A store synced before the points existed may still
 * hold older points in the wallet's document (`WalletLotsDoc.series`): they come before these.
 */
export async function walletPnlPoints(store: Store, maker: string): Promise<PnlPointDoc[]> {
  // '|' < '}' and a maker (a Bech32 address) never contains either: the range holds this wallet's points only.
  const points = await store.collection(WALLET_PNL_POINTS).find('_id', { gt: `${maker}|`, lt: `${maker}}` });
  return points.map((p) => ({ time: p.time, value: p.value }));
}

/**
 * The latest on-chain ADA/USD rate (USD per ADA) as of the block being applied, by the estimator of the rate now
 * (mongo/collections/ada-usd.ts adaUsdFromPools over the ADA/stablecoin pools at that point of the chain, not the
 * `adausd` candles' mean); `_id` = 'adausd'. Kept by the market sync (rolled back exactly) so a trade's USD cost is
 * the rate at its block, and an open lot valued at the rate now moves only as ADA/USD moves.
 */
export interface AdaUsdNowDoc {
  _id: string;
  rate: number;
  slot: number;
}
export const ADA_USD_NOW = defineCollection<AdaUsdNowDoc>({ name: 'ada_usd_now' });
export const ADA_USD_NOW_ID = 'adausd';
