/**
 * The NFT sync extension: per block, NFT collections and assets from CIP-25 / CIP-68 mints, who holds each NFT,
 * and jpg.store v3/v2 listings, sales and cancels/updates (mongo/collections/nft.ts), written through the SliceState
 * so a RollBackward restores them exactly from the core's undo journal (no rollback code here). Deterministic: the
 * block, its `spent` outputs and the prefetched documents decide every write.
 *
 * What counts as an NFT (the rule `nftMintsOf` applies, plus one): a mint of quantity exactly 1 of an asset named
 * by the tx's label-721 metadata (CIP-25) or of a CIP-67 (222) user token (CIP-68). (100) reference tokens, (333)
 * fungible and (444) rich-fungible tokens, and mints of any other quantity are not NFTs, so the DEX market's
 * fungible tokens never become collections; neither do the DEXes' own pool/LP tokens (a SundaeSwap V3 pool NFT is a
 * (222) token; a token minted into a DEX pool output is that pool's identity) nor ADA Handles (`NOT_NFT_POLICIES`). An NFT that is later minted beyond quantity 1 is marked `fungible` and
 * leaves its collection's supply and holder counts. A collection is a policy with at least one such NFT mint in the
 * indexed range; jpg.store listings and sales are recorded for any policy (history may start after the mint).
 *
 * Holders: an NFT's holder is the stake address of the address holding it (else the address); while it sits in a
 * jpg.store ask UTxO, the seller's (its payout address), so listing an NFT does not change the collection's owners.
 */
import type { UtxoDoc } from '../../mongo/collections/chain.js';
import {
  NFT_ASSETS,
  NFT_COLLECTIONS,
  NFT_LISTINGS,
  NFT_OWNERS,
  NFT_SALES,
  NFT_SYNC_COLLECTIONS,
  UNKNOWN_PRICE_KEY,
  nftOwnerId,
  priceKey,
  type NftAssetDoc,
  type NftCollectionDoc,
  type NftListingDoc,
  type NftSaleDoc,
} from '../../mongo/collections/nft.js';
import { stakeAddressOf } from '../../cardano/address.js';
import type { Block, Transaction, TxOutput } from '../../cardano/chain/types.js';
import { spentResolver } from '../market/utxo-output.js';
import type { SyncExtension } from '../sync/extension.js';
import type { SliceState } from '../sync/slice-state.js';
import { jpgStoreEventsOf, jpgVersionOf, type JpgStoreEvent } from './jpgstore.js';
import { cip68ReferencesOf, displayName, nftMintsOf, type NftMetadata } from './metadata.js';

/** What the extension reads and writes (besides the block and its `spent` outputs, which the core provides). */
export const NFT_EXTENSION_READS_WRITES = {
  reads: ['nft_collections', 'nft_assets', 'nft_owners', 'nft_listings'],
  writes: ['nft_collections', 'nft_assets', 'nft_owners', 'nft_listings', 'nft_sales'],
} as const;

/** Holder of an address: its stake address when it has a stake key, else the address itself. */
export const holderOfAddress = (address: string): string => stakeAddressOf(address) ?? address;

/** Collection name from an NFT's name: the trailing number and separators removed ("Dev Punks #12" → "Dev Punks"). */
export function collectionNameOf(nftName: string): string {
  const stripped = nftName.replace(/[\s#:-]*\d+$/, '').trim();
  return stripped || nftName;
}

/**
 * A collection's name from its first indexed NFT: the metadata's `project` / `collection` field when it has one (a
 * common CIP-25 convention), else the NFT's name without its number.
 */
export function collectionNameFrom(asset: Pick<NftAssetDoc, 'name' | 'attributes'>): string {
  for (const key of ['project', 'collection', 'collection_name', 'collectionName']) {
    const v = asset.attributes.find((a) => a.name === key)?.value;
    if (typeof v === 'string' && v.trim()) return v.trim();
  }
  return collectionNameOf(asset.name);
}

const policyOf = (unit: string) => unit.slice(0, 56);

function outputsOf(tx: Transaction): { index: number; out: TxOutput }[] {
  if (tx.spends === 'collaterals')
    return tx.collateralReturn ? [{ index: tx.outputs.length, out: tx.collateralReturn }] : [];
  return tx.outputs.map((out, index) => ({ index, out }));
}

function unitsIn(out: TxOutput): string[] {
  const units: string[] = [];
  for (const [policy, assets] of Object.entries(out.value)) {
    if (policy === 'ada') continue;
    for (const [name, q] of Object.entries(assets as Record<string, bigint>)) if (q > 0n) units.push(policy + name);
  }
  return units;
}

const exists = (d: NftAssetDoc | null): d is NftAssetDoc => d !== null && !d.fungible && d.quantity === '1';

/** Mutable per-block bookkeeping: owner count changes are applied once, at the end of the block. */
class BlockApply {
  readonly ownerDelta = new Map<string, { policyId: string; holder: string; delta: number }>();

  constructor(
    readonly state: SliceState,
    readonly slot: number,
  ) {}

  asset(unit: string): NftAssetDoc | null {
    return this.state.has(NFT_ASSETS, unit) ? this.state.get(NFT_ASSETS, unit) : null;
  }

  collection(policyId: string): NftCollectionDoc | null {
    return this.state.has(NFT_COLLECTIONS, policyId) ? this.state.get(NFT_COLLECTIONS, policyId) : null;
  }

  private owner(policyId: string, holder: string, delta: number) {
    const id = nftOwnerId(policyId, holder);
    const o = this.ownerDelta.get(id) ?? { policyId, holder, delta: 0 };
    this.ownerDelta.set(id, { ...o, delta: o.delta + delta });
  }

  /** Writes an asset and carries the change into its collection's supply and the owner counts. */
  putAsset(prev: NftAssetDoc | null, next: NftAssetDoc, collectionUpdate: Partial<NftCollectionDoc> = {}) {
    this.state.put(NFT_ASSETS, next);
    if (exists(prev) && prev.holder) this.owner(prev.policyId, prev.holder, -1);
    if (exists(next) && next.holder) this.owner(next.policyId, next.holder, +1);
    const supplyDelta = (exists(next) ? 1 : 0) - (exists(prev) ? 1 : 0);
    const c = this.collection(next.policyId);
    if (c && (supplyDelta !== 0 || Object.keys(collectionUpdate).length > 0))
      this.state.put(NFT_COLLECTIONS, { ...c, ...collectionUpdate, supply: c.supply + supplyDelta, slot: this.slot });
  }
}

const EMPTY = {
  image: null,
  mediaType: null,
  description: null,
  attributes: {},
  version: 1,
} satisfies Partial<NftMetadata>;

function metadataFields(m: Pick<NftMetadata, keyof typeof EMPTY | 'name' | 'standard'>) {
  return {
    name: m.name,
    image: m.image,
    mediaType: m.mediaType,
    description: m.description,
    attributes: Object.entries(m.attributes).map(([name, value]) => ({ name, value })),
    standard: m.standard,
    metadataVersion: m.version,
  };
}

function applyMints(b: BlockApply, tx: Transaction): void {
  const mints = nftMintsOf(tx, { isKnownNft: (unit) => b.asset(unit) !== null });
  const handled = new Set<string>();
  for (const m of mints) {
    handled.add(m.unit);
    const prev = b.asset(m.unit);
    const quantity = BigInt(prev?.quantity ?? '0') + m.quantity;
    if (!prev && m.quantity < 0n) continue;
    const meta = m.metadata ? metadataFields(m.metadata) : null;
    // A CIP-68 user token whose reference token is created elsewhere has no metadata here: its readable name.
    const described =
      meta ??
      (prev ? null : { ...metadataFields({ ...EMPTY, name: displayName(m.assetNameHex), standard: m.standard }) });
    const next: NftAssetDoc = {
      ...(prev as NftAssetDoc),
      ...described,
      _id: m.unit,
      unit: m.unit,
      policyId: m.policyId,
      assetNameHex: m.assetNameHex,
      quantity: String(quantity),
      fungible: (prev?.fungible ?? false) || quantity > 1n,
      address: quantity > 0n ? (prev?.address ?? null) : null,
      holder: quantity > 0n ? (prev?.holder ?? null) : null,
      listing: quantity > 0n ? (prev?.listing ?? null) : null,
      mintSlot: prev?.mintSlot ?? b.slot,
      mintTx: prev?.mintTx ?? tx.id,
      metadataSlot: meta ? b.slot : (prev?.metadataSlot ?? b.slot),
      slot: b.slot,
    };
    let c = b.collection(m.policyId);
    if (!c && m.quantity > 0n) {
      c = {
        _id: m.policyId,
        policyId: m.policyId,
        name: collectionNameFrom(next),
        image: next.image,
        standards: [],
        supply: 0,
        minted: 0,
        burned: 0,
        owners: 0,
        firstMintSlot: b.slot,
        firstMintTx: tx.id,
        lastMintSlot: b.slot,
        slot: b.slot,
      };
      b.state.put(NFT_COLLECTIONS, c);
    }
    const update: Partial<NftCollectionDoc> = {};
    if (c) {
      if (m.quantity > 0n) {
        update.minted = c.minted + 1;
        update.lastMintSlot = b.slot;
        if (!c.standards.includes(m.standard)) update.standards = [...c.standards, m.standard].sort();
      } else update.burned = c.burned + 1;
    }
    b.putAsset(prev, next, update);
  }
  // Any other mint of a known NFT (quantity ≠ ±1) makes it fungible.
  for (const [policyId, assets] of Object.entries(tx.mint ?? {}))
    for (const [name, q] of Object.entries(assets)) {
      const unit = policyId + name;
      const prev = handled.has(unit) ? null : b.asset(unit);
      if (!prev) continue;
      const quantity = BigInt(prev.quantity) + q;
      b.putAsset(prev, {
        ...prev,
        quantity: String(quantity),
        fungible: prev.fungible || quantity > 1n,
        slot: b.slot,
      });
    }
}

/** CIP-68 metadata updates: the (100) reference token moved to a new output with a new datum. */
function applyCip68Updates(b: BlockApply, tx: Transaction): void {
  for (const r of cip68ReferencesOf(tx)) {
    const prev = b.asset(r.userUnit);
    if (!prev) continue;
    b.putAsset(prev, { ...prev, ...metadataFields(r.datum.metadata), metadataSlot: b.slot, slot: b.slot });
  }
}

function listingDoc(e: JpgStoreEvent, slot: number, listed: boolean): NftListingDoc {
  const price = e.priceLovelace === null ? null : String(e.priceLovelace);
  const txId = e.listingRef.split('#')[0] as string;
  return {
    _id: e.listingRef,
    policyId: e.unit ? policyOf(e.unit) : null,
    unit: e.unit,
    units: e.units,
    bundle: e.units.length > 1,
    marketplace: e.marketplace,
    version: e.version,
    priceLovelace: price,
    priceKey: price === null ? UNKNOWN_PRICE_KEY : priceKey(price),
    seller: e.seller,
    owner: e.owner,
    payouts: e.payouts.map((p) => ({ address: p.address, lovelace: String(p.lovelace) })),
    listedSlot: listed ? slot : null,
    listedTx: listed ? txId : null,
    status: 'active',
    closedSlot: null,
    closedTx: null,
    replaces: e.replaces ?? null,
    relistedAs: null,
    slot,
  };
}

/** jpg.store events of the tx; returns the new listings by output index (for holder attribution). */
function applyJpgStore(
  b: BlockApply,
  tx: Transaction,
  resolve: ReturnType<typeof spentResolver>,
  height: number,
  txIndex: number,
): Map<number, JpgStoreEvent> {
  const byOutput = new Map<number, JpgStoreEvent>();
  for (const e of jpgStoreEventsOf(tx, resolve)) {
    if (e.kind === 'listing') {
      // Keyed by the listing's own output, created by this transaction: no document can hold that id yet.
      b.state.putNew(NFT_LISTINGS, listingDoc(e, b.slot, true));
      byOutput.set(Number(e.listingRef.split('#')[1]), e);
      continue;
    }
    const prev = b.state.has(NFT_LISTINGS, e.listingRef) ? b.state.get(NFT_LISTINGS, e.listingRef) : null;
    const base = prev ?? listingDoc(e, b.slot, false);
    const status = e.kind === 'sale' ? 'sold' : e.relistedAs ? 'updated' : 'cancelled';
    b.state.put(NFT_LISTINGS, {
      ...base,
      status,
      closedSlot: b.slot,
      closedTx: tx.id,
      relistedAs: e.relistedAs ?? null,
      slot: b.slot,
    });
    if (e.kind === 'sale') {
      const price = base.priceLovelace ?? (e.priceLovelace === null ? null : String(e.priceLovelace));
      const sale: NftSaleDoc = {
        _id: e.listingRef,
        policyId: base.policyId,
        unit: e.unit,
        units: e.units,
        marketplace: e.marketplace,
        version: e.version,
        priceLovelace: price,
        feePaidLovelace:
          e.feePaidLovelace === undefined || e.feePaidLovelace === null ? null : String(e.feePaidLovelace),
        buyer: e.buyer ?? null,
        seller: base.seller ?? e.seller,
        txId: tx.id,
        slot: b.slot,
        height,
        txIndex,
        listingRef: e.listingRef,
      };
      // Keyed by the listing output this transaction spends, which only one transaction ever can.
      b.state.putNew(NFT_SALES, sale);
    }
  }
  return byOutput;
}

/** Where each known NFT sits after the tx: address, holder (the seller while listed) and listing. */
function applyOwnership(b: BlockApply, tx: Transaction, listings: Map<number, JpgStoreEvent>): void {
  for (const { index, out } of outputsOf(tx)) {
    for (const unit of unitsIn(out)) {
      const prev = b.asset(unit);
      if (!prev) continue;
      const listing = listings.get(index);
      const onAsk = jpgVersionOf(out.address) !== null;
      const holder = onAsk && listing?.seller ? holderOfAddress(listing.seller) : holderOfAddress(out.address);
      const listingRef = onAsk ? `${tx.id}#${index}` : null;
      if (prev.address === out.address && prev.holder === holder && prev.listing === listingRef) continue;
      b.putAsset(prev, { ...prev, address: out.address, holder, listing: listingRef, slot: b.slot });
    }
  }
}

async function applyOwnerDeltas(b: BlockApply): Promise<void> {
  const changes = [...b.ownerDelta].filter(([, o]) => o.delta !== 0);
  if (!changes.length) return;
  await b.state.prefetch(
    NFT_OWNERS,
    changes.map(([id]) => id),
  );
  const ownersDelta = new Map<string, number>();
  for (const [id, o] of changes) {
    const prev = b.state.get(NFT_OWNERS, id);
    const count = (prev?.count ?? 0) + o.delta;
    if (count < 0) throw new Error(`nft: owner ${id} count ${count} below 0`);
    if (count === 0) b.state.remove(NFT_OWNERS, id);
    else b.state.put(NFT_OWNERS, { _id: id, policyId: o.policyId, holder: o.holder, count, slot: b.slot });
    const d = (prev ? -1 : 0) + (count > 0 ? 1 : 0);
    if (d) ownersDelta.set(o.policyId, (ownersDelta.get(o.policyId) ?? 0) + d);
  }
  for (const [policyId, d] of ownersDelta) {
    const c = b.collection(policyId);
    if (c) b.state.put(NFT_COLLECTIONS, { ...c, owners: c.owners + d, slot: b.slot });
  }
}

export async function applyNftBlock(state: SliceState, block: Block, spent: ReadonlyMap<string, UtxoDoc>) {
  const txs = block.transactions ?? [];
  if (!txs.length) return;
  const slot = block.slot ?? 0;
  // Prefetch 1: collections of every policy minted or received, and the jpg.store listings the block spends.
  const policies = new Set<string>();
  const units = new Set<string>();
  const minted = new Set<string>();
  for (const tx of txs) {
    if (tx.spends === 'inputs')
      for (const [policy, assets] of Object.entries(tx.mint ?? {})) {
        policies.add(policy);
        for (const name of Object.keys(assets)) minted.add(policy + name);
      }
    for (const { out } of outputsOf(tx))
      for (const unit of unitsIn(out)) {
        units.add(unit);
        policies.add(policyOf(unit));
      }
  }
  const listingRefs = [...spent.values()].filter((u) => jpgVersionOf(u.address) !== null).map((u) => u._id);
  await Promise.all([state.prefetch(NFT_COLLECTIONS, policies), state.prefetch(NFT_LISTINGS, listingRefs)]);
  // Prefetch 2: the assets that can be NFTs: of known collections, or minted here (CIP-68 user tokens included).
  const assetIds = [...units, ...minted].filter(
    (u) => minted.has(u) || state.get(NFT_COLLECTIONS, policyOf(u)) !== null,
  );
  await state.prefetch(NFT_ASSETS, assetIds);

  const b = new BlockApply(state, slot);
  // jpg.store events only concern spent outputs at its ask scripts (jpgStoreEventsOf skips the rest): resolving only
  // those spares turning every spent output back into the Ogmios shape.
  const resolveAny = spentResolver(spent);
  const resolve: ReturnType<typeof spentResolver> = (ref) => {
    const u = spent.get(`${ref.transaction.id}#${ref.index}`);
    return u && jpgVersionOf(u.address) !== null ? resolveAny(ref) : null;
  };
  for (const [txIndex, tx] of txs.entries()) {
    let listings = new Map<number, JpgStoreEvent>();
    if (tx.spends === 'inputs') {
      applyMints(b, tx);
      applyCip68Updates(b, tx);
      listings = applyJpgStore(b, tx, resolve, block.height, txIndex);
    }
    applyOwnership(b, tx, listings);
  }
  await applyOwnerDeltas(b);
}

export function createNftExtension(): SyncExtension {
  return {
    name: 'nft',
    collections: NFT_SYNC_COLLECTIONS,
    async applyBlock(state, { block, spent }) {
      await applyNftBlock(state, block, spent);
    },
  };
}
