/**
 * Child process for the crash test: syncs the test chain into the store at argv[2] in small slices, announcing
 * each slice on stdout so the parent can kill it mid-slice. Exits 0 when the chain is fully indexed.
 */
import { createSyncActivities } from '../../activities/sync/index.js';
import { openEmbeddedStore } from '../../mongo/adapters/embedded.js';
import { ALL_COLLECTIONS } from '../../mongo/collections/index.js';
import { buildChain } from './build-chain.js';
import { memoryChain } from './memory-chain.js';

const [path, blocks, forkEvery] = process.argv.slice(2);
const store = await openEmbeddedStore({ path: path as string });
await store.ensureIndexes(ALL_COLLECTIONS);
const chain = memoryChain(buildChain({ blocks: Number(blocks), forkEvery: Number(forkEvery) }).events);
const acts = createSyncActivities({ store, chain, k: 2160, network: 'mainnet' });
for (;;) {
  process.stdout.write('slice\n');
  const r = await acts.syncSlice({ maxBlocks: 3, waitMs: 0 });
  if (r.atTip && r.blocks === 0) break;
}
await store.close();
process.stdout.write('done\n');
