/**
 * The undo journal and the checkpoint: how a slice is committed and how a RollBackward is undone.
 *
 * Commit order inside one write batch: undo records of the slice's blocks, then the documents, then the
 * checkpoint. The embedded store applies the batch atomically. MongoDB applies it in order, so after a crash the
 * store may hold undo records above the checkpoint with part of their documents written; `recoverIncomplete`
 * restores their priors, which yields exactly the state at the checkpoint.
 */
import { BLOCKS } from '../../mongo/collections/chain.js';
import { CHECKPOINTS, UNDO, undoId, type CheckpointDoc, type UndoDoc } from '../../mongo/collections/sync-state.js';
import { put, type Store, type WriteOp } from '../../mongo/store.js';
import type { Point } from '../../cardano/chain/types.js';

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

/** Undo records older than k blocks below the new tip are dropped: the chain cannot roll back that far. */
export function pruneOps(oldHeight: number, newHeight: number, k: number): WriteOp[] {
  const ops: WriteOp[] = [];
  for (let h = Math.max(0, oldHeight - k + 1); h <= newHeight - k; h++) ops.push({ coll: UNDO.name, del: undoId(h) });
  return ops;
}

/** Restore every document from the undo records above `height`, newest first. */
function restoreOps(records: readonly UndoDoc[]): WriteOp[] {
  const ops: WriteOp[] = [];
  for (const rec of [...records].sort((a, b) => b.height - a.height)) {
    for (const p of [...rec.priors].reverse())
      ops.push(p.doc ? { coll: p.coll, put: p.doc } : { coll: p.coll, del: p.id });
    ops.push({ coll: UNDO.name, del: rec._id });
  }
  return ops;
}

export class RollbackTooDeepError extends Error {
  override name = 'RollbackTooDeepError';
}

/**
 * Roll the store back to `point` (a block it holds, or origin). Returns the number of blocks undone.
 * Throws RollbackTooDeepError when the undo journal does not reach back that far.
 */
export async function rollbackTo(store: Store, point: Point, nowIso: string): Promise<number> {
  const cp = await readCheckpoint(store);
  if (!cp) return 0;
  let target: StoredPoint | null = null;
  if (point !== 'origin') {
    if (point.id === cp.id) return 0;
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
  const newCp: CheckpointDoc | null = target
    ? {
        ...cp,
        slot: target.slot,
        id: target.id,
        height: target.height,
        points: cp.points.filter((p) => p.height <= target.height),
        updatedAt: nowIso,
      }
    : null;
  if (target && prevOfOldest && prevOfOldest !== 'origin' && prevOfOldest.id !== target.id)
    throw new RollbackTooDeepError(`undo journal does not chain to ${target.id}`);
  const ops = restoreOps(records);
  ops.push(newCp ? put(CHECKPOINTS, newCp) : { coll: CHECKPOINTS.name, del: CHECKPOINT_ID });
  await store.write(ops);
  return records.length;
}

/** Undo records above the checkpoint are left by an interrupted MongoDB batch: restore their priors. */
export async function recoverIncomplete(store: Store): Promise<number> {
  const cp = await readCheckpoint(store);
  const records = await store.collection(UNDO).find('_id', { gt: undoId(cp?.height ?? -1) });
  if (records.length === 0) return 0;
  await store.write(restoreOps(records));
  return records.length;
}
