/**
 * The daily holder-count series. The `holders-series` recompute (workflows/recompute-holders.ts, scheduled in
 * temporal/schedules.ts) copies every token's live count (holder_counts, kept by the sync) into the point of the
 * current UTC day; later runs the same day overwrite it, so a day's point is the count at that day's last run.
 * Points are snapshots: a rollback changes the live counts at once and today's point at the next run, never past
 * days. Reads holder_counts, checkpoints; writes holder_series.
 */
import {
  DAY_SECONDS,
  HOLDER_COUNTS,
  HOLDER_SERIES,
  dayStart,
  holderSeriesId,
  readHolderSeries,
  type HolderSeriesDoc,
} from '../../mongo/collections/holders.js';
import { CHECKPOINTS } from '../../mongo/collections/sync-state.js';
import { put, type Store, type WriteOp } from '../../mongo/store.js';
import { CHECKPOINT_ID } from '../../mongo/collections/clock.js';

export { DAY_SECONDS, dayStart, readHolderSeries };
const WRITE_BATCH = 200;

export interface HoldersDeps {
  store: Store;
  /** Clock (unix ms); tests pin it. */
  now?: () => number;
}

export function createHoldersActivities(deps: HoldersDeps) {
  const { store } = deps;
  const now = deps.now ?? Date.now;
  return {
    /** Today's point for every token with holders. */
    async snapshotHolderSeries(): Promise<{ tokens: number; day: number }> {
      const day = dayStart(now());
      const slot = (await store.collection(CHECKPOINTS).get(CHECKPOINT_ID))?.slot ?? 0;
      let ops: WriteOp[] = [];
      let tokens = 0;
      for await (const c of store.collection(HOLDER_COUNTS).scan()) {
        const doc: HolderSeriesDoc = {
          _id: holderSeriesId(c.unit, day),
          unit: c.unit,
          time: day,
          holders: c.count,
          slot,
        };
        ops.push(put(HOLDER_SERIES, doc));
        tokens++;
        if (ops.length >= WRITE_BATCH) {
          await store.write(ops);
          ops = [];
        }
      }
      if (ops.length) await store.write(ops);
      return { tokens, day };
    },
  };
}

export type HoldersActivities = ReturnType<typeof createHoldersActivities>;

/** The series points of the last `days` UTC days (today included), oldest first; days without a snapshot are absent. */
