import assert from 'node:assert/strict';
import type { TxOutput } from '../../cardano/chain/types.js';
import { baseAddress } from '../../cardano/address.js';
import { decodeCbor, encodeCborHex as encodeItem } from '../../cardano/dex/cbor.js';
import { decodeTxOutputCbor } from '../../cardano/dex/output-cbor.js';
import { decodePlutusData } from '../../cardano/dex/plutus-data.js';
import type { SplashOrder, SplashPool } from '../../cardano/dex/splash.js';
import { applySplashSwap, decodeSplashOrderDatum, decodeSplashPoolDatum, splash } from '../../cardano/dex/splash.js';
import { irisItems, irisOutput, readJson, realOutputIndex, realTx, resolverOf } from './fixtures.js';

const CODEX = '768eb235da972c81180ebf35d415fccd437185f7b402feb39befe71e434f444558';
const CODEX_POOL =
  'd8eb52caf3289a2880288b23141ce3d2a7025dcf76f26fd5659add06db9ebbae37d3e829933aec961b11d604fc9a95b8fa68ae26c2d171d280bd0e3a';

interface Vector {
  file: string;
  name: string;
  hex: string;
}
const vectors = () => readJson<{ items: Vector[] }>('dex/splash/rust-test-vectors.json').items;
const vector = (file: string, name: string) => {
  const v = vectors().find((x) => x.file.endsWith(file) && x.name === name);
  assert.ok(v, `${file} ${name}`);
  return v;
};

describe('Splash Rust test vectors', () => {
  it('decodes the grid order UTxO at the grid script (bid: ADA → OPTIM)', () => {
    const out = decodeTxOutputCbor(vector('grid.rs', 'UTXO').hex);
    const o = splash.decodeOrder(out) as SplashOrder;
    assert.equal(o.extra.type, 'grid');
    assert.equal(o.tokenOut, 'e52964af4fffdb54504859875b1827b60ba679074996156461143dc14f5054494d');
    assert.equal(o.tokenIn, 'lovelace');
    assert.equal(o.amountIn, 20_000_000n);
    assert.equal(splash.encodeOrderDatum(o), out.datum);
    const same = decodeSplashOrderDatum(decodePlutusData(vector('grid.rs', 'DATUM').hex), true);
    assert.deepEqual(same.extra, o.extra);
  });

  it('decodes every spot-order datum and the mainnet order UTxO (Charles the Chad, 318.99 ADA tradable)', () => {
    for (const name of ['DT', 'DATA', 'DATUM']) {
      const hex = vector('limit.rs', name).hex;
      const o = decodeSplashOrderDatum(decodePlutusData(hex), false);
      assert.equal(o.extra.type, 'spot');
      assert.equal(splash.encodeOrderDatum(o), hex);
    }
    const out = decodeTxOutputCbor(vector('limit.rs', 'ORDER_UTXO').hex);
    const o = splash.decodeOrder(out) as SplashOrder;
    assert.deepEqual(
      [o.tokenIn, o.amountIn, o.tokenOut, o.minAmountOut],
      [
        'lovelace',
        318_992_042n,
        '97075bf380e65f3c63fb733267adbb7d42eec574428a754d2abca55b436861726c6573207468652043686164',
        38_162n,
      ],
    );
    assert.equal(
      o.owner,
      baseAddress(
        'mainnet',
        'aabb78d6719fa76d47849659dd2a8ad211824b895c0109bef8d1d9a4',
        'de84e72d9d32321535c7f79824766728c1000a2f050b57c63ab3f0d4',
      ),
    );
    assert.equal(o.deposit, 325_115_928n - 318_992_042n - 123_886n - 900_000n);
  });

  it('decodes the fee-switch pool UTxO (all of its value is treasury: nothing tradable)', () => {
    const out = decodeTxOutputCbor(vector('cfmm_pool.rs', 'POOL_UTXO').hex);
    const p = splash.decodePool(out) as SplashPool;
    assert.equal(p.extra.kind, 'cfmm-fee-switch');
    assert.equal(p.poolId, 'c05d4f6397a95b48d0c8a54bf4f0d955f9638d26d7d77d02081c15914e696b655f4144415f4e4654');
    assert.deepEqual([p.reserveA, p.reserveB, p.totalLp], [0n, 0n, 0n]);
    assert.deepEqual(p.fee, { aToB: 100000n - 98200n + 180n, bToA: 1980n, denominator: 100000n });
    assert.equal(splash.encodePoolDatum(p), out.datum);
  });

  it('decodes the weighted (balance) and stable pool datum samples', () => {
    const w = decodeSplashPoolDatum(decodePlutusData(vector('balance_pool.rs', 'DATUM_SAMPLE').hex), 'weighted');
    assert.deepEqual(
      [w.extra.weightX, w.extra.weightY, w.extra.lpFeeNumX, w.extra.treasuryFeeNum],
      [1n, 4n, 99970n, 10n],
    );
    assert.equal(w.x, 'lovelace');
    const s = decodeSplashPoolDatum(decodePlutusData(vector('stable_pool_t2t.rs', 'DATUM_SAMPLE').hex), 'stable');
    assert.deepEqual(
      [s.extra.an2n, s.extra.lpFeeNumX, s.extra.treasuryFeeNum, s.extra.treasuryX],
      [3200n, 99970n, 10n, 0n],
    );
    assert.equal(s.y, '4b3459fd18a1dbabe207cd19c9951a9fac9f5c0f9c384e3d97efba267465737443');
  });

  it('reads the remaining UTxO vectors (DAO request, snek.fun bonding-curve pool, royalty withdraw) as no trading pool', () => {
    for (const file of ['dao_request.rs', 'degen_quadratic_pool.rs', 'royalty_pool.rs']) {
      const out = decodeTxOutputCbor(vector(file, file === 'dao_request.rs' ? 'ORDER_UTXO' : 'POOL_UTXO').hex);
      assert.ok(out.datum);
      assert.equal(splash.decodePool(out), null);
      assert.equal(splash.decodeOrder(out), null);
    }
  });
});

describe('Splash DexHunter order (real mainnet unsigned tx)', () => {
  it('decodes output 0: sell 4,507,285 HUNT for ADA at base price 1256701/4507285', () => {
    const f = readJson<{ txCbor: string }>('dex/splash/dexhunter-splash-limit-order-tx.mainnet.json');
    const tx = decodeCbor(f.txCbor);
    assert.equal(tx.t, 'array');
    const body = tx.v[0];
    assert.ok(body?.t === 'map');
    const outputs = body.v.find(([k]) => k.t === 'int' && k.v === 1n)?.[1];
    assert.ok(outputs?.t === 'array');
    // Re-serialising a decoded CBOR item is exact, so an output can be cut out of the tx body.
    const out = decodeTxOutputCbor(encodeItem(outputs.v[0] as never));
    const o = splash.decodeOrder(out) as SplashOrder;
    assert.deepEqual(
      [o.tokenIn, o.amountIn, o.tokenOut, o.minAmountOut],
      ['95a427e384527065f2f8946f5e86320d0117839a5e98ea2c0b55fb0048554e54', 4_507_285n, 'lovelace', 1_256_701n],
    );
    assert.ok(o.extra.type === 'spot');
    assert.deepEqual(o.extra.basePrice, { num: 1_256_701n, den: 4_507_285n });
    assert.equal(o.extra.fee, 0n);
    assert.equal(o.deposit, 2_000_000n);
    assert.deepEqual(o.extra.permittedExecutors, ['2f9ff04d8914bf64d671a03d34ab7937eb417831ea6b9f7fbcab96f5']);
    // The order pays back to the wallet that placed it: the tx’s change output (output 1 is the aggregator fee).
    const change = decodeTxOutputCbor(encodeItem(outputs.v[2] as never));
    assert.equal(o.owner, change.address);
    assert.equal(splash.encodeOrderDatum(o), out.datum);
  });
});

describe('Splash pools (iris golden values)', () => {
  it('decodes cfmm v4/v5 (fee switch), v6 (royalty) and weighted pools: ids, fees, treasuries', () => {
    for (const file of ['splash.test.json', 'spectrum.test.json']) {
      const items = irisItems(file);
      for (let i = 0; i < items.length; i++) {
        const exp = items[i];
        if (exp?.kind !== 'expected') continue;
        const e = exp.value as unknown as Record<string, unknown> & {
          id: string;
          x: { amount: string };
          y: { amount: string };
          lq: { amount: string };
          outputId: { transactionIndex: number };
        };
        const tx = items.find((t) => t.kind === 'transaction' && t.test === exp.test);
        const o = tx?.value.outputs.find((x) => x.index === e.outputId.transactionIndex);
        assert.ok(o, String(exp.test));
        const out = irisOutput(o);
        const p = splash.decodePool(out) as SplashPool;
        assert.ok(p, String(exp.test));
        assert.equal(p.poolId, e.id.replace('.', ''));
        const treasuryX = BigInt(String(e['treasuryX'] ?? 0));
        const royaltyX = BigInt(String(e['royaltyX'] ?? 0));
        assert.equal(p.reserveA, BigInt(e.x.amount) - treasuryX - royaltyX, String(exp.test));
        assert.equal(
          p.reserveB,
          BigInt(e.y.amount) - BigInt(String(e['treasuryY'] ?? 0)) - BigInt(String(e['royaltyY'] ?? 0)),
        );
        assert.equal(p.extra.lpFeeNumX, BigInt(String(e['poolFeeNumX'])));
        assert.equal(p.extra.treasuryFeeNum, BigInt(String(e['treasuryFee'])));
        assert.equal(p.totalLp, 9223372036854775807n - BigInt(e.lq.amount));
        // The golden weighted pools are 20/80 (ADA 1 : token 4): the weights price them, not the reserve ratio.
        if (e['poolType'] === 'weighted') {
          assert.equal(p.curve, 'weighted');
          assert.deepEqual(p.weights, { a: 1n, b: 4n }, String(exp.test));
        } else assert.equal(p.weights, undefined);
        assert.equal(splash.encodePoolDatum(p), out.datum);
      }
    }
  });
});

describe('Splash stable pools (iris golden values)', () => {
  it('a stable pool reports the fee it takes: lp_fee_num 100 of 100000 is 0.1 %, not 99.9 %', () => {
    const items = irisItems('splash-stable.test.json');
    let checked = 0;
    for (const exp of items) {
      if (exp.kind !== 'expected') continue;
      const e = exp.value as unknown as {
        id: string;
        feePercent: number;
        lpFeeNumerator: number;
        feeDenominator: number;
        y: { asset: string };
        outputId: { transactionIndex: number };
      };
      const tx = items.find((t) => t.kind === 'transaction' && t.test === exp.test);
      const o = tx?.value.outputs.find((x) => x.index === e.outputId.transactionIndex);
      assert.ok(o, String(exp.test));
      // iris serialises the pool's y token (a policy with an empty asset name) as `{}`; its expected value names it.
      const assets = o.assetBalances.map((a) => (a.asset.unit ? a : { ...a, asset: { unit: e.y.asset } }));
      const p = splash.decodePool(irisOutput({ ...o, assetBalances: assets })) as SplashPool;
      assert.equal(p.curve, 'stable');
      assert.equal(p.extra.lpFeeNumX, BigInt(e.lpFeeNumerator));
      assert.equal(p.fee.denominator, BigInt(e.feeDenominator));
      for (const f of [p.fee.aToB, p.fee.bToA])
        assert.equal((Number(f) / Number(p.fee.denominator)) * 100, e.feePercent, String(exp.test));
      checked++;
    }
    assert.ok(checked > 0, 'the vector has stable pools');
  });
});

describe('Splash executions (mainnet block 11322286)', () => {
  const utxo = realOutputIndex();

  it('tx 41 spends the CODEX/ADA royalty pool of tx 19 and the order of tx 40: 150 ADA → 1,977,095 CODEX', () => {
    const swaps = splash.extractSwaps(realTx(11322286, 41), resolverOf(utxo));
    assert.equal(swaps.length, 1);
    const s = swaps[0];
    assert.ok(s);
    assert.deepEqual(
      [s.orderRef, s.poolId, s.tokenIn, s.amountIn, s.tokenOut, s.amountOut, s.side, s.outputIndex],
      [
        'f2db134c708c32286006cd0b2166e7d08a5f3954df7c106bc9c3a41c158d27c9#0',
        CODEX_POOL,
        'lovelace',
        150_000_000n,
        CODEX,
        1_977_095n,
        'buy',
        1,
      ],
    );
    assert.equal(
      s.trader,
      'addr1q88kcjd795fn7vdrrkpzh9z975w8glk9ap5fn20jd58kwezg6wh6g55vzjlk4dtq20mr9kh8h28jnhaht6ewtvwn0rlqkzm54h',
    );
  });

  it('matches the pool formula exactly, including treasury and royalty accrual (lp 99100 − 50 − 50)', () => {
    const before = splash.decodePool(realTx(11322286, 19).outputs[1] as TxOutput) as SplashPool;
    const after = splash.decodePool(realTx(11322286, 41).outputs[0] as TxOutput) as SplashPool;
    assert.equal(splash.amountOut(before, 'lovelace', 150_000_000n), 1_977_095n);
    const applied = applySplashSwap(before, true, 150_000_000n);
    assert.deepEqual([applied.pool.reserveA, applied.pool.reserveB], [after.reserveA, after.reserveB]);
    assert.deepEqual(
      [applied.pool.extra.treasuryX, applied.pool.extra.royaltyX],
      [after.extra.treasuryX, after.extra.royaltyX],
    );
    assert.ok(after.reserveA * after.reserveB >= before.reserveA * before.reserveB);
  });

  it('tx 19 fills the order of tx 18 against the same pool (pool input unknown): 20 ADA → 266,554 CODEX', () => {
    const swaps = splash.extractSwaps(realTx(11322286, 19), resolverOf(utxo));
    assert.equal(swaps.length, 1);
    assert.deepEqual([swaps[0]?.amountIn, swaps[0]?.amountOut, swaps[0]?.poolId], [20_000_000n, 266_554n, CODEX_POOL]);
    // Undo the swap on the pool it produced: the formula pays the same amount.
    const after = splash.decodePool(realTx(11322286, 19).outputs[1] as TxOutput) as SplashPool;
    const treasury = (20_000_000n * 50n) / 100000n;
    const before = {
      ...after,
      reserveA: after.reserveA - 20_000_000n + 2n * treasury,
      reserveB: after.reserveB + 266_554n,
    };
    assert.equal(splash.amountOut(before, 'lovelace', 20_000_000n), 266_554n);
  });

  it('does not report a trade when a Splash order is spent without any pool (cancel or re-placement)', () => {
    for (const i of [11, 31, 46]) {
      const tx = realTx(11322286, i);
      const hasPool = tx.outputs.some((o) => splash.isPoolOutput(o));
      if (!hasPool) assert.deepEqual(splash.extractSwaps(tx, resolverOf(utxo)), []);
    }
  });
});
