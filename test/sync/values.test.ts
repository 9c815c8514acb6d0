import assert from 'node:assert/strict';
import type { ValueDoc } from '../../mongo/collections/chain.js';
import { addInPlace, addValues, ValueSum, ZERO } from '../../activities/sync/values.js';

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

describe('sync: a damaged stored quantity', () => {
  // Seen on the production composition: balances set to "corrupt" in MongoDB; the next blocks touching those
  // addresses wrote "NaN" as their lovelace (the explorer then answered 500 for them) and the sync went on as healthy.
  const unit = 'ab'.repeat(28) + '746f6b656e';
  it('is refused loudly, never written back as "NaN" or a fraction', () => {
    assert.throws(() => addValues({ lovelace: 'corrupt', assets: {} }, { lovelace: '5', assets: {} }), {
      name: 'SyntaxError',
      message: 'Cannot convert corrupt to a BigInt',
    });
    assert.throws(() => addValues({ lovelace: '1.5', assets: {} }, { lovelace: '1', assets: {} }), SyntaxError);
    assert.throws(
      () => addValues({ lovelace: '7', assets: { [unit]: 'NaN' } }, { lovelace: '1', assets: { [unit]: '2' } }, -1),
      SyntaxError,
    );
    const held = { lovelace: '10', assets: { [unit]: 'x' } };
    assert.throws(() => addInPlace(held, { lovelace: '1', assets: { [unit]: '2' } }, 1), SyntaxError);
    const sum = new ValueSum();
    sum.add({ lovelace: '3', assets: {} }, 1);
    assert.throws(() => sum.add({ lovelace: 'oops', assets: {} }, 1), SyntaxError);
  });

  it('well-formed quantities keep their exact sums on both paths (hand figures)', () => {
    assert.deepEqual(addValues({ lovelace: '999999999999999', assets: {} }, { lovelace: '1', assets: {} }), {
      lovelace: '1000000000000000',
      assets: {},
    });
    assert.deepEqual(
      addValues({ lovelace: '5', assets: { [unit]: '2' } }, { lovelace: '7', assets: { [unit]: '2' } }, -1),
      { lovelace: '-2', assets: {} },
    );
    const sum = new ValueSum();
    sum.add({ lovelace: '900000000000000', assets: {} }, 1);
    sum.add({ lovelace: '900000000000000', assets: {} }, 1);
    assert.deepEqual(sum.doc(), { lovelace: '1800000000000000', assets: {} });
  });
});
