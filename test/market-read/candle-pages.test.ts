import assert from 'node:assert/strict';
import { CANDLES } from '../../mongo/collections/market.js';
import { put } from '../../mongo/store.js';
import { startTestApi, type TestApi } from '../api/seed.js';
import { MIN, NOW_MS, NOW_SEC, candle } from './seed.js';
import { XTK, seedScenario } from './scenario.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

/** The scenario's one 1m candle of pool 1 (2 min ago), and 2,500 older ones a minute apart before it. */
const LATEST = NOW_SEC - 2 * MIN;
const OLDER = 2500;
const TIMES = [...Array.from({ length: OLDER }, (_, i) => LATEST - (OLDER - i) * MIN), LATEST];

describe('candles: a range holding more than 1,000 candles says so and pages back with nextTo', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi(
      async (store) => {
        await seedScenario(store);
        await store.write(TIMES.slice(0, -1).map((t, i) => put(CANDLES, candle('pool:1', '1m', t, 4 + i / 1e4))));
      },
      { now: () => NOW_MS },
    );
  });
  after(() => api.close());
  const get = async (p: string) => {
    const r = await api.get(`/api/v1${p}`);
    assert.equal(r.status, 200, `${p}: ${JSON.stringify(r.body)}`);
    return r.body as Json;
  };

  for (const route of ['/pools/1/candles?interval=1m', `/tokens/${XTK}/candles?interval=1m&pool=1`]) {
    it(`${route.split('?')[0]}: the latest 1,000 first, then older pages until truncated is false`, async () => {
      const from = TIMES[0]!;
      const seen: number[] = [];
      const pages: Json[] = [];
      let to: number | null = NOW_SEC;
      while (to !== null) {
        const page = await get(`${route}&from=${from}&to=${to}`);
        pages.push(page);
        seen.unshift(...(page.candles as Json[]).map((c) => c.time as number));
        to = page.nextTo as number | null;
        assert.ok(pages.length <= 3, 'three pages hold 2,501 candles');
      }
      assert.deepEqual(
        pages.map((p) => [p.candles.length, p.truncated]),
        [
          [1000, true],
          [1000, true],
          [501, false],
        ],
      );
      // Each page's nextTo is one second before its oldest candle; the pages join without gap or overlap.
      assert.equal(pages[0]!.nextTo, pages[0]!.candles[0].time - 1);
      assert.equal(pages[0]!.candles.at(-1).time, LATEST, 'the first page ends at the newest candle');
      assert.deepEqual(seen, TIMES);
    });
  }

  it('the default range (the latest 1,000 intervals) and a range of exactly 1,000 candles are not truncated', async () => {
    const recent = await get('/pools/1/candles?interval=1m');
    assert.equal(recent.truncated, false);
    assert.equal(recent.nextTo, null);
    // The last 1,000 minutes up to now: the newest candle is 2 minutes old, so 998 of them have one.
    assert.equal(recent.candles.length, 998);
    assert.equal(recent.candles[0].time, NOW_SEC - 999 * MIN);
    const exact = await get(`/pools/1/candles?interval=1m&from=${LATEST - 999 * MIN}&to=${LATEST}`);
    assert.deepEqual([exact.candles.length, exact.truncated, exact.nextTo], [1000, false, null]);
    const oneMore = await get(`/pools/1/candles?interval=1m&from=${LATEST - 1000 * MIN}&to=${LATEST}`);
    assert.deepEqual([oneMore.candles.length, oneMore.truncated, oneMore.nextTo], [1000, true, LATEST - 999 * MIN - 1]);
  });
});
