/**
 * Every activity of the service, built over its dependencies: one set for the embedded runner (`npm start`) and
 * the Temporal worker, so both execute the same work.
 */
import type { Network } from '../cardano/address.js';
import type { Store } from '../mongo/store.js';
import type { ChainSource } from './chain/source.js';
import { defaultExtensions } from './extensions.js';
import { createHoldersActivities } from './holders/series.js';
import { createNftActivities } from './nft/stats.js';
import { createRecomputeActivities } from './recompute/index.js';
import { createStakingActivities } from './staking/index.js';
import { createGovernanceActivities } from './governance/index.js';
import type { MetadataFetcher } from './staking/metadata.js';
import { createSyncActivities, type SliceGate, type SyncDeps } from './sync/index.js';
import { createStorageActivities } from './storage/index.js';
import type { IagonScripts } from '../cardano/iagon.js';
import { createNewsActivities } from './news/index.js';
import { createSafetyActivities } from './safety/index.js';
import { createSearchActivities } from './search/index.js';
import { createDerivedActivities } from './derived/index.js';
import { createResyncActivities } from './sync/reset.js';

export interface ActivityDeps {
  store: Store;
  chain: ChainSource;
  /** Blocks of undo information (the security parameter k). */
  k: number;
  network: Network;
  /** Fetches stake-pool metadata JSON (checked against its registered hash); omit to fetch nothing. */
  fetchMetadata?: MetadataFetcher;
  onProgress?: SyncDeps['onProgress'];
  /** Iagon staking/reward scripts followed by the storage extension and recompute (resolveIagonScripts). */
  iagon?: IagonScripts;
  /** RSS/Atom feed URLs of the news ingest (NEWS_FEEDS); none = nothing fetched. */
  newsFeeds?: readonly string[];
  /** Activity heartbeat of the sync slices (the Temporal worker's; SyncDeps.heartbeat). */
  heartbeat?: SyncDeps['heartbeat'];
  /** SYNC_START_POINT: where an empty store starts following the chain (default origin). */
  startPoint?: SyncDeps['startPoint'];
  /** The devnet's DEVNET_FORK_DEPTH when it is the chain source (SyncDeps.replayForkDepth). */
  replayForkDepth?: SyncDeps['replayForkDepth'];
}

export function createActivities(deps: ActivityDeps) {
  const { store, chain } = deps;
  // One slice or resync clear at a time in this process (SliceGate).
  const sliceGate: SliceGate = { running: Promise.resolve() };
  return {
    ...createSyncActivities({
      store,
      chain,
      sliceGate,
      k: deps.k,
      network: deps.network,
      extensions: defaultExtensions(deps.iagon ? { iagon: deps.iagon } : {}),
      ...(deps.onProgress ? { onProgress: deps.onProgress } : {}),
      ...(deps.startPoint ? { startPoint: deps.startPoint } : {}),
      ...(deps.heartbeat ? { heartbeat: deps.heartbeat } : {}),
      ...(deps.replayForkDepth ? { replayForkDepth: deps.replayForkDepth } : {}),
    }),
    ...createRecomputeActivities({ store }),
    ...createHoldersActivities({ store }),
    ...createNftActivities({ store }),
    ...createStakingActivities({ store, chain, ...(deps.fetchMetadata ? { fetchMetadata: deps.fetchMetadata } : {}) }),
    ...createGovernanceActivities({ store, chain }),
    ...createStorageActivities({ store, network: deps.network, ...(deps.iagon ? { scripts: deps.iagon } : {}) }),
    ...createNewsActivities({ store, feeds: deps.newsFeeds ?? [] }),
    ...createSearchActivities({ store }),
    ...createSafetyActivities({ store }),
    ...createDerivedActivities({ store }),
    ...createResyncActivities({ store, sliceGate }),
  };
}
export type Activities = ReturnType<typeof createActivities>;
