/**
 * USD candles convert at the ADA/USD rate the USD prices use: the adausd series the market sync writes is the
 * estimator of the rate now (mongo/collections/ada-usd.ts adaUsdFromPools: the ADA-weighted median of the deep
 * fiat-backed stablecoin pools), not a liquidity-weighted mean over USDM, DJED and iUSD. With two 1,000,000 ADA pools,
 * ADA/USDM at 0.70 and ADA/DJED at 0.50, the rate is USDM's 0.70 (DJED is algorithmic, left out while a fiat-backed
 * coin is deep); the mean would be 0.60, and a token's USD chart would sit a seventh below its priceUsd (on the
 * devnet, USDM's own USD chart closed at 1.028 beside its priceUsd of 1).
 */
import assert from 'node:assert/strict';
import { h } from '../market/chain.js';
import { wallet } from '../market/dex-txs.js';
import { ADA_SIDE, USDM_SIDE, usdMarket, type UsdMarket } from './usd-market.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const TOKEN = `${h('usd-candles-token').slice(0, 56)}544f4b`;
const RATE = Number(USDM_SIDE) / Number(ADA_SIDE);

describe('USD candles: converted at the ADA/USD rate of the USD prices', () => {
  let market: UsdMarket;
  let poolId: number;

  before(async () => {
    market = await usdMarket(TOKEN, wallet(12), 100_000_000n);
    poolId = ((await market.api.get(`/api/v1/tokens/${TOKEN}`)).body as Json).primaryPoolId;
  });
  after(() => market.close());

  it('the token’s USD price is its ADA price at 0.70 (USDM’s pool)', async () => {
    const { stats } = (await market.api.get(`/api/v1/tokens/${TOKEN}`)).body as Json;
    assert.ok(Math.abs(stats.priceUsd - stats.priceAda * RATE) < 1e-12 * stats.priceUsd, JSON.stringify(stats));
  });

  for (const path of [() => `/tokens/${TOKEN}/candles`, () => `/pools/${poolId}/candles`])
    it(`${path()
      .replace(/\/[^/]+\/candles/, '/{id}/candles')
      .replace('//', '/')}: every USD candle is its ADA candle × 0.70, not × the 0.60 mean with DJED`, async () => {
      for (const interval of ['1m', '1h', '1d']) {
        const ada = (await market.api.get(`/api/v1${path()}?interval=${interval}&quote=ADA`)).body as Json;
        const usd = (await market.api.get(`/api/v1${path()}?interval=${interval}&quote=USD`)).body as Json;
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
