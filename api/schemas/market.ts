/**
 * Market request and response schemas (spec: AssetRef, TokenStats, TokenRow, Pool, Candle, Trade, Series point;
 * Tokens, Pools, Swap quote, market overview). Units: ADA amounts are whole ADA, token amounts decimal-adjusted,
 * change* plain fractions (0.05 = +5 %). Objects are open: fields may be added within /v1.
 */
import { DEX_ADAPTERS } from '../../cardano/dex/index.js';
import { QUOTES, RANK_PERIODS, TOKEN_SORTS } from '../../cardano/rankings.js';
import { STATS_WINDOWS } from '../../mongo/collections/market-read.js';
import { CANDLE_INTERVALS } from '../../mongo/collections/market.js';
import { component, nullable, type JsonSchema, type ObjectSchema } from '../schema.js';
import {
  CursorQueryProperties,
  MAX_ADA_SUPPLY,
  MAX_ASSET_QUANTITY,
  MAX_HOLDERS,
  PageQueryProperties,
  searchText,
} from './common.js';

const num: JsonSchema = { type: 'number' };
const numOrNull: JsonSchema = { type: ['number', 'null'] };
const int: JsonSchema = { type: 'integer', minimum: 0 };
const adaNum = (description: string): JsonSchema => ({ type: 'number', description: `${description} Whole ADA.` });
const adaOrNull = (description: string): JsonSchema => ({
  type: ['number', 'null'],
  description: `${description} Whole ADA.`,
});
const time: JsonSchema = { type: 'string', format: 'date-time' };

export const UNIT_PATTERN = '^[0-9a-fA-F]{56}([0-9a-fA-F]{2}){0,32}$';
const unitParam: JsonSchema = {
  type: 'string',
  pattern: UNIT_PATTERN,
  'x-expected': 'a policy id (56 hex) followed by an asset name (0-32 bytes, hex)',
  description: 'Asset unit: policy id + asset name hex.',
};
const unitOrAda: JsonSchema = {
  type: 'string',
  pattern: `^(lovelace|[0-9a-fA-F]{56}([0-9a-fA-F]{2}){0,32})$`,
  'x-expected': '`lovelace` or a policy id (56 hex) followed by an asset name (hex)',
};

export const UnitParams: ObjectSchema = { type: 'object', required: ['unit'], properties: { unit: unitParam } };
/** The logo route takes `lovelace` too: ADA is a unit like any other, and has no logo (404, as any logo-less unit). */
export const LogoParams: ObjectSchema = {
  type: 'object',
  required: ['unit'],
  properties: { unit: { ...unitOrAda, description: 'Asset unit: policy id + asset name hex, or `lovelace`.' } },
};

export const SeriesParams: ObjectSchema = {
  type: 'object',
  required: ['unit', 'metric'],
  properties: {
    unit: unitParam,
    metric: { type: 'string', enum: ['liquidity', 'holders'], description: 'liquidity or holders.' },
  },
};

export const PoolIdParams: ObjectSchema = {
  type: 'object',
  required: ['id'],
  properties: {
    id: {
      type: 'string',
      pattern: '^[0-9]{1,20}$',
      'x-expected': 'a pool id (a non-negative integer of at most 20 digits)',
      description: 'Pool id (integer).',
    },
  },
};

// ---- resources -------------------------------------------------------------------------------------------------

export const AssetRef = component('AssetRef', {
  type: 'object',
  required: ['unit', 'policyId', 'nameHex', 'name', 'ticker', 'decimals', 'logo', 'logoUrl', 'displayName'],
  properties: {
    unit: { type: 'string', description: 'Policy id + asset name hex; `lovelace` for ADA.' },
    policyId: { type: 'string', description: 'Empty for ADA.' },
    nameHex: { type: 'string' },
    name: { type: ['string', 'null'], description: 'Registry name, else CIP-68 name, else the decoded asset name.' },
    ticker: { type: ['string', 'null'] },
    decimals: { type: 'integer', minimum: 0 },
    logo: {
      type: ['string', 'null'],
      description:
        'By default the image itself as a data URI (or an external URL when only one is known); with logos=url the logoUrl value. Prefer logoUrl.',
    },
    logoUrl: {
      type: ['string', 'null'],
      description:
        'Absolute URL of GET /assets/{unit}/logo (cacheable for a week, ETag), or the external URL from on-chain metadata; null when the token has no logo.',
    },
    displayName: { type: 'string', description: 'Ticker, else name, else a short form of the unit.' },
  },
});

const WindowStats = component('TokenWindowStats', {
  type: 'object',
  required: ['volume', 'txns', 'buys', 'sells', 'change', 'changeUsd'],
  properties: {
    volume: adaNum('Traded volume over the window.'),
    txns: int,
    buys: int,
    sells: int,
    change: { type: ['number', 'null'], description: 'ADA price change over the window, fraction.' },
    changeUsd: {
      type: ['number', 'null'],
      description: 'USD price change, fraction; null while the ADA/USD history does not reach the window start.',
    },
  },
});

export const TokenStats = component('TokenStats', {
  type: 'object',
  required: [
    'priceAda',
    'priceUsd',
    'liquidityAda',
    'liquidityUsd',
    'volume24h',
    'volume7d',
    'change1h',
    'change24h',
    'change7d',
    'change1hUsd',
    'change24hUsd',
    'change7dUsd',
    'txns24h',
    'buys24h',
    'sells24h',
    'makers24h',
    'mcapAda',
    'mcapUsd',
    'fdvUsd',
    'holders',
    'totalSupply',
    'circulatingSupply',
    'pools',
    'firstPoolTime',
    'firstPoolExact',
    'updatedAt',
    'windows',
  ],
  properties: {
    priceAda: adaOrNull('Price of one token (decimal-adjusted) from the primary pool’s reserves.'),
    priceUsd: numOrNull,
    liquidityAda: adaOrNull('Both sides of the token’s ADA pools.'),
    liquidityUsd: numOrNull,
    volume24h: adaNum('Traded volume, last 24 h.'),
    volume7d: adaNum('Traded volume, last 7 days.'),
    change1h: { type: ['number', 'null'], description: 'Change of the ADA price, fraction.' },
    change24h: numOrNull,
    change7d: numOrNull,
    change1hUsd: {
      type: ['number', 'null'],
      description:
        'Change of the USD price (ADA change combined with the ADA/USD move), fraction; null while ADA/USD history does not reach back.',
    },
    change24hUsd: numOrNull,
    change7dUsd: numOrNull,
    txns24h: int,
    buys24h: int,
    sells24h: int,
    makers24h: { type: 'integer', minimum: 0, description: 'Distinct traders of the last 24 h.' },
    mcapAda: adaOrNull('Price × circulating supply (total supply where circulating is unknown).'),
    mcapUsd: numOrNull,
    fdvUsd: { type: ['number', 'null'], description: 'Price × total supply, USD.' },
    holders: { type: ['integer', 'null'], description: 'null until holder counts are indexed.' },
    totalSupply: { type: ['number', 'null'], description: 'Minted minus burned, decimal-adjusted.' },
    circulatingSupply: numOrNull,
    pools: { type: 'integer', minimum: 0, description: 'Number of pools.' },
    firstPoolTime: {
      type: ['string', 'null'],
      format: 'date-time',
      description:
        'Creation of the first pool if firstPoolExact, else when a pool was first seen (the token is older).',
    },
    firstPoolExact: { type: 'boolean' },
    updatedAt: time,
    windows: {
      type: 'object',
      description: 'Rolling windows ending at updatedAt.',
      required: [...STATS_WINDOWS],
      properties: Object.fromEntries(STATS_WINDOWS.map((w) => [w, WindowStats])),
    },
  },
});

export const TokenRow = component('TokenRow', {
  type: 'object',
  required: ['asset', 'stats', 'primaryPoolId'],
  properties: { asset: AssetRef, stats: TokenStats, primaryPoolId: { type: ['integer', 'null'] } },
});

export const Pool = component('Pool', {
  type: 'object',
  required: [
    'id',
    'dex',
    'identifier',
    'address',
    'tokenA',
    'tokenB',
    'reserveA',
    'reserveB',
    'reserveARaw',
    'reserveBRaw',
    'tvlAda',
    'price',
    'feePercent',
    'feePercentBToA',
    'lpToken',
    'lpIssuedRaw',
    'createdTime',
    'createdExact',
    'lastStateTime',
    'volume24h',
    'txns24h',
    'statsUpdatedAt',
  ],
  properties: {
    id: { type: 'integer', minimum: 0 },
    dex: { type: 'string' },
    identifier: { type: 'string', description: 'The DEX’s own pool identifier.' },
    address: { type: 'string' },
    tokenA: AssetRef,
    tokenB: AssetRef,
    reserveA: { type: 'number', description: 'Decimal-adjusted (whole ADA when tokenA is ADA).' },
    reserveB: { type: 'number', description: 'Decimal-adjusted.' },
    reserveARaw: {
      type: 'string',
      pattern: '^[0-9]+$',
      description:
        'reserveA exact, in base units (lovelace when tokenA is ADA): a JSON number loses digits above 2^53 base units.',
    },
    reserveBRaw: { type: 'string', pattern: '^[0-9]+$', description: 'reserveB exact, in base units.' },
    tvlAda: adaOrNull(
      'Both sides valued in ADA: an ADA pool twice its ADA reserve (a weighted pool: its ADA reserve over ADA’s share of the weights, five times it at 20/80); a token/token pool each side at its token’s ADA price (from the token’s price pool, as of the last stats run, about a minute), a side whose token has no ADA pool counted as much as the other; null when neither token has an ADA pool.',
    ),
    price: {
      type: ['number', 'null'],
      description:
        'Spot price, tokenA per tokenB, decimal-adjusted: reserveA / reserveB; for a weighted pool each reserve over its weight (Splash 20/80 pools: 1 and 4), four times the reserve ratio.',
    },
    feePercent: {
      type: ['number', 'null'],
      description: 'Swap fee in percent (0.3 = 0.3 %) on a swap of tokenA for tokenB; feePercentBToA is the other way.',
    },
    feePercentBToA: {
      type: ['number', 'null'],
      description:
        'Swap fee in percent on a swap of tokenB for tokenA: it differs from feePercent on Minswap V2, SundaeSwap V3 and Splash pools whose datum sets a fee per direction.',
    },
    lpToken: {
      type: ['string', 'null'],
      description: 'Unit of the pool’s LP token (policy id + asset name hex); null when the DEX issues none.',
    },
    lpIssuedRaw: {
      type: ['string', 'null'],
      pattern: '^[0-9]+$',
      description:
        'LP tokens issued, in base units, as the pool counts them: a holder of n withdraws n / lpIssuedRaw of each reserve. Null when the pool output does not say.',
    },
    createdTime: { ...time, description: 'Creation time if createdExact, else when the pool was first seen.' },
    createdExact: { type: 'boolean' },
    lastStateTime: { type: ['string', 'null'], format: 'date-time' },
    volume24h: adaNum('Traded volume, last 24 h (the 24 h ending at statsUpdatedAt).'),
    txns24h: int,
    statsUpdatedAt: {
      type: ['string', 'null'],
      format: 'date-time',
      description:
        'The moment volume24h, txns24h and a token/token pool’s tvlAda describe: their 24 h window ends here, at the indexed tip block the market recompute (every 20 s) last saw (asOf, when that run is the latest). Null until a run has seen the pool (the figures are 0 meanwhile).',
    },
  },
});

export const Candle = component('Candle', {
  type: 'object',
  required: ['time', 'open', 'high', 'low', 'close', 'volume', 'trades'],
  properties: {
    time: { type: 'integer', description: 'Bucket start, unix seconds.' },
    open: num,
    high: num,
    low: num,
    close: num,
    volume: adaNum('Traded volume in the bucket.'),
    trades: int,
  },
});

export const Trade = component('Trade', {
  type: 'object',
  required: [
    'id',
    'poolId',
    'dex',
    'txHash',
    'time',
    'status',
    'side',
    'tokenIn',
    'tokenOut',
    'amountIn',
    'amountOut',
    'amountInRaw',
    'amountOutRaw',
    'priceAda',
    'valueAda',
    'valueUsd',
    'batcherFee',
    'batcherFeeLovelace',
    'maker',
    'makerAddress',
  ],
  properties: {
    id: { type: 'integer', minimum: 0 },
    poolId: { type: 'integer', minimum: 0 },
    dex: { type: 'string' },
    txHash: { type: 'string' },
    time: time,
    status: { type: 'string', enum: ['pending', 'complete', 'cancelled'] },
    side: {
      type: ['string', 'null'],
      enum: ['buy', 'sell', null],
      description:
        "The token bought with ADA (buy) or sold for ADA (sell). A trade of two tokens has no ADA side: null in pool and wallet lists; in a token's list, that token's buy or sell.",
    },
    tokenIn: AssetRef,
    tokenOut: AssetRef,
    amountIn: { type: 'number', description: 'Decimal-adjusted.' },
    amountOut: { type: ['number', 'null'], description: 'Decimal-adjusted; null while pending or when cancelled.' },
    amountInRaw: {
      type: 'string',
      pattern: '^[0-9]+$',
      description:
        'amountIn exact, in base units (lovelace for ADA): a JSON number loses digits above 2^53 base units.',
    },
    amountOutRaw: {
      type: ['string', 'null'],
      pattern: '^[0-9]+$',
      description: 'amountOut exact, in base units; null when amountOut is.',
    },
    priceAda: adaOrNull(
      "ADA per token at execution: of the token bought, or in a token's list of that token. A trade of two tokens is valued through one side's ADA price at that point of the chain.",
    ),
    valueAda: adaOrNull('ADA side of the trade (a trade of two tokens: its value through one side’s ADA price).'),
    valueUsd: {
      type: ['number', 'null'],
      description:
        'valueAda at the ADA/USD rate of the point of the chain where the trade executed (the estimator of the market overview’s adaUsd over the ADA/stablecoin pools then: the rate wallet PnL costs the trade at); a pending trade, or one a store recorded before that rate was kept: the adausd close of the minute before it.',
    },
    batcherFee: adaOrNull(
      'ADA the DEX batcher took for executing the order, besides the amounts swapped (the order deposit comes back); null while pending, when cancelled, or when it cannot be told from the chain.',
    ),
    batcherFeeLovelace: {
      type: ['string', 'null'],
      pattern: '^[0-9]+$',
      description: 'batcherFee exact, in lovelace.',
    },
    maker: { type: ['string', 'null'], description: 'Stake address of the trader, else the address.' },
    makerAddress: { type: ['string', 'null'] },
  },
});

const SeriesPoint = component('SeriesPoint', {
  type: 'object',
  required: ['time', 'value'],
  properties: { time: { type: 'integer', description: 'Day start, unix seconds (UTC).' }, value: num },
});

/** A time bound: unix seconds, or milliseconds when > 1e11; no later than the last millisecond of year 9999. */
const TIME_PARAM: JsonSchema = {
  type: 'number',
  minimum: 0,
  maximum: 253_402_300_799_999,
  'x-expected': 'unix seconds or milliseconds, from 0 to 253402300799999 (year 9999)',
};

// ---- queries -----------------------------------------------------------------------------------------------------

export const TokensQuery: ObjectSchema = {
  type: 'object',
  properties: {
    sort: { type: 'string', enum: [...TOKEN_SORTS], default: 'volume', description: 'Sort (spec semantics 1-9).' },
    period: {
      type: 'string',
      enum: [...RANK_PERIODS],
      default: '24h',
      description: 'Window of volume, txns, change, gainers, losers.',
    },
    order: {
      type: 'string',
      enum: ['asc', 'desc'],
      description: 'Default desc; asc (youngest first) for age. Ignored by rank, trending, new, gainers, losers.',
    },
    quote: {
      type: 'string',
      enum: [...QUOTES],
      default: 'USD',
      description: 'Currency in which price changes are ranked.',
    },
    minLiquidity: {
      type: 'number',
      minimum: 0,
      // A pool's liquidity is its two sides valued in ADA, each at most the ADA supply.
      maximum: 2 * MAX_ADA_SUPPLY,
      'x-expected': `a number of ADA from 0 to ${2 * MAX_ADA_SUPPLY} (twice the 45 billion ADA maximum supply)`,
      description: 'Liquidity floor in ADA; replaces the sort’s default floor; 0 = none.',
    },
    minHolders: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_HOLDERS,
      'x-expected': `an integer from 0 to ${MAX_HOLDERS} (every holder holds an output of at least ~1 ADA, and 45 billion ADA exist at most)`,
      description: 'Holders floor; replaces the sort’s default (100 for mcap and fdv); 0 = none.',
    },
    q: searchText(100, 'Search text (ticker, name, unit, or a whole asset1… fingerprint).'),
    ...PageQueryProperties,
  },
};

export const CandlesQuery: ObjectSchema = {
  type: 'object',
  properties: {
    interval: { type: 'string', enum: Object.keys(CANDLE_INTERVALS), default: '1h' },
    pool: {
      type: 'string',
      pattern: '^([0-9]{1,20}|all)$',
      'x-expected': 'a pool id or all',
      description: 'A pool id, or all (every pool of the token, volume-weighted); default the primary pool.',
    },
    quote: { type: 'string', enum: ['ADA', 'USD'], default: 'ADA' },
    from: {
      ...TIME_PARAM,
      description:
        'Unix seconds or milliseconds (milliseconds when > 1e11). Must not be after `to` (400). Default: 1000 intervals before `to`, or without `to` before the indexed tip (asOf), so an index behind the clock still answers its latest candles.',
    },
    to: {
      ...TIME_PARAM,
      description:
        'Unix seconds or milliseconds (milliseconds when > 1e11). Must not be before `from` (400). Default: now.',
    },
  },
};

export const PoolCandlesQuery: ObjectSchema = {
  type: 'object',
  properties: {
    interval: CandlesQuery.properties.interval as JsonSchema,
    quote: CandlesQuery.properties.quote as JsonSchema,
    from: CandlesQuery.properties.from as JsonSchema,
    to: CandlesQuery.properties.to as JsonSchema,
  },
};

export const CursorQuery: ObjectSchema = { type: 'object', properties: { ...CursorQueryProperties } };

export const SeriesQuery: ObjectSchema = {
  type: 'object',
  properties: {
    days: {
      type: 'integer',
      minimum: 1,
      maximum: 3650,
      default: 365,
      'x-expected': 'an integer from 1 to 3650',
      description: 'History length in days.',
    },
  },
};

export const PoolsQuery: ObjectSchema = {
  type: 'object',
  properties: {
    dex: { type: 'string', enum: DEX_ADAPTERS.map((a) => a.name), description: 'Only pools of this DEX.' },
    sort: { type: 'string', enum: ['tvl', 'volume24h'], default: 'tvl' },
    ...PageQueryProperties,
  },
};

export const SwapQuoteQuery: ObjectSchema = {
  type: 'object',
  required: ['in', 'out', 'amount'],
  properties: {
    in: { ...unitOrAda, description: 'Input unit (`lovelace` for ADA). Must differ from `out` (400).' },
    out: { ...unitOrAda, description: 'Output unit. Must differ from `in` (400).' },
    amount: {
      type: 'number',
      exclusiveMinimum: 0,
      // No output holds more than 2^64 − 1 base units of a token (or 45 × 10^15 lovelace); the quote also refuses
      // an amount beyond the input token's supply.
      maximum: Number(MAX_ASSET_QUANTITY),
      'x-expected': `a positive number of at most ${MAX_ASSET_QUANTITY} (the largest quantity an output can hold)`,
      description:
        'Input amount, decimal-adjusted. At most what can exist: the ADA supply (45 billion) or the token’s minted supply (400 beyond it).',
    },
  },
};

// ---- responses ---------------------------------------------------------------------------------------------------

const adaUsd: JsonSchema = {
  type: ['number', 'null'],
  description:
    'USD per ADA from the ADA/stablecoin pools: the ADA-weighted median over pools with at least 25,000 ADA a side, fiat-backed coins (USDM, USDCx) preferred; null without any ADA/stablecoin pool.',
};

export const TokenListResponse = component('TokenList', {
  type: 'object',
  required: ['items', 'page', 'pageSize', 'total', 'adaUsd', 'quote', 'sort', 'period', 'order', 'filters'],
  properties: {
    items: { type: 'array', items: TokenRow },
    page: { type: 'integer', minimum: 1 },
    pageSize: { type: 'integer', minimum: 1 },
    total: { type: 'integer', minimum: 0 },
    adaUsd,
    quote: { type: 'string' },
    sort: { type: 'string' },
    period: { type: 'string' },
    order: { type: 'string', enum: ['asc', 'desc'], description: 'The direction applied.' },
    filters: {
      type: 'object',
      required: ['minLiquidity', 'minHolders'],
      description: 'The floors applied: the given ones, else the sort’s defaults; null = none.',
      properties: { minLiquidity: adaOrNull('Liquidity floor.'), minHolders: { type: ['integer', 'null'] } },
    },
    updatedAt: { type: ['string', 'null'], format: 'date-time', description: 'When the ranking was computed.' },
  },
});

export const TokenDetailResponse = component('TokenDetail', {
  type: 'object',
  required: ['asset', 'stats', 'primaryPoolId', 'description', 'url', 'pools', 'adaUsd'],
  properties: {
    asset: AssetRef,
    stats: TokenStats,
    primaryPoolId: { type: ['integer', 'null'] },
    description: { type: ['string', 'null'] },
    url: { type: ['string', 'null'] },
    pools: { type: 'array', items: Pool },
    adaUsd,
  },
});

export const CandlesResponse = component('CandleSeries', {
  type: 'object',
  required: ['poolId', 'interval', 'quote', 'candles'],
  properties: {
    poolId: { type: 'integer', minimum: 0, description: '0 when pool=all.' },
    interval: { type: 'string' },
    quote: { type: 'string' },
    candles: {
      type: 'array',
      items: Candle,
      description: 'Oldest first; at most 1000: the latest 1000 of the range (see truncated).',
    },
    truncated: {
      type: 'boolean',
      description:
        'true when the range holds more than 1000 candles: the oldest were left out; read them with to = nextTo (and the same from).',
    },
    nextTo: {
      type: ['integer', 'null'],
      description:
        'Unix seconds: pass as `to` (same interval, pool, quote and from) for the older candles of the range; null when none were left out.',
    },
    coverageFrom: {
      type: ['string', 'null'],
      format: 'date-time',
      description:
        'Start of the indexed history (time of the first indexed block) when the answer’s range reaches before it: nothing older is known to this deployment. holders: the start of the token’s daily points when that is later (they begin on the first indexed day it was held). Null when the range is fully covered.',
    },
  },
});

export const TradesResponse = component('TradePage', {
  type: 'object',
  required: ['items', 'nextCursor'],
  properties: {
    items: { type: 'array', items: Trade, description: 'Newest first.' },
    nextCursor: { type: ['string', 'null'], description: 'Pass as cursor for the next page; null at the end.' },
    coverageFrom: {
      type: ['string', 'null'],
      format: 'date-time',
      description:
        'Start of the indexed history (time of the first indexed block) on the last page (nextCursor null): nothing older is known to this deployment. Null when the range is fully covered.',
    },
  },
});

export const SeriesResponse = component('Series', {
  type: 'object',
  required: ['metric', 'points'],
  properties: {
    metric: { type: 'string' },
    points: {
      type: 'array',
      items: SeriesPoint,
      description:
        'Daily points, oldest first. liquidity: both sides of the token’s ADA pools at the end of each day, whole ADA. holders: the token’s holder count at the end of each day (after its last block that changed it), from the first day it was held, up to the indexed tip’s day.',
    },
    coverageFrom: {
      type: ['string', 'null'],
      format: 'date-time',
      description:
        'Start of the indexed history (time of the first indexed block) when the answer’s range reaches before it: nothing older is known to this deployment. holders: the start of the token’s daily points when that is later (they begin on the first indexed day it was held). Null when the range is fully covered.',
    },
  },
});

export const PoolListResponse = component('PoolList', {
  type: 'object',
  required: ['items', 'page', 'pageSize', 'total'],
  properties: {
    items: { type: 'array', items: Pool },
    page: { type: 'integer', minimum: 1 },
    pageSize: { type: 'integer', minimum: 1 },
    total: { type: 'integer', minimum: 0 },
    updatedAt: {
      type: ['string', 'null'],
      format: 'date-time',
      description:
        'When the ranking was computed: the pools are shown as they were then (reserves, price, TVL, 24 h figures), the state the page was ordered by; GET /pools/{id} has a pool as of asOf.',
    },
  },
});

export const MarketOverviewResponse = component('MarketOverview', {
  type: 'object',
  required: ['adaUsd', 'volume24h', 'tvlAda', 'txns24h', 'dexes', 'topGainers', 'topLosers', 'trending', 'sync'],
  properties: {
    adaUsd,
    volume24h: adaNum('Traded volume over all pools, last 24 h.'),
    tvlAda: adaNum('Value locked in all pools.'),
    txns24h: int,
    dexes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['dex', 'volume24h', 'tvlAda', 'pools', 'txns24h', 'batcherFee', 'batcherFeeLovelace'],
        properties: {
          dex: { type: 'string' },
          volume24h: adaNum('Last 24 h.'),
          tvlAda: adaNum('Value locked.'),
          pools: int,
          txns24h: int,
          batcherFee: adaOrNull(
            'The DEX’s typical batcher fee per order: the median fee its batchers took for the orders they executed in the last 24 h (a trade’s batcherFee), paid besides the amount swapped; null when no such order’s fee could be told.',
          ),
          batcherFeeLovelace: {
            type: ['string', 'null'],
            pattern: '^[0-9]+$',
            description: 'batcherFee exact, in lovelace.',
          },
        },
      },
    },
    topGainers: {
      type: 'array',
      items: TokenRow,
      description: 'Highest 24 h change among tokens traded in 24 h with liquidity ≥ 10,000 ADA.',
    },
    topLosers: { type: 'array', items: TokenRow, description: 'Lowest 24 h change, same rule.' },
    trending: { type: 'array', items: TokenRow, description: 'Most traded by 24 h volume.' },
    sync: {
      type: 'object',
      required: ['lagSeconds', 'height', 'tipHeight'],
      properties: {
        lagSeconds: {
          type: ['integer', 'null'],
          description:
            'Seconds the index is behind the chain: the larger of (chain tip slot − indexed slot) and (now − time of ' +
            'the indexed tip block). At the tip it is the age of the newest block, so it is above 0 when height ' +
            'equals tipHeight.',
        },
        height: { type: ['integer', 'null'], description: 'Indexed tip height.' },
        tipHeight: { type: ['integer', 'null'], description: 'Chain tip height last reported by the source.' },
      },
    },
    updatedAt: { type: ['string', 'null'], format: 'date-time' },
  },
});

const Hop = component('SwapHop', {
  type: 'object',
  required: ['poolId', 'dex', 'tokenIn', 'tokenOut', 'amountIn', 'amountOut', 'priceImpact', 'feePercent', 'exact'],
  properties: {
    poolId: { type: 'integer', minimum: 0 },
    dex: { type: 'string' },
    tokenIn: { type: 'string', description: 'Unit.' },
    tokenOut: { type: 'string', description: 'Unit.' },
    amountIn: { type: 'number', description: 'Decimal-adjusted.' },
    amountOut: { type: 'number', description: 'Decimal-adjusted.' },
    amountInRaw: { type: 'string', pattern: '^[0-9]+$' },
    amountOutRaw: { type: 'string', pattern: '^[0-9]+$' },
    priceImpact: { type: 'number', description: 'Fraction of the output lost to the pool’s curve (fee excluded).' },
    feePercent: { type: ['number', 'null'], description: 'The pool’s swap fee in this direction, percent.' },
    exact: {
      type: 'boolean',
      description: 'true when computed with the DEX’s exact integer formula on the decoded pool state.',
    },
  },
});

const Route = component('SwapRoute', {
  type: 'object',
  required: ['hops', 'amountOut', 'effectivePrice', 'priceImpact', 'fees', 'batcherFee', 'batcherFeeLovelace'],
  properties: {
    hops: { type: 'array', items: Hop },
    amountOut: { type: 'number', description: 'Decimal-adjusted output of the whole route.' },
    amountOutRaw: { type: 'string', pattern: '^[0-9]+$' },
    effectivePrice: {
      type: 'number',
      description:
        'Effective price of the route: tokenOut received per tokenIn paid, amountOut / amountIn (both decimal-adjusted), pool fees and price impact included.',
    },
    priceImpact: { type: 'number', description: 'Combined price impact of the hops, fraction.' },
    fees: {
      type: 'array',
      description: 'Pool fee charged by each hop, in that hop’s input token.',
      items: {
        type: 'object',
        required: ['poolId', 'unit', 'amount', 'percent'],
        properties: {
          poolId: { type: 'integer' },
          unit: { type: 'string' },
          amount: { type: 'number', description: 'Decimal-adjusted.' },
          amountRaw: {
            type: 'string',
            pattern: '^[0-9]+$',
            description: 'Exact, base units of the input token (input × fee numerator / denominator, rounded down).',
          },
          percent: { type: ['number', 'null'] },
        },
      },
    },
    batcherFee: adaOrNull(
      'What the route’s orders are likely to cost besides the amount: one order per hop, each at its DEX’s typical batcher fee (the median its batchers took over the last 24 h, as in the market overview’s dexes); the order’s deposit comes back. Not in amountOut or effectivePrice. null when a hop’s DEX has no such figure.',
    ),
    batcherFeeLovelace: {
      type: ['string', 'null'],
      pattern: '^[0-9]+$',
      description: 'batcherFee exact, in lovelace.',
    },
  },
});

export const SwapQuoteResponse = component('SwapQuote', {
  type: 'object',
  required: ['tokenIn', 'tokenOut', 'amountIn', 'routes', 'best', 'adaUsd', 'link'],
  properties: {
    tokenIn: AssetRef,
    tokenOut: AssetRef,
    amountIn: { type: 'number', description: 'Decimal-adjusted (the amount actually quoted, in base units).' },
    routes: {
      type: 'array',
      items: Route,
      description:
        'Direct pools and two-hop routes via ADA, best first: by what the trader is left with, amountOut valued at tokenOut’s market price less the route’s batcherFee (a pool paying a little more can cost more to use on a small amount); a route whose batcherFee is null (its DEX’s fee unknown) is ranked at the highest fee known among the pools quoted. By amountOut when tokenOut has no price or no fee is known.',
    },
    best: nullable(Route),
    note: {
      type: ['string', 'null'],
      description:
        'Why best is null (no pool of the pair, only pools whose stable or weighted curve is not quoted or that hold no liquidity, or an amount too small to buy one base unit of tokenOut), or which pools of the pair the routes leave out, or that even the best route’s batcher fees are worth more than what it yields (a dust amount), or which pools on the routes do not trade yet and when they open (a SundaeSwap V3 pool before its market_open: an order waits until then); null otherwise.',
    },
    adaUsd,
    link: {
      type: 'string',
      description: 'The service’s swap page (/swap) with the quote’s parameters: review and sign there.',
    },
  },
});

export const LogoResponse: JsonSchema = {
  type: 'string',
  format: 'binary',
  description: 'The image (PNG, JPEG, GIF, WebP or SVG) with its content type, Cache-Control for a week and an ETag.',
};
