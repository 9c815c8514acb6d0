/**
 * The daily holder-count series is written by the holders sync extension (activities/holders/extension.ts): each
 * block that changes a token's count writes it as the point of the block's UTC day, so a day's point is the count at
 * the day's end, exact under rollbacks. The `holders-series` recompute (workflows/recompute-holders.ts, scheduled in
 * temporal/schedules.ts) only seeds a store synced before the extension wrote points: a token with a live count and
 * no point up to the indexed tip's day gets that day's point from its live count (holder_counts), which the series
 * then carries forward. On a store the extension filled it writes nothing. Reads holder_counts, holder_series,
 * checkpoints, blocks; writes holder_series.
 */
import {
  HOLDER_COUNTS,
  HOLDER_SERIES,
  dayStart,
  holderSeriesId,
  type HolderSeriesDoc,
} from '../../mongo/collections/holders.js';
import { asOfMs, storeClock } from '../../mongo/collections/clock.js';
import { put, type Store, type WriteOp } from '../../mongo/store.js';

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
    /** The indexed tip day's point for every token with holders and no point up to that day. */
    async snapshotHolderSeries(): Promise<{ tokens: number; day: number }> {
      const { checkpoint, tipMs } = await storeClock(store);
      // The counts are those of the indexed tip block; without one (an empty store: no counts either), the clock's.
      const day = dayStart(asOfMs(tipMs, now()));
      const slot = checkpoint?.slot ?? 0;
      let ops: WriteOp[] = [];
      let tokens = 0;
      const series = store.collection(HOLDER_SERIES);
      for await (const c of store.collection(HOLDER_COUNTS).scan()) {
        if ((await series.findKeys('byUnit', { eq: [c.unit], lte: day, limit: 1 })).length > 0) continue;
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
