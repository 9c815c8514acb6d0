/**
 * A DEX's typical batcher fee: the median of the fees its orders were charged in the 24 h ending at the indexed tip
 * (the trades' batcherFeeLovelace), shown per DEX in the market overview and carried by every pool of the DEX into
 * the swap quote's routes. The oracle is the trade list below, its medians taken by hand.
 */
import assert from 'node:assert/strict';
import { createRecomputeActivities } from '../../activities/recompute/index.js';
import { typicalOrderFee } from '../../cardano/dex/order-fee.js';
import { startTestApi } from '../api/seed.js';
import { DAY, HOUR, MIN, NOW_MS, USDM, checkpointOps, meta, prepare, putAll, slotAt, token, trade } from './seed.js';
import { POOL1, POOL2, STABLE_POOL, XTK } from './scenario.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const fee = (lovelace: number | null, t: Parameters<typeof trade>[0]) =>
  trade({ ...t, batcherFeeLovelace: lovelace === null ? null : String(lovelace) });

/**
 * Minswap V2 (pools 1 and 3): 0.7, 1 and 1 ADA in the last 24 h → 1 ADA; a 5 ADA fee 2 days ago and a trade whose
 * fee could not be told are not counted. SundaeSwap V3 (pool 2): 0.334 and 0.279 ADA (a scoop's shared fee) → the
 * lower middle, 0.279 ADA, a fee a batcher took. Pool 3 has no trade: it carries its DEX's figure.
 */
const TRADES = [
  fee(5_000_000, { id: 201, token: XTK, slot: slotAt(2 * DAY) }),
  fee(700_000, { id: 202, token: XTK, slot: slotAt(20 * HOUR) }),
  fee(1_000_000, { id: 203, token: XTK, slot: slotAt(3 * HOUR) }),
  fee(null, { id: 204, token: XTK, slot: slotAt(2 * HOUR) }),
  fee(1_000_000, { id: 205, token: XTK, slot: slotAt(MIN) }),
  fee(334_000, { id: 206, token: XTK, slot: slotAt(30 * MIN), poolId: 2, dex: 'sundaeswap-v3' }),
  fee(279_000, { id: 207, token: XTK, slot: slotAt(30 * MIN), poolId: 2, dex: 'sundaeswap-v3' }),
];

describe('batcher fees: each DEX’s median of the last 24 h, in the market overview and the quote', () => {
  it('the median is one of the fees charged (the lower middle of an even count)', () => {
    assert.equal(typicalOrderFee([]), null);
    assert.equal(typicalOrderFee([1_000_000n, 700_000n, 1_000_000n]), 1_000_000n);
    assert.equal(typicalOrderFee([334_000n, 279_000n]), 279_000n);
  });

  it('GET /market/overview names each DEX’s fee; a quote through a pool without trades carries its DEX’s', async () => {
    const api = await startTestApi(
      async (store) => {
        await prepare(store);
        await store.write([
          ...checkpointOps(),
          ...putAll.pools([POOL1, POOL2, STABLE_POOL]),
          ...putAll.tokens([
            token(XTK, { poolIds: [1, 2], primaryPoolId: 1 }),
            token(USDM, { poolIds: [3], primaryPoolId: 3 }),
          ]),
          meta(XTK, 'XTK', 4),
          meta(USDM, 'USDM', 6),
          ...putAll.trades(TRADES),
        ]);
      },
      { now: () => NOW_MS },
    );
    try {
      const acts = createRecomputeActivities({ store: api.store, now: () => NOW_MS });
      await acts.recomputeTokenStats();
      await acts.recomputeRankings();
      await acts.recomputeMarketOverview();
      const overview = (await api.get('/api/v1/market/overview?logos=url')).body as Json;
      const byDex = new Map((overview.dexes as Json[]).map((d) => [d.dex, [d.batcherFee, d.batcherFeeLovelace]]));
      assert.deepEqual(byDex.get('minswap-v2'), [1, '1000000']);
      assert.deepEqual(byDex.get('sundaeswap-v3'), [0.279, '279000']);
      const md = (await api.get('/api/md/market', { accept: 'text/markdown' })).body as string;
      assert.match(md, /\| minswap-v2 \|[^\n]*\| 1 \|\n/);
      assert.match(md, /\| sundaeswap-v3 \|[^\n]*\| 0\.279 \|\n/);

      const quote = (await api.get(`/api/v1/swap/quote?in=lovelace&out=${USDM}&amount=10&logos=url`)).body as Json;
      assert.equal(quote.best.hops[0].poolId, 3);
      assert.equal(quote.best.batcherFeeLovelace, '1000000');
      // XTK → USDM: two orders (a SundaeSwap or Minswap one, then Minswap's), each at its DEX's fee.
      const two = (await api.get(`/api/v1/swap/quote?in=${XTK}&out=${USDM}&amount=10&logos=url`)).body as Json;
      for (const r of two.routes as Json[]) {
        const hand = (r.hops as Json[]).reduce((s, h) => s + (h.dex === 'sundaeswap-v3' ? 279_000 : 1_000_000), 0);
        assert.equal(r.batcherFeeLovelace, String(hand), JSON.stringify(r.hops.map((h: Json) => h.poolId)));
      }
      assert.equal(two.routes.length, 2);
    } finally {
      await api.close();
    }
  });
});
