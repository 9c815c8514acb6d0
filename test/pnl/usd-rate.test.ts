/**
 * Wallet PnL in USD costs a buy at the ADA/USD rate of the same estimator that values the open lots now: the
 * ADA-weighted median of the deep fiat-backed stablecoin pools (mongo/collections/ada-usd.ts adaUsdFromPools), not
 * the adausd series' liquidity-weighted mean over USDM, DJED and iUSD. With two 1,000,000 ADA pools, ADA/USDM at
 * 0.70 and ADA/DJED at 0.50, the rate is USDM's 0.70 (DJED is algorithmic, left out while a fiat-backed coin is
 * deep); the mean of both would be 0.60, and a position whose ADA value and ADA/USD never moved would show a USD
 * loss of a seventh of its cost.
 */
import assert from 'node:assert/strict';
import { stakeAddressOf } from '../../cardano/address.js';
import { minswapV2, type MinswapV2Pool } from '../../cardano/dex/minswap-v2.js';
import { WALLET_LOTS } from '../../mongo/collections/pnl.js';
import { h } from '../market/chain.js';
import { BATCHER_FEE, wallet } from '../market/dex-txs.js';
import { USDM_SIDE, usdMarket, type UsdMarket } from '../market-read/usd-market.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const TOKEN = `${h('usd-rate-token').slice(0, 56)}544f4b`;
const RATE = 0.7;
const BUY_LOVELACE = 100_000_000n; // 100 ADA
/** The buy's cost: the ADA swapped and the batcher's fee (the test chain's batch charges an order's full fee). */
const COST_LOVELACE = BUY_LOVELACE + BATCHER_FEE;
const COST_ADA = Number(COST_LOVELACE) / 1e6;

describe('wallet PnL in USD: a buy is costed at the ADA/USD rate its open lot is valued at', () => {
  let market: UsdMarket;
  const buyer = wallet(11);
  const maker = stakeAddressOf(buyer) as string;

  before(async () => {
    market = await usdMarket(TOKEN, buyer, BUY_LOVELACE);
    // The fixture's pools are what the figures below are computed from.
    assert.equal((minswapV2.decodePool(market.usdmTx.outputs[0]!) as MinswapV2Pool).reserveB, USDM_SIDE);
  });
  after(() => market.close());

  it('the lot’s USD cost is its ADA cost at 0.70 USD per ADA (USDM’s pool), not the 0.60 mean with DJED', async () => {
    const doc = await market.store.collection(WALLET_LOTS).get(maker);
    const lot = doc?.tokens.find((t) => t.unit === TOKEN)?.lots[0];
    assert.ok(lot, 'the buy opened a lot');
    assert.equal(lot.costLovelace, String(COST_LOVELACE));
    assert.ok(
      lot.costUsd !== null && Math.abs(lot.costUsd - COST_ADA * RATE) < 1e-9,
      `costUsd ${lot.costUsd}, want ${COST_ADA * RATE}`,
    );
  });

  it('the trade shows the fee the batcher took, exact in lovelace', async () => {
    const r = await market.api.get(`/api/v1/wallet/${maker}/trades`);
    assert.equal(r.status, 200);
    const [t] = (r.body as Json).items as Json[];
    assert.deepEqual([t?.status, t?.batcherFee, t?.batcherFeeLovelace], ['complete', 2, String(BATCHER_FEE)]);
  });

  it('the trade’s valueUsd is its ADA value at the same 0.70 (its PnL cost), on the wallet’s, pool’s and token’s lists', async () => {
    // Before, a trade read the adausd series' close of the minute before it: the pools' liquidity-weighted mean
    // (0.60 here, once a minute had closed; null for this trade, in the series' first minute). A wallet adding up its
    // trades' USD got another cost than its PnL, by the pools' spread (1.5 % on the devnet, a sign flip of some
    // realised USD figures: r23-wallet).
    const poolId = (((await market.api.get(`/api/v1/wallet/${maker}/trades`)).body as Json).items as Json[])[0]?.poolId;
    for (const path of [`/wallet/${maker}/trades`, `/tokens/${TOKEN}/trades`, `/pools/${poolId}/trades`]) {
      const r = await market.api.get(`/api/v1${path}`);
      assert.equal(r.status, 200, path);
      const [t] = (r.body as Json).items as Json[];
      assert.equal(t?.valueAda, Number(BUY_LOVELACE) / 1e6, path);
      assert.ok(Math.abs(t?.valueUsd - t?.valueAda * RATE) < 1e-9, `${path}: valueUsd ${t?.valueUsd}`);
    }
  });

  it('GET /wallet/{address}/pnl: with ADA/USD unchanged, unrealisedUsd is unrealisedAda × 0.70', async () => {
    const r = await market.api.get(`/api/v1/wallet/${maker}/pnl`);
    assert.equal(r.status, 200);
    const body = r.body as Json;
    assert.equal(body.adaUsd, RATE);
    assert.equal(body.costBasisAda, COST_ADA);
    assert.ok(Math.abs(body.costBasisUsd - COST_ADA * RATE) < 1e-9, `costBasisUsd ${body.costBasisUsd}`);
    assert.ok(
      Math.abs(body.unrealisedUsd - body.unrealisedAda * RATE) < 1e-9,
      `unrealisedUsd ${body.unrealisedUsd} vs unrealisedAda ${body.unrealisedAda} × 0.70`,
    );
  });
});
