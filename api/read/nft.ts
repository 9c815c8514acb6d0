/**
 * Read functions of nft (REST, MCP and Markdown present their results).
 */
import { openCursor, sealCursor } from './cursor.js';
import { firstIndexedBlock } from '../../mongo/collections/chain.js';
import { storeClock, type SlotClock } from '../../mongo/collections/clock.js';
import { decodeAssetName } from '../../cardano/units.js';
import { lovelaceToAdaOrNull } from '../../cardano/units.js';
import {
  activeListingsByPrice,
  anyListingOfPolicy,
  collectionsRanked,
  countActiveListings,
  countCollectionStats,
  salesNewestFirst,
  withPaidPrices,
  NFT_STATS_SORTS,
  NFT_ASSETS,
  NFT_COLLECTIONS,
  NFT_COLLECTION_STATS,
  PRICE_KEY_DIGITS,
  UNKNOWN_PRICE_KEY,
  type NftAssetDoc,
  type NftCollectionStatsDoc,
  type NftListingDoc,
  type NftSaleDoc,
} from '../../mongo/collections/nft.js';
import type { Store } from '../../mongo/store.js';
import { BadRequestError, NotFoundError, NotReadyError } from '../errors.js';
import type { nftRoutes } from '../routes/nft.js';
import type { ReadDeps, RouteInput } from './deps.js';
import { notIndexedYet, withAsOf, withCoverage } from './freshness.js';
import { jobLastSuccessAt } from '../../mongo/collections/sync-state.js';
const RECENT_SALES = 10;

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

/**
 * A cursor holds `key|txId#index`, the sort key and id of the previous page's last item, sealed to the list it came
 * from (api/read/cursor.ts): which list of which policy, and the listings' order, so a cursor of one collection (or
 * of its other list or order) is refused on another instead of paging it from a foreign position.
 */
const salesList = (policy: string) => `sales/${policy}`;
const listingsList = (policy: string, sort: string) => `listings/${policy}/${sort}`;
const encodeCursor = (list: string, key: string | number, id: string) => sealCursor(list, `${key}|${id}`);
/** The cursors the sales and listings routes hand out (exported for tests that seed a store by hand). */
export const nftCursor = {
  sales: (policy: string, key: string, id: string) => encodeCursor(salesList(policy), key, id),
  listings: (policy: string, sort: string, key: string, id: string) =>
    encodeCursor(listingsList(policy, sort), key, id),
};
/** Sort key of a sales cursor: the sale's slot. */
const isSaleKey = (key: string) => /^[0-9]{1,15}\.[0-9]{1,6}$/.test(key);
/** Sort key of a listings cursor: the listing's priceKey (zero-padded lovelace, or the unknown-price key). */
const isListingKey = (key: string) => key === UNKNOWN_PRICE_KEY || new RegExp(`^[0-9]{${PRICE_KEY_DIGITS}}$`).test(key);
/** The previous page's last item; 400 unless the cursor is one this very list (`list`) handed out. */
function decodeCursor(cursor: string, list: string, validKey: (key: string) => boolean): { key: string; id: string } {
  const m = /^([^|]+)\|([0-9a-f]{64}#[0-9]{1,10})$/.exec(openCursor(list, cursor));
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

const ada = lovelaceToAdaOrNull;

async function presentSales(store: Store, clock: SlotClock, stored: readonly NftSaleDoc[]) {
  const [ref, sales] = await Promise.all([
    assetRefs(
      store,
      stored.map((s) => s.unit),
    ),
    withPaidPrices(store, stored),
  ]);
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

/** 404 unless the policy minted NFTs in the indexed range or was traded on a marketplace. */
async function knownPolicy(deps: ReadDeps, policy: string) {
  const { store } = deps;
  const [c, listing] = await Promise.all([
    store.collection(NFT_COLLECTIONS).get(policy),
    anyListingOfPolicy(store, policy),
  ]);
  // Its mints may be in blocks not indexed yet (a first sync, a resync): not "no such collection" then.
  if (!c && !listing) throw new NotFoundError(await notIndexedYet(deps, `NFT collection ${policy}`));
}

async function listNftCollectionsAnswer(deps: ReadDeps, input: RouteInput<typeof nftRoutes.list>) {
  const { store } = deps;
  const stats = store.collection(NFT_COLLECTION_STATS);
  const sort = NFT_STATS_SORTS[input.sort];
  let docs: NftCollectionStatsDoc[];
  let total: number;
  const offset = (input.page - 1) * input.pageSize;
  if (input.q) {
    const q = input.q.trim().toLowerCase();
    const all: NftCollectionStatsDoc[] = [];
    for await (const d of stats.scan()) if (d.nameLower.includes(q) || d.policyId.startsWith(q)) all.push(d);
    // Same order as the index scan: key descending (null last), then _id descending.
    all.sort((a, b) => {
      const ka = sort.key(a) ?? -Infinity;
      const kb = sort.key(b) ?? -Infinity;
      return kb - ka || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0);
    });
    total = all.length;
    docs = all.slice(offset, offset + input.pageSize);
  } else {
    [docs, total] = await Promise.all([
      collectionsRanked(store, input.sort, { offset, limit: input.pageSize }),
      countCollectionStats(store),
    ]);
  }
  const first = docs[0] ?? (await collectionsRanked(store, 'volume24h', { offset: 0, limit: 1 }))[0];
  return {
    items: docs.map(presentRow),
    page: input.page,
    pageSize: input.pageSize,
    total,
    // A run that found no collection writes no document: its time then says the empty list is computed (null only
    // before the NFT recompute's first run, which the tool server reports as not ready).
    computedAt: first?.computedAt ?? (await jobLastSuccessAt(store, 'recomputeNft')),
    adaUsd: first?.adaUsd ?? null,
  };
}

async function getNftCollectionAnswer(deps: ReadDeps, input: RouteInput<typeof nftRoutes.detail>) {
  const { store } = deps;
  const policy = input.policy.toLowerCase();
  const stats = store.collection(NFT_COLLECTION_STATS);
  const c = await store.collection(NFT_COLLECTIONS).get(policy);
  if (!c) throw new NotFoundError(await notIndexedYet(deps, `NFT collection ${policy}`));
  const [{ clock }, cached, recent] = await Promise.all([
    storeClock(store),
    stats.get(policy),
    salesNewestFirst(store, policy, RECENT_SALES),
  ]);
  const s = cached;
  if (!s)
    throw new NotReadyError(
      `NFT collection ${policy} is newer than the last NFT recompute (it runs every 60 s); retry shortly`,
      60,
    );
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
}

async function getNftCollectionSalesAnswer(deps: ReadDeps, input: RouteInput<typeof nftRoutes.sales>) {
  const { store } = deps;
  const policy = input.policy.toLowerCase();
  const list = salesList(policy);
  const after = input.cursor ? decodeCursor(input.cursor, list, isSaleKey) : null;
  await knownPolicy(deps, policy);
  const [{ clock }, docs] = await Promise.all([
    storeClock(store),
    salesNewestFirst(store, policy, input.limit + 1, after ? saleAfter(after) : undefined),
  ]);
  const page = docs.slice(0, input.limit);
  const last = page[page.length - 1];
  const nextCursor =
    docs.length > input.limit && last ? encodeCursor(list, `${last.slot}.${last.txIndex}`, last._id) : null;
  // The last page reaches the start of the indexed history: older sales, if any, were never indexed.
  const first = nextCursor === null ? await firstIndexedBlock(store) : null;
  return { items: await presentSales(store, clock, page), nextCursor, coverageFrom: first?.time ?? null };
}

/** A sales cursor's key is the sale's chain position `slot.txIndex`. */
function saleAfter(c: { key: string; id: string }) {
  const [slot, txIndex] = c.key.split('.').map(Number) as [number, number];
  return { id: c.id, slot, txIndex };
}

/**
 * Active listings in one answer by default (the spec's listings route takes no parameters: its answer is the active
 * listings), up to LISTINGS_MAX; `limit` and `cursor` page it when asked for (the tool server does).
 */
export const LISTINGS_MAX = 10_000;

async function getNftCollectionListingsAnswer(deps: ReadDeps, input: RouteInput<typeof nftRoutes.listings>) {
  const { store } = deps;
  const policy = input.policy.toLowerCase();
  const list = listingsList(policy, input.sort);
  const after = input.cursor ? decodeCursor(input.cursor, list, isListingKey) : null;
  const limit = input.limit ?? LISTINGS_MAX;
  await knownPolicy(deps, policy);
  const [{ clock }, docs, total] = await Promise.all([
    storeClock(store),
    activeListingsByPrice(store, policy, {
      descending: input.sort === 'price_desc',
      limit: limit + 1,
      ...(after ? { after: { id: after.id, priceKey: after.key } } : {}),
    }),
    countActiveListings(store, policy),
  ]);
  const page = docs.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: await presentListings(store, clock, page),
    total,
    nextCursor: docs.length > limit && last ? encodeCursor(list, last.priceKey, last._id) : null,
  };
}

// Both carry all-time figures (volumeAll, salesAll, supply, owners) of the indexed history: they say where it starts.
export const listNftCollections = withAsOf(withCoverage(listNftCollectionsAnswer));
export const getNftCollection = withAsOf(withCoverage(getNftCollectionAnswer));
export const getNftCollectionSales = withAsOf(getNftCollectionSalesAnswer);
export const getNftCollectionListings = withAsOf(getNftCollectionListingsAnswer);
