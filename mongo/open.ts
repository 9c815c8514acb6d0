/**
 * Chooses the store from the configuration: MongoDB when `MONGODB_URI` is set, else the embedded lmdb store in
 * `${DATA_DIR}/store`. Index creation is the caller's step (`store.ensureIndexes(ALL_COLLECTIONS)`).
 */
import { join } from 'node:path';
import { openEmbeddedStore } from './adapters/embedded.js';
import { openMongoStore } from './adapters/mongodb.js';
import type { Store } from './store.js';

export interface StoreConfig {
  DATA_DIR: string;
  MONGODB_URI?: string | undefined;
  MONGODB_DB: string;
  MONGODB_WRITE_BATCH?: number;
}

/** `readOnly` (embedded only): open beside a running service without taking part in writes, e.g. the ops CLI. */
export async function openStore(cfg: StoreConfig, opts: { readOnly?: boolean } = {}): Promise<Store> {
  if (cfg.MONGODB_URI)
    return openMongoStore({
      uri: cfg.MONGODB_URI,
      db: cfg.MONGODB_DB,
      ...(cfg.MONGODB_WRITE_BATCH ? { writeBatch: cfg.MONGODB_WRITE_BATCH } : {}),
    });
  return openEmbeddedStore({ path: join(cfg.DATA_DIR, 'store'), readOnly: opts.readOnly ?? false });
}
