/**
 * Token holders (issue 4, item 1): GET /tokens/{unit}/holders, read from the holder documents the holders sync
 * extension keeps (mongo/collections/holders.ts), so an answer is as fresh as the indexed tip. The daily series
 * (/tokens/{unit}/series/holders) is served by api/routes/tokens.ts from the holder_series snapshots.
 */
import Router from '@koa/router';
import { shareOf } from '../../cardano/holders.js';
import { storeClock } from '../../mongo/collections/clock.js';
import { tokenMetadata } from '../../cardano/token-metadata.js';
import { scaleInteger } from '../../cardano/units.js';
import { HOLDERS, HOLDER_COUNTS } from '../../mongo/collections/holders.js';
import { TOKENS, TOKEN_META } from '../../mongo/collections/market.js';
import type { Store } from '../../mongo/store.js';
import type { ApiDeps } from '../deps.js';
import { NotFoundError } from '../errors.js';
import { defineRoute, register, type AnyRouteSpec, type RestModule } from '../route.js';
import { HOLDERS_LIMIT, HoldersResponse } from '../schemas/holders.js';
import { UnitParams } from '../schemas/market.js';

export const holderRoutes = {
  holders: defineRoute<{ unit: string }>({
    operationId: 'getTokenHolders',
    path: '/tokens/{unit}/holders',
    summary: `Largest holders of a token (top ${HOLDERS_LIMIT}), with the exact holder count`,
    description: `Holders from the indexed UTxO set: a holder is a stake address when the holding address has a stake key (every address of that key combined), else the address. items: the ${HOLDERS_LIMIT} largest, quantity descending; total: all holders; share: of the quantity in unspent outputs. 404 when no output of the token was ever indexed and no DEX pool of it is known.`,
    tags: ['Tokens'],
    params: UnitParams,
    response: HoldersResponse,
  }),
} satisfies Record<string, AnyRouteSpec>;

/**
 * The holder count, token and registry documents of a unit; 404 unless one exists (no output of the token was ever
 * indexed, no DEX pool of it is known and the registry does not name it). The holders series follows the same rule.
 */
export async function holderTokenOr404(store: Store, unit: string) {
  const [count, token, meta] = await Promise.all([
    store.collection(HOLDER_COUNTS).get(unit),
    store.collection(TOKENS).get(unit),
    store.collection(TOKEN_META).get(unit),
  ]);
  if (!count && !token && !meta) throw new NotFoundError(`token ${unit} not found`);
  return { count, token, meta };
}

export function holdersRouter(deps: ApiDeps): Router {
  const { store } = deps;
  const router = new Router();

  register(router, holderRoutes.holders, async (_ctx, { params }) => {
    const unit = params.unit.toLowerCase();
    const [{ count, token, meta }, { clock, checkpoint }] = await Promise.all([
      holderTokenOr404(store, unit),
      storeClock(store),
    ]);
    const decimals = tokenMetadata(unit, meta, token).decimals;
    const docs = count
      ? await store.collection(HOLDERS).find('byQuantity', { eq: [unit], reverse: true, limit: HOLDERS_LIMIT })
      : [];
    const supply = BigInt(count?.supplyRaw ?? '0');
    return {
      items: docs.map((d) => ({
        address: d.holder,
        quantity: scaleInteger(d.quantityRaw, decimals),
        quantityRaw: d.quantityRaw,
        share: shareOf(BigInt(d.quantityRaw), supply),
      })),
      total: count?.count ?? 0,
      partial: false,
      fetchedAt: checkpoint ? clock.iso(checkpoint.slot) : null,
      circulatingSupply: scaleInteger(supply, decimals),
      circulatingSupplyRaw: supply.toString(),
    };
  });

  return router;
}

export const holdersModule: RestModule = { routes: Object.values(holderRoutes), router: holdersRouter };
