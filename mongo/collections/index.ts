import { ACCESS_COLLECTIONS } from './access.js';
import { CHAIN_COLLECTIONS } from './chain.js';
import { HOLDERS_COLLECTIONS } from './holders.js';
import { LOGOS, MARKET_SYNC_COLLECTIONS, TOKEN_META } from './market.js';
import { MARKET_READ_COLLECTIONS } from './market-read.js';
import { RUNS } from './runs.js';
import { CHECKPOINTS, UNDO } from './sync-state.js';
import { STAKING_COLLECTIONS } from './staking.js';
import type { CollectionSpec } from '../store.js';

/** Every collection, for index creation (`npm run mongo:indexes`) and digests. */
export const ALL_COLLECTIONS: CollectionSpec<{ _id: string }>[] = [
  ...CHAIN_COLLECTIONS,
  CHECKPOINTS,
  UNDO,
  RUNS,
  ...ACCESS_COLLECTIONS,
  ...MARKET_SYNC_COLLECTIONS,
  TOKEN_META,
  LOGOS,
  ...MARKET_READ_COLLECTIONS,
  ...STAKING_COLLECTIONS,
  ...HOLDERS_COLLECTIONS,
];

export * from './access.js';
export * from './chain.js';
export * from './holders.js';
export * from './market.js';
export * from './market-read.js';
export * from './runs.js';
export * from './sync-state.js';
export * from './staking.js';
