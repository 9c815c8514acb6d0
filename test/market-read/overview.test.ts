import assert from 'node:assert/strict';
import { buildOverview } from '../../activities/recompute/overview.js';
import type { PoolStatsDoc } from '../../mongo/collections/market-read.js';
import { NOW_MS, pool, unitOf } from './seed.js';

/**
 * The market overview's totals as a dashboard shows them: ADA amounts to the lovelace, summed over pools whose 24 h
 * volumes (whole ADA, 6 decimals each) add up to a figure a user can check by hand.
 */
describe('market overview totals: ADA sums to the lovelace', () => {
  const stats = (poolId: number, volume24h: number, txns24h: number): PoolStatsDoc => ({
    _id: String(poolId),
    poolId,
    volume24h,
    txns24h,
    tvlLovelace: null,
    updatedAt: new Date(NOW_MS).toISOString(),
  });

  it('24 h volume per DEX and overall equal the pools’ volumes added by hand (no binary-fraction residue)', () => {
    // Two pools of one DEX with 0.1 and 0.2 ADA traded, two of another with 1.1 and 2.2 ADA: by hand 0.3 ADA,
    // 3.3 ADA and 3.6 ADA overall. Added as binary floats they give 0.30000000000000004, 3.3000000000000003 and
    // 3.6000000000000005, which a dashboard shows as more ADA decimals than a lovelace has.
    const pools = [
      pool({ id: 1, tokenB: unitOf('a1', 'A'), reserveARaw: '1000000000', reserveBRaw: '1000', dex: 'splash' }),
      pool({ id: 2, tokenB: unitOf('a2', 'B'), reserveARaw: '2000000000', reserveBRaw: '1000', dex: 'splash' }),
      pool({ id: 3, tokenB: unitOf('a3', 'C'), reserveARaw: '3000000000', reserveBRaw: '1000' }),
      pool({ id: 4, tokenB: unitOf('a4', 'D'), reserveARaw: '4000000000', reserveBRaw: '1000' }),
    ];
    const poolStats = new Map([
      [1, stats(1, 0.1, 1)],
      [2, stats(2, 0.2, 2)],
      [3, stats(3, 1.1, 3)],
      [4, stats(4, 2.2, 4)],
    ]);
    const o = buildOverview(pools, poolStats, [], null, NOW_MS);
    const splash = o.dexes.find((d) => d.dex === 'splash');
    const minswap = o.dexes.find((d) => d.dex === 'minswap-v2');
    assert.equal(splash?.volume24h, 0.3);
    assert.equal(minswap?.volume24h, 3.3);
    assert.equal(o.volume24h, 3.6);
    assert.equal(o.txns24h, 10);
    // TVL: both sides of each ADA pool, 2 × (1,000 + 2,000 + 3,000 + 4,000) ADA.
    assert.equal(o.tvlAda, 20_000);
  });
});
