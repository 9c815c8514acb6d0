import assert from 'node:assert/strict';
import type { TxOutput } from '../../cardano/chain/types.js';
import type { WingRidersV2Order, WingRidersV2Pool } from '../../cardano/dex/wingriders-v2.js';
import { wingRidersV2Swap, wingridersV2 } from '../../cardano/dex/wingriders-v2.js';
import { block12069665, irisItems, irisOutput, realOutputIndex, realTx, resolverOf } from './fixtures.js';

const HOSKY = 'a0028f350aaabe0545fdcb56b039bfb08e4bb4d8c4d7c3c7d481c235484f534b59';
const USDM = 'c48cbb3d5e57ed56e276bc45f99ab39abe94e6cd7ac39fb402da47ad0014df105553444d';
const DJED = '8db269c3ec630e06ae29f74bc39edd1f87c819f1056206e879a1cd61446a65644d6963726f555344';

describe('WingRiders V2 pools', () => {
  it('decodes the ADA/USDM pool of the reference’s worked example: reserves = value − treasury − 3 ADA oil', () => {
    const tx = irisItems('wingriders-v2.test.json').filter((i) => i.kind === 'transaction');
    const p = wingridersV2.decodePool(irisOutput(tx[0]?.value.outputs[0] as never)) as WingRidersV2Pool;
    assert.equal(p.tokenA, 'lovelace');
    assert.equal(p.tokenB, USDM);
    assert.equal(p.reserveA, 312_714_818_586n);
    assert.equal(p.reserveB, 228_743_843_405n);
    assert.equal(p.extra.treasuryA, 52_011_420n);
    assert.deepEqual(p.fee, { aToB: 25n, bToA: 25n, denominator: 10000n }); // 20 swap + 5 protocol
    assert.equal(p.curve, 'constant-product');
    assert.equal(p.poolId, '93237c26780971289912e3fc907bd7b2cc1ca33ff248616e13299a1219be3ed0');
    assert.equal(p.totalLp, 9223372036854775807n - 9223371796191037094n);
  });

  it('decodes the DJED/USDM stableswap pool with its invariant parameters (no constant-product quote)', () => {
    const tx = irisItems('wingriders-v2.test.json').filter((i) => i.kind === 'transaction');
    const out = irisOutput(tx[1]?.value.outputs[0] as never);
    const p = wingridersV2.decodePool(out) as WingRidersV2Pool;
    assert.equal(p.curve, 'stable');
    assert.deepEqual([p.tokenA, p.tokenB], [DJED, USDM]);
    assert.deepEqual(p.extra.stable, { parameterD: 4252129729n, scaleA: 1n, scaleB: 1n });
    assert.equal(p.reserveA, 2_811_789_321n - 9_654_154n);
    assert.equal(wingridersV2.amountOut(p, DJED, 1_000_000n), null);
    assert.equal(wingridersV2.encodePoolDatum(p), out.datum);
  });

  it('decodes the stableswap pools of the iris stable fixture', () => {
    for (const t of irisItems('wingriders-stable-v2.test.json').filter((i) => i.kind === 'transaction'))
      for (const o of t.value.outputs) {
        const out = irisOutput(o);
        if (!wingridersV2.isPoolOutput(out)) continue;
        const p = wingridersV2.decodePool(out) as WingRidersV2Pool;
        assert.equal(p.curve, 'stable');
        assert.equal(wingridersV2.encodePoolDatum(p), out.datum);
      }
  });

  it('decodes the ADA/Talos pool of mainnet block 12069665 tx 1 (share tokens above 2^63 − 2^30)', () => {
    const out = block12069665()[1]?.outputs[0] as TxOutput;
    const p = wingridersV2.decodePool(out) as WingRidersV2Pool;
    assert.equal(p.poolId, 'a555e14a0b9dec3ab1e12ba68c0e381c7573649619998a1063ac0964d4451fe1');
    assert.equal(p.tokenB, '97bbb7db0baef89caefce61b8107ac74c7a7340166b39d906f174bec54616c6f73');
    assert.equal(p.totalLp, 9223372036854775807n - 9223372036166189232n);
    // This pool also has a project treasury (fields 14/15), which is not tradable either.
    assert.deepEqual([p.extra.treasuryA, p.extra.projectTreasuryA], [69_373_718n, 204_767_332n]);
    assert.equal(p.reserveA, 77_338_541_315n - 69_373_718n - 204_767_332n - 3_000_000n);
    assert.equal(p.reserveB, 10_994_248n - 9253n - 26_838n);
    assert.deepEqual(p.fee, { aToB: 100n, bToA: 100n, denominator: 10000n });
    assert.equal(wingridersV2.encodePoolDatum(p), out.datum);
  });
});

describe('WingRiders V2 request and batch (mainnet block 11322286 txs 36/37)', () => {
  const reqOut = realTx(11322286, 36).outputs[0] as TxOutput;
  const batch = realTx(11322286, 37);
  const pool = wingridersV2.decodePool(batch.outputs[0] as TxOutput) as WingRidersV2Pool;

  it('decodes the request: sell 6,000,000 HOSKY for at least 1,143,789 lovelace, 2 ADA oil', () => {
    const r = wingridersV2.decodeOrder(reqOut) as WingRidersV2Order;
    assert.equal(r.kind, 'swap');
    assert.equal(r.direction, 'bToA');
    assert.deepEqual([r.tokenIn, r.amountIn, r.tokenOut, r.minAmountOut], [HOSKY, 6_000_000n, 'lovelace', 1_143_789n]);
    assert.equal(r.extra.oil, 2_000_000n);
    assert.equal(
      r.owner,
      'addr1qxfrpkwsv9w08tx3fz0y5ed6qtdfndx3lz2q24s9wpgfq2htpc5jafx2qmdggw8e2wuc45x4upartrtr6mz5wl75v2ss0yvf0p',
    );
    assert.equal(wingridersV2.encodeOrderDatum(r), reqOut.datum);
  });

  it('extracts the swap at the price the pool paid (the agent topped up the compensation)', () => {
    const swaps = wingridersV2.extractSwaps(batch, resolverOf(realOutputIndex()));
    assert.equal(swaps.length, 1);
    const s = swaps[0];
    assert.ok(s);
    assert.deepEqual(
      [s.orderRef, s.poolId, s.tokenIn, s.amountIn, s.tokenOut, s.amountOut, s.side, s.outputIndex],
      [
        '112cae2f7633cafd4c934b450e79946e44d88bf6678d1f2c015b030f4df4ab1b#0',
        pool.poolId,
        HOSKY,
        6_000_000n,
        'lovelace',
        1_203_681n,
        'sell',
        1,
      ],
    );
    // The compensation output holds the 2 ADA oil plus more than the pool paid: 3.15 ADA beyond the swap.
    assert.equal((batch.outputs[1] as TxOutput).value.ada.lovelace - s.amountOut, 3_150_000n);
  });

  it('replays exactly: the state before the batch, swapped with the formula, lands on the new pool', () => {
    const fees = wingRidersV2Swap(pool, false, 6_000_000n);
    assert.equal(fees.protocolFee, 3000n); // ⌊6e6 · 5 / 10000⌋ moves to treasury B
    const before: WingRidersV2Pool = {
      ...pool,
      reserveA: pool.reserveA + 1_203_681n,
      reserveB: pool.reserveB - 6_000_000n + 3000n,
      extra: { ...pool.extra, treasuryB: pool.extra.treasuryB - 3000n },
    };
    assert.equal(wingridersV2.amountOut(before, HOSKY, 6_000_000n), 1_203_681n);
    assert.ok(before.reserveA * before.reserveB <= pool.reserveA * pool.reserveB, 'k does not decrease');
    assert.equal(wingridersV2.encodePoolDatum(pool), batch.outputs[0]?.datum);
  });
});
