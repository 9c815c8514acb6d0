import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSyncActivities, type SliceResult, type SyncDeps } from '../../activities/sync/index.js';
import type { ChainSource } from '../../activities/chain/source.js';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import { startDevnet, type Devnet } from '../../devnet/index.js';
import { openEmbeddedStore } from '../../mongo/adapters/embedded.js';
import { ALL_COLLECTIONS, CHAIN_COLLECTIONS, CHECKPOINTS } from '../../mongo/collections/index.js';
import { storeDigest } from '../../mongo/digest.js';
import type { Store } from '../../mongo/store.js';

export async function tempStore(): Promise<{ store: Store; dir: string; cleanup: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'cds-sync-'));
  const store = await openEmbeddedStore({ path: dir });
  await store.ensureIndexes(ALL_COLLECTIONS);
  return {
    store,
    dir,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A quiet devnet (blocks generated at start only, no forks) of `backfillHours` ending at `now`, with 1-hour epochs,
 * synced to its tip through the production Ogmios client into a temporary store. `close` stops all three.
 */
export async function syncedDevnet(opts: { seed: string; backfillHours: number; now: () => number }): Promise<{
  devnet: Devnet;
  chain: ChainSource;
  env: Awaited<ReturnType<typeof tempStore>>;
  close: () => Promise<void>;
}> {
  const devnet = await startDevnet({ ...opts, blockMs: 0, forkRate: 0, epochLength: 3600 });
  const chain = await connectOgmios(devnet.url);
  const env = await tempStore();
  await syncAll(env.store, chain, 97);
  const close = async () => {
    await chain.close();
    await devnet.close();
    await env.cleanup();
  };
  return { devnet, chain, env, close };
}

/** Sync until the source has nothing more, in slices of `sliceBlocks`. */
export async function syncAll(
  store: Store,
  chain: ChainSource,
  sliceBlocks = 7,
  k = 2160,
  more: Partial<SyncDeps> = {},
): Promise<SliceResult[]> {
  const acts = createSyncActivities({ store, chain, k, network: 'mainnet', ...more });
  const results: SliceResult[] = [];
  for (let i = 0; i < 10_000; i++) {
    const r = await acts.syncSlice({ maxBlocks: sliceBlocks, waitMs: 0 });
    results.push(r);
    if (r.blocks === 0 && r.atTip) break;
  }
  return results;
}

/** Digest of the chain-derived documents and the checkpoint position (not its bookkeeping timestamps). */
export async function chainDigest(store: Store) {
  const d = await storeDigest(store, CHAIN_COLLECTIONS);
  const cp = await store.collection(CHECKPOINTS).get('sync');
  return { ...d, at: cp ? `${cp.height}:${cp.id}` : 'origin' };
}
