/**
 * Token holders (issue 4, item 1): GET /tokens/{unit}/holders, read from the holder documents the holders sync
 * extension keeps (mongo/collections/holders.ts), so an answer is as fresh as the indexed tip. The daily series
 * (/tokens/{unit}/series/holders) is served by api/routes/tokens.ts from the holder_series snapshots.
 */
import Router from '@koa/router';
import type { ApiDeps } from '../deps.js';
import { defineRoute, register, type AnyRouteSpec, type RestModule } from '../route.js';
import { HOLDERS_LIMIT, HoldersResponse } from '../schemas/holders.js';
import { UnitParams } from '../schemas/market.js';
import { getTokenHolders } from '../read/holders.js';
import { tokenUnitHint } from './tokens.js';

export const holderRoutes = {
  holders: defineRoute<{ unit: string }>({
    operationId: 'getTokenHolders',
    path: '/tokens/{unit}/holders',
    summary: `Largest holders of a token (top ${HOLDERS_LIMIT}), with the exact holder count`,
    description: `Holders from the indexed UTxO set: a holder is a stake address when the holding address has a stake key (every address of that key combined), else the address. items: the ${HOLDERS_LIMIT} largest, quantity descending; total: all holders; share: of the quantity in unspent outputs. 404 when no output of the token was ever indexed and no DEX pool of it is known.`,
    tags: ['Tokens'],
    params: UnitParams,
    response: HoldersResponse,
    paramHints: { unit: tokenUnitHint },
  }),
} satisfies Record<string, AnyRouteSpec>;

export function holdersRouter(deps: ApiDeps): Router {
  const router = new Router();

  register(router, holderRoutes.holders, (_ctx, { params, query }) => getTokenHolders(deps, { ...params, ...query }));

  return router;
}

export const holdersModule: RestModule = { routes: Object.values(holderRoutes), router: holdersRouter };
