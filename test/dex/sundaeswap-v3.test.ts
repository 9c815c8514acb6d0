import assert from 'node:assert/strict';
import type { TxOutput } from '../../cardano/chain/types.js';
import { cpAmountOut } from '../../cardano/dex/cpmm.js';
import { decodePlutusData, encodePlutusData, fieldsOf } from '../../cardano/dex/plutus-data.js';
import type { SundaeV3Order, SundaeV3Pool } from '../../cardano/dex/sundaeswap-v3.js';
import { decodeSundaeV3OrderDatum, decodeSundaeV3PoolDatum, sundaeswapV3 } from '../../cardano/dex/sundaeswap-v3.js';
import { irisItems, irisOutput, readJson, realOutputIndex, realTx, resolverOf } from './fixtures.js';

const TRUMP = 'de27f9eb9ed6f011e30a56dbe09d982c9facde3a37efd92f4dfac015446f6e616c644a5472756d70';
const IDENT = '913c17e9b7d6f44cdad16840efcb1cee32842b7d47f312d9bc36545f';

describe('SundaeSwap V3 (mainnet block 11322286 txs 33/34)', () => {
  const orderOut = realTx(11322286, 33).outputs[0] as TxOutput;
  const scoop = realTx(11322286, 34);
  const pool = sundaeswapV3.decodePool(scoop.outputs[0] as TxOutput) as SundaeV3Pool;

  it('decodes the order placed through DexHunter: 530 ADA for at least 43,483,756 DonaldTrump', () => {
    const o = sundaeswapV3.decodeOrder(orderOut) as SundaeV3Order;
    assert.equal(o.kind, 'swap');
    assert.equal(o.poolId, IDENT);
    assert.equal(
      o.owner,
      'addr1q84j06e9qmrgdgye3wvu5r486xwkzd0m94nzqjpkyk5sguuuezdd5lgh6ec2649r76fpx0m4n8f4stltg0rvd5l5e9uscvj46h',
    );
    assert.deepEqual(
      [o.tokenIn, o.amountIn, o.tokenOut, o.minAmountOut],
      ['lovelace', 530_000_000n, TRUMP, 43_483_756n],
    );
    assert.equal(o.batcherFee, 1_280_000n);
    assert.equal(o.deposit, 2_000_000n);
  });

  it('decodes the pool: ident, pair, fees per side, ADA reserve net of protocol fees', () => {
    assert.equal(pool.poolId, IDENT);
    assert.deepEqual([pool.tokenA, pool.tokenB], ['lovelace', TRUMP]);
    assert.equal(pool.extra.protocolFees, 992_608_000n);
    assert.equal(pool.reserveA, 30_988_910_643n - 992_608_000n);
    assert.equal(pool.reserveB, 2_570_502_454n);
    assert.deepEqual(pool.fee, { aToB: 100n, bToA: 100n, denominator: 10000n });
    assert.equal(pool.totalLp, 4_465_428_764n);
    assert.equal(pool.lpToken, `e0302560ced2fdcbfcb2602697df970cd0d6a38f94b32703f51c312b0014df10${IDENT}`);
  });

  it('re-encodes order and pool datums byte-for-byte (the destination’s `9f ff` empty datum included)', () => {
    assert.equal(sundaeswapV3.encodeOrderDatum(sundaeswapV3.decodeOrder(orderOut) as SundaeV3Order), orderOut.datum);
    assert.equal(sundaeswapV3.encodePoolDatum(pool), scoop.outputs[0]?.datum);
  });

  it('extracts the scoop: outputs[1] pays the order; the scooper took 4 lovelace less than offered', () => {
    const swaps = sundaeswapV3.extractSwaps(scoop, resolverOf(realOutputIndex()));
    assert.equal(swaps.length, 1);
    const s = swaps[0];
    assert.ok(s);
    assert.equal(s.orderRef, 'f73bbf62b61eadb794b43ecbda1c0fed86eea81d4158f71b6ae8583b11252c70#0');
    assert.equal(s.poolId, IDENT);
    assert.deepEqual(
      [s.tokenIn, s.amountIn, s.tokenOut, s.amountOut, s.side, s.outputIndex],
      ['lovelace', 529_999_996n, TRUMP, 45_772_374n, 'buy', 1],
    );
  });

  it('agrees with the pool: its reserves before the scoop pay exactly that output by the swap formula', () => {
    const before = { ...pool, reserveA: pool.reserveA - 529_999_996n, reserveB: pool.reserveB + 45_772_374n };
    assert.equal(sundaeswapV3.amountOut(before, 'lovelace', 529_999_996n), 45_772_374n);
    // Offering the full 530 ADA buys no more: that is why the scooper returned the 4 lovelace.
    assert.equal(sundaeswapV3.amountOut(before, 'lovelace', 530_000_000n), 45_772_374n);
    assert.equal(cpAmountOut(before.reserveA, before.reserveB, 529_999_995n, 100n, 10000n) < 45_772_374n, true);
  });

  it('detects the pool NFT mint as a pool creation', () => {
    assert.equal(sundaeswapV3.isPoolCreation(scoop), false);
    assert.equal(
      sundaeswapV3.isPoolCreation({
        ...scoop,
        mint: { e0302560ced2fdcbfcb2602697df970cd0d6a38f94b32703f51c312b: { [`000de140${IDENT}`]: 1n } },
      }),
      true,
    );
  });
});

describe('SundaeSwap V3 fixtures', () => {
  it('decodes the iris closed pool (only the NFT left): zero reserves once protocol fees are removed', () => {
    const tx = irisItems('sundaeswap-v3.test.json').find((i) => i.kind === 'transaction');
    assert.ok(tx);
    const out = irisOutput(tx.value.outputs[0] as never);
    const p = sundaeswapV3.decodePool(out) as SundaeV3Pool;
    assert.equal(p.poolId, 'ccf318a499816d03c0a35d856d31ea4d684920c19591644abb9a5ddf');
    assert.equal(p.tokenB, '0196e7016dbb34ac3794912d897fc9529eaa1ddf529483649fbd24c7535441524b');
    assert.deepEqual([p.reserveA, p.reserveB, p.totalLp], [0n, 0n, 0n]);
    assert.deepEqual(p.fee, { aToB: 30n, bToA: 30n, denominator: 10000n });
    assert.equal(sundaeswapV3.amountOut(p, 'lovelace', 1_000_000n), 0n);
  });

  it('decodes every V3 order and pool datum of the SDK golden vectors and re-encodes them exactly', () => {
    const v = readJson<{ items: Array<{ file: string; cbor: string }> }>(
      'dex/sundaeswap/sdk-datum-golden-vectors.json',
    );
    let orders = 0;
    let pools = 0;
    for (const it of v.items.filter((i) => i.file.endsWith('v3.expectations.ts') || i.file.endsWith('mockData.ts'))) {
      const d = decodePlutusData(it.cbor);
      const f = (() => {
        try {
          return fieldsOf(d, 0);
        } catch {
          return [];
        }
      })();
      if (f.length === 6) {
        const o = decodeSundaeV3OrderDatum(d);
        assert.equal(sundaeswapV3.encodeOrderDatum(o), it.cbor);
        orders++;
      } else if (f.length === 8) {
        const p = decodeSundaeV3PoolDatum(d);
        assert.equal(p.ident.length, 56);
        assert.equal(encodePlutusData(d), it.cbor);
        pools++;
      }
    }
    assert.ok(orders >= 8, `${orders} orders`);
    assert.ok(pools >= 2, `${pools} pools`);
  });
});
