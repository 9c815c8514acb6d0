/**
 * A wallet's PnL from the store: loads the wallet's trades (trades byMaker) and the marks (current token prices
 * from token_stats, ADA/USD now and over the trades' span from the ADA/stablecoin pools and the hourly adausd
 * candles), then runs the FIFO (fifo.ts). One function for both callers, so a precomputed answer (precompute.ts)
 * and an on-demand one (GET /wallet/{address}/pnl) are the same computation. Reads only, through the Store port.
 */
import { adaUsdHistory, currentAdaUsd } from '../../mongo/collections/ada-usd.js';
import { storeClock } from '../../mongo/collections/clock.js';
import { tokenMetadata } from '../../cardano/token-metadata.js';
import { BLOCKS } from '../../mongo/collections/chain.js';
import { TOKEN_STATS } from '../../mongo/collections/market-read.js';
import { TOKENS, TOKEN_META, TRADES, type TradeDoc } from '../../mongo/collections/market.js';
import type { Store } from '../../mongo/store.js';
import { computePnl, type WalletPnl } from '../../cardano/pnl/fifo.js';
import { pnlTradesFromDocs, type PnlSkipReason } from '../../cardano/pnl/trade.js';

/** Trades read per batch when loading a wallet's whole history. */
const TRADE_BATCH = 5000;

/** What an answer was computed over: enough to tell later whether the wallet's trades changed since. */
export interface PnlCoverage {
  /** Id of the wallet's newest trade (null: no trades). A new trade, or a rollback of the newest, changes it. */
  lastTradeId: number | null;
  /** Status of that trade: a pending order that completes (or is cancelled) keeps its id. */
  lastTradeStatus: TradeDoc['status'] | null;
  /** `_id`s of the wallet's trades that were pending: each may still complete and change the PnL. */
  pendingTrades: string[];
}

export interface PnlResult {
  pnl: WalletPnl;
  skipped: Record<PnlSkipReason, number>;
  covers: PnlCoverage;
}

export async function lastTradeOf(store: Store, maker: string): Promise<TradeDoc | null> {
  const [last] = await store.collection(TRADES).find('byMaker', { eq: [maker], reverse: true, limit: 1 });
  return last ?? null;
}

async function allTrades(store: Store, maker: string): Promise<TradeDoc[]> {
  const coll = store.collection(TRADES);
  const out: TradeDoc[] = [];
  for (;;) {
    const last = out[out.length - 1];
    const batch = await coll.find('byMaker', { eq: [maker], limit: TRADE_BATCH, ...(last ? { after: last } : {}) });
    out.push(...batch);
    if (batch.length < TRADE_BATCH) return out;
  }
}

/** Time of the first indexed block (ISO): trades before it are not in the index. */
async function coverageFrom(store: Store): Promise<string | null> {
  const [first] = await store.collection(BLOCKS).find('byHeight', { limit: 1 });
  return first?.time ?? null;
}

/** Loads a wallet's trades and the marks, then runs the FIFO. */
export async function computeWalletPnl(store: Store, maker: string): Promise<PnlResult> {
  const [docs, { clock }, adaUsdNow, from] = await Promise.all([
    allTrades(store, maker),
    storeClock(store),
    currentAdaUsd(store),
    coverageFrom(store),
  ]);
  const units = [...new Set(docs.map((d) => d.token))];
  const [metas, tokens, stats] = await Promise.all([
    store.collection(TOKEN_META).getMany(units),
    store.collection(TOKENS).getMany(units),
    store.collection(TOKEN_STATS).getMany(units),
  ]);
  const decimals = new Map(units.map((u, i) => [u, tokenMetadata(u, metas[i] ?? null, tokens[i] ?? null).decimals]));
  const timeOfSlot = (slot: number) => Math.floor(clock.slotToMs(slot) / 1000);
  const { trades, skipped } = pnlTradesFromDocs(docs, (u) => decimals.get(u) ?? 0, timeOfSlot);
  const prices = new Map(units.map((u, i) => [u, stats[i]?.priceAda ?? null]));
  const times = trades.map((t) => t.time * 1000);
  const rateAt = times.length ? await adaUsdHistory(store, Math.min(...times), Math.max(...times)) : () => null;
  const pnl = computePnl(
    trades,
    { priceAda: (u) => prices.get(u) ?? null, adaUsdAt: (sec) => rateAt(sec * 1000), adaUsdNow },
    { coverageFrom: from },
  );
  const last = docs[docs.length - 1];
  return {
    pnl,
    skipped,
    covers: {
      lastTradeId: last?.id ?? null,
      lastTradeStatus: last?.status ?? null,
      pendingTrades: docs.filter((d) => d.status === 'pending').map((d) => d._id),
    },
  };
}
