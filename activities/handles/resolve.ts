/**
 * Handle resolution over the store: `$name`, `name` or `sub@root` → the handle's document in `handles` (kept by the
 * handles sync extension). Used by GET /handles/{handle}, the wallet and explorer address endpoints, and later by
 * search and the agent tools. Reads one document by id.
 */
import { HANDLES, type HandleDoc } from '../../mongo/collections/handles.js';
import type { Store } from '../../mongo/store.js';
import { HandleInputError, isHandleName, parseHandleInput, type HandleKind } from './index.js';

export { HandleInputError } from './index.js';

export interface StoredHandle {
  /** The handle without `$`, lowercase. */
  handle: string;
  kind: HandleKind;
  root: string;
  /** The address holding the handle (for a virtual subhandle: the address its datum names). */
  address: string;
  /** Its stake address; null when the address has no stake key. */
  stakeAddress: string | null;
  /** The address's payment credential is a script. */
  script: boolean;
  policyId: string;
  /** The token deciding the holder (legacy name, (222) user token, (000) virtual token). */
  unit: string;
  /** The CIP-68 (100) reference token carrying the datum; null for legacy and virtual handles. */
  referenceUnit: string | null;
  /** UTxO holding `unit` (`txId#index`). */
  utxo: string | null;
  image: string | null;
  defaultHandle: boolean | null;
  ogNumber: number | null;
  rarity: string | null;
  /** Slot of the mint; null when minted before the indexed range. */
  mintSlot: number | null;
  /** Slot of the last change seen (mint, transfer, datum update). */
  updatedSlot: number;
}

/**
 * User input → the normalised handle (no `$`, lowercase). Throws HandleInputError with the rule broken; the final
 * check is Kora Labs' naming rule (reference/dex-nft-handles.md §4).
 */
export function normaliseHandle(input: string): string {
  const { handle } = parseHandleInput(input);
  if (!isHandleName(handle))
    throw new HandleInputError(
      `invalid handle "${handle}": a root is 1-28 of a-z 0-9 _ - . and sub@root is 3-28 characters`,
    );
  return handle;
}

/** A path/tool parameter that names a handle rather than an address: `$name` or `sub@root` (addresses have neither). */
export const looksLikeHandle = (input: string): boolean => /^\s*\$/.test(input) || input.includes('@');

export function presentStoredHandle(d: HandleDoc): StoredHandle | null {
  if (d.address === null) return null;
  return {
    handle: d._id,
    kind: d.kind,
    root: d.root,
    address: d.address,
    stakeAddress: d.stakeAddress,
    script: d.script,
    policyId: d.policyId,
    unit: d.unit,
    referenceUnit: d.referenceUnit,
    utxo: d.utxo,
    image: d.image,
    defaultHandle: d.defaultHandle,
    ogNumber: d.ogNumber,
    rarity: d.rarity,
    mintSlot: d.mintSlot,
    updatedSlot: d.updatedSlot,
  };
}

/**
 * The handle's current holder, or null when it is not in the index (never minted, burnt, minted before the indexed
 * range and never moved since, or a virtual subhandle whose datum names no address). Throws HandleInputError.
 */
export async function resolveStoredHandle(store: Store, input: string): Promise<StoredHandle | null> {
  const doc = await store.collection(HANDLES).get(normaliseHandle(input));
  return doc ? presentStoredHandle(doc) : null;
}

/**
 * The key a wallet answer for the handle is about: its stake address (all addresses of the stake key), or its
 * address when that has no stake key.
 */
export const walletKeyOfHandle = (h: StoredHandle): string => h.stakeAddress ?? h.address;

/** Handles held by a stake key (or, for an address without one, by that address), by name. */
export async function handlesHeldBy(store: Store, key: string, limit = 100): Promise<StoredHandle[]> {
  const coll = store.collection(HANDLES);
  const docs = key.startsWith('stake')
    ? await coll.find('byStake', { eq: [key], limit })
    : await coll.find('byAddress', { eq: [key], limit });
  return docs.map(presentStoredHandle).filter((h): h is StoredHandle => h !== null);
}
