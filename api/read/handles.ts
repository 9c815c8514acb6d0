/**
 * Read functions of handles (REST, MCP and Markdown present their results).
 */
import { storeClock } from '../../mongo/collections/clock.js';
import {
  HandleInputError,
  looksLikeHandle,
  normaliseHandle,
  resolveStoredHandle,
  walletKeyOfHandle,
  type StoredHandle,
} from '../../mongo/collections/handles-read.js';
import type { Store } from '../../mongo/store.js';
import { BadRequestError, NotFoundError } from '../errors.js';
import type { handleRoutes } from '../routes/handles.js';
import type { ReadDeps, RouteInput } from './deps.js';
import { notIndexedYet, withAsOf } from './freshness.js';
/** The `handle` object echoed by answers that were asked for a handle (schema HandleRef). */
export interface HandleRefBody {
  handle: string;
  name: string;
  kind: StoredHandle['kind'];
  address: string;
  stakeAddress: string | null;
  script: boolean;
}

const refOf = (h: StoredHandle): HandleRefBody => ({
  handle: h.handle,
  name: `$${h.handle}`,
  kind: h.kind,
  address: h.address,
  stakeAddress: h.stakeAddress,
  script: h.script,
});

/**
 * The handle's holder; 400 with the naming rule broken, 404 when it is not held. The handle is known only from the
 * indexed blocks (its mint or its token's latest move): while the index is behind the chain (a first sync, a resync)
 * it may be minted or moved in a block not indexed yet, and on a store whose history starts after origin a handle
 * minted before it and never moved since is not known, so the 404 says so, as a block's or an address's does.
 */
export async function findHandle(store: Store, input: string): Promise<StoredHandle> {
  let name: string;
  try {
    name = normaliseHandle(input);
  } catch (e) {
    if (e instanceof HandleInputError) throw new BadRequestError(`invalid handle: ${e.message}`);
    throw e;
  }
  const h = await resolveStoredHandle(store, name);
  if (!h) throw new NotFoundError(await notIndexedYet({ store }, `handle $${name}`));
  return h;
}

/**
 * An address path parameter that may name a handle: `$name` (or `%24name`, decoded by the router) and `sub@root`
 * become the handle's stake address, or its address when that has no stake key; anything else is returned as
 * given for the endpoint's own address checks. `handle` is what the answer echoes (null for an address).
 */
export async function addressParam(
  store: Store,
  param: string,
): Promise<{ address: string; handle: HandleRefBody | null }> {
  if (!looksLikeHandle(param)) return { address: param, handle: null };
  const h = await findHandle(store, param);
  return { address: walletKeyOfHandle(h), handle: refOf(h) };
}

/** `body` with the echoed handle when the request named one (objects are open, so the field is additive). */
export const withHandle = <T>(body: T, handle: HandleRefBody | null): T =>
  handle && body && typeof body === 'object' ? { ...body, handle } : body;

async function getHandleAnswer(deps: ReadDeps, input: RouteInput<typeof handleRoutes.handle>) {
  const { store } = deps;
  const h = await findHandle(store, input.handle);
  const { clock } = await storeClock(store);
  const { handle, name, kind, address, stakeAddress, script } = refOf(h);
  return {
    handle,
    name,
    kind,
    address,
    stakeAddress,
    script,
    root: h.root,
    policyId: h.policyId,
    unit: h.unit,
    referenceUnit: h.referenceUnit,
    utxo: h.utxo,
    image: h.image,
    defaultHandle: h.defaultHandle,
    ogNumber: h.ogNumber,
    rarity: h.rarity,
    mintSlot: h.mintSlot,
    mintTime: h.mintSlot === null ? null : clock.iso(h.mintSlot),
    updatedSlot: h.updatedSlot,
    updatedTime: clock.iso(h.updatedSlot),
  };
}

export const getHandle = withAsOf(getHandleAnswer);
