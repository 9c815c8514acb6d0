/**
 * Every activity of the service, built over its dependencies: one set for the embedded runner (`npm start`) and
 * the Temporal worker, so both execute the same work.
 */
import type { Network } from '../cardano/address.js';
import type { Store } from '../mongo/store.js';
import type { ChainSource } from './chain/source.js';
import { defaultExtensions } from './extensions.js';
import { createHoldersActivities } from './holders/series.js';
import { createRecomputeActivities } from './recompute/index.js';
import { createStakingActivities } from './staking/index.js';
import type { MetadataFetcher } from './staking/metadata.js';
import { createSyncActivities, type SyncDeps } from './sync/index.js';

export interface ActivityDeps {
  store: Store;
  chain: ChainSource;
  /** Blocks of undo information (the security parameter k). */
  k: number;
  network: Network;
  /** Fetches stake-pool metadata JSON (checked against its registered hash); omit to fetch nothing. */
  fetchMetadata?: MetadataFetcher;
  onProgress?: SyncDeps['onProgress'];
}

export function createActivities(deps: ActivityDeps) {
  const { store, chain } = deps;
  return {
    ...createSyncActivities({
      store,
      chain,
      k: deps.k,
      network: deps.network,
      extensions: defaultExtensions(),
      ...(deps.onProgress ? { onProgress: deps.onProgress } : {}),
    }),
    ...createRecomputeActivities({ store }),
    ...createHoldersActivities({ store }),
    ...createStakingActivities({ store, chain, ...(deps.fetchMetadata ? { fetchMetadata: deps.fetchMetadata } : {}) }),
  };
}
export type Activities = ReturnType<typeof createActivities>;
