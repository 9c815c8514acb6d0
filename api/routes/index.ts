/**
 * The REST surface, /api/v1. Each resource module (one file in api/routes/) exports its route specs and its router
 * factory; adding a resource is one entry in REST_MODULES. The OpenAPI document is generated from the same list,
 * so a served route is always documented.
 */
import { createHash } from 'node:crypto';
import Router from '@koa/router';
import type { ApiDeps } from '../deps.js';
import { apiIndexRoute, buildApiIndex } from '../api-index.js';
import { buildOpenApi, openApiRoute } from '../openapi.js';
import { register, type AnyRouteSpec, type RestModule } from '../route.js';
import { assetsModule } from './assets.js';
import { explorerModule } from './explorer.js';
import { governanceModule } from './governance.js';
import { handlesModule } from './handles.js';
import { healthRouter } from './health.js';
import { holdersModule } from './holders.js';
import { marketModule } from './market.js';
import { nftModule } from './nft.js';
import { poolsModule } from './pools.js';
import { stakingModule } from './staking.js';
import { swapModule } from './swap.js';
import { tokensModule } from './tokens.js';
import { walletModule } from './wallet.js';
import { storageModule } from './storage.js';
import { newsModule } from './news.js';

export const API_PREFIX = '/api/v1';

/** Every REST resource, in documentation order. */
export const REST_MODULES: readonly RestModule[] = [
  tokensModule,
  holdersModule,
  assetsModule,
  poolsModule,
  marketModule,
  swapModule,
  explorerModule,
  walletModule,
  handlesModule,
  stakingModule,
  governanceModule,
  nftModule,
  storageModule,
  newsModule,
];

/** Every documented REST operation (the API's index and the OpenAPI route first). */
export const restRoutes = (): AnyRouteSpec[] => [apiIndexRoute, openApiRoute, ...REST_MODULES.flatMap((m) => m.routes)];

/** The /api/v1 router with every resource mounted, its index (GET /api/v1) and GET /openapi.json. */
export function restRouter(deps: ApiDeps): Router {
  const v1 = new Router({ prefix: API_PREFIX });
  // Both change with a deployment only, as the discovery files beside them (llms.txt, the AI catalog).
  staticJson(v1, apiIndexRoute, buildApiIndex(restRoutes(), deps.config.SITE_URL, API_PREFIX));
  staticJson(v1, openApiRoute, buildOpenApi(restRoutes(), deps.config.SITE_URL));
  for (const m of REST_MODULES) {
    const router = m.router(deps);
    v1.use(router.routes(), router.allowedMethods());
  }
  return v1;
}

/**
 * A route whose answer is fixed for the deployment: encoded once, with its ETag. Bytes, as every JSON answer: the
 * micro-cache then compresses it once per entry (openapi.json, br: 180 KB → ~20 KB).
 */
function staticJson(router: Router, route: AnyRouteSpec, body: unknown): void {
  const bytes = Buffer.from(JSON.stringify(body));
  const etag = createHash('sha1').update(bytes).digest('base64url');
  register(router, route, async (ctx) => {
    ctx.type = 'application/json';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.etag = etag;
    return bytes;
  });
}

/** Routers at the site root (probes; later the MCP endpoint, Markdown views, pages, discovery files). */
export const SITE_ROUTERS: readonly ((deps: ApiDeps) => Router)[] = [healthRouter];
