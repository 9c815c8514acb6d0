/**
 * ADA Handles: GET /handles/{handle} resolves `$name`, `name` or `sub@root` to the address holding it, from the
 * `handles` documents the handles sync extension keeps (as fresh as the indexed tip; a rollback restores the
 * previous holder). Also the one step other endpoints use to accept a handle where they take an address
 * (`addressParam`): the wallet endpoints and the explorer address page.
 */
import Router from '@koa/router';
import type { ApiDeps } from '../deps.js';
import { defineRoute, register, type AnyRouteSpec, type RestModule } from '../route.js';
import { HandleParams, HandleResponse } from '../schemas/handles.js';
import { getHandle } from '../read/handles.js';

export const handleRoutes = {
  handle: defineRoute<{ handle: string }>({
    operationId: 'getHandle',
    path: '/handles/{handle}',
    summary: 'Resolve an ADA Handle ($name or sub@root) to the address holding it',
    description:
      'The address of the UTxO holding the handle token (legacy CIP-25 name, CIP-68 (222) user token, NFT subhandle), or for a virtual subhandle the address its datum names; its stake address and whether a script holds it; the CIP-68 datum fields. 400 for a malformed handle, 404 when the handle is not held (never minted or burnt).',
    tags: ['Handles'],
    params: HandleParams,
    response: HandleResponse,
  }),
} satisfies Record<string, AnyRouteSpec>;

export function handlesRouter(deps: ApiDeps): Router {
  const router = new Router();

  register(router, handleRoutes.handle, (_ctx, { params, query }) => getHandle(deps, { ...params, ...query }));

  return router;
}

export const handlesModule: RestModule = { routes: Object.values(handleRoutes), router: handlesRouter };
