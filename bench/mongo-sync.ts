/**
 * Sync throughput into the MongoDB adapter, against the server at MONGODB_URI: the devnet in its own process, a
 * fresh database (`bench_<time>`, dropped afterwards), MONGODB_WRITE_BATCH as configured. The server is named as it
 * answers `buildInfo`: FerretDB reports `ferretdbVersion`, so a FerretDB figure is never labelled MongoDB.
 *
 * Run directly (`node --import tsx bench/mongo-sync.ts <hours> <maxSeconds>`, e.g. under `scripts/servers.sh --`),
 * it prints the result as one JSON line `BENCH_RESULT {…}`; `npm run bench` does that with BENCH_FERRETDB=1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MongoClient } from 'mongodb';
import { openMongoStore } from '../mongo/adapters/mongodb.js';
import { startDevnetProcess, syncToTip, type SyncResult } from './sync.js';

export interface MongoSyncResult extends SyncResult {
  server: string;
  writeBatch: number;
  hours: number;
}

export async function mongoSync(uri: string, hours: number, maxSeconds: number): Promise<MongoSyncResult> {
  const db = `bench_${Date.now()}`;
  const writeBatch = Number(process.env.MONGODB_WRITE_BATCH ?? 1000);
  const client = new MongoClient(uri);
  await client.connect();
  const info = (await client.db('admin').command({ buildInfo: 1 })) as { version?: string; ferretdbVersion?: string };
  // servers/ferretdb (the project's embedded FerretDB 1.24.2) does not stamp its version: `unknown`.
  const server =
    info.ferretdbVersion === undefined
      ? `MongoDB ${info.version ?? '?'}`
      : `FerretDB${info.ferretdbVersion === 'unknown' ? '' : ` ${info.ferretdbVersion}`}`;
  const dir = mkdtempSync(join(tmpdir(), 'cds-bench-mongo-'));
  const devnet = await startDevnetProcess(join(dir, 'devnet'), hours);
  const store = await openMongoStore({ uri, db, writeBatch });
  try {
    // Slices of 20 blocks: FerretDB writes ~1 block/s, so a 500-block slice would overrun the time bound by minutes.
    const r = await syncToTip(store, devnet.url, { maxSeconds, sliceBlocks: 20 });
    return { ...r, server, writeBatch, hours };
  } finally {
    await store.close();
    await devnet.stop();
    await client.db(db).dropDatabase();
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const uri = process.env.MONGODB_URI;
  if (!uri) throw new Error('MONGODB_URI is not set (run under scripts/servers.sh --)');
  const [hours = '1', maxSeconds = '60'] = process.argv.slice(2);
  const r = await mongoSync(uri, Number(hours), Number(maxSeconds));
  process.stdout.write(`BENCH_RESULT ${JSON.stringify(r)}\n`);
  process.exit(0);
}
