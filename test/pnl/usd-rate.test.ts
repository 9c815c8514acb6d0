/**
 * Wallet PnL in USD costs a buy at the ADA/USD rate of the same estimator that values the open lots now: the
 * ADA-weighted median of the deep fiat-backed stablecoin pools (mongo/collections/ada-usd.ts adaUsdFromPools), not
 * the adausd series' liquidity-weighted mean over USDM, DJED and iUSD. With two 1,000,000 ADA pools, ADA/USDM at
 * 0.70 and ADA/DJED at 0.50, the rate is USDM's 0.70 (DJED is algorithmic, left out while a fiat-backed coin is
 * deep); the mean of both would be 0.60, and a position whose ADA value and ADA/USD never moved would show a USD
 * loss of a seventh of its cost.
 */
import assert from 'node:assert/strict';
import { createRecomputeActivities } from '../../activities/recompute/index.js';
import { stakeAddressOf } from '../../cardano/address.js';
import type { Block } from '../../cardano/chain/types.js';
import { minswapV2, type MinswapV2Pool } from '../../cardano/dex/minswap-v2.js';
import { WALLET_LOTS } from '../../mongo/collections/pnl.js';
import type { Store } from '../../mongo/store.js';
import { serveTestApp, type TestApi } from '../api/seed.js';
import { prepare } from '../market-read/seed.js';
import { TEST_TIME } from '../sync/memory-chain.js';
import { ChainBuilder, h } from '../market/chain.js';
import { BATCHER_FEE, USDM, batch, createMinswapPool, placeOrders, wallet } from '../market/dex-txs.js';
import { syncMarket } from '../market/sync.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const DJED = '8db269c3ec630e06ae29f74bc39edd1f87c819f1056206e879a1cd61446a65644d6963726f555344';
const TOKEN = `${h('usd-rate-token').slice(0, 56)}544f4b`;
const ADA_SIDE = 1_000_000_000_000n; // 1,000,000 ADA in each stablecoin pool
const USDM_SIDE = 700_000_000_000n; // 700,000 USDM: 0.70 USD per ADA
const DJED_SIDE = 500_000_000_000n; // 500,000 DJED: 0.50 USD per ADA
const RATE = 0.7;
const BUY_LOVELACE = 100_000_000n; // 100 ADA
/** The buy's cost: the ADA swapped and the batcher's fee (the test chain's batch charges an order's full fee). */
const COST_LOVELACE = BUY_LOVELACE + BATCHER_FEE;
const COST_ADA = Number(COST_LOVELACE) / 1e6;

describe('wallet PnL in USD: a buy is costed at the ADA/USD rate its open lot is valued at', () => {
  let store: Store;
  let api: TestApi;
  const buyer = wallet(11);
  const maker = stakeAddressOf(buyer) as string;

  before(async () => {
    const b = new ChainBuilder();
    const usdm = createMinswapPool(b, USDM, ADA_SIDE, USDM_SIDE);
    const djed = createMinswapPool(b, DJED, ADA_SIDE, DJED_SIDE);
    const tok = createMinswapPool(b, TOKEN, 50_000_000_000n, 1_000_000_000_000n);
    b.block([usdm.tx, djed.tx, tok.tx]);
    const orders = placeOrders(b, [
      { owner: buyer, poolId: tok.pool.poolId, token: TOKEN, buy: true, amount: BUY_LOVELACE },
    ]);
    b.block([orders]);
    const last: Block = b.block([batch(b, `${tok.tx.id}#0`, [`${orders.id}#0`]).tx]);
    store = await syncMarket(b.clean());
    await prepare(store);
    const nowMs = TEST_TIME.startTimeMs + ((last.slot ?? 0) - TEST_TIME.startSlot) * 1000 + 60_000;
    await createRecomputeActivities({ store, now: () => nowMs }).recomputeTokenStats();
    api = await serveTestApp(store, { now: () => nowMs });
    // The fixture's pools are what the figures below are computed from.
    assert.equal((minswapV2.decodePool(usdm.tx.outputs[0]!) as MinswapV2Pool).reserveB, USDM_SIDE);
  });
  after(async () => {
    await api.close();
    await store.close();
  });

  it('the lot’s USD cost is its ADA cost at 0.70 USD per ADA (USDM’s pool), not the 0.60 mean with DJED', async () => {
    const doc = await store.collection(WALLET_LOTS).get(maker);
    const lot = doc?.tokens.find((t) => t.unit === TOKEN)?.lots[0];
    assert.ok(lot, 'the buy opened a lot');
    assert.equal(lot.costLovelace, String(COST_LOVELACE));
    assert.ok(
      lot.costUsd !== null && Math.abs(lot.costUsd - COST_ADA * RATE) < 1e-9,
      `costUsd ${lot.costUsd}, want ${COST_ADA * RATE}`,
    );
  });

  it('the trade shows the fee the batcher took, exact in lovelace', async () => {
    const r = await api.get(`/api/v1/wallet/${maker}/trades`);
    assert.equal(r.status, 200);
    const [t] = (r.body as Json).items as Json[];
    assert.deepEqual([t?.status, t?.batcherFee, t?.batcherFeeLovelace], ['complete', 2, String(BATCHER_FEE)]);
  });

  it('the trade’s valueUsd is its ADA value at the same 0.70 (its PnL cost), on the wallet’s, pool’s and token’s lists', async () => {
    // Before, a trade read the adausd series' close of the minute before it: the pools' liquidity-weighted mean
    // (0.60 here, once a minute had closed; null for this trade, in the series' first minute). A wallet adding up its
    // trades' USD got another cost than its PnL, by the pools' spread (1.5 % on the devnet, a sign flip of some
    // realised USD figures: r23-wallet).
    const poolId = (((await api.get(`/api/v1/wallet/${maker}/trades`)).body as Json).items as Json[])[0]?.poolId;
    for (const path of [`/wallet/${maker}/trades`, `/tokens/${TOKEN}/trades`, `/pools/${poolId}/trades`]) {
      const r = await api.get(`/api/v1${path}`);
      assert.equal(r.status, 200, path);
      const [t] = (r.body as Json).items as Json[];
      assert.equal(t?.valueAda, Number(BUY_LOVELACE) / 1e6, path);
      assert.ok(Math.abs(t?.valueUsd - t?.valueAda * RATE) < 1e-9, `${path}: valueUsd ${t?.valueUsd}`);
    }
  });

  it('GET /wallet/{address}/pnl: with ADA/USD unchanged, unrealisedUsd is unrealisedAda × 0.70', async () => {
    const r = await api.get(`/api/v1/wallet/${maker}/pnl`);
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
