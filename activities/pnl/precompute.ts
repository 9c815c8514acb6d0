/**
 * Wallet PnL precompute (`pnl`, every 10 minutes: temporal/schedules.ts, workflows/recompute-pnl.ts). PnL is the
 * heaviest read of the API (a FIFO over a wallet's whole trade history), so the wallets that traded recently get
 * theirs computed ahead of the request:
 * - recomputeWalletPnl — reads trades (newest first by id, then byMaker per wallet), checkpoints, blocks, tokens,
 *   token_meta, token_stats, pools, candles; writes wallet_pnl: one document per active wallet (computedAt, the
 *   trades it covers), and deletes the documents of wallets no longer active. Idempotent: a repeated run
 *   recomputes the same wallets.
 * Active = maker of a trade whose slot lies in the last 24 h of chain time before the indexed tip (chain time, so
 * a devnet backfill or a catching-up sync sees the same wallets a live chain would). Trades are scanned newest id
 * first; ids follow order placement and a trade's slot is that of its latest transaction, so the scan goes on
 * until a trade is older than the window by SCAN_SLACK_SECONDS (orders settle within minutes).
 *
 * When the answer is used: `storedWalletPnl` (the REST route) — the newest trade and its status are unchanged, no
 * trade that was pending has settled since, and it is at most STORED_MAX_AGE_MS old (prices and ADA/USD move, and a
 * stalled schedule must not serve an old answer for ever).
 */
import { CHECKPOINTS } from '../../mongo/collections/sync-state.js';
import { TRADES, type TradeDoc } from '../../mongo/collections/market.js';
import { WALLET_PNL, type WalletPnlDoc } from '../../mongo/collections/pnl.js';
import { del, put, type Store, type WriteOp } from '../../mongo/store.js';
import { CHECKPOINT_ID, SLOT_LENGTH_MS } from '../../mongo/collections/clock.js';
import { computeWalletPnl, type PnlResult } from './wallet.js';

/** A PnL as served: the computation, when it was made, and whether the schedule made it ahead of the request. */
export type PnlAnswer = PnlResult & { computedAt: string; precomputed: boolean };

export const ACTIVE_WINDOW_SECONDS = 86_400;
/** How far past the window the newest-first trade scan goes (an order placed earlier may settle inside it). */
export const SCAN_SLACK_SECONDS = 3_600;
/** Wallets precomputed per run at most (the most recently active first); the rest are computed on demand. */
export const MAX_WALLETS = 5_000;
/** A stored answer older than this is not served (two schedule periods). */
export const STORED_MAX_AGE_MS = 20 * 60_000;
const SCAN_PAGE = 1_000;
const WRITE_BATCH = 100;

export interface PnlDeps {
  store: Store;
  /** Wall clock (unix ms) for computedAt; tests pin it. */
  now?: () => number;
  /** Chain-time window that makes a wallet active (default ACTIVE_WINDOW_SECONDS = 24 h); tests shorten it. */
  activeWindowSeconds?: number;
}

/** Makers of trades in the `windowSeconds` of chain time before `tipSlot`, most recently active first. */
export async function activeMakers(
  store: Store,
  tipSlot: number,
  windowSeconds = ACTIVE_WINDOW_SECONDS,
  limit = MAX_WALLETS,
): Promise<string[]> {
  const from = tipSlot - Math.floor((windowSeconds * 1000) / SLOT_LENGTH_MS);
  const stopBelow = from - Math.floor((SCAN_SLACK_SECONDS * 1000) / SLOT_LENGTH_MS);
  const coll = store.collection(TRADES);
  const latest = new Map<string, number>();
  let after: TradeDoc | undefined;
  for (;;) {
    const page = await coll.find('_id', { reverse: true, limit: SCAN_PAGE, ...(after ? { after } : {}) });
    for (const t of page) {
      if (t.slot < stopBelow) return rank(latest, limit);
      if (t.slot >= from && t.maker && t.slot > (latest.get(t.maker) ?? -1)) latest.set(t.maker, t.slot);
    }
    if (page.length < SCAN_PAGE) return rank(latest, limit);
    after = page[page.length - 1];
  }
}

function rank(latest: Map<string, number>, limit: number): string[] {
  return [...latest]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit)
    .map(([m]) => m);
}

/**
 * Whether a stored answer still stands for a wallet whose newest trade is `latest` and whose formerly pending
 * trades are now `pendingNow` (same order as `doc.covers.pendingTrades`; null = rolled back). Pure.
 */
export function storedCovers(
  doc: WalletPnlDoc,
  latest: Pick<TradeDoc, 'id' | 'status'> | null,
  pendingNow: readonly (Pick<TradeDoc, 'status'> | null)[],
  nowMs: number,
): boolean {
  const age = nowMs - Date.parse(doc.computedAt);
  if (!(age >= 0 && age <= STORED_MAX_AGE_MS)) return false;
  if ((latest?.id ?? null) !== doc.covers.lastTradeId) return false;
  if ((latest?.status ?? null) !== doc.covers.lastTradeStatus) return false;
  return pendingNow.every((t) => t !== null && t.status === 'pending');
}

/** The stored answer of `maker` when it covers the wallet's trades now (see storedCovers), else null. */
export async function storedWalletPnl(
  store: Store,
  maker: string,
  latest: TradeDoc | null,
  nowMs: number,
): Promise<WalletPnlDoc | null> {
  const doc = await store.collection(WALLET_PNL).get(maker);
  if (!doc) return null;
  const pendingNow = doc.covers.pendingTrades.length
    ? await store.collection(TRADES).getMany(doc.covers.pendingTrades)
    : [];
  return storedCovers(doc, latest, pendingNow, nowMs) ? doc : null;
}

export function createPnlActivities(deps: PnlDeps) {
  const { store } = deps;
  const now = deps.now ?? Date.now;
  return {
    /** Computes and stores the PnL of every wallet active in the last 24 h; drops the others' documents. */
    async recomputeWalletPnl(): Promise<{ wallets: number; removed: number }> {
      const checkpoint = await store.collection(CHECKPOINTS).get(CHECKPOINT_ID);
      const tipSlot = checkpoint?.slot ?? 0;
      const window = deps.activeWindowSeconds ?? ACTIVE_WINDOW_SECONDS;
      const makers = checkpoint ? await activeMakers(store, tipSlot, window) : [];
      let ops: WriteOp[] = [];
      const flush = async () => {
        if (ops.length) await store.write(ops);
        ops = [];
      };
      for (const maker of makers) {
        const computedAt = new Date(now()).toISOString();
        const r = await computeWalletPnl(store, maker);
        ops.push(put(WALLET_PNL, { _id: maker, maker, ...r, computedAt, slot: tipSlot }));
        if (ops.length >= WRITE_BATCH) await flush();
      }
      await flush();
      const keep = new Set(makers);
      let removed = 0;
      for await (const d of store.collection(WALLET_PNL).scan()) {
        if (keep.has(d._id)) continue;
        ops.push(del(WALLET_PNL, d._id));
        removed++;
        if (ops.length >= WRITE_BATCH) await flush();
      }
      await flush();
      return { wallets: makers.length, removed };
    },
  };
}

export type PnlActivities = ReturnType<typeof createPnlActivities>;
