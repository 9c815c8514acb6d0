/**
 * USD candles convert at the ADA/USD rate the USD prices use: the adausd series the market sync writes is the
 * estimator of the rate now (mongo/collections/ada-usd.ts adaUsdFromPools: the ADA-weighted median of the deep
 * fiat-backed stablecoin pools), not a liquidity-weighted mean over USDM, DJED and iUSD. With two 1,000,000 ADA pools,
 * ADA/USDM at 0.70 and ADA/DJED at 0.50, the rate is USDM's 0.70 (DJED is algorithmic, left out while a fiat-backed
 * coin is deep); the mean would be 0.60, and a token's USD chart would sit a seventh below its priceUsd (on the
 * devnet, USDM's own USD chart closed at 1.028 beside its priceUsd of 1).
 */
import assert from 'node:assert/strict';
import { createRecomputeActivities } from '../../activities/recompute/index.js';
import type { Block } from '../../cardano/chain/types.js';
import type { Store } from '../../mongo/store.js';
import { serveTestApp, type TestApi } from '../api/seed.js';
import { prepare } from './seed.js';
import { TEST_TIME } from '../sync/memory-chain.js';
import { ChainBuilder, h } from '../market/chain.js';
import { USDM, batch, createMinswapPool, placeOrders, wallet } from '../market/dex-txs.js';
import { syncMarket } from '../market/sync.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const DJED = '8db269c3ec630e06ae29f74bc39edd1f87c819f1056206e879a1cd61446a65644d6963726f555344';
const TOKEN = `${h('usd-candles-token').slice(0, 56)}544f4b`;
const ADA_SIDE = 1_000_000_000_000n; // 1,000,000 ADA in each stablecoin pool
const USDM_SIDE = 700_000_000_000n; // 700,000 USDM: 0.70 USD per ADA
const DJED_SIDE = 500_000_000_000n; // 500,000 DJED: 0.50 USD per ADA
const RATE = Number(USDM_SIDE) / Number(ADA_SIDE);

describe('USD candles: converted at the ADA/USD rate of the USD prices', () => {
  let store: Store;
  let api: TestApi;
  let poolId: number;

  before(async () => {
    const b = new ChainBuilder();
    const usdm = createMinswapPool(b, USDM, ADA_SIDE, USDM_SIDE);
    const djed = createMinswapPool(b, DJED, ADA_SIDE, DJED_SIDE);
    const tok = createMinswapPool(b, TOKEN, 50_000_000_000n, 1_000_000_000_000n);
    b.block([usdm.tx, djed.tx, tok.tx]);
    const orders = placeOrders(b, [
      { owner: wallet(12), poolId: tok.pool.poolId, token: TOKEN, buy: true, amount: 100_000_000n },
    ]);
    b.block([orders]);
    const last: Block = b.block([batch(b, `${tok.tx.id}#0`, [`${orders.id}#0`]).tx]);
    store = await syncMarket(b.clean());
    await prepare(store);
    const nowMs = TEST_TIME.startTimeMs + ((last.slot ?? 0) - TEST_TIME.startSlot) * 1000 + 60_000;
    await createRecomputeActivities({ store, now: () => nowMs }).recomputeTokenStats();
    api = await serveTestApp(store, { now: () => nowMs });
    poolId = ((await api.get(`/api/v1/tokens/${TOKEN}`)).body as Json).primaryPoolId;
  });
  after(async () => {
    await api.close();
    await store.close();
  });

  it('the token’s USD price is its ADA price at 0.70 (USDM’s pool)', async () => {
    const { stats } = (await api.get(`/api/v1/tokens/${TOKEN}`)).body as Json;
    assert.ok(Math.abs(stats.priceUsd - stats.priceAda * RATE) < 1e-12 * stats.priceUsd, JSON.stringify(stats));
  });

  for (const path of [() => `/tokens/${TOKEN}/candles`, () => `/pools/${poolId}/candles`])
    it(`${path()
      .replace(/\/[^/]+\/candles/, '/{id}/candles')
      .replace('//', '/')}: every USD candle is its ADA candle × 0.70, not × the 0.60 mean with DJED`, async () => {
      for (const interval of ['1m', '1h', '1d']) {
        const ada = (await api.get(`/api/v1${path()}?interval=${interval}&quote=ADA`)).body as Json;
        const usd = (await api.get(`/api/v1${path()}?interval=${interval}&quote=USD`)).body as Json;
        assert.equal(ada.candles.length, 1, `${interval}: the trade's bucket`);
        assert.equal(usd.candles.length, 1, `${interval}: the trade's bucket in USD`);
        const [a, u] = [ada.candles[0], usd.candles[0]];
        for (const k of ['open', 'high', 'low', 'close'])
          assert.ok(
            Math.abs(u[k] - a[k] * RATE) < 1e-12 * u[k],
            `${interval} ${k}: ${u[k]} USD, ADA ${a[k]} × ${RATE}`,
          );
        assert.equal(u.volume, a.volume, 'volume stays in ADA');
      }
    });
});
