/**
 * The REST surface, /api/v1. Each resource module (one file in api/routes/) exports its route specs and its router
 * factory; adding a resource is one entry in REST_MODULES. The OpenAPI document is generated from the same list,
 * so a served route is always documented.
 */
import { createHash } from 'node:crypto';
import Router from '@koa/router';
import type { ApiDeps } from '../deps.js';
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

/** Every documented REST operation (the OpenAPI route first). */
export const restRoutes = (): AnyRouteSpec[] => [openApiRoute, ...REST_MODULES.flatMap((m) => m.routes)];

/** The /api/v1 router with every resource mounted and GET /openapi.json. */
export function restRouter(deps: ApiDeps): Router {
  const v1 = new Router({ prefix: API_PREFIX });
  // Bytes, as every JSON answer: the micro-cache then compresses it once per entry (br: 180 KB → ~20 KB).
  const openapi = Buffer.from(JSON.stringify(buildOpenApi(restRoutes(), deps.config.SITE_URL)));
  const openapiEtag = createHash('sha1').update(openapi).digest('base64url');
  register(v1, openApiRoute, async (ctx) => {
    ctx.type = 'application/json';
    // Changes with a deployment only, as the discovery files beside it (llms.txt, the AI catalog).
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.etag = openapiEtag;
    return openapi;
  });
  for (const m of REST_MODULES) {
    const router = m.router(deps);
    v1.use(router.routes(), router.allowedMethods());
  }
  return v1;
}

/** Routers at the site root (probes; later the MCP endpoint, Markdown views, pages, discovery files). */
export const SITE_ROUTERS: readonly ((deps: ApiDeps) => Router)[] = [healthRouter];
