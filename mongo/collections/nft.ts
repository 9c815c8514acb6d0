/**
 * NFT collections and the jpg.store marketplace.
 *
 * Written by the NFT sync extension (activities/nft/extension.ts) inside the sync slice, so a RollBackward restores
 * them exactly from the undo journal: `nft_collections` (one per minting policy), `nft_assets` (one per NFT),
 * `nft_owners` (one per (policy, holder)), `nft_listings` (one per jpg.store ask UTxO ever created or spent) and
 * `nft_sales`. Written by the `nft` recompute (activities/nft/stats.ts, never rolled back, simply recomputed):
 * `nft_collection_stats`, what GET /nft/collections pages through.
 *
 * Amounts are lovelace integer strings (exact); slots are absolute slots; `*Key` fields are zero-padded strings
 * whose code-point order is numeric order (index keys hold one type per field).
 */
import { defineCollection, type Store } from '../store.js';

/** Width of lovelace sort keys: 2^64 lovelace has 20 digits. */
export const PRICE_KEY_DIGITS = 20;
/** A lovelace amount as a string whose code-point order is numeric order. */
export const priceKey = (lovelace: string | bigint): string => String(lovelace).padStart(PRICE_KEY_DIGITS, '0');
/** Sort key of a listing whose price is unknown (its datum was never seen): after every priced listing. */
export const UNKNOWN_PRICE_KEY = '~';

/** One NFT collection = one minting policy that minted at least one NFT in the indexed range; `_id` = policy id. */
export interface NftCollectionDoc {
  _id: string;
  policyId: string;
  /** The first indexed NFT's metadata name without its trailing number ("Dev Punks #12" → "Dev Punks"). */
  name: string;
  /** Image URI of the first indexed NFT (ipfs://…, ar://…, data:…), as written on chain. */
  image: string | null;
  /** Metadata standards seen among its NFTs. */
  standards: ('cip25' | 'cip68')[];
  /** NFTs in existence (quantity exactly 1, not fungible): minted − burned. */
  supply: number;
  /** NFT mints and burns seen (a burn and re-mint counts twice). */
  minted: number;
  burned: number;
  /** Distinct holders of its NFTs (= documents of nft_owners for the policy). */
  owners: number;
  firstMintSlot: number;
  firstMintTx: string;
  lastMintSlot: number;
  /** Slot of the last change. */
  slot: number;
}
export const NFT_COLLECTIONS = defineCollection<NftCollectionDoc>({ name: 'nft_collections' });

/** One NFT (or an asset once minted as one); `_id` = unit (policy id + asset name hex). */
export interface NftAssetDoc {
  _id: string;
  unit: string;
  policyId: string;
  assetNameHex: string;
  name: string;
  image: string | null;
  mediaType: string | null;
  description: string | null;
  /**
   * Name/value pairs in metadata order. A list, not a sub-document: attribute names are chain data (e.g. `core.og`
   * from a nested `core` map) and must never become field names.
   */
  attributes: { name: string; value: string | number }[];
  standard: 'cip25' | 'cip68';
  /** CIP-25 `version` or the CIP-68 datum version. */
  metadataVersion: number;
  /** Net minted quantity (integer string): "1" while it exists, "0" once burned. */
  quantity: string;
  /** Minted beyond quantity 1 at some point: a fungible token, not counted in its collection. */
  fungible: boolean;
  /** Address of the output holding it now; null once burned (or before it is first seen in an output). */
  address: string | null;
  /**
   * Its owner for holder counts: the stake address of the holding address (else the address); while it is listed on
   * jpg.store, the seller's (the lister's payout address), as marketplaces show a listed NFT as the seller's.
   */
  holder: string | null;
  /** The active jpg.store listing holding it (`txId#index`), else null. */
  listing: string | null;
  mintSlot: number;
  mintTx: string;
  /** Slot of the tx whose metadata is current (CIP-25 mint, or the CIP-68 reference output's tx). */
  metadataSlot: number;
  slot: number;
}
export const NFT_ASSETS = defineCollection<NftAssetDoc>({
  name: 'nft_assets',
  indexes: [{ name: 'byPolicy', fields: ['policyId', 'unit'] }],
});

/** How many NFTs of a policy one holder has; `_id` = `${policyId}|${holder}`. Removed at 0. */
export interface NftOwnerDoc {
  _id: string;
  policyId: string;
  holder: string;
  count: number;
  slot: number;
}
export const NFT_OWNERS = defineCollection<NftOwnerDoc>({ name: 'nft_owners' });
export const nftOwnerId = (policyId: string, holder: string) => `${policyId}|${holder}`;

export type NftListingStatus = 'active' | 'sold' | 'cancelled' | 'updated';

/**
 * One jpg.store ask UTxO; `_id` = its output reference `txId#index`. Created `active` by the listing tx; a sale
 * makes it `sold`, a WithdrawOrUpdate `cancelled`, or `updated` when the same tx re-lists the NFT (new document,
 * linked both ways). A spent ask UTxO created before the indexed range gets a closed document with `listedSlot` null.
 */
export interface NftListingDoc {
  _id: string;
  /** Policy of the listed NFT (first token of the UTxO); null for an ask UTxO holding no token. */
  policyId: string | null;
  unit: string | null;
  /** Every token of the UTxO: more than one = a bundle, priced as a whole and kept out of floors. */
  units: string[];
  bundle: boolean;
  marketplace: 'jpg.store';
  version: 'v3' | 'v2';
  /** What a buyer pays (v3: payouts + marketplace fee, at least 1 ADA), lovelace; null when the datum was never seen. */
  priceLovelace: string | null;
  /** priceKey(priceLovelace), UNKNOWN_PRICE_KEY when unknown: cheapest-first scans. */
  priceKey: string;
  /** The lister's payout address (paying the datum owner's key), else null. */
  seller: string | null;
  /** Lister's payment key hash (datum owner). */
  owner: string | null;
  payouts: { address: string; lovelace: string }[];
  listedSlot: number | null;
  listedTx: string | null;
  status: NftListingStatus;
  closedSlot: number | null;
  closedTx: string | null;
  /** Update: the listing this one replaced / the listing that replaced this one. */
  replaces: string | null;
  relistedAs: string | null;
  slot: number;
}
export const NFT_LISTINGS = defineCollection<NftListingDoc>({
  name: 'nft_listings',
  indexes: [
    { name: 'byPolicyStatus', fields: ['policyId', 'status', 'priceKey'] },
    { name: 'byPolicyListed', fields: ['policyId', 'listedSlot'] },
  ],
});

/** One jpg.store sale (an ask UTxO spent with the buy redeemer); `_id` = the spent listing's `txId#index`. */
export interface NftSaleDoc {
  _id: string;
  policyId: string | null;
  unit: string | null;
  units: string[];
  marketplace: 'jpg.store';
  version: 'v3' | 'v2';
  /** The listing price the buyer paid, lovelace; null when the listing's datum was never seen. */
  priceLovelace: string | null;
  /** v3: lovelace of the tagged marketplace fee output, when present. */
  feePaidLovelace: string | null;
  /** Address of the first output receiving the NFT. */
  buyer: string | null;
  seller: string | null;
  txId: string;
  slot: number;
  height: number;
  /** Position of the sale's transaction in its block: with `slot`, the chain order of the newest-first list. */
  txIndex: number;
  listingRef: string;
}
export const NFT_SALES = defineCollection<NftSaleDoc>({
  name: 'nft_sales',
  indexes: [{ name: 'byPolicy', fields: ['policyId', 'slot', 'txIndex'] }],
});

/** Market stats of one collection, rewritten by the `nft` recompute; `_id` = policy id. ADA amounts whole ADA. */
export interface NftCollectionStatsDoc {
  _id: string;
  policyId: string;
  name: string;
  /** Lowercase name, for search. */
  nameLower: string;
  image: string | null;
  standards: ('cip25' | 'cip68')[];
  /** Cheapest active single-NFT listing with a known price; null without one. */
  floorLovelace: string | null;
  floor: number | null;
  floorUsd: number | null;
  /** Floor 24 h ago (from the listings active then), for floorChange24h. */
  floor24hAgo: number | null;
  /** (floor − floor 24 h ago) / floor 24 h ago, fraction; null when either is unknown. */
  floorChange24h: number | null;
  volume24h: number;
  volume7d: number;
  volume30d: number;
  volumeAll: number;
  volume24hUsd: number | null;
  sales24h: number;
  sales7d: number;
  sales30d: number;
  salesAll: number;
  /** Active listings (bundles included). */
  listings: number;
  supply: number;
  owners: number;
  /** Last sale: time and price (ADA), null without one. */
  lastSaleTime: string | null;
  lastSalePrice: number | null;
  firstMintTime: string;
  adaUsd: number | null;
  /** Indexed tip slot and time the stats were computed at. */
  slot: number;
  computedAt: string;
  /** Sort keys (numbers; floor null sorts last in descending scans). */
  rankFloor: number | null;
}
export const NFT_COLLECTION_STATS = defineCollection<NftCollectionStatsDoc>({
  name: 'nft_collection_stats',
  indexes: [
    { name: 'byVolume24h', fields: ['volume24h'] },
    { name: 'byVolume7d', fields: ['volume7d'] },
    { name: 'byVolumeAll', fields: ['volumeAll'] },
    { name: 'byFloor', fields: ['rankFloor'] },
    { name: 'byListings', fields: ['listings'] },
    { name: 'bySales24h', fields: ['sales24h'] },
    { name: 'byOwners', fields: ['owners'] },
    { name: 'bySupply', fields: ['supply'] },
  ],
});

/** Written by the sync extension (rolled back exactly). */
export const NFT_SYNC_COLLECTIONS = [NFT_COLLECTIONS, NFT_ASSETS, NFT_OWNERS, NFT_LISTINGS, NFT_SALES];
export const NFT_COLLECTIONS_ALL = [...NFT_SYNC_COLLECTIONS, NFT_COLLECTION_STATS];

// ---- named reads ----------------------------------------------------------------------------------------------

/** Index and value of each collection ranking (all largest first; a null value ranks last). */
export const NFT_STATS_SORTS = {
  volume24h: { index: 'byVolume24h', key: (d: NftCollectionStatsDoc) => d.volume24h },
  volume7d: { index: 'byVolume7d', key: (d: NftCollectionStatsDoc) => d.volume7d },
  volumeAll: { index: 'byVolumeAll', key: (d: NftCollectionStatsDoc) => d.volumeAll },
  floor: { index: 'byFloor', key: (d: NftCollectionStatsDoc) => d.rankFloor },
  listings: { index: 'byListings', key: (d: NftCollectionStatsDoc) => d.listings },
  sales24h: { index: 'bySales24h', key: (d: NftCollectionStatsDoc) => d.sales24h },
  owners: { index: 'byOwners', key: (d: NftCollectionStatsDoc) => d.owners },
  supply: { index: 'bySupply', key: (d: NftCollectionStatsDoc) => d.supply },
} as const satisfies Record<string, { index: string; key: (d: NftCollectionStatsDoc) => number | null }>;
export type NftStatsSort = keyof typeof NFT_STATS_SORTS;

/** One page of collection stats in a ranking's order. */
export const collectionsRanked = (
  store: Store,
  sort: NftStatsSort,
  page: { offset: number; limit: number },
): Promise<NftCollectionStatsDoc[]> =>
  store.collection(NFT_COLLECTION_STATS).find(NFT_STATS_SORTS[sort].index, { reverse: true, ...page });
export const countCollectionStats = (store: Store): Promise<number> =>
  store.collection(NFT_COLLECTION_STATS).count('byVolume24h');

/** Whether any listing (active or not) of the policy was ever indexed. */
export const anyListingOfPolicy = async (store: Store, policyId: string): Promise<boolean> =>
  (await store.collection(NFT_LISTINGS).find('byPolicyListed', { eq: [policyId], limit: 1 })).length > 0;

/**
 * A collection's sales in chain order (slot, then the transaction's position in the block), newest first, strictly
 * after the sale `after` (a cursor) when given.
 */
export const salesNewestFirst = (
  store: Store,
  policyId: string,
  limit: number,
  after?: { id: string; slot: number; txIndex: number },
): Promise<NftSaleDoc[]> =>
  store.collection(NFT_SALES).find('byPolicy', {
    eq: [policyId],
    reverse: true,
    limit,
    ...(after ? { after: { _id: after.id, policyId, slot: after.slot, txIndex: after.txIndex } } : {}),
  });

/**
 * What the buyer of a sale paid, lovelace: the listing's payouts plus the marketplace fee output of the sale
 * (reference §3.3: sale price = Σ payouts + marketplace fee output). The stored `priceLovelace` is the listing's
 * price (payouts + the formula fee, at least 1 ADA); the fee output a buy carries can differ from it (less under an
 * authorised discount; stores synced before the 1 ADA minimum priced listings under ~49 ADA of payouts at the bare
 * formula fee). Without a fee output (v2, a discount to 0) or the listing's payouts: the listing's price.
 */
export function salePaidLovelace(
  sale: Pick<NftSaleDoc, 'priceLovelace' | 'feePaidLovelace'>,
  listing: Pick<NftListingDoc, 'payouts'> | null,
): string | null {
  if (sale.feePaidLovelace === null || !listing?.payouts.length) return sale.priceLovelace;
  return String(listing.payouts.reduce((sum, p) => sum + BigInt(p.lovelace), BigInt(sale.feePaidLovelace)));
}

/** `sales` with `priceLovelace` what each buyer paid (`salePaidLovelace`), from the listings they bought. */
export async function withPaidPrices(store: Store, sales: readonly NftSaleDoc[]): Promise<NftSaleDoc[]> {
  const out: NftSaleDoc[] = [];
  // A sale's id is the listing output it spent, so its listing document has the same id; read in bounded batches.
  for (let i = 0; i < sales.length; i += 1_000) {
    const batch = sales.slice(i, i + 1_000);
    const listings = await store.collection(NFT_LISTINGS).getMany(batch.map((s) => s._id));
    batch.forEach((s, j) => out.push({ ...s, priceLovelace: salePaidLovelace(s, listings[j] ?? null) }));
  }
  return out;
}

/**
 * A collection's active listings by price (cheapest first unless `descending`), after a cursor when given. A listing
 * whose price is unknown (its datum never seen: UNKNOWN_PRICE_KEY, which sorts after every price) comes last in
 * either direction, as missing values do in every sorted list; among them, by output reference.
 */
export async function activeListingsByPrice(
  store: Store,
  policyId: string,
  opts: { descending: boolean; limit: number; after?: { id: string; priceKey: string } },
): Promise<NftListingDoc[]> {
  const listings = store.collection(NFT_LISTINGS);
  const after = opts.after
    ? { after: { _id: opts.after.id, policyId, status: 'active', priceKey: opts.after.priceKey } }
    : {};
  if (!opts.descending)
    return listings.find('byPolicyStatus', { eq: [policyId, 'active'], limit: opts.limit, ...after });
  const pastPriced = opts.after?.priceKey === UNKNOWN_PRICE_KEY;
  const priced = pastPriced
    ? []
    : await listings.find('byPolicyStatus', {
        eq: [policyId, 'active'],
        lt: UNKNOWN_PRICE_KEY,
        reverse: true,
        limit: opts.limit,
        ...after,
      });
  if (priced.length >= opts.limit) return priced;
  const unknown = await listings.find('byPolicyStatus', {
    eq: [policyId, 'active', UNKNOWN_PRICE_KEY],
    limit: opts.limit - priced.length,
    ...(pastPriced ? after : {}),
  });
  return [...priced, ...unknown];
}
export const countActiveListings = (store: Store, policyId: string): Promise<number> =>
  store.collection(NFT_LISTINGS).count('byPolicyStatus', { eq: [policyId, 'active'] });
