/**
 * The Koa app: REST (/api/v1), and later the MCP endpoint (/api/mcp), Markdown views (/api/md) and pages, in one
 * process. A factory with no side effects: tests and the server (api/server.ts) build it from injected deps.
 *
 * Order: request id → access log → error answers (the first real handler, so every later failure becomes
 * `{ error }`) → CORS → the access layer per surface (keys, quotas, limits) → the REST micro-cache → routers.
 */
import cors from '@koa/cors';
import Koa from 'koa';
import type { ApiDeps } from './deps.js';
import { createMetrics } from './metrics/index.js';
import { microCache } from './micro-cache.js';
import { syncGate } from './sync-guard.js';
import { accessLog, errorAnswers, forPaths, requestId } from './middleware.js';
import { API_PREFIX, restRouter, SITE_ROUTERS } from './routes/index.js';
import { sitePages } from './pages/index.js';

/** Headers a browser client may read (ETag for revalidation, request id for support, limits for back-off). */
const EXPOSED_HEADERS = [
  'ETag',
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-Daily-Remaining',
  'Retry-After',
];

/** The logo image is served to <img> tags in bulk and is never rate limited (spec: Limits 6). */
const LOGO_PATH = /^\/api\/v1\/assets\/[^/]+\/logo\/?$/;
const isRest = (p: string) => (p === API_PREFIX || p.startsWith(`${API_PREFIX}/`)) && !LOGO_PATH.test(p);
const isMarkdown = (p: string) => p === '/api/md' || p.startsWith('/api/md/');
const isMcp = (p: string) => p === '/api/mcp' || p === '/api/mcp/';

export function createApp(deps: ApiDeps): Koa {
  const app = new Koa();
  app.proxy = deps.config.TRUST_PROXY;
  // Behind a trusted proxy the client is the last X-Forwarded-For entry (the one the proxy added); earlier
  // entries are whatever the client sent. The rate limiter keys on the same address.
  app.maxIpsCount = 1;
  // Errors that escape every middleware (socket and stream errors) are logged here, never printed raw.
  app.on('error', (err: unknown) => deps.log.error({ err }, 'koa error'));

  app.use(requestId());
  // Metrics: every request timed (429s and errors included); /metrics at the site root, outside the limits.
  const metrics = deps.metrics ?? createMetrics({ defaultMetrics: false });
  metrics.bindStore(deps.store, deps.now);
  app.use(metrics.http());
  app.use(accessLog(deps.log));
  app.use(errorAnswers(deps.log));
  app.use(cors({ exposeHeaders: EXPOSED_HEADERS, maxAge: 86_400 }));

  const { access } = deps;
  if (access) {
    app.use(forPaths(isRest, access.rest));
    app.use(forPaths(isMarkdown, access.md));
    app.use(forPaths(isMcp, access.mcp));
  }

  // Answers of a chain the source abandoned are withheld (api/sync-guard.ts), cached ones included.
  app.use(syncGate({ store: deps.store }).middleware);
  // Markdown views, content negotiation (Accept: text/markdown on REST), swap page, discovery (api/pages/).
  // Negotiation sits before the micro-cache, so a cached JSON answer is never replayed to a Markdown request.
  const pages = sitePages(deps);
  app.use(forPaths(isRest, pages.negotiate));
  // Also without a cache window (API_CACHE_MS=0): it then compresses each answer instead of replaying it.
  app.use(forPaths(isRest, microCache({ store: deps.store, ttlMs: deps.cacheMs ?? 0 })));

  const metricsRouter = metrics.router();
  app.use(metricsRouter.routes()).use(metricsRouter.allowedMethods());
  for (const factory of SITE_ROUTERS) {
    const router = factory(deps);
    app.use(router.routes()).use(router.allowedMethods());
  }
  for (const router of pages.routers) app.use(router.routes()).use(router.allowedMethods());
  if (access?.routes) app.use(access.routes.routes()).use(access.routes.allowedMethods());
  const v1 = restRouter(deps);
  app.use(v1.routes()).use(v1.allowedMethods());
  return app;
}
