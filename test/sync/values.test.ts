import assert from 'node:assert/strict';
import type { ValueDoc } from '../../mongo/collections/chain.js';
import { addValues, ValueSum, ZERO } from '../../activities/sync/values.js';

/** A small deterministic generator (no seed library needed). */
function rng(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

describe('sync: a block’s value sum (ValueSum)', () => {
  it('sums exactly across the 10^15 boundary, drops assets that come to zero, keeps the key order', () => {
    const rand = rng(7);
    const units = ['aa', 'bb', 'cc', 'dd'].map((p) => p.repeat(28) + '746f6b656e');
    // Quantities around 2^53 and 10^15 (a pool's share supply, a whale's lovelace) and small ones.
    const sizes = [1n, 999_999_999_999_999n, 10n ** 15n, 2n ** 53n + 1n, 9_223_372_036_854_775_807n];
    for (let round = 0; round < 200; round++) {
      const moves: { v: ValueDoc; sign: 1 | -1 }[] = [];
      for (let i = 0; i < 1 + Math.floor(rand() * 8); i++) {
        const assets: Record<string, string> = {};
        for (const u of units) if (rand() < 0.5) assets[u] = String(sizes[Math.floor(rand() * sizes.length)]);
        const lovelace = String(sizes[Math.floor(rand() * sizes.length)]! * BigInt(1 + Math.floor(rand() * 3)));
        moves.push({ v: { lovelace, assets }, sign: rand() < 0.5 ? -1 : 1 });
        // Spend what was just received now and then: sums that come back to zero.
        if (rand() < 0.3) moves.push({ v: { lovelace, assets }, sign: -moves.at(-1)!.sign as 1 | -1 });
      }
      const sum = new ValueSum();
      for (const m of moves) sum.add(m.v, m.sign);
      const got = sum.doc();
      // Oracle: bigint sums of the same moves.
      let lovelace = 0n;
      const expected = new Map<string, bigint>();
      for (const m of moves) {
        lovelace += BigInt(m.sign) * BigInt(m.v.lovelace);
        for (const [u, q] of Object.entries(m.v.assets))
          expected.set(u, (expected.get(u) ?? 0n) + BigInt(m.sign) * BigInt(q));
      }
      assert.equal(got.lovelace, String(lovelace));
      assert.deepEqual(
        Object.fromEntries(Object.entries(got.assets).map(([u, q]) => [u, BigInt(q)])),
        Object.fromEntries([...expected].filter(([, q]) => q !== 0n)),
      );
      // The same document, key order included, as the addValues chain it replaced.
      let chained: ValueDoc = { lovelace: '0', assets: {} };
      for (const m of moves) chained = addValues(chained, m.v, m.sign, chained.assets);
      assert.deepEqual(got, chained);
      assert.deepEqual(Object.keys(got.assets), Object.keys(chained.assets));
    }
    assert.deepEqual(new ValueSum().doc(), { ...ZERO, assets: {} });
  });
});
