/**
 * GET /assets/{unit}/logo: the token's logo image (spec: Tokens; not rate limited, see api/app.ts). The registry
 * logo (LOGOS) first, else an inline CIP-68 image (data URI in the reference datum). Cacheable for a week; the
 * ETag is the sha-256 of the bytes, so If-None-Match answers 304.
 */
import Router from '@koa/router';
import type { ApiDeps } from '../deps.js';
import { defineRoute, register, type AnyRouteSpec, type RestModule } from '../route.js';
import { LogoResponse, UnitParams } from '../schemas/market.js';

export const LOGO_MAX_AGE_SECONDS = 7 * 86_400;

export const assetRoutes = {
  logo: defineRoute<{ unit: string }>({
    operationId: 'getAssetLogo',
    path: '/assets/{unit}/logo',
    summary: 'The logo image of a token',
    description:
      'The image with its real content type, Cache-Control for a week and an ETag (304 on If-None-Match); 404 when the token has no logo. Not rate limited.',
    tags: ['Tokens'],
    params: UnitParams,
    response: LogoResponse,
    contentType: 'image/*',
    etag: true,
  }),
} satisfies Record<string, AnyRouteSpec>;

import { getAssetLogo } from '../read/assets.js';

export function assetsRouter(deps: ApiDeps): Router {
  const router = new Router();
  register(router, assetRoutes.logo, async (ctx, { params, query }) => {
    const image = await getAssetLogo(deps, { ...params, ...query });
    ctx.type = image.contentType;
    ctx.set('Cache-Control', `public, max-age=${LOGO_MAX_AGE_SECONDS}`);
    ctx.etag = image.etag;
    return image.bytes;
  });
  return router;
}

export const assetsModule: RestModule = { routes: Object.values(assetRoutes), router: assetsRouter };
