import assert from 'node:assert/strict';
import type { Transaction, TxOutput, Value } from '../../cardano/chain/types.js';
import type { MinswapV1Order, MinswapV1Pool } from '../../cardano/dex/minswap-v1.js';
import { decodeMinswapV1OrderDatum, minswapV1 } from '../../cardano/dex/minswap-v1.js';
import type { MuesliOrder, MuesliPool } from '../../cardano/dex/muesliswap.js';
import { decodeMuesliOrderDatum, muesliswap } from '../../cardano/dex/muesliswap.js';
import { decodePlutusData } from '../../cardano/dex/plutus-data.js';
import type { SundaeV1Order, SundaeV1Pool } from '../../cardano/dex/sundaeswap-v1.js';
import { decodeSundaeV1OrderDatum, sundaeswapV1 } from '../../cardano/dex/sundaeswap-v1.js';
import { decodeVyfiOrderDatum, encodeVyfiOrderDatum } from '../../cardano/dex/vyfi.js';
import type { WingRidersV1Order, WingRidersV1Pool } from '../../cardano/dex/wingriders-v1.js';
import {
  decodeWingRidersV1PoolDatum,
  decodeWingRidersV1RequestDatum,
  wingridersV1,
} from '../../cardano/dex/wingriders-v1.js';
import type { IrisItem } from './fixtures.js';
import { irisItems, irisOutput, readJson, realTx, resolverOf } from './fixtures.js';

const IUSD = 'f66d78b4a3cb3d37afa0ec36461e51ecbde00f26c8f0a68f94b6988069555344';
const setup = (): Map<string, TxOutput> =>
  new Map(
    irisItems('setup.json')
      .filter((i): i is IrisItem & { name: string } => i.kind === 'transaction' && typeof i.name === 'string')
      .map((i) => [i.name, irisOutput(i.value.outputs[0] as never)]),
  );

interface DexterItem {
  kind: string;
  cbor: string;
}
const dexter = (kind: string) => {
  const it = readJson<{ items: DexterItem[] }>('dex/dexter/synthetic-order-datums.json').items.find((i) =>
    i.kind.startsWith(kind),
  );
  assert.ok(it, kind);
  return it.cbor;
};

describe('Minswap V1', () => {
  it('decodes the iris order datums (swap / deposit / withdraw) and re-encodes them', () => {
    const s = setup();
    const swap = minswapV1.decodeOrder(s.get('MINSWAP_SWAP_TX') as TxOutput) as MinswapV1Order;
    assert.equal(swap.kind, 'swap');
    assert.deepEqual(
      [swap.tokenIn, swap.tokenOut, swap.minAmountOut, swap.batcherFee, swap.deposit],
      ['lovelace', IUSD, 1_351_969_578n, 2_000_000n, 2_000_000n],
    );
    assert.equal(swap.amountIn, 3_004_000_000n - 4_000_000n);
    assert.equal(minswapV1.decodeOrder(s.get('MINSWAP_DEPOSIT_TX') as TxOutput)?.kind, 'deposit');
    assert.equal(minswapV1.decodeOrder(s.get('MINSWAP_WITHDRAW_TX') as TxOutput)?.kind, 'withdraw');
    for (const k of ['MINSWAP_SWAP_TX', 'MINSWAP_DEPOSIT_TX', 'MINSWAP_WITHDRAW_TX']) {
      const out = s.get(k) as TxOutput;
      assert.equal(minswapV1.encodeOrderDatum(minswapV1.decodeOrder(out) as MinswapV1Order), out.datum, k);
    }
  });

  it('decodes the iris pool (layout only: the fixture’s reserves were edited)', () => {
    const p = minswapV1.decodePool(setup().get('MINSWAP_LP_STATE_TX') as TxOutput) as MinswapV1Pool;
    assert.equal(p.poolId, 'a96ab397dac82b517d57aff799d5a78c0324db7c2c25feec6caf072d58eede64');
    assert.equal(p.tokenA, 'lovelace');
    assert.equal(p.tokenB, '7ab95d389c9237edfb0305fc889825ea4221e82a78446b3c78c0d5b6434e43416c61');
    assert.equal(p.totalLp, 953_222n);
    assert.equal(p.lpToken, `e4214b7cce62ac6fbba385d164df48e157eae5863521b4b67ca71d86${p.poolId}`);
  });

  it('decodes dexter’s synthetic SwapExactIn order (fake 2-byte key hashes: no real address)', () => {
    const hex = dexter('Minswap V1');
    const o = decodeMinswapV1OrderDatum(decodePlutusData(hex));
    assert.equal(o.owner, null);
    assert.equal(o.tokenOut, IUSD);
    assert.deepEqual([o.minAmountOut, o.batcherFee, o.deposit], [85_080_824_691_501n, 2_000_000n, 2_000_000n]);
    assert.equal(minswapV1.encodeOrderDatum(o), hex);
  });

  it('skips "pools" whose second asset is a Minswap LP token (the SDK’s preprod UTxO)', () => {
    const f = readJson<{ address: string; value: Array<{ unit: string; quantity: string }> }>(
      'dex/minswap/sdk-test-v1-pool-utxo.preprod.json',
    );
    const value: Value = { ada: { lovelace: 0n } };
    for (const v of f.value) {
      if (v.unit === 'lovelace') value.ada.lovelace = BigInt(v.quantity);
      else (value[v.unit.slice(0, 56)] ??= {})[v.unit.slice(56)] = BigInt(v.quantity);
    }
    const out: TxOutput = { address: f.address, value };
    assert.equal(minswapV1.isPoolOutput(out), true);
    assert.equal(minswapV1.decodePool(out), null);
  });

  it('recognises the real V1 pool output of block 11322313 tx 9 and the V1 order of block 11322286 tx 58', () => {
    const poolOut = realTx(11322313, 9).outputs.find((o) => minswapV1.isPoolOutput(o));
    assert.ok(poolOut);
    const p = minswapV1.decodePool(poolOut, (h) => realTx(11322313, 9).datums?.[h]);
    assert.ok(p);
    assert.ok(p.reserveA > 0n && p.reserveB > 0n);
    assert.ok(realTx(11322286, 58).outputs.some((o) => minswapV1.isOrderOutput(o)));
  });
});

/**
 * A Minswap V1 batch built on the real ADA/SNEK pool of block 11322313 tx 9 (225,255.452243 ADA, 34,478,019 SNEK,
 * fee 0.3 %): a SwapExactOut locks 700 ADA to buy exactly 100,000 SNEK. By hand, the smallest input that buys them is
 * ⌊225255452243·100000·10000 / ((34478019 − 100000)·9970)⌋ + 1 = 657,202,651 lovelace (657,202,650 buys only
 * 99,999); the batcher hands the other 42,797,349 lovelace back with the 2 ADA deposit and the SNEK.
 */
describe('Minswap V1 batch: SwapExactOut pays only what the pool took', () => {
  const SNEK = '279c909f348e533da5808898f87f9a14bb2c3dfbbacccd631d927a3f534e454b';
  const poolTx = realTx(11322313, 9);
  const poolIn = poolTx.outputs.find((o) => minswapV1.isPoolOutput(o)) as TxOutput;
  const real = minswapV1.decodeOrder(
    realTx(11322286, 58).outputs[0] as TxOutput,
    (h) => realTx(11322286, 58).datums?.[h],
  ) as MinswapV1Order;
  const orderAddress = (realTx(11322286, 58).outputs[0] as TxOutput).address;
  const trader = real.owner as string;
  const seller = (poolTx.outputs.find((o) => !minswapV1.isPoolOutput(o)) as TxOutput).address;
  const snek = (lovelace: bigint, q: bigint): Value => ({
    ada: { lovelace },
    [SNEK.slice(0, 56)]: { [SNEK.slice(56)]: q },
  });
  const exactOut: TxOutput = {
    address: orderAddress,
    value: { ada: { lovelace: 704_000_000n } }, // 700 ADA at most + 2 ADA batcher fee + 2 ADA deposit
    datum: minswapV1.encodeOrderDatum({
      ...real,
      extra: { ...real.extra, step: { type: 'swap-exact-out', desired: SNEK, expectedReceive: 100_000n } },
    }),
  };
  const exactIn: TxOutput = {
    address: orderAddress,
    value: snek(4_000_000n, 50_000n), // sell 50,000 SNEK
    datum: minswapV1.encodeOrderDatum({
      ...real,
      owner: seller,
      extra: { ...real.extra, step: { type: 'swap-exact-in', desired: 'lovelace', minimumReceive: 1n } },
    }),
  };
  const paid = 657_202_651n;
  const boughtResult: TxOutput = { address: trader, value: snek(2_000_000n + 700_000_000n - paid, 100_000n) };
  const ref = (c: string) => ({ transaction: { id: c.repeat(32) }, index: 0 });
  const utxo = new Map([
    [`${'aa'.repeat(32)}#0`, poolIn],
    [`${'bb'.repeat(32)}#0`, exactOut],
    [`${'cc'.repeat(32)}#0`, exactIn],
  ]);
  const batch = (orders: string[], outputs: TxOutput[]): Transaction => ({
    id: 'dd'.repeat(32),
    spends: 'inputs',
    inputs: ['aa', ...orders].map(ref),
    outputs,
    datums: poolTx.datums,
  });
  const poolAfter = (lovelace: bigint, q: bigint): TxOutput => ({
    ...poolIn,
    value: { ...poolIn.value, ...snek(lovelace, q) },
  });

  it('alone in its batch: amount in = the pool’s ADA gain (657.202651 ADA), not the 700 ADA locked', () => {
    const tx = batch(['bb'], [poolAfter(225_255_452_243n + paid, 34_478_019n - 100_000n), boughtResult]);
    const [s] = minswapV1.extractSwaps(tx, resolverOf(utxo));
    assert.ok(s);
    assert.deepEqual(
      [s.tokenIn, s.tokenOut, s.amountIn, s.amountOut, s.trader, s.side],
      ['lovelace', SNEK, paid, 100_000n, trader, 'buy'],
    );
  });

  it('beside another order: the change in its result output is taken off the offer', () => {
    // Then 50,000 SNEK sold into the pool the first order left: ⌊9970·50000·225912654894 /
    // (10000·34378019 + 9970·50000)⌋ = 327,111,325 lovelace.
    const sold = 327_111_325n;
    const tx = batch(
      ['bb', 'cc'],
      [
        poolAfter(225_255_452_243n + paid - sold, 34_478_019n - 100_000n + 50_000n),
        boughtResult,
        { address: seller, value: { ada: { lovelace: 2_000_000n + sold } } },
      ],
    );
    const swaps = minswapV1.extractSwaps(tx, resolverOf(utxo));
    assert.deepEqual(
      swaps.map((s) => [s.trader, s.tokenIn, s.amountIn, s.amountOut]),
      [
        [trader, 'lovelace', paid, 100_000n],
        [seller, SNEK, 50_000n, sold],
      ],
    );
  });
});

describe('SundaeSwap V1', () => {
  it('decodes the iris swap/deposit/withdraw orders and the pool state', () => {
    const s = setup();
    const swap = sundaeswapV1.decodeOrder(s.get('SUNDAESWAP_SWAP_TX') as TxOutput) as SundaeV1Order;
    assert.deepEqual(
      [swap.kind, swap.poolId, swap.direction, swap.amountIn, swap.minAmountOut, swap.batcherFee],
      ['swap', '00', 'aToB', 200_000_000n, 220_566_308n, 2_500_000n],
    );
    assert.equal(sundaeswapV1.decodeOrder(s.get('SUNDAESWAP_DEPOSIT_TX') as TxOutput)?.kind, 'deposit');
    assert.equal(sundaeswapV1.decodeOrder(s.get('SUNDAESWAP_WITHDRAW_TX') as TxOutput)?.kind, 'withdraw');
    for (const k of ['SUNDAESWAP_SWAP_TX', 'SUNDAESWAP_DEPOSIT_TX', 'SUNDAESWAP_WITHDRAW_TX']) {
      const out = s.get(k) as TxOutput;
      assert.equal(sundaeswapV1.encodeOrderDatum(sundaeswapV1.decodeOrder(out) as SundaeV1Order), out.datum, k);
    }
    const p = sundaeswapV1.decodePool(s.get('SUNDAESWAP_LP_STATE_TX') as TxOutput) as SundaeV1Pool;
    assert.deepEqual([p.poolId, p.totalLp, p.fee.aToB, p.fee.denominator], ['00', 11_134_180_552n, 1n, 100n]);
  });

  it('decodes the mainnet pool-close output (ident a2, fee 1/100) and re-encodes its datum', () => {
    const t = irisItems('sundaeswap.test.json').find((i) => i.kind === 'transaction');
    const out = irisOutput(t?.value.outputs[0] as never);
    const p = sundaeswapV1.decodePool(out) as SundaeV1Pool;
    assert.deepEqual(
      [p.poolId, p.tokenA, p.tokenB, p.totalLp],
      ['a2', 'lovelace', '804f5544c1962a40546827cab750a88404dc7108c0f588b72964754f56594649', 0n],
    );
    assert.equal(sundaeswapV1.encodePoolDatum(p), out.datum);
  });

  it('decodes dexter’s synthetic swap order and the SDK’s V1 golden order datums', () => {
    const hex = dexter('SundaeSwap V1');
    const o = decodeSundaeV1OrderDatum(decodePlutusData(hex));
    assert.deepEqual(
      [o.poolId, o.direction, o.amountIn, o.minAmountOut, o.batcherFee],
      ['1234', 'aToB', 10_000_000_000n, 208_598_693_711n, 2_500_000n],
    );
    assert.equal(sundaeswapV1.encodeOrderDatum(o), hex);
    const golden = readJson<{ items: Array<{ file: string; cbor: string }> }>(
      'dex/sundaeswap/sdk-datum-golden-vectors.json',
    ).items;
    const v1Orders = golden.filter((g) => g.file.endsWith('v1.expectations.ts') && g.cbor.startsWith('d8799f41'));
    assert.ok(v1Orders.length >= 3);
    for (const g of v1Orders)
      assert.equal(sundaeswapV1.encodeOrderDatum(decodeSundaeV1OrderDatum(decodePlutusData(g.cbor))), g.cbor);
  });
});

describe('WingRiders V1', () => {
  const vectors = readJson<{ items: Array<{ kind: string; cbor: string; expected: Record<string, string> }> }>(
    'dex/wingriders/dex-serializer-test-vectors.json',
  ).items;

  it('decodes the dex-serializer pool datum to the values its tests assert', () => {
    const v = vectors.find((i) => i.kind.includes('pool')) as (typeof vectors)[number];
    const p = decodeWingRidersV1PoolDatum(decodePlutusData(v.cbor));
    assert.equal(p.extra.requestScriptHash, v.expected['requestScriptHash']);
    assert.equal(p.tokenA, 'lovelace');
    assert.equal(p.tokenB, (v.expected['assetB'] as string).replace('.', ''));
    assert.equal(p.extra.lastInteraction, BigInt(v.expected['lastInteraction'] as string));
    assert.deepEqual([p.extra.treasuryA, p.extra.treasuryB], [711_919_837n, 459_136_992n]);
  });

  it('decodes the dex-serializer request datums (swap B→A, add liquidity)', () => {
    const swap = vectors.find((i) => i.kind.includes('(swap)')) as (typeof vectors)[number];
    const r = decodeWingRidersV1RequestDatum(decodePlutusData(swap.cbor));
    assert.equal(r.owner, swap.expected['beneficiary']);
    assert.equal(r.extra.ownerPkh, swap.expected['owner']);
    assert.equal(r.extra.deadline, BigInt(swap.expected['deadline'] as string));
    assert.deepEqual(
      [r.direction, r.tokenOut, r.tokenIn, r.minAmountOut],
      ['bToA', 'lovelace', swap.expected['lpAssetB'], 600_362_894n],
    );
    assert.equal(wingridersV1.encodeOrderDatum(r), swap.cbor);
    const add = vectors.find((i) => i.kind.includes('add liquidity')) as (typeof vectors)[number];
    const a = decodeWingRidersV1RequestDatum(decodePlutusData(add.cbor));
    assert.equal(a.kind, 'deposit');
    assert.equal(wingridersV1.encodeOrderDatum(a), add.cbor);
  });

  it('decodes the iris requests and pool (layout only)', () => {
    const s = setup();
    const swap = wingridersV1.decodeOrder(s.get('WINGRIDERS_SWAP_TX') as TxOutput) as WingRidersV1Order;
    assert.deepEqual(
      [swap.kind, swap.direction, swap.tokenOut, swap.minAmountOut],
      ['swap', 'aToB', IUSD, 269_193_193n],
    );
    assert.equal(wingridersV1.decodeOrder(s.get('WINGRIDERS_DEPOSIT_TX') as TxOutput)?.kind, 'deposit');
    assert.equal(wingridersV1.decodeOrder(s.get('WINGRIDERS_WITHDRAW_TX') as TxOutput)?.kind, 'withdraw');
    const p = wingridersV1.decodePool(s.get('WINGRIDERS_LP_STATE_TX') as TxOutput) as WingRidersV1Pool;
    assert.equal(p.poolId, '9b65707373c4cec488b16151a64d7102dbae16857c500652b5c513650b8d604e');
    assert.deepEqual([p.extra.treasuryA, p.extra.treasuryB], [201_784_008n, 24_608_886n]);
    assert.equal(wingridersV1.encodePoolDatum(p), s.get('WINGRIDERS_LP_STATE_TX')?.datum);
  });
});

describe('MuesliSwap', () => {
  it('decodes the real AMM pools (4- and 7-field datums) and filters the concentrated-liquidity pool', () => {
    const outs = irisItems('muesliswap.test.json').flatMap((t) =>
      t.value.outputs.map((o) => ({ test: t.test, out: irisOutput(o) })),
    );
    const pools = outs.map((o) => ({ ...o, p: muesliswap.decodePool(o.out) }));
    const clmm = pools.find((p) => p.test === 'Can filter CLMM');
    assert.equal(clmm?.p, null);
    const amm = pools.filter((p) => p.p !== null);
    assert.equal(amm.length, 3);
    const first = amm[0]?.p as MuesliPool;
    assert.deepEqual(
      [first.tokenA, first.tokenB, first.totalLp, first.fee.aToB],
      ['lovelace', '5dac8536653edc12f6f5e1045d8164b9f59998d3bdc300fc928434894e4d4b52', 194_271_592_629n, 30n],
    );
    assert.equal(first.reserveA, 5_386_390_312n);
    const seven = amm[2]?.p as MuesliPool;
    assert.deepEqual([seven.totalLp, seven.fee.aToB], [60_737_288n, 30n]);
    for (const a of amm) assert.equal(muesliswap.encodePoolDatum(a.p as MuesliPool), a.out.datum);
  });

  it('decodes the iris order and dexter’s synthetic order', () => {
    const out = setup().get('MUESLISWAP_SWAP_TX') as TxOutput;
    const o = muesliswap.decodeOrder(out) as MuesliOrder;
    assert.deepEqual(
      [o.tokenOut, o.tokenIn, o.minAmountOut, o.extra.feesAndDeposit, o.extra.allowPartial],
      ['lovelace', IUSD, 44_002n, 2_650_000n, true],
    );
    assert.equal(muesliswap.encodeOrderDatum(o), out.datum);
    const hex = dexter('MuesliSwap');
    const d = decodeMuesliOrderDatum(decodePlutusData(hex));
    assert.deepEqual([d.tokenOut, d.minAmountOut, d.extra.feesAndDeposit, d.owner], [IUSD, 31_640n, 2_650_000n, null]);
    assert.equal(muesliswap.encodeOrderDatum(d), hex);
  });
});

describe('VyFi order datum (no adapter: pools are not identifiable on chain)', () => {
  it('decodes dexter’s synthetic A→B order', () => {
    const hex = dexter('VyFi');
    const o = decodeVyfiOrderDatum(decodePlutusData(hex));
    assert.deepEqual(o, { receiverKeyHashes: 'ed56bac6', action: { type: 'a-to-b', minReceive: 6_350_374_276n } });
    assert.equal(encodeVyfiOrderDatum(o), hex);
  });
});
