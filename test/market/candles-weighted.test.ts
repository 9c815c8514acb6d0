/**
 * The `pool=all` aggregate of a token trading in two pools (spec: "volume-weighted price, summed volume"): its
 * prices are the pools' own open / high / low / close averaged by each pool's ADA volume in the bucket, so a thin
 * pool's last trade does not set the aggregate's close. Figures computed by hand below.
 */
import assert from 'node:assert/strict';
import { addPoint, type CandlePoint } from '../../activities/market/candles.js';
import type { CandleDoc } from '../../mongo/collections/market.js';

const HOUR = 1_795_716_000; // a bucket start
const ADA = 1_000_000n;
const point = (poolId: number, minute: number, price: number, ada: bigint): CandlePoint => ({
  series: 'token:t',
  poolId,
  timeSec: HOUR + minute * 60,
  price,
  lovelace: ada * ADA,
  tokenRaw: 50n,
});

const candleOf = (points: CandlePoint[], prev: CandleDoc | null = null) =>
  points.reduce<CandleDoc | null>((c, p) => addPoint(c, p, '1h'), prev) as CandleDoc;

const close = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) < 1e-12, `${what}: ${actual} ≠ ${expected}`);

describe('token candles over several pools are volume-weighted', () => {
  // Pool 1 trades 200 ADA at 2.0 then 2.2; pool 2 trades 20 ADA at 4.0 then 3.0, last in the hour.
  const points = [point(1, 1, 2.0, 100n), point(2, 2, 4.0, 10n), point(1, 3, 2.2, 100n), point(2, 4, 3.0, 10n)];

  it('weights each pool’s open, high, low and close by its share of the ADA volume (10/11 and 1/11)', () => {
    const c = candleOf(points);
    close(c.open, (2.0 * 10 + 4.0) / 11, 'open');
    close(c.high, (2.2 * 10 + 4.0) / 11, 'high');
    close(c.low, (2.0 * 10 + 3.0) / 11, 'low');
    close(c.close, (2.2 * 10 + 3.0) / 11, 'close');
    assert.deepEqual([c.volumeLovelace, c.volumeTokenRaw, c.trades, c.time], ['220000000', '200', 4, HOUR]);
    assert.deepEqual(c.pools, [
      { poolId: 1, open: 2.0, high: 2.2, low: 2.0, close: 2.2, volumeLovelace: '200000000' },
      { poolId: 2, open: 4.0, high: 4.0, low: 3.0, close: 3.0, volumeLovelace: '20000000' },
    ]);
  });

  it('is the trades’ own prices when one pool traded, and equal weights while every volume is 0', () => {
    const one = candleOf([point(1, 1, 2.0, 100n), point(1, 2, 1.5, 5n), point(1, 3, 1.8, 1n)]);
    assert.deepEqual(
      [one.open, one.high, one.low, one.close, one.poolId, one.pools],
      [2.0, 2.0, 1.5, 1.8, 1, undefined],
    );
    const free = candleOf([point(1, 1, 2.0, 0n), point(2, 2, 4.0, 0n)]);
    assert.deepEqual([free.open, free.high, free.low, free.close], [3.0, 3.0, 3.0, 3.0]);
  });

  it('counts a candle stored before pool parts were kept as one part of its own', () => {
    // Stored trade by trade: open 2.0, high 4.0, low 2.0, close 4.0 over 110 ADA; then pool 1 trades 110 ADA at 3.0.
    const stored = candleOf(points.slice(0, 2).map(({ poolId: _, ...p }) => p));
    assert.equal(stored.pools, undefined);
    const c = candleOf([point(1, 5, 3.0, 110n)], stored);
    close(c.close, (4.0 + 3.0) / 2, 'close');
    close(c.high, (4.0 + 3.0) / 2, 'high');
    close(c.low, (2.0 + 3.0) / 2, 'low');
    assert.deepEqual(
      c.pools?.map((x) => x.poolId),
      [-1, 1],
    );
  });
});
