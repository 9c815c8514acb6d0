/**
 * The daily holders series labels each point with the day its counts are of: the indexed tip's UTC day. An index
 * behind the chain (a catch-up from a start point, a chain source down across midnight) holds the counts of an
 * earlier day; written into the clock's day they showed a past count as today's, and once that day was over the
 * wrong point stayed for good (r18-live: on a live service the hourly run at start wrote "today" from a store two
 * days behind the chain).
 */
import assert from 'node:assert/strict';
import { createHoldersActivities } from '../../activities/holders/series.js';
import { HOLDER_COUNTS } from '../../mongo/collections/holders.js';
import { put, type WriteOp } from '../../mongo/store.js';
import { startTestApi } from '../api/seed.js';
import { HOUR, NOW_MS, TIP_SLOT, checkpointOps } from '../market-read/seed.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const UNIT = 'ee'.repeat(28) + Buffer.from('HELD').toString('hex');
const DAY_MS = 86_400_000;
/** UTC midnight (unix seconds) of the day holding `ms`: the oracle of each point's `time`. */
const utcDay = (ms: number) =>
  Date.UTC(new Date(ms).getUTCFullYear(), new Date(ms).getUTCMonth(), new Date(ms).getUTCDate()) / 1000;

const counted = (count: number, slot: number): WriteOp =>
  put(HOLDER_COUNTS, { _id: UNIT, unit: UNIT, count, supplyRaw: '1000', slot });

describe('holders series: the point of the day the counts are of', () => {
  it('an index behind the clock fills its own day, never today; today gets its point once the index reaches it', async () => {
    // The seed's tip block is at NOW_MS (12:00 UTC); the clock reads 01:00 UTC the next day: the index is 13 h behind.
    const wall = utcDay(NOW_MS) * 1000 + DAY_MS + HOUR * 1000;
    const api = await startTestApi(async (store) => store.write([...checkpointOps(0), counted(7, TIP_SLOT)]), {
      now: () => wall,
    });
    try {
      const series = createHoldersActivities({ store: api.store, now: () => wall });
      const points = async () =>
        ((await api.get(`/api/v1/tokens/${UNIT}/series/holders?days=2`)).body as Json).points as Json[];
      await series.snapshotHolderSeries();
      assert.deepEqual(await points(), [{ time: utcDay(NOW_MS), value: 7 }], 'the count of the tip day, on that day');
      // The index reaches 00:59:30 of the clock's day, where the token has 9 holders.
      const ahead = (wall - NOW_MS) / 1000 - 30;
      await api.store.write([...checkpointOps(0, ahead), counted(9, TIP_SLOT + ahead)]);
      await series.snapshotHolderSeries();
      assert.deepEqual(await points(), [
        { time: utcDay(NOW_MS), value: 7 },
        { time: utcDay(wall), value: 9 },
      ]);
    } finally {
      await api.close();
    }
  });
});
