/**
 * ADA Handles: GET /handles/{handle} resolves `$name`, `name` or `sub@root` to the address holding it, from the
 * `handles` documents the handles sync extension keeps (as fresh as the indexed tip; a rollback restores the
 * previous holder). Also the one step other endpoints use to accept a handle where they take an address
 * (`addressParam`): the wallet endpoints and the explorer address page.
 */
import Router from '@koa/router';
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
import type { ApiDeps } from '../deps.js';
import { BadRequestError, NotFoundError } from '../errors.js';
import { defineRoute, register, type AnyRouteSpec, type RestModule } from '../route.js';
import { HandleParams, HandleResponse } from '../schemas/handles.js';

export const handleRoutes = {
  handle: defineRoute<{ handle: string }>({
    operationId: 'getHandle',
    path: '/handles/{handle}',
    summary: 'Resolve an ADA Handle ($name or sub@root) to the address holding it',
    description:
      'The address of the UTxO holding the handle token (legacy CIP-25 name, CIP-68 (222) user token, NFT subhandle), or for a virtual subhandle the address its datum names; its stake address and whether a script holds it; the CIP-68 datum fields. 400 for a malformed handle, 404 when the handle is not held (never minted or burnt).',
    tags: ['Handles'],
    params: HandleParams,
    response: HandleResponse,
  }),
} satisfies Record<string, AnyRouteSpec>;

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

/** The handle's holder; 400 with the naming rule broken, 404 when it is not held. */
export async function findHandle(store: Store, input: string): Promise<StoredHandle> {
  let name: string;
  try {
    name = normaliseHandle(input);
  } catch (e) {
    if (e instanceof HandleInputError) throw new BadRequestError(`invalid handle: ${e.message}`);
    throw e;
  }
  const h = await resolveStoredHandle(store, name);
  if (!h) throw new NotFoundError(`handle $${name} not found`);
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

export function handlesRouter(deps: ApiDeps): Router {
  const { store } = deps;
  const router = new Router();

  register(router, handleRoutes.handle, async (_ctx, { params }) => {
    const h = await findHandle(store, params.handle);
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
  });

  return router;
}

export const handlesModule: RestModule = { routes: Object.values(handleRoutes), router: handlesRouter };
