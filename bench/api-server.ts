/**
 * A bench child: the API alone over an existing store (no devnet, no sync), with the access layer in one mode
 * (`off`, `anonymous`, `keyed`). Prints one JSON line: the port, the headers to send, and a transaction hash of
 * the store's tip block to request.
 */
import { pino } from 'pino';
import { benchAccess, type BenchAccessMode } from '../api/access/bench.js';
import { createApp } from '../api/app.js';
import { loadConfig } from '../config/index.js';
import { openEmbeddedStore } from '../mongo/adapters/embedded.js';
import { ALL_COLLECTIONS, BLOCKS, CHECKPOINTS } from '../mongo/collections/index.js';

const [path, mode] = process.argv.slice(2) as [string, BenchAccessMode];
const store = await openEmbeddedStore({ path });
await store.ensureIndexes(ALL_COLLECTIONS);
const log = pino({ level: 'silent' });
// Only the micro-cache setting is taken from the environment: the bench sets everything else here.
const env = { API_CACHE_MS: process.env.API_CACHE_MS };
const { access, config, headers } = await benchAccess(mode, { store, config: loadConfig(env), log });
const app = createApp({ store, config, log, access, cacheMs: config.API_CACHE_MS });
let txHash: string | undefined;
const cp = await store.collection(CHECKPOINTS).get('sync');
for (let h = cp?.height ?? 0; !txHash && h > 0; h--)
  txHash = (await store.collection(BLOCKS).find('byHeight', { eq: [h], limit: 1 }))[0]?.txIds[0];
const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`${JSON.stringify({ port, headers, txHash })}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  void access
    .close()
    .then(() => store.close())
    .then(() => process.exit(0));
});
