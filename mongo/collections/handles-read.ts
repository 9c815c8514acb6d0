/**
 * Handle resolution over the store: `$name`, `name` or `sub@root` → the handle's document in `handles` (kept by the
 * handles sync extension). Used by GET /handles/{handle}, the wallet and explorer address endpoints, and later by
 * search and the agent tools. Reads one document by id.
 */
import { HANDLES, type HandleDoc } from './handles.js';
import type { Store } from '../store.js';
import { HandleInputError, isHandleName, parseHandleInput } from '../../cardano/handles.js';

export { HandleInputError } from '../../cardano/handles.js';

/**
 * A resolved handle: its document (mongo/collections/handles.ts) with the id as `handle` and the address known.
 * `referenceUtxo` is internal bookkeeping of the extension and not part of the answer.
 */
export type StoredHandle = Omit<HandleDoc, '_id' | 'address' | 'referenceUtxo'> & { handle: string; address: string };

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
  const { _id, address, referenceUtxo: _internal, ...rest } = d;
  return address === null ? null : { handle: _id, address, ...rest };
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

/** The index of the handles a wallet key holds: by stake key, or by address for an address without one. */
const heldIndex = (key: string) => (key.startsWith('stake') ? 'byStake' : 'byAddress');

/** Handles held by a stake key (or, for an address without one, by that address), by name: the first `limit`. */
export async function handlesHeldBy(store: Store, key: string, limit = 100): Promise<StoredHandle[]> {
  const docs = await store.collection(HANDLES).find(heldIndex(key), { eq: [key], limit });
  return docs.map(presentStoredHandle).filter((h): h is StoredHandle => h !== null);
}

/** How many handles the key holds (a collector's wallet can hold thousands; answers list the first 100). */
export const handlesHeldCount = (store: Store, key: string): Promise<number> =>
  store.collection(HANDLES).count(heldIndex(key), { eq: [key] });
