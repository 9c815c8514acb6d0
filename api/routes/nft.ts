/**
 * NFT collections (spec: NFT). The list pages the `nft_collection_stats` documents of the `nft` recompute (every
 * minute; `computedAt` says when) by index; the detail joins the live collection document (supply, owners, mints)
 * with those stats; sales and listings are read live from the documents the NFT sync extension keeps, so they are as
 * fresh as the indexed tip. Prices are whole ADA with the exact lovelace beside them.
 */
import Router from '@koa/router';
import type { ApiDeps } from '../deps.js';
import { defineRoute, register, type AnyRouteSpec, type CommonQuery, type RestModule } from '../route.js';
import {
  NftCollectionDetailResponse,
  NftCollectionListResponse,
  NftCollectionsQuery,
  NftListingsQuery,
  NftListingsResponse,
  NftSalesQuery,
  NftSalesResponse,
  PolicyParams,
  type NftSort,
} from '../schemas/nft.js';
import { listNftCollections, getNftCollection, getNftCollectionSales, getNftCollectionListings } from '../read/nft.js';

const TAGS = ['NFT'];

export const nftRoutes = {
  list: defineRoute<Record<string, never>, CommonQuery & { page: number; pageSize: number; sort: NftSort; q?: string }>(
    {
      operationId: 'listNftCollections',
      path: '/nft/collections',
      summary: 'NFT collections ranked by volume, floor, listings, sales, owners or supply',
      description:
        "Collections = minting policies with CIP-25 (label 721) or CIP-68 (222) NFT mints (quantity 1; fungible tokens are never collections, nor are the DEXes' pool and LP tokens or ADA Handles). Market figures come from jpg.store v3/v2 listings and sales on chain. Stats are recomputed every minute (computedAt).",
      tags: TAGS,
      query: NftCollectionsQuery,
      response: NftCollectionListResponse,
    },
  ),
  detail: defineRoute<{ policy: string }>({
    operationId: 'getNftCollection',
    path: '/nft/collections/{policy}',
    summary: 'One NFT collection: metadata, supply, owners and market stats with the latest sales',
    tags: TAGS,
    params: PolicyParams,
    response: NftCollectionDetailResponse,
  }),
  sales: defineRoute<{ policy: string }, CommonQuery & { limit: number; cursor?: string }>({
    operationId: 'getNftCollectionSales',
    path: '/nft/collections/{policy}/sales',
    summary: 'Marketplace sales of a collection, newest first',
    tags: TAGS,
    params: PolicyParams,
    query: NftSalesQuery,
    response: NftSalesResponse,
  }),
  listings: defineRoute<
    { policy: string },
    CommonQuery & { limit?: number; cursor?: string; sort: 'price_asc' | 'price_desc' }
  >({
    operationId: 'getNftCollectionListings',
    path: '/nft/collections/{policy}/listings',
    summary: 'Active marketplace listings of a collection, cheapest first',
    description:
      'Every active listing in one answer (up to 10,000; nextCursor continues beyond that). limit and cursor are optional: with limit, the answer is a page of that many and nextCursor pages on.',
    tags: TAGS,
    params: PolicyParams,
    query: NftListingsQuery,
    response: NftListingsResponse,
  }),
} satisfies Record<string, AnyRouteSpec>;

export function nftRouter(deps: ApiDeps): Router {
  const router = new Router();

  register(router, nftRoutes.list, (_ctx, { params, query }) => listNftCollections(deps, { ...params, ...query }));

  register(router, nftRoutes.detail, (_ctx, { params, query }) => getNftCollection(deps, { ...params, ...query }));

  register(router, nftRoutes.sales, (_ctx, { params, query }) => getNftCollectionSales(deps, { ...params, ...query }));

  register(router, nftRoutes.listings, (_ctx, { params, query }) =>
    getNftCollectionListings(deps, { ...params, ...query }),
  );

  return router;
}

export const nftModule: RestModule = { routes: Object.values(nftRoutes), router: nftRouter };
