/**
 * Schemas of the wallet resource (spec: Wallet; wallet portfolio and wallet PnL are objects with loosely specified
 * fields: the names the spec gives are here, plus the exact amounts and the figures the PnL derives from).
 * Units: whole ADA, decimal-adjusted token amounts, USD; raw integers as strings beside them.
 */
import { component, type JsonSchema, type ObjectSchema } from '../schema.js';
import { BECH32_ADDRESS_PATTERN, handleSchemas } from './common.js';
import { HandleRef } from './handles.js';
import { AssetRef, TradesResponse } from './market.js';

const num: JsonSchema = { type: 'number' };
const numOrNull: JsonSchema = { type: ['number', 'null'] };
const int: JsonSchema = { type: 'integer', minimum: 0 };
const raw: JsonSchema = { type: 'string', pattern: '^-?[0-9]+$' };
const iso: JsonSchema = { type: ['string', 'null'], format: 'date-time' };
const d = (schema: JsonSchema, description: string): JsonSchema => ({ ...schema, description });

export const WalletParams: ObjectSchema = {
  type: 'object',
  required: ['address'],
  properties: {
    address: {
      type: 'string',
      anyOf: [
        {
          minLength: 8,
          maxLength: 1023,
          // The checksum must hold too; capitals are refused by the read, saying so.
          pattern: `^${BECH32_ADDRESS_PATTERN}$`,
          'x-expected': 'a Bech32 address (addr1… or stake1…) or an ADA Handle ($name or sub@root)',
        },
        ...handleSchemas(false),
      ],
      'x-expected': 'a Bech32 address (addr1… or stake1…) or an ADA Handle ($name or sub@root)',
      description:
        'Payment address (addr1…) or stake address (stake1…: all its addresses combined), or an ADA Handle ($name, URL-encoded %24name, or sub@root): the answer is then for the stake key of the address holding it (that address when it has no stake key) and carries `handle`: { handle, name, kind, address, stakeAddress, script }, the handle and where it resolved.',
    },
  },
};

export const WalletPosition = component('WalletPosition', {
  type: 'object',
  required: ['asset', 'balance', 'balanceRaw', 'priceAda', 'valueAda', 'valueUsd', 'change24h', 'lp', 'nft'],
  properties: {
    asset: AssetRef,
    balance: d(num, 'Decimal-adjusted quantity held.'),
    balanceRaw: d(raw, 'Exact on-chain quantity.'),
    priceAda: d(
      numOrNull,
      'Current price, ADA per whole token; null without market data. An LP token without a market of its own: its share of the pool’s TVL (tvlAda × 1 / LP tokens issued), what a withdrawal pays out valued as the pool’s TVL values both sides. An NFT: its collection’s floor (nft.floor); null when the collection has no active listing.',
    ),
    valueAda: d(
      numOrNull,
      'balance × priceAda, whole ADA. An LP token: only the issued ones held (balanceRaw − lp.unissuedRaw) × priceAda.',
    ),
    valueUsd: d(numOrNull, 'valueAda × ADA/USD.'),
    change24h: d(numOrNull, 'Change of the ADA price over 24 h, fraction (0.05 = +5 %); null without market data.'),
    lp: {
      type: ['object', 'null'],
      description: 'The DEX pool this token is the LP token of (valued by pool share); null for other tokens.',
      required: ['poolId', 'dex', 'share', 'unissuedRaw'],
      properties: {
        poolId: d(int, 'The pool (GET /pools/{id}).'),
        dex: d({ type: 'string' }, 'The pool’s DEX.'),
        share: d(
          numOrNull,
          'Fraction of the pool held: (balanceRaw − unissuedRaw) / LP tokens issued; null when none are issued.',
        ),
        unissuedRaw: d(
          raw,
          'LP tokens of the pool’s own output, when this wallet holds it (a DEX’s pool address or stake key): its supply not issued yet (Minswap V2, WingRiders V2 and Splash pools keep it), part of balanceRaw but no claim on the pool; "0" otherwise.',
        ),
      },
    },
    nft: {
      type: ['object', 'null'],
      description:
        'The NFT this token is (CIP-25 or CIP-68, as GET /nft/collections/{policy} counts it), valued at its collection’s floor; null for other tokens.',
      required: ['name', 'image', 'collection', 'floor', 'floorLovelace'],
      properties: {
        name: d({ type: 'string' }, 'Its name in its mint metadata (CIP-25) or reference datum (CIP-68).'),
        image: d({ type: ['string', 'null'] }, 'Image URI as written on chain (ipfs://…, ar://…, data:…).'),
        collection: {
          type: 'object',
          required: ['policyId', 'name'],
          properties: {
            policyId: d({ type: 'string' }, 'The collection (GET /nft/collections/{policy}).'),
            name: d({ type: ['string', 'null'] }, 'The collection’s name.'),
          },
        },
        floor: d(
          numOrNull,
          'The collection’s floor: its cheapest active single-NFT listing, whole ADA; null without one (the position is then unpriced).',
        ),
        floorLovelace: d({ type: ['string', 'null'], pattern: '^[0-9]+$' }, 'floor in lovelace, exact.'),
      },
    },
  },
});

export const WalletResponse = component('WalletPortfolio', {
  type: 'object',
  required: [
    'address',
    'stakeAddress',
    'addresses',
    'complete',
    'adaBalance',
    'adaBalanceLovelace',
    'rewards',
    'rewardsLovelace',
    'rewardsAsOf',
    'delegation',
    'positions',
    'totals',
    'adaUsd',
    'asOf',
    'handles',
    'handlesTotal',
  ],
  properties: {
    address: d({ type: 'string' }, 'The address asked for.'),
    stakeAddress: d({ type: ['string', 'null'] }, 'Stake key of the wallet; null for an address without one.'),
    addresses: d(
      int,
      'Payment addresses combined (all of a stake key; 1 for an addr1…); 0 for a registered stake key no address carries (e.g. a stake pool’s reward account), which holds only its rewards.',
    ),
    complete: d(
      { type: 'boolean' },
      'true when every address of the stake key is summed (the sync keeps the totals, so always true).',
    ),
    adaBalance: d(num, 'Whole ADA in the UTxO set.'),
    adaBalanceLovelace: d(raw, 'Exact ADA balance in lovelace.'),
    rewards: d(
      numOrNull,
      'Unwithdrawn staking rewards of the stake key, whole ADA (outside the UTxO set, so not in adaBalance; counted in totals.ada). As the ledger reported them at rewardsAsOf, less the withdrawals indexed since. null for a payment address (ask for its stakeAddress: the rewards belong to the key), a deregistered key, or when the ledger has not been read.',
    ),
    rewardsLovelace: d({ type: ['string', 'null'], pattern: '^[0-9]+$' }, 'rewards in lovelace, exact.'),
    rewardsAsOf: d(iso, 'When the reward balance was read from the ledger (rewards are credited at epoch boundaries).'),
    delegation: d(
      {
        type: ['object', 'null'],
        required: ['poolId', 'drep'],
        properties: {
          poolId: d(
            { type: ['string', 'null'] },
            'pool1… id the key delegates its stake to (GET /staking/pools/{id}).',
          ),
          drep: d(
            { type: ['string', 'null'] },
            'DRep the key delegates its vote to, as GET /governance/dreps/{id} takes it (drep1…, drep_always_abstain, drep_always_no_confidence).',
          ),
        },
      },
      'Where a registered stake key delegates, as the ledger holds it at the indexed tip (a retired pool or DRep holds none). null for a payment address (ask for its stakeAddress) or an unregistered key.',
    ),
    positions: {
      type: 'array',
      items: WalletPosition,
      description: 'Every token held, by valueAda descending, unpriced last.',
    },
    totals: {
      type: 'object',
      required: ['ada', 'usd', 'tokensAda', 'nftsAda', 'nfts', 'rewardsAda', 'unpriced'],
      properties: {
        ada: d(num, 'adaBalance + rewardsAda + tokensAda, whole ADA.'),
        usd: d(numOrNull, 'ada × ADA/USD; null without a rate.'),
        tokensAda: d(num, 'Sum of the priced positions (NFTs at their floor included), whole ADA.'),
        nftsAda: d(num, 'Of tokensAda, the NFTs at their collections’ floors, whole ADA.'),
        nfts: d(int, 'Positions that are NFTs.'),
        rewardsAda: d(num, 'rewards, whole ADA (0 when null).'),
        unpriced: d(int, 'Positions without a price (not in the totals).'),
      },
    },
    adaUsd: d(numOrNull, 'USD per ADA now.'),
    asOf: d(iso, 'Time of the indexed tip block the balances reflect.'),
    handles: {
      type: 'array',
      items: { type: 'string' },
      maxItems: 100,
      description:
        'ADA Handles the wallet holds ($name, $sub@root), by name; the first 100 (handlesTotal says how many).',
    },
    handlesTotal: d(int, 'How many ADA Handles the wallet holds (handles lists the first 100 by name).'),
    handle: HandleRef,
  },
});

/** GET /wallet/{address}/trades: a page of trades, with `handle` when the wallet was asked for by handle. */
export const WalletTradesResponse = {
  ...TradesResponse,
  type: 'object',
  properties: { ...TradesResponse.properties, handle: HandleRef },
} satisfies ObjectSchema;

const tokenPnlProps: Record<string, JsonSchema> = {
  asset: AssetRef,
  decimals: int,
  buys: int,
  sells: int,
  volumeAda: d(num, 'ADA side of the token’s trades, whole ADA.'),
  boughtAmount: num,
  soldAmount: num,
  remainingAmount: d(num, 'Held in open lots (decimal-adjusted): at most what the wallet holds now.'),
  remainingRaw: raw,
  notHeldAmount: d(
    num,
    'Bought (open lots, oldest first) but no longer in the wallet, with no counted sale: sent away, swapped for another token, put into a pool or an open order. Not in costBasisAda or unrealisedAda.',
  ),
  notHeldRaw: raw,
  notHeldCostAda: d(num, 'ADA cost of the notHeldAmount, whole ADA.'),
  costBasisAda: d(num, 'Cost of the open lots, whole ADA.'),
  costBasisUsd: numOrNull,
  avgCostAda: d(numOrNull, 'ADA per whole token of the open lots.'),
  realisedAda: num,
  realisedUsd: numOrNull,
  priceAda: numOrNull,
  valueAda: numOrNull,
  unrealisedAda: numOrNull,
  unrealisedUsd: numOrNull,
  pnlAda: d(num, 'realisedAda + unrealisedAda (0 when unknown).'),
  unmatchedSellAmount: d(num, 'Sold beyond known buys (not in realisedAda).'),
  unmatchedSellRaw: raw,
  unmatchedProceedsAda: num,
  closedPositions: int,
  wins: int,
};

export const TokenPnlSchema = component('TokenPnl', {
  type: 'object',
  required: Object.keys(tokenPnlProps),
  properties: tokenPnlProps,
});

export const WalletPnlResponse = component('WalletPnl', {
  type: 'object',
  required: [
    'address',
    'maker',
    'coverageFrom',
    'tradeCount',
    'volumeAda',
    'realisedAda',
    'realisedUsd',
    'unrealisedAda',
    'unrealisedUsd',
    'winRatePercent',
    'tokens',
    'topTokens',
    'series',
    'computedAt',
    'precomputed',
  ],
  properties: {
    address: d({ type: 'string' }, 'The address asked for.'),
    computedAt: d(
      { type: 'string', format: 'date-time' },
      'Time of the indexed tip block the lots reflect; they are valued at the current prices and ADA/USD.',
    ),
    precomputed: d(
      { type: 'boolean' },
      "Always true: the FIFO lots are kept by the sync as the wallet's trades land (exact under rollbacks); an answer values them at the current prices.",
    ),
    maker: d({ type: 'string' }, 'The key the trades are recorded under (stake address, else the address).'),
    coverageFrom: d(iso, 'Time of the first indexed block: only trades since then are counted.'),
    tradeCount: d(int, 'Trades with ADA on one side counted.'),
    buyCount: int,
    sellCount: int,
    volumeAda: d(num, 'ADA side of all counted trades, whole ADA.'),
    realisedAda: num,
    realisedUsd: d(numOrNull, 'At each trade’s ADA/USD; null when a rate is unknown.'),
    unrealisedAda: d(num, 'Open lots at the current price minus their cost (priced tokens only).'),
    unrealisedUsd: numOrNull,
    costBasisAda: num,
    costBasisUsd: numOrNull,
    wins: int,
    closedPositions: int,
    winRatePercent: d(numOrNull, 'Sells with positive realised PnL / sells that matched a buy, percent.'),
    unmatchedProceedsAda: num,
    unmatchedSells: int,
    notHeldCostAda: d(
      num,
      'Cost of bought tokens the wallet no longer holds that no counted sale accounts for (tokens[].notHeldAmount), whole ADA; not in costBasisAda or unrealisedAda.',
    ),
    unpricedUnits: { type: 'array', items: { type: 'string' } },
    adaUsd: numOrNull,
    skippedTrades: {
      type: 'object',
      description: 'Trades left out: not complete, no ADA side (token/token), zero amount.',
      properties: { notComplete: int, noAdaSide: int, zeroAmount: int },
    },
    tokens: { type: 'array', items: TokenPnlSchema, description: 'Per-token PnL, by |pnlAda| descending.' },
    topTokens: {
      type: 'array',
      items: {
        type: 'object',
        required: ['asset', 'pnlAda', 'realisedAda', 'unrealisedAda'],
        properties: { asset: AssetRef, pnlAda: num, realisedAda: num, unrealisedAda: numOrNull },
      },
    },
    series: {
      type: 'array',
      description: 'Cumulative realised PnL in ADA (time: unix seconds).',
      items: {
        type: 'object',
        required: ['time', 'value'],
        // The description on the field itself: it is what makes the tool server present it as an ISO time.
        properties: { time: d(int, 'Time of the trade that realised it, unix seconds.'), value: num },
      },
    },
    handle: HandleRef,
  },
});
