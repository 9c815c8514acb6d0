/**
 * A MongoDB store over a database of its own (random name), for integration tests against MONGODB_URI: the
 * service's data and other suites are never touched, and the database is dropped at cleanup.
 * MONGODB_WRITE_BATCH bounds the statements per write command as the service does (scripts/servers.sh sets 100
 * for FerretDB).
 */
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { openMongoStore } from '../../mongo/adapters/mongodb.js';
import { ALL_COLLECTIONS } from '../../mongo/collections/index.js';
import type { Store } from '../../mongo/store.js';

export const mongoUri = process.env.MONGODB_URI;

export function writeBatchFromEnv(): number | undefined {
  const v = process.env.MONGODB_WRITE_BATCH;
  return v ? Number(v) : undefined;
}

export async function tempMongoStore(
  prefix = 'test',
): Promise<{ store: Store; db: string; cleanup: () => Promise<void> }> {
  if (!mongoUri) throw new Error('MONGODB_URI is not set');
  const db = `${prefix}_${randomBytes(4).toString('hex')}`;
  const batch = writeBatchFromEnv();
  const store = await openMongoStore({ uri: mongoUri, db, ...(batch ? { writeBatch: batch } : {}) });
  await store.ensureIndexes(ALL_COLLECTIONS);
  return {
    store,
    db,
    cleanup: async () => {
      await store.close();
      const client = new MongoClient(mongoUri);
      try {
        await client.db(db).dropDatabase();
      } finally {
        await client.close();
      }
    },
  };
}
