import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { TxOutput, Value } from '../../cardano/chain/types.js';
import { DEX_ADAPTERS, dexAdapter, findOrderAdapter, findPoolAdapter } from '../../cardano/dex/index.js';
import type { MinswapV2Order, MinswapV2Pool } from '../../cardano/dex/minswap-v2.js';
import { minswapV1 } from '../../cardano/dex/minswap-v1.js';
import { MINSWAP_V2, minswapV2 } from '../../cardano/dex/minswap-v2.js';
import { muesliswap } from '../../cardano/dex/muesliswap.js';
import type { SplashOrder, SplashPool } from '../../cardano/dex/splash.js';
import { splash } from '../../cardano/dex/splash.js';
import type { SundaeV3Order, SundaeV3Pool } from '../../cardano/dex/sundaeswap-v3.js';
import { sundaeswapV1 } from '../../cardano/dex/sundaeswap-v1.js';
import { sundaeswapV3 } from '../../cardano/dex/sundaeswap-v3.js';
import type { DexAdapter, PoolState } from '../../cardano/dex/types.js';
import type { WingRidersV2Order, WingRidersV2Pool } from '../../cardano/dex/wingriders-v2.js';
import { wingridersV1 } from '../../cardano/dex/wingriders-v1.js';
import { wingridersV2 } from '../../cardano/dex/wingriders-v2.js';
import { block12069665, irisItems, irisOutput, realBlock, realTx } from './fixtures.js';

/** A real pool of each DEX (from the fixtures) to vary reserves and fees on. */
function templates(): Array<[DexAdapter, PoolState]> {
  const iris = (file: string, name: string | null, test?: string) => {
    const t = irisItems(file).find(
      (i) => i.kind === 'transaction' && (name === null || i.name === name) && (!test || i.test === test),
    );
    return t ? irisOutput(t.value.outputs[0] as never) : null;
  };
  const muesli = irisItems('muesliswap.test.json')[0]?.value.outputs[0];
  const list: Array<[DexAdapter, PoolState | null]> = [
    [minswapV2, minswapV2.decodePool(block12069665()[6]?.outputs[1] as TxOutput)],
    [sundaeswapV3, sundaeswapV3.decodePool(realTx(11322286, 34).outputs[0] as TxOutput)],
    [wingridersV2, wingridersV2.decodePool(realTx(11322286, 37).outputs[0] as TxOutput)],
    [splash, splash.decodePool(realTx(11322286, 41).outputs[0] as TxOutput)],
    [minswapV1, minswapV1.decodePool(iris('setup.json', 'MINSWAP_LP_STATE_TX') as TxOutput)],
    [sundaeswapV1, sundaeswapV1.decodePool(iris('setup.json', 'SUNDAESWAP_LP_STATE_TX') as TxOutput)],
    [wingridersV1, wingridersV1.decodePool(iris('setup.json', 'WINGRIDERS_LP_STATE_TX') as TxOutput)],
    [muesliswap, muesliswap.decodePool(irisOutput(muesli as never))],
  ];
  for (const [a, p] of list) assert.ok(p, `template pool for ${a.name}`);
  return list as Array<[DexAdapter, PoolState]>;
}

const withReserves = <P extends PoolState>(p: P, a: bigint, b: bigint): P => ({ ...p, reserveA: a, reserveB: b });

describe('amountOut: exact integer formulas, checked by hand', () => {
  // rA = 1,000,000,000, rB = 2,000,000,000, 10,000,000 in; numbers computed independently:
  // cp(f, d) = ⌊(d − f)·in·rB / (d·rA + (d − f)·in)⌋.
  const pools = new Map(templates().map(([a, p]) => [a.name, withReserves(p, 1_000_000_000n, 2_000_000_000n)]));
  const IN = 10_000_000n;
  const out = (name: string, patch: (p: PoolState) => PoolState = (p) => p) => {
    const a = dexAdapter(name as never) as DexAdapter;
    const p = patch(pools.get(name as never) as PoolState);
    return a.amountOut(p, p.tokenA, IN);
  };

  it('Minswap V2 and SundaeSwap V3: cp(30, 10000) = 19,743,160 and cp(100, 10000) = 19,605,901', () => {
    const fee = (n: bigint) => (p: PoolState) => ({ ...p, fee: { aToB: n, bToA: n, denominator: 10000n } });
    assert.equal(out('minswap-v2', fee(30n)), 19_743_160n);
    assert.equal(out('sundaeswap-v3', fee(30n)), 19_743_160n);
    assert.equal(out('sundaeswap-v3', fee(100n)), 19_605_901n);
  });

  it('WingRiders V2 (30 swap ⌈⌉ + 5 protocol ⌊⌋ bps, result ⌈⌉): 19,733,357', () => {
    assert.equal(out('wingriders-v2'), 19_733_357n);
  });

  it('Splash: legacy 997/1000 → 19,743,160; fee switch 99100 − 90 of 100000 → 19,607,862', () => {
    const kind = (k: SplashPool['extra']['kind'], lp: bigint, tf: bigint, den: bigint) => (p: PoolState) => {
      const s = p as SplashPool;
      const extra = {
        ...s.extra,
        kind: k,
        lpFeeNumX: lp,
        lpFeeNumY: lp,
        treasuryFeeNum: tf,
        royaltyFeeNum: 0n,
        feeDenominator: den,
      };
      const fee = den - (lp - tf);
      return { ...s, extra, fee: { aToB: fee, bToA: fee, denominator: den } };
    };
    assert.equal(out('splash', kind('cfmm-legacy', 997n, 0n, 1000n)), 19_743_160n);
    assert.equal(out('splash', kind('cfmm-fee-switch', 99100n, 90n, 100000n)), 19_607_862n);
  });

  it('Minswap V1 and MuesliSwap 0.3%: 19,743,160; WingRiders V1 0.35%: 19,733,357', () => {
    assert.equal(out('minswap-v1'), 19_743_160n);
    assert.equal(out('muesliswap'), 19_743_160n);
    assert.equal(out('wingriders-v1'), 19_733_357n);
  });

  it('WingRiders V1 rounds as its own adapter does (fee ⌈⌉, remaining reserve ⌈⌉), a few units below cp(35, 10000)', () => {
    // dex-blockfrost-adapter @ 99a1c71 src/utils.ts computeExpectedRawSwapAmount, by hand for rA = 161,240,138,846,
    // rB = 9,281,550,055,879, in = 152,453,352,725: fee = ⌈in·35/10000⌉ = 533,586,735, out = rB − ⌈rA·rB /
    // (rA + in − fee)⌉ = 4,502,654,684,519, where the floor formula cp(35, 10000) pays 4,502,654,684,526.
    const [adapter, template] = templates().find(([a]) => a.name === 'wingriders-v1') as [DexAdapter, PoolState];
    const p = withReserves(template, 161_240_138_846n, 9_281_550_055_879n);
    assert.equal(adapter.amountOut(p, p.tokenA, 152_453_352_725n), 4_502_654_684_519n);
    // The smallest input paying that much, under the same rounding.
    const need = adapter.amountIn(p, p.tokenB, 4_502_654_684_519n) as bigint;
    assert.ok((adapter.amountOut(p, p.tokenA, need) as bigint) >= 4_502_654_684_519n);
    assert.ok((adapter.amountOut(p, p.tokenA, need - 1n) as bigint) < 4_502_654_684_519n);
  });

  it('SundaeSwap V1 with a 3/1000 pool fee (fee ⌈⌉ on the input): 19,743,160', () => {
    assert.equal(
      out('sundaeswap-v1', (p) => ({ ...p, fee: { aToB: 3n, bToA: 3n, denominator: 1000n } })),
      19_743_160n,
    );
  });

  it('refuses assets that are not in the pool', () => {
    for (const [a, p] of templates()) assert.equal(a.amountOut(p, 'ff'.repeat(28), 1n), null);
  });
});

describe('amountOut properties (every adapter, random reserves)', () => {
  const reserve = fc.bigInt({ min: 1_000n, max: 10n ** 16n });
  const amount = fc.bigInt({ min: 1n, max: 10n ** 14n });

  it('never pays out the whole reserve and never decreases as the input grows', () => {
    const ts = templates();
    fc.assert(
      fc.property(fc.nat(ts.length - 1), reserve, reserve, amount, amount, fc.boolean(), (i, ra, rb, x, dx, aToB) => {
        const [a, t] = ts[i] as [DexAdapter, PoolState];
        const p = withReserves(t, ra, rb);
        const tokenIn = aToB ? p.tokenA : p.tokenB;
        const rOut = aToB ? rb : ra;
        const o1 = a.amountOut(p, tokenIn, x) as bigint;
        const o2 = a.amountOut(p, tokenIn, x + dx) as bigint;
        assert.ok(o1 >= 0n && o1 < rOut, `${a.name}: ${o1} vs reserve ${rOut}`);
        assert.ok(o2 >= o1, `${a.name}: not monotone`);
      }),
      { numRuns: 400 },
    );
  });

  it('amountIn is (within one unit) the smallest input that buys the wanted output', () => {
    const ts = templates();
    fc.assert(
      fc.property(fc.nat(ts.length - 1), reserve, reserve, amount, fc.boolean(), (i, ra, rb, x, aToB) => {
        const [a, t] = ts[i] as [DexAdapter, PoolState];
        const p = withReserves(t, ra, rb);
        const [tokenIn, tokenOut] = aToB ? [p.tokenA, p.tokenB] : [p.tokenB, p.tokenA];
        const want = a.amountOut(p, tokenIn, x) as bigint;
        if (want <= 0n) return;
        const need = a.amountIn(p, tokenOut, want);
        assert.ok(need !== null && need <= x, `${a.name}: needs ${need} > ${x}`);
        assert.ok((a.amountOut(p, tokenIn, need) as bigint) >= want);
        assert.ok(need < 2n || (a.amountOut(p, tokenIn, need - 2n) as bigint) < want);
      }),
      { numRuns: 300 },
    );
  });
});

describe('encoders: random states and orders survive encode → decode', () => {
  const qty = fc.bigInt({ min: 0n, max: 2n ** 63n - 1n });
  const hash = fc.uint8Array({ minLength: 28, maxLength: 28 }).map((b) => Buffer.from(b).toString('hex'));
  const token = fc.tuple(hash, fc.uint8Array({ maxLength: 32 })).map(([p, n]) => p + Buffer.from(n).toString('hex'));
  const owners = [
    'addr1q88ll5n3w5kusgs65hz5zyujr43kn3t7aevjmyqc2axfr9sveldjag27wpsl8z4zgvyuqjx02x5fegay3pdvcp5mljcqduqa5c',
    'addr1w8p79rpkcdz8x9d6tft0x0dx5mwuzac2sa4gm8cvkw5hcnqst2ctf',
  ];
  const value = (units: Array<[string, bigint]>): Value => {
    const v: Value = { ada: { lovelace: 10_000_000n } };
    for (const [u, q] of units) (v[u.slice(0, 56)] ??= {})[u.slice(56)] = q;
    return v;
  };

  it('Minswap V2 pools and swap orders', () => {
    const base = minswapV2.decodePool(block12069665()[6]?.outputs[1] as TxOutput) as MinswapV2Pool;
    const poolAddr = block12069665()[6]?.outputs[1]?.address as string;
    fc.assert(
      fc.property(
        token,
        qty,
        qty,
        qty,
        fc.integer({ min: 5, max: 2000 }),
        fc.option(fc.integer({ min: 1666, max: 5000 })),
        fc.boolean(),
        (tb, ra, rb, lp, fee, share, dyn) => {
          const p: MinswapV2Pool = {
            ...base,
            tokenB: tb,
            reserveA: ra,
            reserveB: rb,
            totalLp: lp,
            extra: {
              ...base.extra,
              baseFeeANumerator: BigInt(fee),
              baseFeeBNumerator: BigInt(fee),
              feeSharingNumerator: share === null ? null : BigInt(share),
              allowDynamicFee: dyn,
            },
          };
          const out: TxOutput = {
            address: poolAddr,
            value: value([[MINSWAP_V2.authenPolicy + '4d5350', 1n]]),
            datum: minswapV2.encodePoolDatum(p),
          };
          const back = minswapV2.decodePool(out) as MinswapV2Pool;
          assert.deepEqual(
            [back.tokenA, back.tokenB, back.reserveA, back.reserveB, back.totalLp, back.extra],
            [p.tokenA, p.tokenB, ra, rb, lp, p.extra],
          );
        },
      ),
      { numRuns: 100 },
    );
    const template = minswapV2.decodeOrder(realTx(11322286, 13).outputs[0] as TxOutput) as MinswapV2Order;
    fc.assert(
      fc.property(fc.constantFrom(...owners), fc.boolean(), qty, qty, qty, (owner, aToB, amt, min, fee) => {
        const o: MinswapV2Order = {
          ...template,
          owner,
          batcherFee: fee,
          extra: {
            ...template.extra,
            refundReceiver: owner,
            step: { type: 'swap-exact-in', aToB, amount: { specific: amt }, minimumReceive: min, killable: aToB },
          },
        };
        const out: TxOutput = { address: owners[1] as string, value: value([]), datum: minswapV2.encodeOrderDatum(o) };
        const back = minswapV2.decodeOrder(out) as MinswapV2Order;
        assert.deepEqual(
          [back.owner, back.direction, back.amountIn, back.minAmountOut, back.batcherFee, back.extra.step],
          [owner, aToB ? 'aToB' : 'bToA', amt, min, fee, o.extra.step],
        );
      }),
      { numRuns: 100 },
    );
  });

  it('SundaeSwap V3 pools and swap orders', () => {
    const scoop = realTx(11322286, 34).outputs[0] as TxOutput;
    const base = sundaeswapV3.decodePool(scoop) as SundaeV3Pool;
    fc.assert(
      fc.property(
        hash,
        token,
        qty,
        fc.bigInt({ min: 0n, max: 10000n }),
        fc.bigInt({ min: 0n, max: 10000n }),
        qty,
        (ident, tb, lp, bid, ask, fees) => {
          const p: SundaeV3Pool = {
            ...base,
            poolId: ident,
            tokenB: tb,
            totalLp: lp,
            fee: { aToB: bid, bToA: ask, denominator: 10000n },
            extra: { ...base.extra, protocolFees: fees },
          };
          const out: TxOutput = {
            address: scoop.address,
            value: value([[`e0302560ced2fdcbfcb2602697df970cd0d6a38f94b32703f51c312b000de140${ident}`, 1n]]),
            datum: sundaeswapV3.encodePoolDatum(p),
          };
          const back = sundaeswapV3.decodePool(out) as SundaeV3Pool;
          assert.deepEqual(
            [back.poolId, back.tokenB, back.totalLp, back.fee, back.extra],
            [ident, tb, lp, p.fee, p.extra],
          );
        },
      ),
      { numRuns: 100 },
    );
    const orderOut = realTx(11322286, 33).outputs[0] as TxOutput;
    const template = sundaeswapV3.decodeOrder(orderOut) as SundaeV3Order;
    fc.assert(
      fc.property(fc.constantFrom(...owners), token, qty, qty, (owner, tok, give, min) => {
        const o: SundaeV3Order = {
          ...template,
          owner,
          extra: { ...template.extra, details: { type: 'swap', offer: ['lovelace', give], minReceived: [tok, min] } },
        };
        const back = sundaeswapV3.decodeOrder({
          ...orderOut,
          datum: sundaeswapV3.encodeOrderDatum(o),
        }) as SundaeV3Order;
        assert.deepEqual(
          [back.owner, back.tokenIn, back.amountIn, back.tokenOut, back.minAmountOut],
          [owner, 'lovelace', give, tok, min],
        );
      }),
      { numRuns: 100 },
    );
  });

  it('WingRiders V2 pools and swap requests', () => {
    const poolOut = realTx(11322286, 37).outputs[0] as TxOutput;
    const base = wingridersV2.decodePool(poolOut) as WingRidersV2Pool;
    fc.assert(
      fc.property(qty, qty, qty, qty, fc.bigInt({ min: 0n, max: 100n }), (ta, tb, pa, last, swapFee) => {
        const p: WingRidersV2Pool = {
          ...base,
          extra: {
            ...base.extra,
            treasuryA: ta,
            treasuryB: tb,
            projectTreasuryA: pa,
            lastInteraction: last,
            swapFeeInBasis: swapFee,
          },
        };
        const back = wingridersV2.decodePool({
          ...poolOut,
          datum: wingridersV2.encodePoolDatum(p),
        }) as WingRidersV2Pool;
        assert.deepEqual(back.extra, p.extra);
      }),
      { numRuns: 100 },
    );
    const reqOut = realTx(11322286, 36).outputs[0] as TxOutput;
    const template = wingridersV2.decodeOrder(reqOut) as WingRidersV2Order;
    fc.assert(
      fc.property(fc.constantFrom(...owners), fc.boolean(), qty, qty, (owner, aToB, min, deadline) => {
        const o: WingRidersV2Order = {
          ...template,
          owner,
          extra: { ...template.extra, deadline, action: { type: 'swap', aToB, minWanted: min } },
        };
        const back = wingridersV2.decodeOrder({
          ...reqOut,
          datum: wingridersV2.encodeOrderDatum(o),
        }) as WingRidersV2Order;
        assert.deepEqual(
          [back.owner, back.direction, back.minAmountOut, back.extra.deadline],
          [owner, aToB ? 'aToB' : 'bToA', min, deadline],
        );
      }),
      { numRuns: 100 },
    );
  });

  it('Splash new fee-switch pools (no template datum) and spot orders', () => {
    const poolOut = realTx(11322286, 41).outputs[0] as TxOutput;
    const royalty = splash.decodePool(poolOut) as SplashPool;
    const feeSwitchAddr =
      'addr1x8cq97k066w4rd37wprvd4qrfxctzlyd6a67us2uv6hnen9j764lvrxdayh2ux30fl0ktuh27csgmpevdu89jlxppvrsgzvahe';
    fc.assert(
      fc.property(
        token,
        token,
        qty,
        qty,
        fc.bigInt({ min: 90000n, max: 100000n }),
        fc.bigInt({ min: 0n, max: 500n }),
        (nft, lq, tx, ty, lpFee, tFee) => {
          const p: SplashPool = {
            ...royalty,
            poolId: nft,
            lpToken: lq,
            datum: null,
            extra: {
              ...royalty.extra,
              kind: 'cfmm-fee-switch',
              poolNft: nft,
              lpFeeNumX: lpFee,
              lpFeeNumY: lpFee,
              treasuryFeeNum: tFee,
              royaltyFeeNum: 0n,
              royaltyX: 0n,
              royaltyY: 0n,
              treasuryX: tx,
              treasuryY: ty,
            },
          };
          const out: TxOutput = { address: feeSwitchAddr, value: value([[nft, 1n]]), datum: splash.encodePoolDatum(p) };
          const back = splash.decodePool(out) as SplashPool;
          assert.deepEqual(
            [
              back.poolId,
              back.lpToken,
              back.extra.lpFeeNumX,
              back.extra.treasuryFeeNum,
              back.extra.treasuryX,
              back.extra.treasuryY,
            ],
            [nft, lq, lpFee, tFee, tx, ty],
          );
        },
      ),
      { numRuns: 100 },
    );
    const orderOut = realTx(11322286, 40).outputs[0] as TxOutput;
    const template = splash.decodeOrder(orderOut) as SplashOrder;
    fc.assert(
      fc.property(fc.constantFrom(...owners), token, qty, qty, (owner, tok, amt, min) => {
        const o: SplashOrder = { ...template, owner, tokenOut: tok, amountIn: amt, minAmountOut: min };
        const back = splash.decodeOrder({ ...orderOut, datum: splash.encodeOrderDatum(o) }) as SplashOrder;
        assert.deepEqual([back.owner, back.tokenOut, back.amountIn, back.minAmountOut], [owner, tok, amt, min]);
      }),
      { numRuns: 100 },
    );
  });
});

describe('DEX registry', () => {
  it('lists each DEX once with disjoint script hashes', () => {
    const names = DEX_ADAPTERS.map((a) => a.name);
    assert.equal(new Set(names).size, names.length);
    const hashes = DEX_ADAPTERS.flatMap((a) => [...a.poolScriptHashes, ...a.orderScriptHashes]);
    assert.equal(new Set(hashes).size, hashes.length);
    assert.ok(hashes.every((h) => /^[0-9a-f]{56}$/.test(h)));
  });

  it('finds the pools and orders of the real blocks where the reference says they are', () => {
    const found = (h: 11321965 | 11322286 | 11322313, kind: 'pool' | 'order') => {
      const hits: string[] = [];
      (realBlock(h).transactions ?? []).forEach((tx, i) =>
        tx.outputs.forEach((o) => {
          const a = kind === 'pool' ? findPoolAdapter(o) : findOrderAdapter(o);
          if (a) hits.push(`${i}:${a.name}`);
        }),
      );
      return hits;
    };
    const orders = found(11322286, 'order');
    for (const i of [9, 13, 23, 25, 38, 39, 52]) assert.ok(orders.includes(`${i}:minswap-v2`), `tx ${i}`);
    for (const i of [10, 18, 30, 40, 45, 48]) assert.ok(orders.includes(`${i}:splash`), `tx ${i}`);
    assert.ok(orders.includes('33:sundaeswap-v3'));
    assert.ok(orders.includes('36:wingriders-v2'));
    assert.ok(orders.includes('58:minswap-v1'));
    const pools = found(11322286, 'pool');
    for (const p of ['4:minswap-v2', '34:sundaeswap-v3', '37:wingriders-v2', '19:splash', '41:splash'])
      assert.ok(pools.includes(p), p);
    assert.ok(found(11321965, 'pool').filter((p) => p.endsWith('minswap-v2')).length >= 3);
    assert.ok(found(11322313, 'pool').includes('9:minswap-v1'));
    for (const tx of block12069665()) for (const o of tx.outputs) findPoolAdapter(o);
    assert.equal(findPoolAdapter(block12069665()[1]?.outputs[0] as TxOutput)?.name, 'wingriders-v2');
  });

  it('every adapter decodes every pool output it claims in the real blocks', () => {
    for (const h of [11321965, 11322286, 11322313] as const)
      for (const tx of realBlock(h).transactions ?? [])
        for (const o of tx.outputs) {
          const a = findPoolAdapter(o);
          if (a)
            assert.ok(
              a.decodePool(o, (d) => tx.datums?.[d]),
              `${a.name} pool in ${tx.id}`,
            );
          const b = findOrderAdapter(o);
          if (b && o.datum) assert.ok(b.decodeOrder(o), `${b.name} order in ${tx.id}`);
        }
  });
});
