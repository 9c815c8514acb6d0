/**
 * The daily holder-count series. The `holders-series` recompute (workflows/recompute-holders.ts, scheduled in
 * temporal/schedules.ts) copies every token's live count (holder_counts, kept by the sync) into the point of the UTC
 * day of the indexed tip block: the day the counts are of. Later runs overwrite it, so a day's point is the count at
 * that day's last indexed state. The day is the chain's, not the clock's: an index behind the chain (a catch-up, a
 * source down across midnight) holds the counts of an earlier day, and labelling them today would show a past count
 * as today's and leave it there for good once the day is over. Points are snapshots: a rollback changes the live
 * counts at once and the tip day's point at the next run, never past days. Reads holder_counts, checkpoints, blocks;
 * writes holder_series.
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
import { asOfMs, storeClock } from '../../mongo/collections/clock.js';
import { put, type Store, type WriteOp } from '../../mongo/store.js';

export { DAY_SECONDS, dayStart, readHolderSeries };
const WRITE_BATCH = 200;

export interface HoldersDeps {
  store: Store;
  /** Clock (unix ms); tests pin it. The day of the points is the indexed tip's, never after this clock's day. */
  now?: () => number;
}

export function createHoldersActivities(deps: HoldersDeps) {
  const { store } = deps;
  const now = deps.now ?? Date.now;
  return {
    /** The indexed tip day's point for every token with holders. */
    async snapshotHolderSeries(): Promise<{ tokens: number; day: number }> {
      const { checkpoint, tipMs } = await storeClock(store);
      // The counts are those of the indexed tip block; without one (an empty store: no counts either), the clock's.
      const day = dayStart(asOfMs(tipMs, now()));
      const slot = checkpoint?.slot ?? 0;
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
