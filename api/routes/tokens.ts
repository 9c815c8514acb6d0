/**
 * Tokens (spec: Tokens): the ranked list, one token, its candles, trades and daily series. Lists are read from the
 * precomputed rankings and token stats (activities/recompute/); candles and trades straight from the documents the
 * market sync maintains. Also the read helpers the other market routes share (candles, trade pages, ADA/USD).
 */
import Router from '@koa/router';
import { type Order, type Quote, type RankPeriod, type TokenSort } from '../../cardano/rankings.js';
import type { ApiDeps } from '../deps.js';
import { defineRoute, register, type AnyRouteSpec, type CommonQuery, type RestModule } from '../route.js';
import {
  CandlesQuery,
  CandlesResponse,
  CursorQuery,
  SeriesParams,
  SeriesQuery,
  SeriesResponse,
  TokenDetailResponse,
  TokenListResponse,
  TokensQuery,
  TradesResponse,
  UnitParams,
} from '../schemas/market.js';
import {
  listTokens,
  getToken,
  getTokenCandles,
  getTokenTrades,
  getTokenSeries,
  type CandleQuery,
} from '../read/tokens.js';

const TAGS = ['Tokens'];

/**
 * What a bad `unit` of a token route was, when it is recognisably something else: ADA (spec: the unit `lovelace`
 * denotes ADA, which has no token answer: no stats, candles, trades or holders), or a ticker or name, whose unit the
 * list's search finds. The tool server's get_token says the same of its argument.
 */
export function tokenUnitHint(raw: string): string | null {
  // A CIP-14 fingerprint (bech32 "asset" over blake2b-160 of the unit: 38 data characters), the id explorers and
  // wallets show: a hash, so the route cannot read it, but the list's search holds each token's.
  if (/^asset1[02-9ac-hj-np-z]{38}$/i.test(raw))
    return `a CIP-14 asset fingerprint: GET /tokens?q=${raw.toLowerCase()} lists its token, with its unit`;
  if (/^(lovelace|ada)$/i.test(raw))
    return 'ADA (lovelace) is no token here: its USD price is adaUsd of GET /market/overview, its pools are GET /pools';
  if (/^[\p{L}\p{N}$._ -]{1,40}$/u.test(raw) && !/^[0-9a-f]*$/i.test(raw))
    return `a name or ticker: GET /tokens?q=${encodeURIComponent(raw)} lists the tokens it names, with their units`;
  return null;
}
const paramHints = { unit: tokenUnitHint };

export const tokenRoutes = {
  list: defineRoute<
    Record<string, never>,
    {
      sort: TokenSort;
      period: RankPeriod;
      order?: Order;
      quote: Quote;
      minLiquidity?: number;
      minHolders?: number;
      q?: string;
      page: number;
      pageSize: number;
    }
  >({
    operationId: 'listTokens',
    path: '/tokens',
    summary:
      'Tokens ranked by volume, market cap, change, age, trades, makers, liquidity, fdv, holders, rank or trending',
    description:
      'Sort semantics: volume/txns over period; mcap and fdv with floors of 10,000 ADA liquidity and 100 holders; change (gainers/losers) among tokens traded in the period with 10,000 ADA liquidity; age ascending = youngest first, new = only pools seen being created; holders with 1,000 ADA liquidity; rank = market cap and liquidity combined (geometric mean), 100 ADA liquidity; trending = trades in the last hour. Missing values come last in either direction; ties fall to liquidity (mcap, fdv, volume) or volume, then the unit. filters echoes the floors applied.',
    tags: TAGS,
    query: TokensQuery,
    response: TokenListResponse,
  }),
  detail: defineRoute<{ unit: string }>({
    operationId: 'getToken',
    path: '/tokens/{unit}',
    summary: 'One token: asset, stats, pools',
    tags: TAGS,
    params: UnitParams,
    response: TokenDetailResponse,
    paramHints,
  }),
  candles: defineRoute<{ unit: string }, CandleQuery & { pool?: string }>({
    operationId: 'getTokenCandles',
    path: '/tokens/{unit}/candles',
    summary: 'Price candles of a token (one pool, or all pools volume-weighted)',
    description:
      'Prices in ADA per token (decimal-adjusted) or USD (× ADA/USD of the bucket); volume in ADA. Default range: the latest 1000 buckets.',
    tags: TAGS,
    params: UnitParams,
    query: CandlesQuery,
    response: CandlesResponse,
    paramHints,
  }),
  trades: defineRoute<{ unit: string }, CommonQuery & { limit: number; cursor?: string }>({
    operationId: 'getTokenTrades',
    path: '/tokens/{unit}/trades',
    summary: 'DEX trades of a token, newest first',
    tags: TAGS,
    params: UnitParams,
    query: CursorQuery,
    response: TradesResponse,
    paramHints,
  }),
  series: defineRoute<{ unit: string; metric: 'liquidity' | 'holders' }, CommonQuery & { days: number }>({
    operationId: 'getTokenSeries',
    path: '/tokens/{unit}/series/{metric}',
    summary: 'Daily series of a token: liquidity (ADA) or holders',
    description:
      'liquidity: both sides of the token’s deepest ADA pools at the end of each UTC day (404 when no DEX pool of it is indexed). holders: its holder count at the end of each UTC day, up to the indexed tip’s day (404 like /tokens/{unit}/holders: only when no output of the token was ever indexed and no pool or registry entry names it).',
    tags: TAGS,
    params: SeriesParams,
    query: SeriesQuery,
    response: SeriesResponse,
    paramHints,
  }),
} satisfies Record<string, AnyRouteSpec>;

export function tokensRouter(deps: ApiDeps): Router {
  const router = new Router();

  register(router, tokenRoutes.list, (_ctx, { params, query }) => listTokens(deps, { ...params, ...query }));

  register(router, tokenRoutes.detail, (_ctx, { params, query }) => getToken(deps, { ...params, ...query }));

  register(router, tokenRoutes.candles, (_ctx, { params, query }) => getTokenCandles(deps, { ...params, ...query }));

  register(router, tokenRoutes.trades, (_ctx, { params, query }) => getTokenTrades(deps, { ...params, ...query }));

  register(router, tokenRoutes.series, (_ctx, { params, query }) => getTokenSeries(deps, { ...params, ...query }));

  return router;
}

export const tokensModule: RestModule = { routes: Object.values(tokenRoutes), router: tokensRouter };
