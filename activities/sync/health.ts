/**
 * What the sync tells monitors and operators (SYNC_HEALTH, read by /healthz/sync, /readyz, `ops status`, metrics):
 * every contact with the chain source, successful or not, and the failures retrying cannot fix.
 *
 * Failures retrying cannot fix are thrown with a class name listed in SYNC_NON_RETRYABLE_ERRORS
 * (workflows/policies.ts), so Temporal and the embedded runner both fail the run at once instead of retrying it
 * forever:
 * - RollbackTooDeepError: the source rolled back further than the undo journal reaches (SYNC_K blocks), or moved
 *   to another chain. The indexed blocks above the fork point belong to a chain the source no longer has.
 * - ChainDiscontinuityError / IntersectionNotFoundError: the source's chain no longer connects to the indexed one.
 * - StoreRefusedError: the store rejected a write (a malformed or oversized document, a broken unique key); the
 *   same slice would be rejected again.
 * - StoredDocumentCorruptError: a document the slice builds on holds what the sync never writes (a balance that is
 *   no integer quantity); every retry reads it again.
 */
import {
  DEEP_ROLLBACK_BLOCKS,
  failureWasOutage,
  SYNC_HEALTH,
  SYNC_HEALTH_ID,
  readSyncHealth,
  type RollingBack,
  type StallKind,
  type SyncHealthDoc,
  type SyncStall,
} from '../../mongo/collections/sync-state.js';
import { BLOCKS } from '../../mongo/collections/chain.js';
import { put, type Store } from '../../mongo/store.js';
import type { Point } from '../../cardano/chain/types.js';
import { rollbackTo, RollbackTooDeepError, type RollbackOptions } from './journal.js';
import { isSourceDown } from '../chain/source.js';

/** The store rejected a document of the slice; retrying the slice writes the same document again. */
export class StoreRefusedError extends Error {
  override name = 'StoreRefusedError';
}

/**
 * A stored document the sync reads to build on is damaged (edited by hand, a bad restore): its message names the
 * collection and `_id`, so an operator can repair it or resync.
 */
export class StoredDocumentCorruptError extends Error {
  override name = 'StoredDocumentCorruptError';
}

/** MongoDB server codes of a write that is wrong, not unlucky (bad value, too large, duplicate key, validation). */
const REFUSAL_CODES = new Set([2, 52, 10334, 11000, 17280, 121, 16755, 17419]);
const REFUSAL_CLASSES = new Set(['StoreError', 'BSONError', 'BSONVersionError', 'MongoInvalidArgumentError']);

/** Whether a failed write was refused for its content (lmdb key/value size, BSON size, MongoDB write errors). */
export function isStoreRefusal(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  if (e instanceof StoreRefusedError) return true;
  if (REFUSAL_CLASSES.has(e.constructor.name) || REFUSAL_CLASSES.has(e.name)) return true;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'number' && REFUSAL_CODES.has(code) && /^Mongo(Server|BulkWrite)Error$/.test(e.name)) return true;
  return /MDB_BAD_VALSIZE|key (is )?(too large|larger than)|document is larger than|object to insert too large/i.test(
    e.message,
  );
}

/** The store as the sync writes it: a write refused for its content fails as StoreRefusedError. */
export function refusingStore(store: Store): Store {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop !== 'write') {
        const v = Reflect.get(target, prop, receiver) as unknown;
        // Methods run on the adapter itself (its private fields are not reachable through the proxy).
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      }
      return async (ops: Parameters<Store['write']>[0]) => {
        try {
          await target.write(ops);
        } catch (e) {
          if (isStoreRefusal(e) && !(e instanceof StoreRefusedError))
            throw new StoreRefusedError(e instanceof Error ? e.message : String(e), { cause: e });
          throw e;
        }
      };
    },
  });
}

/** The stall each error a retry cannot fix stands for (the classes SYNC_NON_RETRYABLE_ERRORS names). */
const STALL_KINDS: Readonly<Record<string, StallKind>> = {
  RollbackTooDeepError: 'rollback-too-deep',
  ChainDiscontinuityError: 'chain-disconnected',
  IntersectionNotFoundError: 'chain-disconnected',
  StoreRefusedError: 'store-refused',
  StoredDocumentCorruptError: 'store-corrupt',
};

function stallOf(e: Error, abandonedAbove: number | null, k: number, since: string): SyncStall | null {
  const kind = Object.hasOwn(STALL_KINDS, e.name) ? STALL_KINDS[e.name] : undefined;
  if (!kind) return null;
  const error = `${e.name}: ${e.message}`;
  switch (kind) {
    case 'rollback-too-deep':
      return {
        kind,
        reason: 'sync stalled: rollback beyond the undo window, resync needed',
        action:
          `the source rolled back further than the ${k} block${k === 1 ? '' : 's'} of undo information (SYNC_K) or moved to another chain; ` +
          'raise SYNC_K if forks this deep are expected, then `npm run ops -- resync --from origin`',
        error,
        since,
        abandonedAbove,
      };
    case 'chain-disconnected': {
      const startPoint = (e as { startPointMissing?: unknown }).startPointMissing;
      if (typeof startPoint === 'string')
        return {
          kind,
          reason: `sync stalled: SYNC_START_POINT ${startPoint} is not a block of the chain source's chain`,
          action:
            'set SYNC_START_POINT to slot.blockHash of a block the source at OGMIOS_URL has (or unset it to start at origin), ' +
            'then restart the service (on Temporal: the worker, then `npm run ops -- sync restart`)',
          error,
          since,
          abandonedAbove,
        };
      return {
        kind,
        reason: 'sync stalled: the chain source no longer connects to the indexed chain, resync needed',
        action: 'check that OGMIOS_URL is the intended network, then `npm run ops -- resync --from origin`',
        error,
        since,
        abandonedAbove,
      };
    }
    case 'store-refused':
      return {
        kind,
        reason: `store refused a document: ${e.message}`,
        action: 'fix the store (space, limits, indexes) or report the document; then `npm run ops -- sync restart`',
        error,
        since,
        abandonedAbove: null,
      };
    case 'store-corrupt':
      return {
        kind,
        reason: `store holds a damaged document: ${e.message}`,
        action:
          // A restore alone leaves the sync stopped: its run failed, and nothing starts it again.
          'restore the document (or the store) from a backup, then `npm run ops -- sync restart`; ' +
          'or `npm run ops -- resync --from origin` (the sync rewrites every document)',
        error,
        since,
        abandonedAbove: null,
      };
  }
}

function empty(nowIso: string): SyncHealthDoc {
  return {
    _id: SYNC_HEALTH_ID,
    contactAt: null,
    tip: null,
    failing: null,
    stall: null,
    generation: 0,
    lastDeepRollback: null,
    updatedAt: nowIso,
  };
}

async function update(store: Store, nowIso: string, f: (d: SyncHealthDoc) => SyncHealthDoc): Promise<SyncHealthDoc> {
  const doc = f((await readSyncHealth(store)) ?? empty(nowIso));
  // Any record of the sync's means it runs again.
  const next = { ...doc, stoppedAt: null, startedAt: null, updatedAt: nowIso };
  await store.write([put(SYNC_HEALTH, next)]);
  return next;
}

/**
 * The worker running the sync stopped cleanly (after its runs ended, so no slice records after this): monitors say
 * "not running" at once instead of the last attempt's state (e.g. "chain source unreachable … retrying", the devnet
 * being stopped first) until the silence passes SYNC_SILENT_SECONDS. Nothing is written for a store never synced.
 */
export async function recordSyncStopped(store: Store, nowIso: string): Promise<void> {
  const doc = await readSyncHealth(store);
  if (doc) await store.write([put(SYNC_HEALTH, { ...doc, stoppedAt: nowIso, startedAt: null })]);
}

/**
 * A worker starts the sync again (before its first slice): monitors say "starting" instead of the previous worker's
 * "not running: its worker stopped at …" (whose action is to start the service) or its last failure, until the first
 * slice records. Its silence still counts from now (SYNC_SILENT_SECONDS). Nothing is written for a store never synced.
 */
export async function recordSyncStarted(store: Store, nowIso: string): Promise<void> {
  const doc = await readSyncHealth(store);
  if (doc) await store.write([put(SYNC_HEALTH, { ...doc, stoppedAt: null, startedAt: nowIso, updatedAt: nowIso })]);
}

/**
 * A successful contact: the source's tip, and any failure or stall is over (`keepStall`: a contact in the middle of a
 * slice; a stall ends when a slice completes, not when the source answers, and so does a failure that was no outage
 * of the source or the store: the retry of a slice whose writes the store refuses — a full disk — contacts the
 * source first, and clearing it there read "ok" between every two attempts, and "failing for 0 s" after each).
 * `rollbackDone`: the slice ended with no rollback left part-way, so one recorded in progress is over too (it
 * completed, or the source no longer asks for it).
 */
export function recordContact(
  store: Store,
  tip: SyncHealthDoc['tip'],
  nowIso: string,
  opts: { rollbackDone?: boolean; keepStall?: boolean } = {},
): Promise<SyncHealthDoc> {
  return update(store, nowIso, (d) => ({
    ...d,
    contactAt: nowIso,
    tip: tip ?? d.tip,
    failing: opts.keepStall && d.failing && !failureWasOutage(d.failing) ? d.failing : null,
    stall: opts.keepStall ? d.stall : null,
    ...(opts.rollbackDone ? { rollingBack: null } : {}),
  }));
}

/**
 * A failed slice. Returns the stall when retrying cannot fix it (the caller rethrows the error either way).
 * Recording must never hide the error itself: a store that cannot be written is the caller's error to throw.
 */
export async function recordFailure(
  store: Store,
  e: unknown,
  opts: {
    k: number;
    nowIso: string;
    /** When the sync began failing, for a failure recorded late (the store was down when it happened). */
    since?: string;
  },
): Promise<SyncStall | null> {
  const err = e instanceof Error ? e : new Error(String(e));
  const abandoned = (err as { abandonedAbove?: unknown }).abandonedAbove;
  const stall = stallOf(err, typeof abandoned === 'number' ? abandoned : null, opts.k, opts.nowIso);
  await update(store, opts.nowIso, (d) => ({
    ...d,
    stall: stall ? { ...stall, since: d.stall?.kind === stall.kind ? d.stall.since : stall.since } : null,
    failing: stall
      ? null
      : {
          since: d.failing?.since ?? opts.since ?? opts.nowIso,
          error: `${err.name}: ${err.message}`,
          sourceDown: isSourceDown(err),
        },
  }));
  return stall;
}

/** A resync from origin: a new generation (every derived document is of the abandoned chain), no stall. */
export function recordResync(store: Store, nowIso: string): Promise<SyncHealthDoc> {
  return update(store, nowIso, (d) => ({
    ...d,
    stall: null,
    failing: null,
    generation: d.generation + 1,
    lastDeepRollback: { depth: 0, toHeight: 0, at: nowIso },
    rollingBack: null,
  }));
}

/** The store was cleared for the resync requested at `requestedAt` (activities/sync/reset.ts). */
export async function recordResyncCleared(store: Store, requestedAt: string, nowIso: string): Promise<void> {
  await update(store, nowIso, (d) => ({ ...d, resyncCleared: requestedAt }));
}

/**
 * Rolls the store back to `target` (rollbackTo), recording a rollback deeper than DEEP_ROLLBACK_BLOCKS as a new
 * generation *before* undoing it, so no derived answer of the abandoned chain is served after the chain documents
 * changed, and as in progress (`rollingBack`: /healthz/sync says so and chain answers are withheld) until its last
 * write. `opts.afterChunk` may stop it part-way (a slice's time limit): a later call to the same target goes on
 * with it, without recording another generation. Returns the blocks undone by this call, whether the store is at
 * `target`, and the whole rollback's depth (blocks from where it began). A RollbackTooDeepError carries
 * `abandonedAbove`: the height of the fork point (0 = origin), above which the indexed blocks are no longer the
 * source's chain.
 */
export async function rollbackRecorded(
  store: Store,
  target: Point,
  indexedHeight: number,
  nowIso: string,
  opts: RollbackOptions = {},
): Promise<{ undone: number; done: boolean; depth: number }> {
  const targetHeight = target === 'origin' ? 0 : ((await store.collection(BLOCKS).get(target.id))?.height ?? null);
  const health = await readSyncHealth(store);
  const pending = health?.rollingBack ?? null;
  const same = (a: RollingBack['to'], b: Point) => (a === 'origin' || b === 'origin' ? a === b : a.id === b.id);
  const continues = pending !== null && same(pending.to, target);
  const depth = continues
    ? pending.fromHeight - pending.toHeight
    : targetHeight === null
      ? null
      : indexedHeight - targetHeight;
  let rollingBack: RollingBack | null = continues ? pending : null;
  if (!continues && (depth === null || depth > DEEP_ROLLBACK_BLOCKS)) {
    rollingBack =
      targetHeight === null || depth === null
        ? null
        : {
            fromHeight: indexedHeight,
            to: target === 'origin' ? 'origin' : { slot: target.slot, id: target.id, height: targetHeight },
            toHeight: targetHeight,
            undone: 0,
            since: nowIso,
          };
    await update(store, nowIso, (d) => ({
      ...d,
      generation: d.generation + 1,
      lastDeepRollback: { depth: depth ?? indexedHeight, toHeight: targetHeight ?? 0, at: nowIso },
      rollingBack,
    }));
  } else if (pending && !continues) {
    // A rollback left part-way that the source no longer asks for (it rolls back elsewhere now): this one replaces it.
    await update(store, nowIso, (d) => ({ ...d, rollingBack: null }));
  }
  const before = rollingBack?.undone ?? 0;
  try {
    const r = await rollbackTo(store, target, nowIso, {
      ...opts,
      afterChunk: async (p) => {
        if (rollingBack) {
          const next: RollingBack = { ...rollingBack, undone: before + p.undone };
          rollingBack = next;
          await update(store, opts.now?.() ?? nowIso, (d) => ({ ...d, rollingBack: next }));
        }
        return (await opts.afterChunk?.(p)) ?? false;
      },
    });
    if (r.done && rollingBack) await update(store, opts.now?.() ?? nowIso, (d) => ({ ...d, rollingBack: null }));
    return { ...r, depth: depth ?? r.undone };
  } catch (e) {
    if (e instanceof RollbackTooDeepError) Object.assign(e, { abandonedAbove: targetHeight ?? 0 });
    throw e;
  }
}
