/**
 * Wallet (spec: Wallet): portfolio, DEX trades and FIFO profit and loss of an address or a stake key.
 *
 * Identity. A stake1… key combines every payment address that carries it (ADDRESSES byStake) for holdings; an
 * addr1… address is that address alone. Trades are attributed to a maker (mongo/collections/market.ts): the stake
 * address when the trading address has one, else the address, so an addr1… with a stake part answers the trades
 * and PnL of its whole stake key, like the market sync records them.
 *
 * PnL is a FIFO over the wallet's complete ADA-side trades: the market sync keeps each wallet's lots as its trades
 * land (wallet_lots, exact under rollbacks); an answer reads that one document and values the open lots at the
 * current prices (api/read/wallet.ts getWalletPnl). Its lower rate limit is applied by the access layer for this
 * path.
 */
import Router from '@koa/router';
import type { ApiDeps } from '../deps.js';
import { defineRoute, register, type AnyRouteSpec, type CommonQuery, type RestModule } from '../route.js';
import { CursorQuery } from '../schemas/market.js';
import { WalletParams, WalletPnlResponse, WalletResponse, WalletTradesResponse } from '../schemas/wallet.js';
import { getWallet, getWalletTrades, getWalletPnl } from '../read/wallet.js';

const TAGS = ['Wallet'];

export const walletRoutes = {
  portfolio: defineRoute<{ address: string }>({
    operationId: 'getWallet',
    path: '/wallet/{address}',
    summary: 'Wallet portfolio: ADA balance and token positions valued in ADA and USD',
    description: `An addr1… address alone, or a stake1… key with all its addresses combined. Positions are the token balances of the UTxO set, decimal-adjusted, valued at the current price (ADA per whole token) and ADA/USD; sorted by valueAda descending, unpriced last. A stake key's unwithdrawn staking rewards are reported apart (rewards, as the ledger last reported them) and counted in totals.ada.`,
    tags: TAGS,
    params: WalletParams,
    response: WalletResponse,
  }),
  trades: defineRoute<{ address: string }, CommonQuery & { limit: number; cursor?: string }>({
    operationId: 'getWalletTrades',
    path: '/wallet/{address}/trades',
    summary: 'DEX trades made by a wallet, newest first',
    description:
      'Trades are attributed to the stake key of the trading address when it has one (so an addr1… with a stake part lists the trades of its whole stake key), else to the address.',
    tags: TAGS,
    params: WalletParams,
    query: CursorQuery,
    response: WalletTradesResponse,
  }),
  pnl: defineRoute<{ address: string }>({
    operationId: 'getWalletPnl',
    path: '/wallet/{address}/pnl',
    summary: 'Realised and unrealised profit and loss of a wallet (FIFO, ADA and USD)',
    description:
      'FIFO over the wallet’s complete trades with ADA on one side, since coverageFrom (the first indexed block). Sells beyond known buys are reported apart (unmatched) and not counted as profit; token/token swaps are skipped. USD uses ADA/USD at each trade’s time (null when unknown). Heavy: a lower rate limit applies. Each wallet’s FIFO lots are kept by the sync as its trades land (exact under rollbacks); an answer values them at the current prices. `computedAt` is the indexed tip the lots reflect.',
    tags: TAGS,
    params: WalletParams,
    response: WalletPnlResponse,
  }),
} satisfies Record<string, AnyRouteSpec>;

export function walletRouter(deps: ApiDeps): Router {
  const router = new Router();

  register(router, walletRoutes.portfolio, (_ctx, { params, query }) => getWallet(deps, { ...params, ...query }));

  register(router, walletRoutes.trades, (_ctx, { params, query }) => getWalletTrades(deps, { ...params, ...query }));

  register(router, walletRoutes.pnl, (_ctx, { params, query }) => getWalletPnl(deps, { ...params, ...query }));

  return router;
}

export const walletModule: RestModule = { routes: Object.values(walletRoutes), router: walletRouter };
