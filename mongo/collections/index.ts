import { ACCESS_COLLECTIONS } from './access.js';
import { CHAIN_COLLECTIONS } from './chain.js';
import { GOVERNANCE_COLLECTIONS } from './governance.js';
import { HANDLES_COLLECTIONS } from './handles.js';
import { HOLDERS_SYNC_COLLECTIONS } from './holders.js';
import { LOGOS, MARKET_SYNC_COLLECTIONS, TOKEN_META } from './market.js';
import { MARKET_READ_COLLECTIONS } from './market-read.js';
import { NFT_COLLECTIONS_ALL } from './nft.js';
import { RUNS } from './runs.js';
import { CHECKPOINTS, DERIVED_RUNS, JOB_HEALTH, SYNC_HEALTH, UNDO } from './sync-state.js';
import { STAKING_COLLECTIONS } from './staking.js';
import { STORAGE_COLLECTIONS } from './storage.js';
import { NEWS_COLLECTIONS } from './news.js';
import { SEARCH_COLLECTIONS } from './search.js';
import type { CollectionSpec } from '../store.js';

/** Every collection, for index creation (`npm run mongo:indexes`) and digests. */
export const ALL_COLLECTIONS: CollectionSpec<{ _id: string }>[] = [
  ...CHAIN_COLLECTIONS,
  CHECKPOINTS,
  UNDO,
  SYNC_HEALTH,
  DERIVED_RUNS,
  JOB_HEALTH,
  RUNS,
  ...ACCESS_COLLECTIONS,
  ...MARKET_SYNC_COLLECTIONS,
  TOKEN_META,
  LOGOS,
  ...MARKET_READ_COLLECTIONS,
  ...STAKING_COLLECTIONS,
  ...GOVERNANCE_COLLECTIONS,
  ...HOLDERS_SYNC_COLLECTIONS,
  ...HANDLES_COLLECTIONS,
  ...NFT_COLLECTIONS_ALL,
  // The PnL collections (mongo/collections/pnl.ts) are the market sync's: MARKET_SYNC_COLLECTIONS lists them.
  ...STORAGE_COLLECTIONS,
  ...NEWS_COLLECTIONS,
  ...SEARCH_COLLECTIONS,
];

export * from './access.js';
export * from './chain.js';
export * from './governance.js';
export * from './handles.js';
export * from './holders.js';
export * from './market.js';
export * from './market-read.js';
export * from './nft.js';
export * from './pnl.js';
export * from './runs.js';
export * from './sync-state.js';
export * from './staking.js';
export * from './storage.js';
export * from './news.js';
export * from './search.js';
