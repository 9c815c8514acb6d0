/**
 * GET /swap/quote (spec: Swap quote): an estimate over every indexed pool of the pair, plus two-hop routes through
 * ADA, each computed with the DEX adapter's own integer `amountOut` (activities/dex/) on the pool state rebuilt
 * from the pool document. Read-only: the answer links to `{site_url}/swap`, where the user signs in their wallet.
 */
import Router from '@koa/router';
import type { ApiDeps } from '../deps.js';
import { defineRoute, register, type AnyRouteSpec, type CommonQuery, type RestModule } from '../route.js';
import { SwapQuoteQuery, SwapQuoteResponse } from '../schemas/market.js';
import { getSwapQuote } from '../read/swap.js';

export const swapRoutes = {
  quote: defineRoute<Record<string, never>, CommonQuery & { in: string; out: string; amount: number }>({
    operationId: 'getSwapQuote',
    path: '/swap/quote',
    summary: 'Swap quote: routes over all pools (direct and two-hop via ADA), best route, link to the swap page',
    description:
      // The batcher fee is not in a route's amountOut or effectivePrice, but each route carries it (batcherFee) and
      // the routes are ranked by what they leave once it is paid: saying it is "not included" told REST readers the
      // quote ignores it.
      'Each route is computed with the DEX’s exact pool math and fee (amountOut, effectivePrice) and carries batcherFee, what its orders likely cost in ADA besides the amount (not in amountOut); routes are ranked by what they leave once it is paid. An estimate only: price movement before execution is not included; sign on the service’s swap page (/swap, the answer’s link).',
    tags: ['Swap'],
    query: SwapQuoteQuery,
    response: SwapQuoteResponse,
  }),
} satisfies Record<string, AnyRouteSpec>;

export function swapRouter(deps: ApiDeps): Router {
  const router = new Router();
  register(router, swapRoutes.quote, (ctx, { params, query }) =>
    getSwapQuote(deps, {
      ...params,
      ...query,
      amount: typeof ctx.query.amount === 'string' ? ctx.query.amount : query.amount,
    }),
  );
  return router;
}

export const swapModule: RestModule = { routes: Object.values(swapRoutes), router: swapRouter };
