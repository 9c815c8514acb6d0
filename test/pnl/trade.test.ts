/** Stored trades (TradeDoc) → the PnL view: sides, exact amounts, decimal adjustment, and what is left out. */
import assert from 'node:assert/strict';
import { rewardAddress } from '../../cardano/address.js';
import type { TradeDoc } from '../../mongo/collections/market.js';
import { pnlTradeFromDoc, pnlTradesFromDocs } from '../../cardano/pnl/trade.js';
import { scaleInteger } from '../../cardano/units.js';

const MIN = '29d222ce763455e3d7a09a665ce554f00ac89d2e99a1a83d267170c64d494e';
const SNEK = '279c909f348e533da5808898f87f9a14bb2c3dfbbacccd631d927a3f534e454b';
const STAKE = rewardAddress('mainnet', 'c3'.repeat(28));
// Shelley started at slot 4,492,800 = 2020-07-29T21:44:51Z; one slot per second since.
const timeOfSlot = (slot: number) => 1_596_059_091 + (slot - 4_492_800);

function doc(over: Partial<TradeDoc>): TradeDoc {
  return {
    _id: '000000000042',
    id: 42,
    poolId: 7,
    dex: 'minswap-v2',
    txHash: 'a'.repeat(64),
    orderRef: `${'b'.repeat(64)}#0`,
    slot: 140_000_000,
    status: 'complete',
    side: 'buy',
    tokenIn: 'lovelace',
    tokenOut: MIN,
    amountInRaw: '25000000',
    amountOutRaw: '812345678',
    token: MIN,
    priceRaw: 25_000_000 / 812_345_678,
    valueLovelace: '25000000',
    maker: STAKE,
    makerAddress: null,
    seq: 1,
    ...over,
  };
}

describe('PnL trades from stored trades', () => {
  it('a buy spends lovelace for the token, amounts exact and decimal-adjusted', () => {
    const t = pnlTradeFromDoc(doc({}), 6, timeOfSlot);
    assert.ok(typeof t !== 'string');
    assert.equal(t.side, 'buy');
    assert.equal(t.unit, MIN);
    assert.equal(t.tokenRaw, 812_345_678n);
    assert.equal(t.lovelace, 25_000_000n);
    assert.equal(t.tokenAmount, 812.345678);
    assert.equal(t.adaAmount, 25);
    assert.equal(t.feeLovelace, 0n);
    assert.equal(t.seq, 42);
    assert.equal(t.time, timeOfSlot(140_000_000));
  });

  it('a sell gives the token for lovelace', () => {
    const t = pnlTradeFromDoc(
      doc({
        side: 'sell',
        tokenIn: SNEK,
        tokenOut: 'lovelace',
        token: SNEK,
        amountInRaw: '120000',
        amountOutRaw: '311000000',
      }),
      0,
      timeOfSlot,
    );
    assert.ok(typeof t !== 'string');
    assert.equal(t.side, 'sell');
    assert.equal(t.tokenRaw, 120_000n);
    assert.equal(t.lovelace, 311_000_000n);
    assert.equal(t.tokenAmount, 120_000);
    assert.equal(t.adaAmount, 311);
  });

  it('skips pending, cancelled and token/token trades and counts why', () => {
    const docs = [
      doc({}),
      doc({ status: 'pending', amountOutRaw: null }),
      doc({ status: 'cancelled', amountOutRaw: null }),
      doc({ tokenIn: SNEK, tokenOut: MIN, side: null, priceRaw: null, valueLovelace: null }),
      doc({ amountOutRaw: '0' }),
    ];
    const { trades, skipped } = pnlTradesFromDocs(docs, () => 6, timeOfSlot);
    assert.equal(trades.length, 1);
    assert.deepEqual(skipped, { notComplete: 2, noAdaSide: 1, zeroAmount: 1 });
  });

  it('scales raw amounts beyond 2^53 from their exact decimal expansion', () => {
    // the double nearest to the exact decimal value (a literal this long is rounded the same way)
    assert.equal(scaleInteger(123_456_789_012_345_678_901n, 6), Number('123456789012345.678901'));
    assert.equal(scaleInteger(45_000_000_000_000_000n, 6), 45_000_000_000);
    assert.equal(scaleInteger(-1n, 6), -0.000001);
    assert.equal(scaleInteger(7n, 0), 7);
  });
});
