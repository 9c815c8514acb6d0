import assert from 'node:assert/strict';
import type { OutputReference, Transaction, TxOutput, Value } from '../../cardano/chain/types.js';
import type { MinswapV2Order, MinswapV2Pool } from '../../cardano/dex/minswap-v2.js';
import { MINSWAP_V2, applyMinswapV2Swap, minswapV2, minswapV2LpAssetName } from '../../cardano/dex/minswap-v2.js';
import { asConstr, bytes, constr, encodePlutusData, list, optionData } from '../../cardano/dex/plutus-data.js';
import { quantityOf } from '../../cardano/dex/utxo.js';
import { block12069665, realOutputIndex, realTx, resolverOf } from './fixtures.js';

const SNEK = '279c909f348e533da5808898f87f9a14bb2c3dfbbacccd631d927a3f534e454b';
const TALOS = '97bbb7db0baef89caefce61b8107ac74c7a7340166b39d906f174bec54616c6f73';
const JELLY = '5c1c91a65bedac56f245b8184b5820ced3d2f1540e521dc1060fa6834a454c4c59';

function pools12069665(): Map<number, MinswapV2Pool> {
  const m = new Map<number, MinswapV2Pool>();
  for (const [i, tx] of block12069665().entries())
    for (const o of tx.outputs) {
      const p = minswapV2.decodePool(o);
      if (p) m.set(i, p);
    }
  return m;
}

describe('Minswap V2 pools (mainnet block 12069665)', () => {
  const pools = pools12069665();

  it('finds exactly the three batch pools, in txs 4, 5 and 6', () => {
    assert.deepEqual([...pools.keys()], [4, 5, 6]);
  });

  it('decodes pair, datum reserves, LP supply and fees', () => {
    const talos = pools.get(4) as MinswapV2Pool;
    assert.equal(talos.tokenA, 'lovelace');
    assert.equal(talos.tokenB, TALOS);
    assert.equal(talos.reserveA, 185904899504n);
    assert.equal(talos.reserveB, 25894762n);
    assert.equal(talos.totalLp, 689460629n);
    assert.deepEqual(talos.fee, { aToB: 300n, bToA: 300n, denominator: 10000n });
    assert.equal(talos.extra.feeSharingNumerator, 3666n);
    const jelly = pools.get(5) as MinswapV2Pool;
    assert.equal(jelly.tokenB, JELLY);
    assert.deepEqual([jelly.reserveA, jelly.reserveB, jelly.fee.aToB], [23976552135n, 850205781640n, 200n]);
    assert.equal(jelly.extra.feeSharingNumerator, 1666n);
    const snek = pools.get(6) as MinswapV2Pool;
    assert.equal(snek.tokenB, SNEK);
    assert.deepEqual([snek.reserveA, snek.reserveB, snek.fee.bToA], [4277504627538n, 1261329682n, 100n]);
  });

  it('reads reserves from the datum: the value also holds min-ADA and accumulated fee sharing', () => {
    for (const [i, p] of pools) {
      const out = block12069665()[i]?.outputs.find((o) => minswapV2.isPoolOutput(o)) as TxOutput;
      assert.ok(quantityOf(out.value, p.tokenA) > p.reserveA);
      assert.ok(quantityOf(out.value, p.tokenB) >= p.reserveB);
    }
  });

  it('computes the pool id as the sha3 LP asset name that the pool UTxO actually holds', () => {
    for (const [i, p] of pools) {
      const out = block12069665()[i]?.outputs.find((o) => minswapV2.isPoolOutput(o)) as TxOutput;
      assert.equal(p.poolId, minswapV2LpAssetName(p.tokenB, p.tokenA), 'order of the pair does not matter');
      assert.ok(quantityOf(out.value, p.lpToken as string) > 9_000_000_000_000_000_000n, 'un-issued LP tokens');
    }
  });

  it('re-encodes each pool datum byte-for-byte', () => {
    for (const [i, p] of pools) {
      const out = block12069665()[i]?.outputs.find((o) => minswapV2.isPoolOutput(o)) as TxOutput;
      assert.equal(minswapV2.encodePoolDatum(p), out.datum);
    }
  });

  it('does not invent swaps for batches whose spent outputs are unknown (they predate the indexed range)', () => {
    const txs = block12069665();
    for (const i of [4, 5, 6])
      assert.deepEqual(
        minswapV2.extractSwaps(txs[i] as Transaction, () => null),
        [],
      );
  });
});

describe('Minswap V2 orders (mainnet block 11322286)', () => {
  const ORDER_TXS = [9, 13, 23, 25, 38, 39, 52];

  it('decodes every order output: receiver, pool, direction, amount, minimum, batcher fee, deposit', () => {
    const orders = ORDER_TXS.map((i) => minswapV2.decodeOrder(realTx(11322286, i).outputs[0] as TxOutput));
    assert.ok(orders.every((o) => o !== null));
    const o13 = orders[1] as MinswapV2Order;
    assert.equal(o13.kind, 'swap');
    assert.equal(
      o13.owner,
      'addr1q88ll5n3w5kusgs65hz5zyujr43kn3t7aevjmyqc2axfr9sveldjag27wpsl8z4zgvyuqjx02x5fegay3pdvcp5mljcqduqa5c',
    );
    assert.equal(o13.poolId, '686db0c143a3a2cc19099d8909e315c4ed761a6ac5a3c5998c651d5e9d3cb253');
    assert.equal(o13.direction, 'aToB');
    assert.equal(o13.tokenIn, 'lovelace');
    assert.equal(o13.amountIn, 1_000_000_000n);
    assert.equal(o13.minAmountOut, 2385892001n);
    assert.equal(o13.batcherFee, 2_000_000n);
    assert.equal(o13.deposit, 2_000_000n);
    // A token → ADA order: the input asset is the token the order holds.
    const o9 = orders[0] as MinswapV2Order;
    assert.equal(o9.direction, 'bToA');
    assert.equal(o9.tokenIn, '6408659989dd69926352bf01fb507edc7fae658277ae4bab1b7c25ba474c49544348');
    assert.equal(o9.amountIn, 1044249n);
    // SwapExactOut (step constructor 3) in tx 38.
    const o38 = orders[4] as MinswapV2Order;
    assert.equal(o38.extra.step.type, 'swap-exact-out');
    assert.equal(o38.minAmountOut, 1000n);
  });

  it('re-encodes each order datum byte-for-byte', () => {
    for (const i of ORDER_TXS) {
      const out = realTx(11322286, i).outputs[0] as TxOutput;
      assert.equal(minswapV2.encodeOrderDatum(minswapV2.decodeOrder(out) as MinswapV2Order), out.datum);
    }
  });

  it('treats the deposit batch of tx 4 as no swap', () => {
    assert.deepEqual(minswapV2.extractSwaps(realTx(11322286, 4), resolverOf(realOutputIndex())), []);
  });
});

/**
 * A batch built the way the devnet will build one, starting from the real ADA/SNEK pool state: two orders, the
 * redeemer processes the second input first, results are `order value − fee − in + out` (compare_swap_output_value).
 */
describe('Minswap V2 batch extraction (devnet-shaped batch from a real pool state)', () => {
  const poolTx = block12069665()[6] as Transaction;
  const poolOut = poolTx.outputs[1] as TxOutput;
  const pool0 = minswapV2.decodePool(poolOut) as MinswapV2Pool;
  const traderA = (block12069665()[6] as Transaction).outputs[0]?.address as string;
  const traderB = (block12069665()[4] as Transaction).outputs[0]?.address as string;
  const ref = (c: string, index = 0): OutputReference => ({ transaction: { id: c.repeat(32) }, index });
  const orderAddress = 'addr1w8p79rpkcdz8x9d6tft0x0dx5mwuzac2sa4gm8cvkw5hcnqst2ctf';

  const order = (owner: string, aToB: boolean, amount: bigint): MinswapV2Order => ({
    dex: 'minswap-v2',
    kind: 'swap',
    owner,
    poolId: pool0.poolId,
    direction: aToB ? 'aToB' : 'bToA',
    tokenIn: aToB ? 'lovelace' : SNEK,
    tokenOut: null,
    amountIn: amount,
    minAmountOut: 1n,
    batcherFee: 2_000_000n,
    deposit: 2_000_000n,
    extra: {
      canceller: { method: 0, hash: '00'.repeat(28) },
      refundReceiver: owner,
      refundReceiverDatum: { type: 'none' },
      successReceiverDatum: { type: 'none' },
      lpAsset: MINSWAP_V2.authenPolicy + pool0.poolId,
      step: { type: 'swap-exact-in', aToB, amount: { specific: amount }, minimumReceive: 1n, killable: false },
      expiry: null,
    },
    datum: constr(0),
  });
  const buy = order(traderA, true, 100_000_000n); // 100 ADA → SNEK
  const sell = order(traderB, false, 50_000n); // 50,000 SNEK → ADA
  const value = (lovelace: bigint, snek = 0n): Value =>
    snek > 0n ? { ada: { lovelace }, [SNEK.slice(0, 56)]: { [SNEK.slice(56)]: snek } } : { ada: { lovelace } };
  const buyIn: TxOutput = { address: orderAddress, value: value(104_000_000n), datum: minswapV2.encodeOrderDatum(buy) };
  const sellIn: TxOutput = {
    address: orderAddress,
    value: value(4_000_000n, 50_000n),
    datum: minswapV2.encodeOrderDatum(sell),
  };
  const fees = [1_500_000n, 1_800_000n]; // charged per processed order (≤ max batcher fee)

  // The validator's processing: input_indexes = [1, 0] → the sell ("bb…", second in ledger order) first.
  const s1 = applyMinswapV2Swap(pool0, false, 50_000n);
  const s2 = applyMinswapV2Swap(s1.pool, true, 100_000_000n);
  const sellResult: TxOutput = { address: traderB, value: value(4_000_000n - (fees[0] as bigint) + s1.amountOut) };
  const buyResult: TxOutput = {
    address: traderA,
    value: value(104_000_000n - (fees[1] as bigint) - 100_000_000n, s2.amountOut),
  };
  const newPoolOut: TxOutput = {
    address: poolOut.address,
    value: {
      ...poolOut.value,
      ada: { lovelace: poolOut.value.ada.lovelace - s1.amountOut + 100_000_000n },
      [SNEK.slice(0, 56)]: { [SNEK.slice(56)]: quantityOf(poolOut.value, SNEK) + 50_000n - s2.amountOut },
    },
    datum: minswapV2.encodePoolDatum(s2.pool),
  };
  const redeemer = encodePlutusData(
    constr(
      0,
      0n,
      list(fees),
      bytes('0100'),
      optionData(null, (x: string) => bytes(x)),
      list([constr(1)]),
    ),
    { indefinite: true },
  );
  const batch: Transaction = {
    id: 'dd'.repeat(32),
    spends: 'inputs',
    inputs: [ref('cc'), ref('bb'), ref('aa')],
    outputs: [sellResult, buyResult, newPoolOut],
    withdrawals: { stake17y02a946720zw6pw50upt2arvxsvvpvaghjtl054h0f0gjsfyjz59: { ada: { lovelace: 0n } } },
    redeemers: [{ validator: { index: 0, purpose: 'withdraw' }, redeemer: redeemer }],
  };
  const utxo = new Map<string, TxOutput>([
    [`${'aa'.repeat(32)}#0`, buyIn],
    [`${'bb'.repeat(32)}#0`, sellIn],
    [`${'cc'.repeat(32)}#0`, poolOut],
  ]);
  const swaps = minswapV2.extractSwaps(batch, resolverOf(utxo));

  it('extracts both swaps in the redeemer’s processing order, paid by outputs[0] and outputs[1]', () => {
    assert.equal(swaps.length, 2);
    const [first, second] = swaps as [(typeof swaps)[0], (typeof swaps)[0]];
    assert.deepEqual(
      [first.trader, first.tokenIn, first.tokenOut, first.amountIn, first.amountOut, first.side, first.outputIndex],
      [traderB, SNEK, 'lovelace', 50_000n, s1.amountOut, 'sell', 0],
    );
    assert.deepEqual(
      [
        second.trader,
        second.tokenIn,
        second.tokenOut,
        second.amountIn,
        second.amountOut,
        second.side,
        second.outputIndex,
      ],
      [traderA, 'lovelace', SNEK, 100_000_000n, s2.amountOut, 'buy', 1],
    );
    assert.ok(swaps.every((s) => s.poolId === pool0.poolId && s.orderRef.endsWith('#0')));
  });

  it('reads the fee the batcher charged each order (the redeemer’s, within the datum’s maximum)', () => {
    assert.deepEqual(
      swaps.map((s) => s.feeLovelace),
      fees,
    );
  });

  it('matches the pool’s datum reserve change: in − protocol fee share, out as paid', () => {
    const after = minswapV2.decodePool(newPoolOut) as MinswapV2Pool;
    const first = swaps[0];
    const second = swaps[1];
    assert.ok(first && second);
    assert.equal(after.reserveB - pool0.reserveB, first.amountIn - s1.earnedFeeIn - second.amountOut);
    assert.equal(after.reserveA - pool0.reserveA, second.amountIn - s2.earnedFeeIn - first.amountOut);
    // The shares are exactly calculate_earned_fee_in: amount · fee · share / 10000².
    assert.equal(s1.earnedFeeIn, (50_000n * 100n * 3666n) / 100_000_000n);
  });

  it('never lets the constant product fall across the batch', () => {
    const after = minswapV2.decodePool(newPoolOut) as MinswapV2Pool;
    const k = (p: MinswapV2Pool) => p.reserveA * p.reserveB;
    assert.ok(k(s1.pool) >= k(pool0));
    assert.ok(k(after) >= k(s1.pool));
  });

  it('matches Minswap’s own unit test of calculate_amount_out', () => {
    const p = {
      ...pool0,
      reserveA: 25434557769208n,
      reserveB: 413300185707175n,
      fee: { aToB: 30n, bToA: 30n, denominator: 10000n },
    };
    assert.equal(minswapV2.amountOut(p, 'lovelace', 1_000_000_000n), 16200168971n);
    const q = {
      ...pool0,
      reserveA: 1_000_000_000n,
      reserveB: 1_000_000_000n,
      fee: { aToB: 30n, bToA: 30n, denominator: 10000n },
    };
    assert.equal(minswapV2.amountIn(q, SNEK, 1000n), 1004n);
  });

  it('detects pool creation by the minted MSP validity token', () => {
    assert.equal(minswapV2.isPoolCreation(batch), false);
    assert.equal(minswapV2.isPoolCreation({ ...batch, mint: { [MINSWAP_V2.authenPolicy]: { '4d5350': 1n } } }), true);
  });

  it('keeps the order datum a valid constructor', () => {
    assert.equal(asConstr(minswapV2.decodeOrder(buyIn)?.datum).constr, 0);
  });
});
