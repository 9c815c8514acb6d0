/**
 * Sync bookkeeping: the checkpoint (the last block applied) and the undo journal of the last k blocks.
 * Both are written in the same batch as the documents they describe (see activities/sync/apply.ts).
 */
import { defineCollection } from '../store.js';

export interface CheckpointDoc {
  /** Always 'sync'. */
  _id: string;
  slot: number;
  /** Block hash of the last applied block. */
  id: string;
  height: number;
  /** Recent points (newest first, dense near the tip, sparser back) for findIntersection after a restart. */
  points: { slot: number; id: string; height: number }[];
  /** Chain tip as last reported by the source, for lag figures. */
  tip: { slot: number; id: string; height: number } | null;
  updatedAt: string;
}
export const CHECKPOINTS = defineCollection<CheckpointDoc>({ name: 'checkpoints' });

/** What to restore if block `blockId` is rolled back: each touched document's value before the block. */
export interface UndoDoc {
  /** Zero-padded height, so `_id` order is height order. */
  _id: string;
  height: number;
  slot: number;
  blockId: string;
  /** The point before this block (where a rollback of this block leaves the chain). */
  prev: { slot: number; id: string; height: number } | 'origin';
  priors: { coll: string; id: string; doc: ({ _id: string } & Record<string, unknown>) | null }[];
}
export const UNDO = defineCollection<UndoDoc>({ name: 'undo' });

export const undoId = (height: number) => String(height).padStart(12, '0');
