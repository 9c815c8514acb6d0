/**
 * The undo journal and the checkpoint: how a slice is committed and how a RollBackward is undone.
 *
 * Commit order inside one write batch: undo records of the slice's blocks, then the documents, then the
 * checkpoint. The embedded store applies the batch atomically. MongoDB applies it in order, so after a crash the
 * store may hold undo records above the checkpoint with part of their documents written; `recoverIncomplete`
 * restores their priors, which yields exactly the state at the checkpoint.
 */
import { BLOCKS } from '../../mongo/collections/chain.js';
import { ALL_COLLECTIONS } from '../../mongo/collections/index.js';
import { CHECKPOINTS, UNDO, undoId, type CheckpointDoc, type UndoDoc } from '../../mongo/collections/sync-state.js';
import { put, type Store, type WriteOp } from '../../mongo/store.js';
import type { Point } from '../../cardano/chain/types.js';
import { priorOf, type Prior } from './slice-state.js';
import type { Doc } from './undo-patch.js';

/** Collections by name, to read the documents a field-level prior applies to. */
const SPECS = new Map(ALL_COLLECTIONS.map((c) => [c.name, c]));

export type StoredPoint = { slot: number; id: string; height: number };
export const CHECKPOINT_ID = 'sync';

export async function readCheckpoint(store: Store): Promise<CheckpointDoc | null> {
  return store.collection(CHECKPOINTS).get(CHECKPOINT_ID);
}

/**
 * Points for findIntersection after a restart: the newest blocks densely, then one per power-of-two distance,
 * newest first. Any of them within the undo window can be rolled back to.
 */
export function thinPoints(points: readonly StoredPoint[], tipHeight: number, dense = 16): StoredPoint[] {
  const sorted = [...new Map(points.map((p) => [p.id, p])).values()].sort((a, b) => b.height - a.height);
  const out: StoredPoint[] = [];
  const buckets = new Set<number>();
  for (const p of sorted) {
    if (p.height > tipHeight) continue;
    if (out.length < dense) {
      out.push(p);
      continue;
    }
    const bucket = Math.floor(Math.log2(Math.max(1, tipHeight - p.height)));
    if (!buckets.has(bucket)) {
      buckets.add(bucket);
      out.push(p);
    }
  }
  return out;
}

export function nextCheckpoint(
  prev: CheckpointDoc | null,
  applied: readonly StoredPoint[],
  tip: StoredPoint | null,
  nowIso: string,
): CheckpointDoc {
  const last = applied[applied.length - 1];
  if (!last) throw new Error('checkpointOps needs at least one applied block');
  const doc: CheckpointDoc = {
    _id: CHECKPOINT_ID,
    slot: last.slot,
    id: last.id,
    height: last.height,
    points: thinPoints([...applied.slice(-32), ...(prev?.points ?? [])], last.height),
    tip: tip ?? prev?.tip ?? null,
    updatedAt: nowIso,
  };
  return doc;
}

/**
 * Undo records older than k blocks below the new tip are dropped: the chain cannot roll back that far. The loop
 * covers the heights the slice advanced. Heights must be safe integers: from 2^53 on `h++` stops changing `h` and
 * the loop would run until out of memory (a generated Ogmios vector has height 6574977808651210019; mainnet is at
 * ~12 million), so such a height fails loudly instead.
 */
export function pruneOps(oldHeight: number, newHeight: number, k: number): WriteOp[] {
  if (!Number.isSafeInteger(oldHeight) || !Number.isSafeInteger(newHeight) || newHeight >= Number.MAX_SAFE_INTEGER)
    throw new RangeError(`block heights must be safe integers below 2^53: ${oldHeight} → ${newHeight}`);
  const ops: WriteOp[] = [];
  for (let h = Math.max(0, oldHeight - k + 1); h <= newHeight - k; h++) ops.push({ coll: UNDO.name, del: undoId(h) });
  return ops;
}

/**
 * The writes that restore every document of `records` to its value before the oldest of them: the priors applied
 * newest record first, starting from the documents as the store holds them (a field-level prior needs the current
 * document). One put or delete per document, with its final value; then `checkpoint` (if given), then the records
 * deleted. In that order a write interrupted part-way (MongoDB applies it command by command) is repaired by
 * running it again: before the checkpoint moved, the same records restore the same values (a prior sets a value,
 * so applying it twice is applying it once); after, the records left above the checkpoint are an incomplete batch
 * for recoverIncomplete. (Records deleted before the checkpoint moved would leave a journal too short for the
 * retried rollback: RollbackTooDeepError on a store that was fine.)
 */
async function restoreOps(store: Store, records: readonly UndoDoc[], checkpoint?: WriteOp): Promise<WriteOp[]> {
  const sorted = [...records].sort((a, b) => b.height - a.height);
  const current = new Map<string, Map<string, Doc | null>>();
  // Only field-level priors need the stored document; whole ones replace it.
  const wanted = new Map<string, Set<string>>();
  for (const rec of sorted)
    for (const p of rec.priors as Prior[]) {
      if (!current.has(p.coll)) current.set(p.coll, new Map());
      if ('doc' in p) continue;
      let ids = wanted.get(p.coll);
      if (!ids) wanted.set(p.coll, (ids = new Set()));
      ids.add(p.id);
    }
  for (const [coll, ids] of wanted) {
    const spec = SPECS.get(coll);
    if (!spec) throw new Error(`undo journal names collection ${coll}, which is not declared in ALL_COLLECTIONS`);
    const list = [...ids];
    const docs = await store.collection(spec).getMany(list);
    const m = current.get(coll) as Map<string, Doc | null>;
    list.forEach((id, i) => m.set(id, (docs[i] as Doc | null) ?? null));
  }
  for (const rec of sorted) {
    const priors = rec.priors as Prior[];
    for (let i = priors.length - 1; i >= 0; i--) {
      const p = priors[i] as Prior;
      const m = current.get(p.coll) as Map<string, Doc | null>;
      // A whole prior needs no current document; a field-level one was read above (or restored by a newer record).
      m.set(p.id, 'doc' in p ? p.doc : priorOf(p, m.get(p.id) ?? null));
    }
  }
  const ops: WriteOp[] = [];
  for (const [coll, m] of current) for (const [id, doc] of m) ops.push(doc ? { coll, put: doc } : { coll, del: id });
  if (checkpoint) ops.push(checkpoint);
  for (const rec of sorted) ops.push({ coll: UNDO.name, del: rec._id });
  return ops;
}

export class RollbackTooDeepError extends Error {
  override name = 'RollbackTooDeepError';
}

/**
 * Undo records per write of a rollback on a server store before the store's speed was measured: a few seconds to
 * half a minute on FerretDB (60-850 statements/s). A rollback of hundreds of devnet blocks written as one write
 * took 13 minutes there: longer than the slice activity's 10-minute start-to-close timeout, with the sync health
 * saying nothing of it.
 */
export const ROLLBACK_CHUNK_PRIORS = 1_000;

export interface RollbackOptions {
  /**
   * At most about this many priors (documents to restore) per write (at least one block's); Infinity = one write,
   * atomic on the embedded store.
   */
  chunkPriors?: number;
  /**
   * Called after each write with the blocks undone so far and the height the store is now at (a block of the
   * abandoned chain, with its checkpoint); true = stop here, the rest is undone by a later call with the same point.
   */
  afterChunk?: (p: { undone: number; height: number }) => boolean | Promise<boolean>;
  /** The time each write records (checkpoint `updatedAt`: a rollback of minutes is no silence); `nowIso` if not given. */
  now?: () => string;
}

/**
 * Roll the store back to `point` (a block it holds, or origin), newest blocks first, in writes of about
 * `chunkPriors` priors; each write leaves the store exactly at a block of the chain being undone, with the
 * checkpoint there. Returns the blocks undone and whether the store is at `point` (false: `afterChunk` stopped it).
 * Throws RollbackTooDeepError when the undo journal does not reach back that far.
 */
export async function rollbackTo(
  store: Store,
  point: Point,
  nowIso: string,
  opts: RollbackOptions = {},
): Promise<{ undone: number; done: boolean }> {
  const cp = await readCheckpoint(store);
  if (!cp) return { undone: 0, done: true };
  let target: StoredPoint | null = null;
  if (point !== 'origin') {
    if (point.id === cp.id) return { undone: 0, done: true };
    const b = await store.collection(BLOCKS).get(point.id);
    if (!b) throw new RollbackTooDeepError(`rollback point ${point.slot}.${point.id} is not a block of the store`);
    target = { slot: b.slot, id: b._id, height: b.height };
  }
  const records = await store.collection(UNDO).find('_id', { gt: undoId(target?.height ?? -1) });
  const expected = cp.height - (target?.height ?? 0);
  if (records.length < expected || (target === null && records[0]?.prev !== 'origin'))
    throw new RollbackTooDeepError(
      `rollback of ${expected} blocks exceeds the undo journal (${records.length} records)`,
    );
  const prevOfOldest = records[0]?.prev;
  if (target && prevOfOldest && prevOfOldest !== 'origin' && prevOfOldest.id !== target.id)
    throw new RollbackTooDeepError(`undo journal does not chain to ${target.id}`);
  // Newest first, in chunks of about chunkPriors priors (a block's records are never split).
  const limit = opts.chunkPriors ?? Number.POSITIVE_INFINITY;
  let undone = 0;
  for (let end = records.length; end > 0;) {
    let start = end - 1;
    let priors = (records[start] as UndoDoc).priors.length;
    while (start > 0 && priors + (records[start - 1] as UndoDoc).priors.length <= limit)
      priors += (records[--start] as UndoDoc).priors.length;
    const chunk = records.slice(start, end);
    const below = (chunk[0] as UndoDoc).prev;
    const at: StoredPoint | null = start === 0 ? target : below === 'origin' ? null : below;
    const checkpoint: WriteOp = at
      ? put(CHECKPOINTS, {
          ...cp,
          slot: at.slot,
          id: at.id,
          height: at.height,
          // The new position first: a restart intersects there (or, on another chain, further down).
          points: [at, ...cp.points.filter((p) => p.height < at.height)],
          updatedAt: opts.now?.() ?? nowIso,
        })
      : { coll: CHECKPOINTS.name, del: CHECKPOINT_ID };
    await store.write(await restoreOps(store, chunk, checkpoint));
    undone += chunk.length;
    end = start;
    if (end > 0 && (await opts.afterChunk?.({ undone, height: at?.height ?? 0 }))) return { undone, done: false };
  }
  return { undone, done: true };
}

/** Undo records above the checkpoint are left by an interrupted MongoDB batch: restore their priors. */
export async function recoverIncomplete(store: Store): Promise<number> {
  const cp = await readCheckpoint(store);
  const records = await store.collection(UNDO).find('_id', { gt: undoId(cp?.height ?? -1) });
  if (records.length === 0) return 0;
  await store.write(await restoreOps(store, records));
  return records.length;
}
