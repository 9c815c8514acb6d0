/**
 * NFT collections (spec: NFT). The list pages the `nft_collection_stats` documents of the `nft` recompute (every
 * minute; `computedAt` says when) by index; the detail joins the live collection document (supply, owners, mints)
 * with those stats; sales and listings are read live from the documents the NFT sync extension keeps, so they are as
 * fresh as the indexed tip. Prices are whole ADA with the exact lovelace beside them.
 */
import Router from '@koa/router';
import { computeCollectionStats, nftAdaUsd, NFT_WINDOWS } from '../../activities/nft/stats.js';
import { storeClock, type SlotClock } from '../../mongo/collections/clock.js';
import { decodeAssetName } from '../../cardano/units.js';
import { lovelaceToAda } from '../../cardano/units.js';
import {
  NFT_ASSETS,
  NFT_COLLECTIONS,
  NFT_COLLECTION_STATS,
  NFT_LISTINGS,
  NFT_SALES,
  PRICE_KEY_DIGITS,
  UNKNOWN_PRICE_KEY,
  type NftAssetDoc,
  type NftCollectionStatsDoc,
  type NftListingDoc,
  type NftSaleDoc,
} from '../../mongo/collections/nft.js';
import type { Store } from '../../mongo/store.js';
import type { ApiDeps } from '../deps.js';
import { BadRequestError, NotFoundError } from '../errors.js';
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

const TAGS = ['NFT'];
const RECENT_SALES = 10;

export const nftRoutes = {
  list: defineRoute<Record<string, never>, CommonQuery & { page: number; pageSize: number; sort: NftSort; q?: string }>(
    {
      operationId: 'listNftCollections',
      path: '/nft/collections',
      summary: 'NFT collections ranked by volume, floor, listings, sales, owners or supply',
      description:
        'Collections = minting policies with CIP-25 (label 721) or CIP-68 (222) NFT mints (quantity 1; fungible tokens are never collections). Market figures come from jpg.store v3/v2 listings and sales on chain. Stats are recomputed every minute (computedAt).',
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
    CommonQuery & { limit: number; cursor?: string; sort: 'price_asc' | 'price_desc' }
  >({
    operationId: 'getNftCollectionListings',
    path: '/nft/collections/{policy}/listings',
    summary: 'Active marketplace listings of a collection, cheapest first',
    tags: TAGS,
    params: PolicyParams,
    query: NftListingsQuery,
    response: NftListingsResponse,
  }),
} satisfies Record<string, AnyRouteSpec>;

/** Index of each sort (all ranked largest first). */
const SORT_INDEX: Record<NftSort, { index: string; key: (d: NftCollectionStatsDoc) => number | null }> = {
  volume24h: { index: 'byVolume24h', key: (d) => d.volume24h },
  volume7d: { index: 'byVolume7d', key: (d) => d.volume7d },
  volumeAll: { index: 'byVolumeAll', key: (d) => d.volumeAll },
  floor: { index: 'byFloor', key: (d) => d.rankFloor },
  listings: { index: 'byListings', key: (d) => d.listings },
  sales24h: { index: 'bySales24h', key: (d) => d.sales24h },
  owners: { index: 'byOwners', key: (d) => d.owners },
  supply: { index: 'bySupply', key: (d) => d.supply },
};

function presentRow(d: NftCollectionStatsDoc) {
  return {
    policyId: d.policyId,
    name: d.name,
    image: d.image,
    standards: d.standards,
    floor: d.floor,
    floorLovelace: d.floorLovelace,
    floorUsd: d.floorUsd,
    floorChange24h: d.floorChange24h,
    volume24h: d.volume24h,
    volume7d: d.volume7d,
    volume30d: d.volume30d,
    volumeAll: d.volumeAll,
    volume24hUsd: d.volume24hUsd,
    sales24h: d.sales24h,
    sales7d: d.sales7d,
    sales30d: d.sales30d,
    salesAll: d.salesAll,
    listings: d.listings,
    lastSaleTime: d.lastSaleTime,
    lastSalePrice: d.lastSalePrice,
    supply: d.supply,
    owners: d.owners,
    firstMintTime: d.firstMintTime,
  };
}

const encodeCursor = (key: string | number, id: string) => Buffer.from(`${key}|${id}`).toString('base64url');
/** Sort key of a sales cursor: the sale's slot. */
const isSaleKey = (key: string) => /^[0-9]{1,15}$/.test(key);
/** Sort key of a listings cursor: the listing's priceKey (zero-padded lovelace, or the unknown-price key). */
const isListingKey = (key: string) => key === UNKNOWN_PRICE_KEY || new RegExp(`^[0-9]{${PRICE_KEY_DIGITS}}$`).test(key);
/** `key|txId#index` of the previous page's last item; 400 unless it is a cursor of this list. */
function decodeCursor(cursor: string, validKey: (key: string) => boolean): { key: string; id: string } {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^([^|]+)\|([0-9a-f]{64}#[0-9]{1,10})$/.exec(text);
  if (!m || !validKey(m[1] as string))
    throw new BadRequestError(
      'invalid parameter cursor: not a cursor of this list (pass the nextCursor of the previous page)',
    );
  return { key: m[1] as string, id: m[2] as string };
}

async function assetRefs(store: Store, units: Iterable<string | null>) {
  const ids = [...new Set([...units].filter((u): u is string => u !== null))];
  const docs = await store.collection(NFT_ASSETS).getMany(ids);
  const byUnit = new Map<string, NftAssetDoc>();
  for (const d of docs) if (d) byUnit.set(d.unit, d);
  return (unit: string | null) => {
    if (unit === null) return null;
    const d = byUnit.get(unit);
    const nameHex = unit.slice(56);
    return {
      unit,
      policyId: unit.slice(0, 56),
      nameHex,
      name: d?.name ?? decodeAssetName(nameHex),
      image: d?.image ?? null,
    };
  };
}

const ada = (lovelace: string | null) => (lovelace === null ? null : lovelaceToAda(lovelace));

async function presentSales(store: Store, clock: SlotClock, sales: readonly NftSaleDoc[]) {
  const ref = await assetRefs(
    store,
    sales.map((s) => s.unit),
  );
  return sales.map((s) => ({
    id: s.listingRef,
    txHash: s.txId,
    time: clock.iso(s.slot),
    slot: s.slot,
    price: ada(s.priceLovelace),
    priceLovelace: s.priceLovelace,
    marketplace: s.marketplace,
    version: s.version,
    asset: ref(s.unit),
    units: s.units,
    buyer: s.buyer,
    seller: s.seller,
  }));
}

async function presentListings(store: Store, clock: SlotClock, listings: readonly NftListingDoc[]) {
  const ref = await assetRefs(
    store,
    listings.map((l) => l.unit),
  );
  return listings.map((l) => ({
    id: l._id,
    asset: ref(l.unit),
    units: l.units,
    bundle: l.bundle,
    price: ada(l.priceLovelace),
    priceLovelace: l.priceLovelace,
    marketplace: l.marketplace,
    version: l.version,
    seller: l.seller,
    listedAt: l.listedSlot === null ? null : clock.iso(l.listedSlot),
    listedSlot: l.listedSlot,
    txHash: l.listedTx,
  }));
}

export function nftRouter(deps: ApiDeps): Router {
  const { store } = deps;
  const stats = store.collection(NFT_COLLECTION_STATS);
  const router = new Router();

  /** 404 unless the policy minted NFTs in the indexed range or was traded on a marketplace. */
  const knownPolicy = async (policy: string) => {
    const [c, listing] = await Promise.all([
      store.collection(NFT_COLLECTIONS).get(policy),
      store.collection(NFT_LISTINGS).find('byPolicyListed', { eq: [policy], limit: 1 }),
    ]);
    if (!c && listing.length === 0) throw new NotFoundError(`NFT collection ${policy} not found`);
  };

  register(router, nftRoutes.list, async (_ctx, { query }) => {
    const sort = SORT_INDEX[query.sort];
    let docs: NftCollectionStatsDoc[];
    let total: number;
    const offset = (query.page - 1) * query.pageSize;
    if (query.q) {
      const q = query.q.toLowerCase();
      const all: NftCollectionStatsDoc[] = [];
      for await (const d of stats.scan()) if (d.nameLower.includes(q) || d.policyId.startsWith(q)) all.push(d);
      // Same order as the index scan: key descending (null last), then _id descending.
      all.sort((a, b) => {
        const ka = sort.key(a) ?? -Infinity;
        const kb = sort.key(b) ?? -Infinity;
        return kb - ka || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0);
      });
      total = all.length;
      docs = all.slice(offset, offset + query.pageSize);
    } else {
      [docs, total] = await Promise.all([
        stats.find(sort.index, { reverse: true, offset, limit: query.pageSize }),
        stats.count(sort.index),
      ]);
    }
    const first = docs[0] ?? (await stats.find('byVolume24h', { limit: 1 }))[0];
    return {
      items: docs.map(presentRow),
      page: query.page,
      pageSize: query.pageSize,
      total,
      computedAt: first?.computedAt ?? null,
      adaUsd: first?.adaUsd ?? null,
    };
  });

  register(router, nftRoutes.detail, async (_ctx, { params }) => {
    const policy = params.policy.toLowerCase();
    const c = await store.collection(NFT_COLLECTIONS).get(policy);
    if (!c) throw new NotFoundError(`NFT collection ${policy} not found`);
    const [{ clock, checkpoint }, cached, recent] = await Promise.all([
      storeClock(store),
      stats.get(policy),
      store.collection(NFT_SALES).find('byPolicy', { eq: [policy], reverse: true, limit: RECENT_SALES }),
    ]);
    let s = cached;
    if (!s) {
      // Minted after the last recompute: the same stats, computed now from its listings and sales.
      const tipSlot = checkpoint?.slot ?? 0;
      const listings = store.collection(NFT_LISTINGS);
      const [active, listedBy24hAgo, sales, adaUsd] = await Promise.all([
        listings.find('byPolicyStatus', { eq: [policy, 'active'] }),
        listings.find('byPolicyListed', { eq: [policy], lte: tipSlot - NFT_WINDOWS['24h'] }),
        store.collection(NFT_SALES).find('byPolicy', { eq: [policy] }),
        nftAdaUsd(store),
      ]);
      s = computeCollectionStats(
        { collection: c, active, listedBy24hAgo, sales },
        { tipSlot, clock, adaUsd, computedAt: new Date((deps.now ?? Date.now)()).toISOString() },
      );
    }
    return {
      ...presentRow(s),
      // The live collection document is fresher than the stats for what the sync maintains.
      name: c.name,
      image: c.image,
      standards: c.standards,
      supply: c.supply,
      owners: c.owners,
      minted: c.minted,
      burned: c.burned,
      firstMintTime: clock.iso(c.firstMintSlot),
      lastMintTime: clock.iso(c.lastMintSlot),
      recentSales: await presentSales(store, clock, recent),
      computedAt: s.computedAt,
      adaUsd: s.adaUsd,
    };
  });

  register(router, nftRoutes.sales, async (_ctx, { params, query }) => {
    const policy = params.policy.toLowerCase();
    const after = query.cursor ? decodeCursor(query.cursor, isSaleKey) : null;
    await knownPolicy(policy);
    const [{ clock }, docs] = await Promise.all([
      storeClock(store),
      store.collection(NFT_SALES).find('byPolicy', {
        eq: [policy],
        reverse: true,
        limit: query.limit + 1,
        ...(after ? { after: { _id: after.id, policyId: policy, slot: Number(after.key) } } : {}),
      }),
    ]);
    const page = docs.slice(0, query.limit);
    const last = page[page.length - 1];
    return {
      items: await presentSales(store, clock, page),
      nextCursor: docs.length > query.limit && last ? encodeCursor(last.slot, last._id) : null,
    };
  });

  register(router, nftRoutes.listings, async (_ctx, { params, query }) => {
    const policy = params.policy.toLowerCase();
    const after = query.cursor ? decodeCursor(query.cursor, isListingKey) : null;
    await knownPolicy(policy);
    const listings = store.collection(NFT_LISTINGS);
    const [{ clock }, docs, total] = await Promise.all([
      storeClock(store),
      listings.find('byPolicyStatus', {
        eq: [policy, 'active'],
        reverse: query.sort === 'price_desc',
        limit: query.limit + 1,
        ...(after ? { after: { _id: after.id, policyId: policy, status: 'active', priceKey: after.key } } : {}),
      }),
      listings.count('byPolicyStatus', { eq: [policy, 'active'] }),
    ]);
    const page = docs.slice(0, query.limit);
    const last = page[page.length - 1];
    return {
      items: await presentListings(store, clock, page),
      total,
      nextCursor: docs.length > query.limit && last ? encodeCursor(last.priceKey, last._id) : null,
    };
  });

  return router;
}

export const nftModule: RestModule = { routes: Object.values(nftRoutes), router: nftRouter };
