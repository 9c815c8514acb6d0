/**
 * The Koa app: REST (/api/v1), and later the MCP endpoint (/api/mcp), Markdown views (/api/md) and pages, in one
 * process. A factory with no side effects: tests and the server (api/server.ts) build it from injected deps.
 *
 * A GET answered from the REST micro-cache or the Markdown views' cache is replayed to identical anonymous requests
 * for the rest of its window before any of this runs (api/fast-replay.ts).
 *
 * Order: request id → security headers → access log → error answers (the first real handler, so every later
 * failure becomes `{ error }`) → CORS → the access layer per surface (keys, quotas, limits) → the REST micro-cache →
 * routers.
 */
import cors from '@koa/cors';
import type Router from '@koa/router';
import Koa from 'koa';
import compose from 'koa-compose';
import type { ApiDeps } from './deps.js';
import { readMcpBody } from './mcp/body.js';
import { mcpOriginAllowed, mcpRouter } from './mcp/router.js';
import { safeError } from './log.js';
import { createMetrics } from './metrics/index.js';
import { fastReplay, type FastReplayDeps } from './fast-replay.js';
import { microCache } from './micro-cache.js';
import { syncGate } from './sync-guard.js';
import { accessLog, errorAnswers, forPaths, requestId } from './middleware.js';
import { API_PREFIX, restRouter, SITE_ROUTERS } from './routes/index.js';
import { sitePages } from './pages/index.js';
import { securityHeaders } from './security-headers.js';
import { isLogoPath } from './logo-path.js';

/** Headers a browser client may read (ETag for revalidation, request id for support, limits for back-off). */
const EXPOSED_HEADERS = [
  'ETag',
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Daily-Remaining',
  'Retry-After',
  // Markdown views' approximate LLM token count (views/md/format.ts), for agents budgeting their context.
  'X-Markdown-Tokens',
];

/**
 * A path as the routers match it: @koa/router matches in any case and with any trailing slashes, so which surface
 * (and which access layer) a request belongs to is decided the same way. `/api/MD/market` and `/api/mcp//` are the
 * Markdown and tool-server surfaces, with their limits and key checks.
 */
const routed = (p: string) => p.toLowerCase().replace(/\/+$/, '');
const under = (p: string, prefix: string) => {
  const r = routed(p);
  return r === prefix || r.startsWith(`${prefix}/`);
};
const isRest = (p: string) => under(p, API_PREFIX);
const isCachedRest = (p: string) => isRest(p) && !isLogoPath(p);
const isMarkdown = (p: string) => under(p, '/api/md');
const isMcp = (p: string) => routed(p) === '/api/mcp';
/** The account area is same-origin only: its session cookie must never be usable from another site. */
const isAccount = (p: string) => under(p, '/account');

/**
 * Security headers on every answer (OWASP REST recommendations): nosniff, no referrer, never framed. JSON answers
 * and logos need nothing from a browser, so their CSP allows nothing (an SVG logo cannot run script); the account
 * page sets its own CSP, its script and stylesheet from 'self' only (api/access/account-routes.ts). Resources are cross-origin
 * readable: the API is public and logos are embedded by other sites' <img> tags. HSTS only when served over https.
 */
export function securityOptions(siteUrl: string) {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
    crossOriginResourcePolicy: { policy: 'cross-origin' as const },
    referrerPolicy: { policy: 'no-referrer' as const },
    xFrameOptions: { action: 'deny' as const },
    strictTransportSecurity: siteUrl.startsWith('https:') ? { maxAge: 31_536_000 } : false,
  };
}

/** The read-only surfaces answer GET and HEAD only; the tool server also takes POST (JSON-RPC) and DELETE (session end). */
const READ_METHODS = 'GET,HEAD,OPTIONS';
const MCP_METHODS = 'GET,HEAD,POST,DELETE,OPTIONS';

/**
 * Koa, whose request handler (`callback()`, what every server and test listens with) first offers each request to
 * the replay fast path (api/fast-replay.ts).
 */
class ServiceApp extends Koa {
  replay: FastReplayDeps | null = null;

  override callback(): ReturnType<Koa['callback']> {
    const full = super.callback();
    if (!this.replay) return full;
    return fastReplay(this.replay, full) as ReturnType<Koa['callback']>;
  }
}

export function createApp(deps: ApiDeps): Koa {
  const app = new ServiceApp();
  app.proxy = deps.config.TRUST_PROXY;
  // Behind a trusted proxy the client is the last X-Forwarded-For entry (the one the proxy added); earlier
  // entries are whatever the client sent. The rate limiter keys on the same address.
  app.maxIpsCount = 1;
  // Errors that escape every middleware (socket and stream errors) are logged here, never printed raw.
  // The error reduced to name, code, message and stack: an HTTP parser error carries the raw request bytes
  // (`rawPacket`: keys, cookies).
  app.on('error', (err: unknown) => deps.log.error({ err: safeError(err) }, 'koa error'));

  app.use(requestId());
  app.use(securityHeaders(securityOptions(deps.config.SITE_URL)));
  // Metrics: every request timed (429s and errors included); /metrics at the site root, outside the limits.
  const metrics = deps.metrics ?? createMetrics({ defaultMetrics: false });
  metrics.bindStore(deps.store, deps.now, deps.workerDown);
  const shared = deps.access?.sharedCounters?.bind(deps.access);
  if (shared) metrics.bindSharedCounters(shared);
  app.use(metrics.http());
  app.use(accessLog(deps.log));
  app.use(errorAnswers(deps.log));
  const readCors = cors({ exposeHeaders: EXPOSED_HEADERS, maxAge: 86_400, allowMethods: READ_METHODS });
  // A refused Origin gets no CORS grant: its preflight passes on to the tool server, whose guard answers 403 { error }.
  const mcpOrigin = mcpOriginAllowed(deps.config.SITE_URL);
  const mcpCors = cors({
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: 86_400,
    allowMethods: MCP_METHODS,
    origin: (ctx) => (mcpOrigin(ctx.get('origin')) ? '*' : ''),
  });
  app.use((ctx, next) => (isAccount(ctx.path) ? next() : isMcp(ctx.path) ? mcpCors(ctx, next) : readCors(ctx, next)));

  const { access } = deps;
  if (access) {
    app.use(forPaths(isRest, access.rest));
    app.use(forPaths(isMarkdown, access.md));
    app.use(forPaths(isMcp, access.mcp));
  }
  // The tool server's JSON body (api/mcp/body.ts). The access layer reads it itself once the key check and the
  // per-minute limit passed (its PnL limit needs the tool a legacy body calls); this reads it when nothing did.
  app.use(forPaths(isMcp, readMcpBody()));

  // Answers of a chain the source abandoned are withheld (api/sync-guard.ts), cached ones included.
  const gate = syncGate({ store: deps.store, siteUrl: deps.config.SITE_URL });
  app.use(gate.middleware);
  // Markdown views, content negotiation (Accept: text/markdown on REST), swap page, discovery (api/pages/).
  // Negotiation sits before the micro-cache, so a cached JSON answer is never replayed to a Markdown request.
  const pages = sitePages(deps);
  app.use(forPaths(isRest, pages.negotiate));
  // Also without a cache window (API_CACHE_MS=0): it then compresses each answer instead of replaying it.
  app.use(forPaths(isCachedRest, microCache({ store: deps.store, ttlMs: deps.cacheMs ?? 0 })));

  // REST requests go straight to the /api/v1 router; the site's other routers (probes, metrics, tool server,
  // views, pages, account) never match a path under /api/v1, so they are not asked on every REST request.
  const site: Koa.Middleware[] = [];
  const mount = (router: Router) =>
    site.push(router.routes() as Koa.Middleware, router.allowedMethods() as Koa.Middleware);
  mount(metrics.router());
  for (const factory of SITE_ROUTERS) mount(factory(deps));
  mount(mcpRouter(deps));
  for (const router of pages.routers) mount(router);
  if (access?.routes) mount(access.routes);
  const v1 = restRouter(deps);
  const rest = compose([v1.routes() as Koa.Middleware, v1.allowedMethods() as Koa.Middleware]);
  const others = compose(site);
  app.use((ctx, next) => (isRest(ctx.path) ? rest(ctx, next) : others(ctx, next)));
  if ((deps.cacheMs ?? 0) > 0)
    app.replay = {
      store: deps.store,
      log: deps.log,
      gate,
      metrics,
      trustProxy: deps.config.TRUST_PROXY,
      ...(access ? { access } : {}),
    };
  return app;
}
