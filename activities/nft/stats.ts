/**
 * The NFT collection stats recompute (`nft`, every 60 s, temporal/schedules.ts): one `nft_collection_stats`
 * document per collection, so GET /nft/collections pages with an index scan.
 *
 * Reads nft_collections, nft_listings, nft_sales (written by the NFT sync extension), checkpoints and blocks (the
 * indexed tip: the windows end at the tip's time, so stats follow chain time), market_overview (ADA/USD) and, before
 * the first market recompute, pools. Writes nft_collection_stats wholesale (a collection rolled away disappears).
 *
 * Floor = the cheapest active single-NFT listing with a known price (bundles and unknown prices are left out, as
 * the reference advises); the floor 24 h ago is the same minimum over the listings that were active then
 * (listed at or before that slot, not closed by it). Volume = Σ sale prices in the window, each what its buyer paid:
 * the listing's payouts plus the sale's marketplace fee output (`salePaidLovelace`).
 */
import { lovelaceToAda, lovelaceToAdaOrNull } from '../../cardano/units.js';
import { MARKET_OVERVIEW, MARKET_OVERVIEW_ID } from '../../mongo/collections/market-read.js';
import {
  NFT_COLLECTIONS,
  NFT_COLLECTION_STATS,
  NFT_LISTINGS,
  NFT_SALES,
  type NftCollectionDoc,
  type NftCollectionStatsDoc,
  type NftListingDoc,
  type NftSaleDoc,
  withPaidPrices,
} from '../../mongo/collections/nft.js';
import { replaceAll } from '../../mongo/replace-all.js';
import type { Store } from '../../mongo/store.js';
import { currentAdaUsd } from '../../mongo/collections/ada-usd.js';
import { storeClock, type SlotClock } from '../../mongo/collections/clock.js';

/** Sales windows, seconds. */
export const NFT_WINDOWS = { '24h': 86_400, '7d': 604_800, '30d': 2_592_000 } as const;

export interface CollectionInputs {
  collection: NftCollectionDoc;
  /** Active listings, cheapest first (unknown prices last). */
  active: readonly NftListingDoc[];
  /** Listings created at or before `slot24hAgo` (active or closed since). */
  listedBy24hAgo: readonly NftListingDoc[];
  /** Every sale of the policy, priced at what its buyer paid (`withPaidPrices`). */
  sales: readonly NftSaleDoc[];
}

export interface StatsContext {
  /** Indexed tip slot: the windows end here. */
  tipSlot: number;
  clock: SlotClock;
  adaUsd: number | null;
  computedAt: string;
}

/** Cheapest single-NFT listing with a known price, lovelace. */
export function floorOf(listings: Iterable<NftListingDoc>, activeAt?: number): bigint | null {
  let floor: bigint | null = null;
  for (const l of listings) {
    if (l.bundle || l.priceLovelace === null) continue;
    if (activeAt !== undefined) {
      if (l.listedSlot === null || l.listedSlot > activeAt) continue;
      if (l.closedSlot !== null && l.closedSlot <= activeAt) continue;
    } else if (l.status !== 'active') continue;
    const p = BigInt(l.priceLovelace);
    if (floor === null || p < floor) floor = p;
  }
  return floor;
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** Pure: the stats document of one collection. */
export function computeCollectionStats(input: CollectionInputs, ctx: StatsContext): NftCollectionStatsDoc {
  const c = input.collection;
  const slot24 = ctx.tipSlot - NFT_WINDOWS['24h'];
  const floor = floorOf(input.active);
  const floorBefore = floorOf(input.listedBy24hAgo, slot24);
  const sum = (fromSlot: number) => {
    let lovelace = 0n;
    let count = 0;
    for (const s of input.sales)
      if (s.slot > fromSlot) {
        count++;
        lovelace += BigInt(s.priceLovelace ?? '0');
      }
    return { ada: lovelaceToAda(lovelace), count };
  };
  const w24 = sum(slot24);
  const w7 = sum(ctx.tipSlot - NFT_WINDOWS['7d']);
  const w30 = sum(ctx.tipSlot - NFT_WINDOWS['30d']);
  const all = sum(-1);
  const last = input.sales.reduce<NftSaleDoc | null>((a, s) => (a === null || s.slot >= a.slot ? s : a), null);
  const floorAda = lovelaceToAdaOrNull(floor);
  const floor24 = lovelaceToAdaOrNull(floorBefore);
  return {
    _id: c.policyId,
    policyId: c.policyId,
    name: c.name,
    nameLower: c.name.toLowerCase(),
    image: c.image,
    standards: c.standards,
    floorLovelace: floor === null ? null : String(floor),
    floor: floorAda,
    floorUsd: floorAda === null || ctx.adaUsd === null ? null : round6(floorAda * ctx.adaUsd),
    floor24hAgo: floor24,
    floorChange24h: floorAda === null || floor24 === null || floor24 === 0 ? null : (floorAda - floor24) / floor24,
    volume24h: w24.ada,
    volume7d: w7.ada,
    volume30d: w30.ada,
    volumeAll: all.ada,
    volume24hUsd: ctx.adaUsd === null ? null : round6(w24.ada * ctx.adaUsd),
    sales24h: w24.count,
    sales7d: w7.count,
    sales30d: w30.count,
    salesAll: all.count,
    listings: input.active.length,
    supply: c.supply,
    owners: c.owners,
    lastSaleTime: last ? ctx.clock.iso(last.slot) : null,
    lastSalePrice: last?.priceLovelace ? lovelaceToAda(last.priceLovelace) : null,
    firstMintTime: ctx.clock.iso(c.firstMintSlot),
    adaUsd: ctx.adaUsd,
    slot: ctx.tipSlot,
    computedAt: ctx.computedAt,
    rankFloor: floorAda,
  };
}

/** ADA/USD: the market overview's (the market recompute's pool median), else the pools' median directly. */
export async function nftAdaUsd(store: Store): Promise<number | null> {
  const overview = await store.collection(MARKET_OVERVIEW).get(MARKET_OVERVIEW_ID);
  return overview && overview.adaUsd !== null ? overview.adaUsd : currentAdaUsd(store);
}

export async function loadCollectionInputs(
  store: Store,
  collection: NftCollectionDoc,
  tipSlot: number,
): Promise<CollectionInputs> {
  const listings = store.collection(NFT_LISTINGS);
  const p = collection.policyId;
  const [active, listedBy24hAgo, sales] = await Promise.all([
    listings.find('byPolicyStatus', { eq: [p, 'active'] }),
    listings.find('byPolicyListed', { eq: [p], lte: tipSlot - NFT_WINDOWS['24h'] }),
    store.collection(NFT_SALES).find('byPolicy', { eq: [p] }),
  ]);
  return { collection, active, listedBy24hAgo, sales: await withPaidPrices(store, sales) };
}

export interface NftDeps {
  store: Store;
  /** Clock (unix ms) for computedAt; tests pin it. */
  now?: () => number;
}

export function createNftActivities(deps: NftDeps) {
  const { store } = deps;
  const now = deps.now ?? Date.now;
  return {
    async recomputeNftStats(): Promise<{ collections: number; slot: number | null }> {
      const { clock, checkpoint } = await storeClock(store);
      const tipSlot = checkpoint?.slot ?? 0;
      const ctx: StatsContext = {
        tipSlot,
        clock,
        adaUsd: await nftAdaUsd(store),
        computedAt: new Date(now()).toISOString(),
      };
      const docs: NftCollectionStatsDoc[] = [];
      for await (const c of store.collection(NFT_COLLECTIONS).scan())
        docs.push(computeCollectionStats(await loadCollectionInputs(store, c, tipSlot), ctx));
      await replaceAll(store, NFT_COLLECTION_STATS, docs);
      return { collections: docs.length, slot: checkpoint?.slot ?? null };
    },
  };
}
export type NftActivities = ReturnType<typeof createNftActivities>;
