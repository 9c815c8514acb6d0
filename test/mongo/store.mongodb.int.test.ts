import { openMongoStore } from '../../mongo/adapters/mongodb.js';
import { writeBatchFromEnv } from './temp-db.js';
import { storeContract } from './store-contract.js';

const uri = process.env.MONGODB_URI;

describe('MongoDB store (MONGODB_URI)', function () {
  before(function () {
    if (!uri) {
      console.log('    skipped: MongoDB contract tests (set MONGODB_URI to run them)');
      this.skip();
    }
  });

  // A database of its own, so the suite's clear() never touches the service's data.
  storeContract('mongodb', () =>
    openMongoStore({
      uri: uri as string,
      db: `${process.env.MONGODB_DB ?? 'cardano'}_store_contract`,
      ...(writeBatchFromEnv() ? { writeBatch: writeBatchFromEnv() as number } : {}),
    }),
  );
});
