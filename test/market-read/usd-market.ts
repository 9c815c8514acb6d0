/**
 * A market whose ADA/USD estimators disagree: two 1,000,000 ADA pools, ADA/USDM at 0.70 and ADA/DJED at 0.50 (the
 * ADA-weighted median of the deep fiat-backed coins is USDM's 0.70; a mean of both would be 0.60), a token's Minswap
 * V2 pool, and one buy of it executed, synced by the market sync, its token stats recomputed a minute after the last
 * block and served.
 */
import { createRecomputeActivities } from '../../activities/recompute/index.js';
import type { Block } from '../../cardano/chain/types.js';
import type { Store } from '../../mongo/store.js';
import { serveTestApp, type TestApi } from '../api/seed.js';
import { TEST_TIME } from '../sync/memory-chain.js';
import { ChainBuilder } from '../market/chain.js';
import { USDM, batch, createMinswapPool, placeOrders } from '../market/dex-txs.js';
import { syncMarket } from '../market/sync.js';
import { prepare } from './seed.js';

export const DJED = '8db269c3ec630e06ae29f74bc39edd1f87c819f1056206e879a1cd61446a65644d6963726f555344';
export const ADA_SIDE = 1_000_000_000_000n; // 1,000,000 ADA in each stablecoin pool
export const USDM_SIDE = 700_000_000_000n; // 700,000 USDM: 0.70 USD per ADA
export const DJED_SIDE = 500_000_000_000n; // 500,000 DJED: 0.50 USD per ADA

export interface UsdMarket {
  store: Store;
  api: TestApi;
  /** The ADA/USDM pool's creating transaction. */
  usdmTx: ReturnType<typeof createMinswapPool>['tx'];
  close(): Promise<void>;
}

/** `buyer` buys `token` for `lovelace` (an order its batcher executes in the next block). */
export async function usdMarket(token: string, buyer: string, lovelace: bigint): Promise<UsdMarket> {
  const b = new ChainBuilder();
  const usdm = createMinswapPool(b, USDM, ADA_SIDE, USDM_SIDE);
  const djed = createMinswapPool(b, DJED, ADA_SIDE, DJED_SIDE);
  const tok = createMinswapPool(b, token, 50_000_000_000n, 1_000_000_000_000n);
  b.block([usdm.tx, djed.tx, tok.tx]);
  const orders = placeOrders(b, [{ owner: buyer, poolId: tok.pool.poolId, token, buy: true, amount: lovelace }]);
  b.block([orders]);
  const last: Block = b.block([batch(b, `${tok.tx.id}#0`, [`${orders.id}#0`]).tx]);
  const store = await syncMarket(b.clean());
  await prepare(store);
  const nowMs = TEST_TIME.startTimeMs + ((last.slot ?? 0) - TEST_TIME.startSlot) * 1000 + 60_000;
  await createRecomputeActivities({ store, now: () => nowMs }).recomputeTokenStats();
  const api = await serveTestApp(store, { now: () => nowMs });
  return {
    store,
    api,
    usdmTx: usdm.tx,
    async close() {
      await api.close();
      await store.close();
    },
  };
}
