/**
 * Chooses the store from the configuration: MongoDB when `MONGODB_URI` is set, else the embedded lmdb store in
 * `${DATA_DIR}/store`. Index creation is the caller's step (`store.ensureIndexes(ALL_COLLECTIONS)`).
 */
import { join } from 'node:path';
import { redactUri, StartupError, uriPassword } from '../config/index.js';
import { openEmbeddedStore } from './adapters/embedded.js';
import { openMongoStore, StoreUnreachableError } from './adapters/mongodb.js';
import type { Store } from './store.js';
import { RUNS } from './collections/runs.js';
import { JOB_HEALTH, SYNC_HEALTH } from './collections/sync-state.js';

/** Written while the disk is low on space, so the stall it causes is reported (openEmbeddedStore's `unguarded`). */
const STATUS_COLLECTIONS = [SYNC_HEALTH.name, JOB_HEALTH.name, RUNS.name];

export interface StoreConfig {
  DATA_DIR: string;
  MONGODB_URI?: string | undefined;
  MONGODB_DB: string;
  MONGODB_WRITE_BATCH?: number;
}

/** `readOnly` (embedded only): open beside a running service without taking part in writes, e.g. the ops CLI. */
export async function openStore(cfg: StoreConfig, opts: { readOnly?: boolean } = {}): Promise<Store> {
  const uri = cfg.MONGODB_URI;
  if (uri)
    return openMongoStore({
      uri,
      db: cfg.MONGODB_DB,
      ...(cfg.MONGODB_WRITE_BATCH ? { writeBatch: cfg.MONGODB_WRITE_BATCH } : {}),
    }).catch((e: unknown) => {
      // The driver's own failure to parse, reach or log in: a StartupError naming the key (password redacted).
      if (!(e instanceof StoreUnreachableError)) throw e;
      throw new StartupError(`MONGODB_URI=${redactUri(uri)}: cannot open the store: ${driverReason(e, uri)}`);
    });
  return openEmbeddedStore({
    path: join(cfg.DATA_DIR, 'store'),
    readOnly: opts.readOnly ?? false,
    unguarded: STATUS_COLLECTIONS,
  });
}

/** The driver's reason, with the URI's credentials (as written or URL-decoded) never repeated. */
function driverReason(e: Error, uri: string): string {
  let reason = redactUri(e.message);
  const secret = uriPassword(uri);
  if (secret)
    for (const s of new Set([secret, safeDecode(secret)])) if (s.length >= 3) reason = reason.split(s).join('***');
  return reason;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
