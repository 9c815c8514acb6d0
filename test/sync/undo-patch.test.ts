/**
 * Field-level undo priors (activities/sync/undo-patch.ts): the entries a block's update records give the document
 * back exactly as it was — on documents shaped like the sync's own (an address balance with assets, a pool), and on
 * many random ones, compared by their canonical JSON (what the store digest hashes).
 */
import assert from 'node:assert/strict';
import { applyPatch, diffDoc, type Doc } from '../../activities/sync/undo-patch.js';
import { canonicalJson } from '../../mongo/digest.js';

const POLICY = 'c48cbb3d5e57ed56e276bc45f99ab39abe94e6cd7ac39fb402da47ad';

describe('sync: field-level undo priors', () => {
  it("an address's balance update records only the changed quantities and restores the prior balance", () => {
    const before: Doc = {
      _id: 'addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x',
      stakeAddress: 'stake1u9ylzsgxaa6xctf4juup682ar3juj85n8tx3hthnljg47zctvm3rc',
      balance: { lovelace: '5000000', assets: { [`${POLICY}5553444d`]: '10', [`${POLICY}4d494e`]: '7' } },
      utxoCount: 2,
      txCount: 4,
      slot: 100,
    };
    const after: Doc = {
      ...before,
      balance: { lovelace: '3000000', assets: { [`${POLICY}5553444d`]: '10', [`${POLICY}534e454b`]: '1' } },
      utxoCount: 3,
      txCount: 5,
      slot: 120,
    };
    const patch = diffDoc(before, after);
    assert.deepEqual(
      patch.map((e) => e.p.join('/')).sort(),
      [
        'balance/assets/' + POLICY + '4d494e',
        'balance/assets/' + POLICY + '534e454b',
        'balance/lovelace',
        'slot',
        'txCount',
        'utxoCount',
      ],
      'the unchanged asset, the identity fields and the stake address are not recorded',
    );
    const removed = patch.find((e) => e.p.at(-1) === `${POLICY}534e454b`);
    assert.ok(removed && !('v' in removed), 'an asset the block added is removed again');
    const restored = applyPatch(after, patch);
    assert.equal(canonicalJson(restored), canonicalJson(before));
    assert.notEqual(restored.balance, after.balance, 'the document after the block is not changed in place');
    assert.equal((after.balance as { lovelace: string }).lovelace, '3000000');
  });

  it('fields the block added or removed, nulls, arrays and undefined values come back exactly', () => {
    const before: Doc = {
      _id: 'p',
      a: null,
      list: [1, 2, { x: 1 }],
      nested: { keep: 1, gone: { deep: 'y' } },
      u: undefined,
    };
    const after: Doc = { _id: 'p', a: { now: 'object' }, list: [1, 2, { x: 2 }], nested: { keep: 1 }, added: 'z' };
    const restored = applyPatch(after, diffDoc(before, after));
    assert.deepEqual(Object.keys(restored).sort(), Object.keys(before).sort());
    assert.ok(Object.hasOwn(restored, 'u') && restored.u === undefined, 'a field holding undefined stays a field');
    assert.equal(canonicalJson(restored), canonicalJson(before));
  });

  it('random documents: applying the diff to the newer version gives the older one', () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const value = (depth: number): unknown => {
      switch (rnd(depth > 2 ? 4 : 6)) {
        case 0:
          return null;
        case 1:
          return rnd(5);
        case 2:
          return `s${rnd(4)}`;
        case 3:
          return [rnd(3), `t${rnd(2)}`];
        default:
          return obj(depth + 1);
      }
    };
    const obj = (depth: number): Record<string, unknown> => {
      const o: Record<string, unknown> = {};
      for (let i = rnd(5); i > 0; i--) o[`k${rnd(6)}`] = value(depth);
      return o;
    };
    /** A changed copy: some fields replaced, removed or added, nested objects changed the same way. */
    const mutate = (o: Record<string, unknown>, depth: number): Record<string, unknown> => {
      const out: Record<string, unknown> = { ...o };
      for (const k of Object.keys(out)) {
        const r = rnd(5);
        if (r === 0) delete out[k];
        else if (r === 1) out[k] = value(depth);
        else if (r === 2 && out[k] !== null && typeof out[k] === 'object' && !Array.isArray(out[k]))
          out[k] = mutate(out[k] as Record<string, unknown>, depth + 1);
      }
      if (rnd(2) === 0) out[`k${rnd(8)}`] = value(depth);
      return out;
    };
    for (let i = 0; i < 2000; i++) {
      const before = { _id: `d${i}`, ...obj(0) } as Doc;
      const after = { ...mutate(before, 0), _id: before._id } as Doc;
      const afterJson = canonicalJson(after);
      const restored = applyPatch(after, diffDoc(before, after));
      assert.equal(canonicalJson(restored), canonicalJson(before), `document ${i}`);
      assert.equal(canonicalJson(after), afterJson, `document ${i} after the block is unchanged`);
      assert.deepEqual(diffDoc(after, after), []);
    }
  });
});
