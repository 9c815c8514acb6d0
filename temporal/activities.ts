/**
 * The activities of a process, built one way for the embedded runner (scripts/start.ts) and the Temporal worker
 * (temporal/worker.ts): the same store, chain source and settings give the same activities.
 *
 * The devnet is wired only when it is the chain source: its stake pools register metadata under `.devnet` hosts that
 * only the devnet's own HTTP server answers. On any other chain those URLs are fetched as registered (and fail), so a
 * pool registered on mainnet with a `.devnet` URL can never make the service call the node's host.
 */
import type { ChainSource } from '../activities/chain/source.js';
import { createActivities, type ActivityDeps } from '../activities/index.js';
import { httpMetadataFetcher } from '../activities/staking/metadata.js';
import { resolveIagonScripts } from '../cardano/iagon.js';
import type { Config } from '../config/index.js';
import { devnetHostResolver } from '../devnet/pool-metadata.js';
import type { Store } from '../mongo/store.js';

export interface ActivityParts {
  store: Store;
  chain: ChainSource;
  /** The Ogmios URL of the devnet when the devnet is the chain source; null on a real chain. */
  devnetUrl: string | null;
  onProgress?: ActivityDeps['onProgress'];
  /** The activity heartbeat of the sync slices (the Temporal worker's). */
  heartbeat?: ActivityDeps['heartbeat'];
}

export function buildActivities(config: Config, parts: ActivityParts) {
  return createActivities({
    store: parts.store,
    chain: parts.chain,
    k: config.SYNC_K,
    network: config.CARDANO_NETWORK,
    iagon: resolveIagonScripts(config),
    newsFeeds: config.NEWS_FEEDS ?? [],
    ...(parts.onProgress ? { onProgress: parts.onProgress } : {}),
    ...(parts.heartbeat ? { heartbeat: parts.heartbeat } : {}),
    ...(config.SYNC_START_POINT ? { startPoint: config.SYNC_START_POINT } : {}),
    // A devnet re-enacts its forks (up to DEVNET_FORK_DEPTH blocks deep) for every follower that starts from origin,
    // long after they became immutable; the standalone devnet's (OGMIOS_IS_DEVNET) is given as for DEVNET_SEED.
    ...(parts.devnetUrl ? { replayForkDepth: config.DEVNET_FORK_DEPTH } : {}),
    fetchMetadata: httpMetadataFetcher(parts.devnetUrl ? { resolve: devnetHostResolver(parts.devnetUrl) } : {}),
  });
}
