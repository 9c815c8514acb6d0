/**
 * A bench child answering every request with one fixed small JSON body, to measure what the HTTP stack alone costs
 * per request (bench/cpu.ts), by mode:
 *   bare   node:http, content headers only
 *   koa    Koa 3 + @koa/router, one route setting the body (no middleware)
 *   stack  the service's app (api/app.ts, wired as bench/api-server.ts wires it: metrics, access layer off,
 *          cache off) with its REST dispatcher replaced by a router holding one route registered through
 *          api/route.ts (parameter check, JSON bytes, ETag): every middleware of a REST request, no store read
 * Prints one JSON line: `{ port, path }`.
 */
import http from 'node:http';
import Router from '@koa/router';
import Koa from 'koa';
import compose from 'koa-compose';
import { pino } from 'pino';

const [mode, storePath] = process.argv.slice(2) as ['bare' | 'koa' | 'stack', string | undefined];
const PATH = '/api/v1/floor';
const DATA = {
  hash: 'a'.repeat(64),
  height: 1234,
  slot: 5678,
  time: '2026-01-01T00:00:00.000Z',
  txIds: Array.from({ length: 12 }, (_, i) => String(i).padStart(64, 'f')),
  asOf: '2026-01-01T00:00:00.000Z',
};
const BYTES = Buffer.from(JSON.stringify(DATA));

/** The app's handler, leaving out the middlewares FLOOR_DROP=i,j names (by position) to see what each costs. */
function withoutDropped(app: Koa): http.RequestListener {
  const drop = new Set((process.env.FLOOR_DROP ?? '').split(',').filter(Boolean).map(Number));
  app.middleware = app.middleware.filter((_, i) => !drop.has(i));
  return app.callback();
}

let handler: http.RequestListener;
if (mode === 'bare') {
  const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': BYTES.length };
  handler = (_req, res) => {
    res.writeHead(200, headers);
    res.end(BYTES);
  };
} else if (mode === 'koa') {
  const app = new Koa();
  const router = new Router();
  router.get(PATH, (ctx) => {
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = BYTES;
  });
  app.use(router.routes());
  handler = withoutDropped(app);
} else {
  const { benchAccess } = await import('../api/access/bench.js');
  const { createApp } = await import('../api/app.js');
  const { createMetrics } = await import('../api/metrics/index.js');
  const { defineRoute, register } = await import('../api/route.js');
  const { loadConfig } = await import('../config/index.js');
  const { openEmbeddedStore } = await import('../mongo/adapters/embedded.js');
  const { ALL_COLLECTIONS } = await import('../mongo/collections/index.js');
  const { timedStore } = await import('../mongo/timed-store.js');
  const metrics = createMetrics();
  const store = timedStore(await openEmbeddedStore({ path: storePath as string }), (op, coll, s, ok) =>
    metrics.storeOp(op, coll, s, ok),
  );
  await store.ensureIndexes(ALL_COLLECTIONS);
  const log = pino({ level: 'silent' });
  const { access, config } = await benchAccess('off', { store, config: loadConfig({ API_CACHE_MS: '0' }), log });
  const app = createApp({ store, config, log, access, cacheMs: 0, metrics });
  const spec = defineRoute<{ id: string }>({
    operationId: 'floor',
    path: '/floor',
    summary: 'floor',
    tags: [],
    response: { type: 'object', properties: {} },
  });
  const router = new Router({ prefix: '/api/v1' });
  register(router, spec, () => Promise.resolve({ ...DATA }));
  // The last middleware is the REST/site dispatcher (api/app.ts).
  app.middleware[app.middleware.length - 1] = compose([
    router.routes() as Koa.Middleware,
    router.allowedMethods() as Koa.Middleware,
  ]);
  handler = withoutDropped(app);
}
const server = http.createServer(handler);
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`${JSON.stringify({ port, path: PATH })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
