/**
 * FIFO wallet PnL on hand-built trade sequences of real mainnet tokens (SNEK, 0 decimals; MIN, 6 decimals), then
 * properties over generated sequences: lot conservation, cost conservation, break-even round trips and order
 * independence.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { computePnl, type PnlMarks, type TokenPnl, type WalletPnl } from '../../cardano/pnl/fifo.js';
import { pnlTrade, type PnlTrade } from '../../cardano/pnl/trade.js';

const SNEK = '279c909f348e533da5808898f87f9a14bb2c3dfbbacccd631d927a3f534e454b';
const MIN = '29d222ce763455e3d7a09a665ce554f00ac89d2e99a1a83d267170c64d494e';
const DECIMALS: Record<string, number> = { [SNEK]: 0, [MIN]: 6 };
const T0 = 1_735_689_600; // 2025-01-01T00:00:00Z

let seq = 0;
/** A trade in whole tokens and whole ADA (converted to raw units and lovelace exactly). */
function trade(unit: string, side: 'buy' | 'sell', tokens: number, ada: number, time: number): PnlTrade {
  const decimals = DECIMALS[unit] ?? 0;
  return pnlTrade({
    seq: ++seq,
    time,
    slot: time - T0,
    unit,
    side,
    tokenRaw: BigInt(Math.round(tokens * 10 ** decimals)),
    lovelace: BigInt(Math.round(ada * 1e6)),
    decimals,
  });
}

function marks(
  prices: Record<string, number | null> = {},
  rates: (t: number) => number | null = () => null,
  now: number | null = null,
): PnlMarks {
  return { priceAda: (u) => prices[u] ?? null, adaUsdAt: rates, adaUsdNow: now };
}

const token = (p: WalletPnl, unit: string): TokenPnl => {
  const t = p.tokens.find((x) => x.unit === unit);
  assert.ok(t, `no PnL for ${unit}`);
  return t;
};

const close = (actual: number | null, expected: number, eps = 1e-9) =>
  assert.ok(actual !== null && Math.abs(actual - expected) <= eps, `${actual} ≉ ${expected}`);

describe('FIFO PnL: hand-built sequences', () => {
  it('several buys then a partial sell consumes the oldest lot only', () => {
    const p = computePnl(
      [trade(SNEK, 'buy', 1000, 10, T0), trade(SNEK, 'buy', 1000, 20, T0 + 60), trade(SNEK, 'sell', 500, 10, T0 + 120)],
      marks(),
      { coverageFrom: '2025-01-01T00:00:00.000Z' },
    );
    const s = token(p, SNEK);
    assert.equal(s.realisedAda, 5); // 10 ADA for 500 that cost 5 ADA (half of the first lot)
    assert.equal(s.remainingAmount, 1500);
    assert.equal(s.remainingRaw, '1500');
    assert.equal(s.costBasisAda, 25); // 5 left of lot 1 + 20 of lot 2
    close(s.avgCostAda, 25 / 1500);
    assert.equal(p.tradeCount, 3);
    assert.equal(p.buyCount, 2);
    assert.equal(p.sellCount, 1);
    assert.equal(p.volumeAda, 40);
    assert.equal(p.coverageFrom, '2025-01-01T00:00:00.000Z');
  });

  it('a sell across two lots is charged the whole first lot and part of the second', () => {
    const p = computePnl(
      [trade(MIN, 'buy', 100, 10, T0), trade(MIN, 'buy', 100, 20, T0 + 1), trade(MIN, 'sell', 150, 30, T0 + 2)],
      marks(),
      { coverageFrom: null },
    );
    const m = token(p, MIN);
    assert.equal(m.realisedAda, 10); // 30 − (10 + 10)
    assert.equal(m.remainingAmount, 50);
    assert.equal(m.remainingRaw, '50000000');
    assert.equal(m.costBasisAda, 10);
    assert.equal(m.avgCostAda, 0.2);
  });

  it('a loss is negative realised PnL and not a win', () => {
    const p = computePnl([trade(SNEK, 'buy', 100, 50, T0), trade(SNEK, 'sell', 100, 30, T0 + 10)], marks(), {
      coverageFrom: null,
    });
    assert.equal(p.realisedAda, -20);
    assert.equal(p.closedPositions, 1);
    assert.equal(p.wins, 0);
    assert.equal(p.winRatePercent, 0);
    assert.deepEqual(p.series, [{ time: T0 + 10, value: -20 }]);
  });

  it('a full round trip leaves nothing open and no unrealised PnL', () => {
    const p = computePnl(
      [trade(MIN, 'buy', 100, 10, T0), trade(MIN, 'sell', 100, 15, T0 + 10)],
      marks({ [MIN]: 0.3 }),
      {
        coverageFrom: null,
      },
    );
    const m = token(p, MIN);
    assert.equal(m.realisedAda, 5);
    assert.equal(m.remainingRaw, '0');
    assert.equal(m.unrealisedAda, 0);
    assert.equal(m.costBasisAda, 0);
    assert.equal(m.avgCostAda, null);
    assert.equal(m.valueAda, 0);
    assert.equal(p.winRatePercent, 100);
  });

  it('a remaining lot is marked at the current price and the current ADA/USD', () => {
    const p = computePnl(
      [trade(MIN, 'buy', 100, 10, T0)],
      marks({ [MIN]: 0.2 }, () => 0.4, 0.5),
      { coverageFrom: null },
    );
    const m = token(p, MIN);
    close(m.valueAda, 20);
    close(m.unrealisedAda, 10);
    close(m.costBasisUsd, 4); // 10 ADA at 0.40 USD
    close(m.unrealisedUsd, 6); // 20 ADA at 0.50 USD − 4 USD
    assert.equal(m.realisedAda, 0);
    close(p.unrealisedAda, 10);
    close(p.unrealisedUsd, 6);
    assert.equal(p.winRatePercent, null); // nothing closed yet
    assert.deepEqual(p.unpricedUnits, []);
  });

  it('a token without a current price has unknown unrealised PnL and is listed', () => {
    const p = computePnl([trade(SNEK, 'buy', 100, 10, T0), trade(MIN, 'buy', 10, 1, T0)], marks({ [MIN]: 0.2 }), {
      coverageFrom: null,
    });
    assert.equal(token(p, SNEK).unrealisedAda, null);
    assert.deepEqual(p.unpricedUnits, [SNEK]);
    close(p.unrealisedAda, 1); // MIN only
  });

  it('sells with no prior buy are unmatched and excluded from realised PnL', () => {
    const p = computePnl([trade(SNEK, 'sell', 40, 8, T0)], marks(), { coverageFrom: '2025-01-01T00:00:00.000Z' });
    const s = token(p, SNEK);
    assert.equal(s.realisedAda, 0);
    assert.equal(s.unmatchedSellAmount, 40);
    assert.equal(s.unmatchedSellRaw, '40');
    assert.equal(s.unmatchedProceedsAda, 8);
    assert.equal(p.unmatchedProceedsAda, 8);
    assert.equal(p.unmatchedSells, 1);
    assert.equal(p.closedPositions, 0);
    assert.equal(p.winRatePercent, null);
    assert.deepEqual(p.series, []);
  });

  it('a sell larger than the known lots splits its proceeds pro rata', () => {
    const p = computePnl([trade(SNEK, 'buy', 10, 1, T0), trade(SNEK, 'sell', 30, 6, T0 + 5)], marks(), {
      coverageFrom: null,
    });
    const s = token(p, SNEK);
    assert.equal(s.realisedAda, 1); // 10 of 30 sold → 2 ADA of the proceeds, cost 1 ADA
    assert.equal(s.unmatchedSellAmount, 20);
    assert.equal(s.unmatchedProceedsAda, 4);
    assert.equal(s.remainingRaw, '0');
    assert.equal(p.wins, 1);
  });

  it('USD PnL uses the ADA/USD of each trade, not the current one', () => {
    const rate = (t: number) => (t < T0 + 100 ? 0.3 : 0.5);
    const p = computePnl(
      [trade(SNEK, 'buy', 100, 10, T0), trade(SNEK, 'sell', 100, 10, T0 + 200)],
      marks({}, rate, 0.9),
      { coverageFrom: null },
    );
    assert.equal(p.realisedAda, 0); // flat in ADA…
    close(p.realisedUsd, 2); // …but bought for 3 USD, sold for 5 USD
    assert.equal(token(p, SNEK).unrealisedUsd, 0);
  });

  it('USD PnL is unknown when a needed rate is unknown, while ADA PnL stands', () => {
    const rate = (t: number) => (t < T0 + 100 ? null : 0.5);
    const p = computePnl([trade(SNEK, 'buy', 100, 10, T0), trade(SNEK, 'sell', 100, 12, T0 + 200)], marks({}, rate), {
      coverageFrom: null,
    });
    assert.equal(p.realisedAda, 2);
    assert.equal(p.realisedUsd, null);
    assert.equal(token(p, SNEK).realisedUsd, null);
  });

  it('win rate counts each sell that closed a position; break-even is not a win', () => {
    const p = computePnl(
      [
        trade(SNEK, 'buy', 300, 30, T0),
        trade(SNEK, 'sell', 100, 15, T0 + 1), // +5
        trade(SNEK, 'sell', 100, 5, T0 + 2), // −5
        trade(SNEK, 'sell', 100, 10, T0 + 3), // 0
        trade(SNEK, 'sell', 50, 10, T0 + 4), // unmatched: not a position
      ],
      marks(),
      { coverageFrom: null },
    );
    assert.equal(p.closedPositions, 3);
    assert.equal(p.wins, 1);
    close(p.winRatePercent, 100 / 3);
    assert.deepEqual(
      p.series.map((x) => x.value),
      [5, 0, 0],
    );
  });

  it('charges a partly consumed lot by whole lovelace and the pieces add up to its cost', () => {
    // 3 raw SNEK for 10 lovelace, sold one by one for nothing: charges 3, 3 and the remaining 4 lovelace.
    const t = (side: 'buy' | 'sell', raw: bigint, lovelace: bigint, time: number) =>
      pnlTrade({ seq: ++seq, time, slot: time, unit: SNEK, side, tokenRaw: raw, lovelace, decimals: 0 });
    const p = computePnl(
      [t('buy', 3n, 10n, 1), t('sell', 1n, 0n, 2), t('sell', 1n, 0n, 3), t('sell', 1n, 0n, 4)],
      marks(),
      { coverageFrom: null },
    );
    assert.deepEqual(
      p.series.map((x) => x.value),
      [-0.000003, -0.000006, -0.00001],
    );
    assert.equal(p.costBasisAda, 0);
  });

  it('merges closed positions of one second into one series point, in time order', () => {
    const p = computePnl(
      [
        trade(SNEK, 'sell', 10, 2, T0 + 50), // given out of order: sorted by time
        trade(SNEK, 'buy', 100, 10, T0),
        trade(SNEK, 'sell', 10, 2, T0 + 10),
        trade(SNEK, 'sell', 10, 3, T0 + 10),
      ],
      marks(),
      { coverageFrom: null },
    );
    assert.deepEqual(p.series, [
      { time: T0 + 10, value: 3 },
      { time: T0 + 50, value: 4 },
    ]);
  });

  it('ranks top contributing tokens by the size of their PnL', () => {
    const p = computePnl(
      [
        trade(SNEK, 'buy', 100, 10, T0),
        trade(SNEK, 'sell', 100, 4, T0 + 1), // −6
        trade(MIN, 'buy', 10, 10, T0),
        trade(MIN, 'sell', 5, 7, T0 + 1), // +2 realised, 5 left at cost 5
      ],
      marks({ [MIN]: 1.2 }), // +1 unrealised
      { coverageFrom: null, topTokens: 1 },
    );
    assert.deepEqual(
      p.tokens.map((t) => [t.unit, t.pnlAda]),
      [
        [SNEK, -6],
        [MIN, 3],
      ],
    );
    assert.deepEqual(p.topTokens, [{ unit: SNEK, pnlAda: -6, realisedAda: -6, unrealisedAda: 0 }]);
  });

  it('adds fees to a buy cost and takes them from sell proceeds', () => {
    const p = computePnl(
      [
        pnlTrade({
          seq: 1,
          time: 1,
          slot: 1,
          unit: SNEK,
          side: 'buy',
          tokenRaw: 100n,
          lovelace: 10_000_000n,
          feeLovelace: 2_000_000n,
          decimals: 0,
        }),
        pnlTrade({
          seq: 2,
          time: 2,
          slot: 2,
          unit: SNEK,
          side: 'sell',
          tokenRaw: 100n,
          lovelace: 15_000_000n,
          feeLovelace: 1_000_000n,
          decimals: 0,
        }),
      ],
      marks(),
      { coverageFrom: null },
    );
    assert.equal(p.realisedAda, 2);
    assert.equal(p.volumeAda, 25);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Properties

interface GenTrade {
  unit: string;
  side: 'buy' | 'sell';
  raw: bigint;
  lovelace: bigint;
}
const genTrade: fc.Arbitrary<GenTrade> = fc.record({
  unit: fc.constantFrom(SNEK, MIN),
  side: fc.constantFrom('buy' as const, 'sell' as const),
  raw: fc.bigInt({ min: 1n, max: 10n ** 12n }),
  lovelace: fc.bigInt({ min: 0n, max: 10n ** 11n }),
});
const toTrades = (gs: GenTrade[]) =>
  gs.map((g, i) =>
    pnlTrade({
      seq: i,
      time: T0 + i,
      slot: i,
      unit: g.unit,
      side: g.side,
      tokenRaw: g.raw,
      lovelace: g.lovelace,
      decimals: DECIMALS[g.unit] ?? 0,
    }),
  );
const lovelaceOf = (ada: number) => BigInt(Math.round(ada * 1e6));

describe('FIFO PnL: open lots the wallet no longer holds', () => {
  const COVER = { coverageFrom: null };
  // 1000 SNEK for 10 ADA, then 1000 for 20 ADA; SNEK now at 0.03 ADA.
  const buys = () => [trade(SNEK, 'buy', 1000, 10, T0), trade(SNEK, 'buy', 1000, 20, T0 + 60)];

  it('takes the tokens gone without a sale from the oldest lots: they are neither cost basis nor unrealised', () => {
    // The wallet holds 1500: 500 left it (sent away, or swapped for another token), taken from the 10 ADA lot.
    const p = computePnl(buys(), { ...marks({ [SNEK]: 0.03 }), heldRaw: () => 1500n }, COVER);
    const s = token(p, SNEK);
    assert.equal(s.remainingRaw, '1500');
    assert.equal(s.notHeldRaw, '500');
    assert.equal(s.notHeldAmount, 500);
    assert.equal(s.notHeldCostAda, 5); // half of the first lot
    assert.equal(s.costBasisAda, 25); // 5 left of lot 1 + 20 of lot 2
    close(s.valueAda, 45); // 1500 × 0.03
    close(s.unrealisedAda, 20);
    assert.equal(s.realisedAda, 0);
    assert.equal(p.costBasisAda, 25);
    close(p.unrealisedAda, 20);
    assert.equal(p.notHeldCostAda, 5);
  });

  it('a wallet holding none of it has no open position left, and one holding more keeps every lot', () => {
    const none = token(computePnl(buys(), { ...marks({ [SNEK]: 0.03 }), heldRaw: () => 0n }, COVER), SNEK);
    assert.equal(none.remainingRaw, '0');
    assert.equal(none.notHeldCostAda, 30);
    assert.equal(none.costBasisAda, 0);
    assert.equal(none.unrealisedAda, 0);
    assert.equal(none.avgCostAda, null);
    // 2500 held: 500 more than bought (received by transfer, cost unknown), so every lot stays open as bought.
    const more = token(computePnl(buys(), { ...marks({ [SNEK]: 0.03 }), heldRaw: () => 2500n }, COVER), SNEK);
    assert.equal(more.remainingRaw, '2000');
    assert.equal(more.notHeldRaw, '0');
    assert.equal(more.costBasisAda, 30);
    close(more.unrealisedAda, 30); // 2000 × 0.03 − 30
  });

  it('a sell after the tokens left still takes the oldest lots first, and what is gone comes from what remains', () => {
    // Sell 800 for 16 ADA: 800 of lot 1 (cost 8) → realised 8. Open: 200 of lot 1 (cost 2) and lot 2; 700 held.
    const p = computePnl(
      [...buys(), trade(SNEK, 'sell', 800, 16, T0 + 120)],
      { ...marks({ [SNEK]: 0.03 }), heldRaw: () => 700n },
      COVER,
    );
    const s = token(p, SNEK);
    assert.equal(s.realisedAda, 8);
    assert.equal(s.notHeldRaw, '500'); // 200 of lot 1 (2 ADA) + 300 of lot 2 (6 ADA)
    assert.equal(s.notHeldCostAda, 8);
    assert.equal(s.remainingRaw, '700');
    assert.equal(s.costBasisAda, 14); // 700 of lot 2 at 0.02
  });
});

describe('FIFO PnL: properties', () => {
  it('open lots = buys − matched sells, and every lovelace of cost is charged once', () => {
    fc.assert(
      fc.property(fc.array(genTrade, { maxLength: 40 }), (gs) => {
        const p = computePnl(toTrades(gs), marks(), { coverageFrom: null });
        for (const unit of [SNEK, MIN]) {
          const mine = gs.filter((g) => g.unit === unit);
          if (mine.length === 0) continue;
          const t = token(p, unit);
          const sum = (side: 'buy' | 'sell', f: (g: GenTrade) => bigint) =>
            mine.filter((g) => g.side === side).reduce((a, g) => a + f(g), 0n);
          const matchedSold = sum('sell', (g) => g.raw) - BigInt(t.unmatchedSellRaw);
          assert.equal(BigInt(t.remainingRaw), sum('buy', (g) => g.raw) - matchedSold);
          // proceeds of sells = realised + cost charged + unmatched proceeds; cost charged = buys' cost − open cost
          const charged = sum('buy', (g) => g.lovelace) - lovelaceOf(t.costBasisAda);
          assert.equal(
            lovelaceOf(t.realisedAda) + charged + lovelaceOf(t.unmatchedProceedsAda),
            sum('sell', (g) => g.lovelace),
          );
          assert.ok(t.wins <= t.closedPositions);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('buying and selling everything at one price realises exactly 0, however the sells split the lots', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 6n }), // lovelace per raw unit
        fc.array(fc.bigInt({ min: 1n, max: 10n ** 9n }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 8 }),
        (price, buys, weights) => {
          const total = buys.reduce((a, b) => a + b, 0n);
          const wsum = BigInt(weights.reduce((a, b) => a + b, 0));
          // split `total` into sells proportional to the weights, the last one taking the rest
          const sells: bigint[] = [];
          let left = total;
          for (const w of weights.slice(0, -1)) {
            const q = (total * BigInt(w)) / wsum;
            if (q > 0n && q < left) {
              sells.push(q);
              left -= q;
            }
          }
          sells.push(left);
          const trades = [
            ...buys.map((q, i) =>
              pnlTrade({
                seq: i,
                time: T0,
                slot: 0,
                unit: SNEK,
                side: 'buy',
                tokenRaw: q,
                lovelace: q * price,
                decimals: 0,
              }),
            ),
            ...sells.map((q, i) =>
              pnlTrade({
                seq: 100 + i,
                time: T0 + 1 + i,
                slot: 1 + i,
                unit: SNEK,
                side: 'sell',
                tokenRaw: q,
                lovelace: q * price,
                decimals: 0,
              }),
            ),
          ];
          const p = computePnl(trades, marks({ [SNEK]: 1 }), { coverageFrom: null });
          assert.equal(p.realisedAda, 0);
          assert.equal(p.wins, 0);
          assert.equal(p.closedPositions, sells.length);
          assert.equal(token(p, SNEK).remainingRaw, '0');
          assert.equal(p.costBasisAda, 0);
          assert.equal(p.unmatchedSells, 0);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('marked at its own average cost, an open position has no unrealised PnL', () => {
    fc.assert(
      fc.property(fc.array(genTrade, { minLength: 1, maxLength: 30 }), (gs) => {
        const trades = toTrades(gs);
        const first = computePnl(trades, marks(), { coverageFrom: null });
        const prices = Object.fromEntries(first.tokens.map((t) => [t.unit, t.avgCostAda ?? 0]));
        const p = computePnl(trades, marks(prices), { coverageFrom: null });
        for (const t of p.tokens) close(t.unrealisedAda, 0, Math.max(1e-6, t.costBasisAda * 1e-12));
      }),
      { numRuns: 100 },
    );
  });

  it('is independent of input order, and each token is computed as if alone', () => {
    fc.assert(
      fc.property(
        fc.array(genTrade, { maxLength: 30 }).chain((gs) =>
          fc.tuple(
            fc.constant(gs),
            fc.shuffledSubarray(
              gs.map((_, i) => i),
              { minLength: gs.length },
            ),
          ),
        ),
        ([gs, order]) => {
          const trades = toTrades(gs);
          const m = marks({ [SNEK]: 0.001, [MIN]: 0.3 }, (t) => 0.3 + (t - T0) / 1e4, 0.7);
          const p = computePnl(trades, m, { coverageFrom: null });
          assert.deepEqual(
            computePnl(
              order.map((i) => trades[i] as PnlTrade),
              m,
              { coverageFrom: null },
            ),
            p,
          );
          for (const t of p.tokens) {
            const alone = computePnl(
              trades.filter((x) => x.unit === t.unit),
              m,
              { coverageFrom: null },
            );
            assert.deepEqual(alone.tokens, [t]);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
