/**
 * `npm run mongo:indexes`: creates every declared index of every collection in the configured store (MongoDB when
 * MONGODB_URI is set, else the embedded store in DATA_DIR) and lists them. Idempotent; exits non-zero on failure.
 */
import { runWithConfig, type Config } from '../config/index.js';
import { ALL_COLLECTIONS } from '../mongo/collections/index.js';
import { openStore } from '../mongo/open.js';

async function main(config: Config): Promise<void> {
  const store = await openStore(config);
  try {
    const where =
      store.kind === 'mongodb' ? `MongoDB database ${config.MONGODB_DB}` : `embedded store in ${config.DATA_DIR}`;
    console.log(`indexes of ${where}:`);
    for (const spec of ALL_COLLECTIONS) {
      await store.ensureIndexes([spec]);
      const indexes = spec.indexes.map((ix) => `${ix.name}(${[...ix.fields, '_id'].join(', ')})`);
      console.log(`  ${spec.name}: ${indexes.length ? indexes.join(', ') : '_id only'}`);
    }
  } finally {
    await store.close();
  }
}

runWithConfig(main);
