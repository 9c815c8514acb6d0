/**
 * Candle reads scan the `_id` range (mongo/collections/market.ts): the same documents in the same order as the
 * bySeries index they replaced, for any range, on series whose names prefix each other (pool:1, pool:12).
 */
import assert from 'node:assert/strict';
import { candleId } from '../../activities/market/ids.js';
import { openMemoryStore } from '../../mongo/adapters/embedded.js';
import {
  CANDLES,
  candleBefore,
  candlesInRange,
  type CandleDoc,
  type CandleInterval,
} from '../../mongo/collections/market.js';

describe('candle reads by _id range (mongo/collections/market.ts)', () => {
  it('answer exactly what the bySeries index answers', async () => {
    const store = await openMemoryStore();
    try {
      const series = ['pool:1', 'pool:12', 'pool:1x', 'token:ab', 'adausd'];
      const intervals: CandleInterval[] = ['15m', '1h', '1d'];
      const docs: CandleDoc[] = [];
      for (const s of series)
        for (const interval of intervals)
          for (const time of [0, 900, 3600, 7200, 86_400, 1_795_662_900, 1_795_666_500, 999_999_999_999])
            if ((time / 900 + s.length + interval.length) % 3 !== 0)
              docs.push({
                _id: candleId(s, interval, time),
                series: s,
                interval,
                time,
                open: 1,
                high: 2,
                low: 0.5,
                close: 1.5,
                volumeLovelace: String(time),
                volumeTokenRaw: '0',
                trades: 1,
              });
      await store.ensureIndexes([CANDLES]);
      await store.write(docs.map((d) => ({ coll: CANDLES.name, put: { ...d } })));
      const byIndex = async (s: string, interval: CandleInterval, q: Record<string, number | undefined>) =>
        (
          await store.collection(CANDLES).find('bySeries', {
            eq: [s, interval],
            ...(q.from !== undefined ? { gte: q.from } : {}),
            ...(q.to !== undefined ? { lte: q.to } : {}),
            ...(q.before !== undefined ? { lt: q.before } : {}),
            reverse: true,
            ...(q.limit !== undefined ? { limit: q.limit } : {}),
          })
        ).reverse();
      const bounds = [-5, 0, 1, 899.5, 900, 3600, 86_400, 1_795_662_900, 1_795_666_499.2, 999_999_999_999, 2e12];
      let compared = 0;
      for (const s of series)
        for (const interval of intervals) {
          for (const from of [undefined, ...bounds])
            for (const to of bounds)
              for (const limit of [undefined, 1, 2]) {
                const got = await candlesInRange(store, s, interval, {
                  ...(from !== undefined ? { from } : {}),
                  to,
                  limit,
                });
                const want = from !== undefined && from > to ? [] : await byIndex(s, interval, { from, to, limit });
                assert.deepEqual(got, want, `${s} ${interval} [${from}, ${to}] limit ${limit}`);
                compared++;
              }
          for (const before of bounds) {
            const want = (await byIndex(s, interval, { before, limit: 1 }))[0] ?? null;
            assert.deepEqual(await candleBefore(store, s, interval, before), want, `${s} ${interval} before ${before}`);
          }
        }
      assert.ok(compared > 1000);
    } finally {
      await store.close();
    }
  });
});
