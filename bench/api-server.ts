/**
 * A bench child: the API alone over an existing store (no devnet, no sync), wired as `npm start` wires it (the
 * timed store behind the store-latency metric, the metrics, token decimals), with the access layer in one mode
 * (`off`, `anonymous`, `keyed`). Prints one JSON line: the port, the headers to send, and a transaction hash of the
 * store's tip block to request.
 */
import { pino } from 'pino';
import { benchAccess, type BenchAccessMode } from '../api/access/bench.js';
import { createMetrics } from '../api/metrics/index.js';
import { tokenDecimalsLookup } from '../api/present/market.js';
import { startApi } from '../api/server.js';
import { loadConfig } from '../config/index.js';
import { openEmbeddedStore } from '../mongo/adapters/embedded.js';
import { ALL_COLLECTIONS, BLOCKS, CHECKPOINTS } from '../mongo/collections/index.js';
import { timedStore } from '../mongo/timed-store.js';

const [path, mode] = process.argv.slice(2) as [string, BenchAccessMode];
const metrics = createMetrics();
const store = timedStore(await openEmbeddedStore({ path }), (op, coll, s, ok) => metrics.storeOp(op, coll, s, ok));
await store.ensureIndexes(ALL_COLLECTIONS);
const log = pino({ level: 'silent' });
// Only the micro-cache setting is taken from the environment: the bench sets everything else here.
const env = { API_CACHE_MS: process.env.API_CACHE_MS };
const { access, config, headers } = await benchAccess(mode, { store, config: loadConfig(env), log });
const api = await startApi(
  { store, config, log, access, tokenDecimals: tokenDecimalsLookup(store), cacheMs: config.API_CACHE_MS, metrics },
  { port: 0, host: '127.0.0.1' },
);
let txHash: string | undefined;
const cp = await store.collection(CHECKPOINTS).get('sync');
for (let h = cp?.height ?? 0; !txHash && h > 0; h--)
  txHash = (await store.collection(BLOCKS).find('byHeight', { eq: [h], limit: 1 }))[0]?.txIds[0];
const { port } = api.server.address() as { port: number };
process.stdout.write(`${JSON.stringify({ port, headers, txHash })}\n`);
process.on('SIGTERM', () => {
  void api
    .close()
    .then(() => access.close())
    .then(() => store.close())
    .then(() => process.exit(0));
});
