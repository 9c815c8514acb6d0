/** Syncing a test chain with the real sync activities and the market extension into a throwaway store. */
import { createMarketExtension } from '../../activities/market/index.js';
import { createSyncActivities } from '../../activities/sync/index.js';
import type { ChainEvent } from '../../cardano/chain/types.js';
import { openMemoryStore } from '../../mongo/adapters/embedded.js';
import { ALL_COLLECTIONS } from '../../mongo/collections/index.js';
import { MARKET_SYNC_COLLECTIONS } from '../../mongo/collections/market.js';
import { storeDigest } from '../../mongo/digest.js';
import type { CollectionSpec, Store } from '../../mongo/store.js';
import { memoryChain } from '../sync/memory-chain.js';

export async function syncMarket(
  events: readonly ChainEvent[],
  sliceBlocks = 4,
): Promise<Store & { rollbacks: number }> {
  const store = await openMemoryStore();
  await store.ensureIndexes([...ALL_COLLECTIONS, ...MARKET_SYNC_COLLECTIONS]);
  const acts = createSyncActivities({
    store,
    chain: memoryChain(events),
    k: 2160,
    network: 'mainnet',
    now: () => 0,
    extensions: [createMarketExtension()],
  });
  let rollbacks = 0;
  for (let i = 0; i < 10_000; i++) {
    const r = await acts.syncSlice({ maxBlocks: sliceBlocks, waitMs: 0 });
    rollbacks += r.rollbacks;
    if (r.blocks === 0 && r.atTip) break;
  }
  return Object.assign(store, { rollbacks });
}

export async function all<D extends { _id: string }>(store: Store, spec: CollectionSpec<D>): Promise<D[]> {
  const out: D[] = [];
  for await (const d of store.collection(spec).scan()) out.push(d);
  return out;
}

export const marketDigest = (store: Store) => storeDigest(store, MARKET_SYNC_COLLECTIONS);
