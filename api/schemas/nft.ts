/**
 * NFT request and response schemas (spec: NFT). ADA amounts are whole ADA with the exact lovelace string beside them
 * (`floor` + `floorLovelace`, `price` + `priceLovelace`); changes are plain fractions; times are ISO UTC.
 */
import { component, type JsonSchema, type ObjectSchema } from '../schema.js';
import { Ada, CursorQueryProperties, IndexedFrom, Lovelace, PageQueryProperties, searchText } from './common.js';

export const NFT_SORTS = [
  'volume24h',
  'volume7d',
  'volumeAll',
  'floor',
  'listings',
  'sales24h',
  'owners',
  'supply',
] as const;
export type NftSort = (typeof NFT_SORTS)[number];

export const PolicyParams: ObjectSchema = {
  type: 'object',
  required: ['policy'],
  properties: {
    policy: {
      type: 'string',
      pattern: '^[0-9a-fA-F]{56}$',
      'x-expected': 'a policy id (56 hex characters)',
      description: 'Minting policy id of the collection (56 hex characters).',
    },
  },
};

export const NftCollectionsQuery: ObjectSchema = {
  type: 'object',
  properties: {
    ...PageQueryProperties,
    sort: {
      type: 'string',
      enum: [...NFT_SORTS],
      default: 'volume24h',
      description: 'Ranking, largest first (floor: highest floor first; collections without a floor last).',
    },
    q: searchText(100, 'Search: part of the collection name (case-insensitive) or the start of its policy id.'),
  },
};

export const NftSalesQuery: ObjectSchema = { type: 'object', properties: { ...CursorQueryProperties } };

/** Listings: `limit` has no default (the answer holds every active listing unless a page size is asked for). */
const { default: _listingsDefault, ...listingsLimit } = CursorQueryProperties.limit;
export const NftListingsQuery: ObjectSchema = {
  type: 'object',
  properties: {
    ...CursorQueryProperties,
    limit: {
      ...listingsLimit,
      description: 'Optional page size (1-200). Without it the answer holds every active listing (up to 10,000).',
    },
    sort: {
      type: 'string',
      enum: ['price_asc', 'price_desc'],
      default: 'price_asc',
      description:
        'price_asc: cheapest first; price_desc: dearest first; in either, listings with an unknown price last.',
    },
  },
};

const nullableAda = (description: string): JsonSchema => ({ type: ['number', 'null'], description });
const nullableLovelace: JsonSchema = { ...Lovelace, type: ['string', 'null'] };
const isoTime = (description: string): JsonSchema => ({ type: 'string', format: 'date-time', description });
const nullableTime = (description: string): JsonSchema => ({
  type: ['string', 'null'],
  format: 'date-time',
  description,
});
const count = (description: string): JsonSchema => ({ type: 'integer', minimum: 0, description });

export const NftAssetRef = component('NftAssetRef', {
  type: 'object',
  required: ['unit', 'policyId', 'nameHex', 'name', 'image'],
  properties: {
    unit: { type: 'string', description: 'Policy id + asset name hex.' },
    policyId: { type: 'string', pattern: '^[0-9a-f]{56}$' },
    nameHex: { type: 'string' },
    name: {
      type: ['string', 'null'],
      description: 'Metadata name (CIP-25 / CIP-68); null when the mint was not indexed and the name is not text.',
    },
    image: { type: ['string', 'null'], description: 'Image URI as written on chain (ipfs://…, ar://…, data:…).' },
  },
});

const marketStats: Record<string, JsonSchema> = {
  floor: nullableAda('Cheapest active single-NFT listing, whole ADA; null without one.'),
  floorLovelace: nullableLovelace,
  floorUsd: nullableAda('Floor in USD (ADA/USD from the on-chain stablecoin pools); null when unknown.'),
  floorChange24h: {
    type: ['number', 'null'],
    description: 'Floor change against the floor of the listings active 24 h earlier, fraction; null when unknown.',
  },
  volume24h: { ...Ada, description: 'Σ sale prices in the last 24 h, whole ADA.' },
  volume7d: { ...Ada, description: 'Σ sale prices in the last 7 days, whole ADA.' },
  volume30d: { ...Ada, description: 'Σ sale prices in the last 30 days, whole ADA.' },
  volumeAll: { ...Ada, description: 'Σ sale prices since indexing began, whole ADA.' },
  volume24hUsd: nullableAda('24 h volume in USD; null when ADA/USD is unknown.'),
  sales24h: count('Sales in the last 24 h.'),
  sales7d: count('Sales in the last 7 days.'),
  sales30d: count('Sales in the last 30 days.'),
  salesAll: count('Sales since indexing began.'),
  listings: count('Active marketplace listings (bundles included).'),
  lastSaleTime: nullableTime('Time of the latest sale.'),
  lastSalePrice: nullableAda('Price of the latest sale, whole ADA.'),
};

const rowProps: Record<string, JsonSchema> = {
  policyId: { type: 'string', pattern: '^[0-9a-f]{56}$' },
  name: { type: 'string', description: 'Collection name: the first indexed NFT name without its number.' },
  image: { type: ['string', 'null'], description: 'Image URI of the first indexed NFT.' },
  standards: { type: 'array', items: { type: 'string', enum: ['cip25', 'cip68'] } },
  ...marketStats,
  supply: count('NFTs in existence (minted − burned) among the indexed mints.'),
  owners: count('Distinct holders (stake key, else address; a listed NFT counts for its seller).'),
  firstMintTime: isoTime('First indexed NFT mint of the policy.'),
};

export const NftCollectionRow = component('NftCollectionRow', {
  type: 'object',
  required: Object.keys(rowProps),
  properties: rowProps,
});

export const NftCollectionListResponse = component('NftCollectionList', {
  type: 'object',
  required: ['items', 'page', 'pageSize', 'total', 'computedAt', 'adaUsd'],
  properties: {
    items: { type: 'array', items: NftCollectionRow },
    page: { type: 'integer', minimum: 1 },
    pageSize: { type: 'integer', minimum: 1 },
    total: count('Collections matching the query.'),
    computedAt: nullableTime('When the stats were computed (every minute); null before the first run.'),
    adaUsd: nullableAda('USD per ADA used for the USD figures.'),
    coverageFrom: IndexedFrom,
  },
});

export const NftSale = component('NftSale', {
  type: 'object',
  required: [
    'id',
    'txHash',
    'time',
    'slot',
    'price',
    'priceLovelace',
    'marketplace',
    'version',
    'asset',
    'units',
    'buyer',
    'seller',
  ],
  properties: {
    id: { type: 'string', description: 'The sold listing (ask UTxO) `txHash#index`.' },
    txHash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    time: isoTime('Block time of the sale.'),
    slot: { type: 'integer', minimum: 0 },
    price: nullableAda(
      "What the buyer paid: the listing's payouts plus the sale's marketplace fee output, whole ADA; null when unknown.",
    ),
    priceLovelace: nullableLovelace,
    marketplace: { type: 'string', enum: ['jpg.store'] },
    version: { type: 'string', enum: ['v3', 'v2'], description: 'Marketplace contract version.' },
    asset: { anyOf: [NftAssetRef, { type: 'null' }] },
    units: { type: 'array', items: { type: 'string' }, description: 'Every asset sold (more than one: a bundle).' },
    buyer: { type: ['string', 'null'], description: 'Address that received the NFT.' },
    seller: { type: ['string', 'null'], description: "The seller's payout address." },
  },
});

export const NftSalesResponse = component('NftSales', {
  type: 'object',
  required: ['items', 'nextCursor'],
  properties: {
    items: { type: 'array', items: NftSale },
    nextCursor: { type: ['string', 'null'] },
    coverageFrom: {
      ...IndexedFrom,
      description:
        'On the last page (nextCursor null): the time of the first indexed block; older sales, if any, were never indexed. Null on other pages.',
    },
  },
});

export const NftListing = component('NftListing', {
  type: 'object',
  required: [
    'id',
    'asset',
    'units',
    'bundle',
    'price',
    'priceLovelace',
    'marketplace',
    'version',
    'seller',
    'listedAt',
    'listedSlot',
    'txHash',
  ],
  properties: {
    id: { type: 'string', description: 'The ask UTxO `txHash#index`.' },
    asset: { anyOf: [NftAssetRef, { type: 'null' }] },
    units: { type: 'array', items: { type: 'string' } },
    bundle: { type: 'boolean', description: 'More than one NFT listed together, priced as a whole.' },
    price: nullableAda(
      'List price a buyer pays (payouts + marketplace fee, the fee at least 1 ADA), whole ADA; null when unknown.',
    ),
    priceLovelace: nullableLovelace,
    marketplace: { type: 'string', enum: ['jpg.store'] },
    version: { type: 'string', enum: ['v3', 'v2'] },
    seller: { type: ['string', 'null'], description: "The seller's payout address." },
    listedAt: nullableTime('When the listing was created (or last re-priced); null when before the indexed range.'),
    listedSlot: { type: ['integer', 'null'], minimum: 0 },
    txHash: { type: ['string', 'null'], description: 'The listing transaction.' },
  },
});

export const NftListingsResponse = component('NftListings', {
  type: 'object',
  required: ['items', 'total', 'nextCursor'],
  properties: {
    items: { type: 'array', items: NftListing },
    total: count('Active listings of the collection.'),
    nextCursor: { type: ['string', 'null'] },
  },
});

export const NftCollectionDetailResponse = component('NftCollectionDetail', {
  type: 'object',
  required: [...Object.keys(rowProps), 'minted', 'burned', 'lastMintTime', 'recentSales', 'computedAt', 'adaUsd'],
  properties: {
    ...rowProps,
    minted: count('NFT mints indexed.'),
    burned: count('NFT burns indexed.'),
    lastMintTime: isoTime('Latest indexed NFT mint.'),
    recentSales: { type: 'array', items: NftSale, description: 'The 10 latest sales, newest first.' },
    computedAt: { type: 'string', format: 'date-time', description: 'When the market stats were computed.' },
    adaUsd: nullableAda('USD per ADA used for the USD figures.'),
    coverageFrom: IndexedFrom,
  },
});
