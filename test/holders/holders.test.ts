/**
 * Holders from address balances: stake-key combination, ordering, shares; and the incremental per-holder
 * documents a sync extension keeps, which must equal a fresh batch computation after any sequence of balance
 * changes and return exactly to an earlier state when the changes are reverted (as a rollback does).
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  SHARE_SCALE,
  applyBalanceDelta,
  assetDeltas,
  balanceEntries,
  holderDeltas,
  holdersFromBalances,
  type BalanceDelta,
  type HolderDoc,
} from '../../cardano/holders.js';
import type { AddressDoc } from '../../mongo/collections/chain.js';
import { baseAddress, enterpriseAddress, rewardAddress, stakeAddressOf } from '../../cardano/address.js';

const SNEK = '279c909f348e533da5808898f87f9a14bb2c3dfbbacccd631d927a3f534e454b';
const MIN = '29d222ce763455e3d7a09a665ce554f00ac89d2e99a1a83d267170c64d494e';
const cred = (tag: number) => tag.toString(16).padStart(2, '0').repeat(28);

/** Three wallets with two base addresses each (one stake key per wallet), and two enterprise addresses. */
const ADDRESSES = [
  ...[1, 2, 3].flatMap((w) => [
    baseAddress('mainnet', cred(w * 16), cred(w)),
    baseAddress('mainnet', cred(w * 16 + 1), cred(w)),
  ]),
  enterpriseAddress('mainnet', cred(0xa0)),
  enterpriseAddress('mainnet', cred(0xa1)),
];
const entry = (i: number, quantityRaw: string) => {
  const address = ADDRESSES[i] as string;
  return { address, stakeAddress: stakeAddressOf(address), quantityRaw };
};

describe('holders from balances', () => {
  it('combines the addresses of one stake key; an address without one is its own holder', () => {
    const r = holdersFromBalances([entry(0, '300'), entry(1, '200'), entry(2, '400'), entry(6, '450')], {
      combineByStake: true,
      limit: 10,
    });
    assert.deepEqual(r.items, [
      { address: rewardAddress('mainnet', cred(1)), quantityRaw: '500', share: 0.37037037037037 },
      { address: ADDRESSES[6], quantityRaw: '450', share: 0.333333333333333 },
      { address: rewardAddress('mainnet', cred(2)), quantityRaw: '400', share: 0.296296296296296 },
    ]);
    assert.equal(r.total, 3);
    assert.equal(r.sumRaw, '1350'); // shares are rounded down to 10^-15
  });

  it('keeps addresses apart when not combining', () => {
    const r = holdersFromBalances([entry(0, '300'), entry(1, '200')], { combineByStake: false, limit: 10 });
    assert.deepEqual(
      r.items.map((i) => [i.address, i.quantityRaw]),
      [
        [ADDRESSES[0], '300'],
        [ADDRESSES[1], '200'],
      ],
    );
    assert.equal(r.total, 2);
  });

  it('orders equal quantities by holder, counts only positive ones and returns the limit', () => {
    const r = holdersFromBalances([entry(6, '10'), entry(7, '10'), entry(0, '0'), entry(2, '5')], {
      combineByStake: true,
      limit: 2,
    });
    assert.deepEqual(
      r.items.map((i) => i.address),
      [ADDRESSES[6], ADDRESSES[7]].sort(),
    );
    assert.equal(r.total, 3);
    assert.equal(r.sumRaw, '25');
  });

  it('shares are of the circulating supply when it is larger than the holders’ sum', () => {
    const r = holdersFromBalances([entry(0, '25'), entry(2, '25')], {
      combineByStake: true,
      limit: 10,
      circulatingRaw: '100',
    });
    assert.deepEqual(
      r.items.map((i) => i.share),
      [0.25, 0.25],
    );
    const under = holdersFromBalances([entry(0, '25')], { combineByStake: true, limit: 10, circulatingRaw: '10' });
    assert.equal(under.items[0]?.share, 1);
    assert.equal(under.denominatorRaw, '25');
  });

  it('handles quantities beyond 2^53 exactly', () => {
    const big = '45000000000000000001';
    const r = holdersFromBalances([entry(0, big), entry(1, '1')], { combineByStake: true, limit: 1 });
    assert.equal(r.items[0]?.quantityRaw, '45000000000000000002');
    assert.equal(r.items[0]?.share, 1);
  });

  it('reads one token from address summaries', () => {
    const docs: Pick<AddressDoc, '_id' | 'stakeAddress' | 'balance'>[] = [
      {
        _id: ADDRESSES[0] as string,
        stakeAddress: stakeAddressOf(ADDRESSES[0] as string),
        balance: { lovelace: '5', assets: { [SNEK]: '7', [MIN]: '1' } },
      },
      { _id: ADDRESSES[6] as string, stakeAddress: null, balance: { lovelace: '5', assets: { [MIN]: '3' } } },
    ];
    assert.deepEqual([...balanceEntries(docs, SNEK)], [entry(0, '7')]);
  });

  it('the shares of all holders never add up to more than 1', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: ADDRESSES.length - 1 }), fc.bigInt({ min: 0n, max: 10n ** 24n })), {
          maxLength: 30,
        }),
        fc.option(fc.bigInt({ min: 0n, max: 10n ** 25n })),
        fc.boolean(),
        (es, circulating, combineByStake) => {
          const r = holdersFromBalances(
            es.map(([i, q]) => entry(i, String(q))),
            { combineByStake, limit: 100, ...(circulating === null ? {} : { circulatingRaw: String(circulating) }) },
          );
          const units = r.items.reduce((a, i) => a + BigInt(Math.round((i.share ?? 0) * 1e15)), 0n);
          assert.ok(units <= SHARE_SCALE, `${units}`);
          for (let k = 1; k < r.items.length; k++) {
            const [a, b] = [r.items[k - 1], r.items[k]] as [
              { address: string; quantityRaw: string },
              { address: string; quantityRaw: string },
            ];
            assert.ok(
              BigInt(a.quantityRaw) > BigInt(b.quantityRaw) ||
                (a.quantityRaw === b.quantityRaw && a.address < b.address),
            );
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('incremental holder documents', () => {
  const delta = (deltaRaw: string, slot = 100): BalanceDelta => ({
    unit: SNEK,
    holder: ADDRESSES[6] as string,
    deltaRaw,
    slot,
  });

  it('creates, updates and deletes a holder with the holder-count change', () => {
    const a = applyBalanceDelta(null, delta('50'));
    assert.deepEqual(a, {
      doc: { _id: `${SNEK}|${ADDRESSES[6]}`, unit: SNEK, holder: ADDRESSES[6], quantityRaw: '50', slot: 100 },
      holdersDelta: 1,
    });
    const b = applyBalanceDelta(a.doc, delta('-20', 101));
    assert.equal(b.doc?.quantityRaw, '30');
    assert.equal(b.holdersDelta, 0);
    assert.deepEqual(applyBalanceDelta(b.doc, delta('-30', 102)), { doc: null, holdersDelta: -1 });
  });

  it('refuses a balance below zero and a delta of another holder', () => {
    assert.throws(() => applyBalanceDelta(null, delta('-1')), /< 0/);
    const { doc } = applyBalanceDelta(null, delta('5'));
    assert.throws(() => applyBalanceDelta(doc, { ...delta('1'), unit: MIN }), /applied to/);
  });

  it('applying then reverting a delta restores the document exactly', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 22n }),
        fc.bigInt({ min: -(10n ** 22n), max: 10n ** 22n }),
        (q, d) => {
          fc.pre(q + d >= 0n);
          const prev: HolderDoc | null =
            q === 0n
              ? null
              : {
                  _id: `${SNEK}|${ADDRESSES[6]}`,
                  unit: SNEK,
                  holder: ADDRESSES[6] as string,
                  quantityRaw: String(q),
                  slot: 90,
                };
          const fwd = applyBalanceDelta(prev, delta(String(d)));
          const back = applyBalanceDelta(fwd.doc, delta(String(-d), 90));
          assert.deepEqual(back.doc, prev);
          assert.equal(fwd.holdersDelta + back.holdersDelta, 0);
        },
      ),
    );
  });

  it('per-unit deltas between two balances of an address', () => {
    assert.deepEqual(
      assetDeltas({ [SNEK]: '10', [MIN]: '4' }, { [SNEK]: '10', [MIN]: '1', x: '2' }),
      new Map([
        ['x', 2n],
        [MIN, -3n],
      ]),
    );
    assert.deepEqual(assetDeltas(null, { [SNEK]: '3' }), new Map([[SNEK, 3n]]));
    assert.deepEqual(assetDeltas({ [SNEK]: '3' }, null), new Map([[SNEK, -3n]]));
  });

  it('a transfer between two addresses of one stake key changes no holder', () => {
    const ds = holderDeltas(
      [
        { ...entry(0, '0'), deltas: new Map([[SNEK, -40n]]) },
        { ...entry(1, '0'), deltas: new Map([[SNEK, 40n]]) },
      ],
      true,
      5,
    );
    assert.deepEqual(ds, []);
  });

  // Random slices of balance changes (each sets an address's balance of a unit), with rollbacks of the last slices.
  type Change = { addr: number; unit: string; quantity: bigint };
  type Step = { kind: 'slice'; changes: Change[] } | { kind: 'rollback'; depth: number };
  const change: fc.Arbitrary<Change> = fc.record({
    addr: fc.nat({ max: ADDRESSES.length - 1 }),
    unit: fc.constantFrom(SNEK, MIN),
    quantity: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 10n ** 20n })),
  });
  const step: fc.Arbitrary<Step> = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('slice' as const),
        changes: fc.array(change, { minLength: 1, maxLength: 6 }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('rollback' as const), depth: fc.integer({ min: 1, max: 4 }) }),
    },
  );

  for (const combineByStake of [true, false]) {
    it(`after any changes and rollbacks, the documents equal a fresh recompute (combineByStake: ${combineByStake})`, () => {
      fc.assert(
        fc.property(fc.array(step, { maxLength: 25 }), (steps) => {
          const balances = new Map<string, Record<string, string>>();
          const docs = new Map<string, HolderDoc>();
          const counts = new Map<string, number>();
          // per applied slice: the address balances it replaced and the holder deltas it applied
          const journal: { balances: Map<string, Record<string, string> | undefined>; deltas: BalanceDelta[] }[] = [];

          const apply = (deltas: BalanceDelta[]) => {
            for (const d of deltas) {
              const id = `${d.unit}|${d.holder}`;
              const { doc, holdersDelta } = applyBalanceDelta(docs.get(id) ?? null, d);
              if (doc) docs.set(id, doc);
              else docs.delete(id);
              counts.set(d.unit, (counts.get(d.unit) ?? 0) + holdersDelta);
            }
          };

          let slot = 0;
          for (const s of steps) {
            if (s.kind === 'slice') {
              slot += 1;
              const before = new Map<string, Record<string, string> | undefined>();
              for (const c of s.changes) {
                const address = ADDRESSES[c.addr] as string;
                if (!before.has(address)) before.set(address, balances.get(address));
                const next = { ...(balances.get(address) ?? {}) };
                if (c.quantity === 0n) delete next[c.unit];
                else next[c.unit] = String(c.quantity);
                balances.set(address, next);
              }
              const deltas = holderDeltas(
                [...before].map(([address, prev]) => ({
                  address,
                  stakeAddress: stakeAddressOf(address),
                  deltas: assetDeltas(prev ?? null, balances.get(address) ?? null),
                })),
                combineByStake,
                slot,
              );
              apply(deltas);
              journal.push({ balances: before, deltas });
            } else {
              for (let k = 0; k < s.depth && journal.length > 0; k++) {
                const undo = journal.pop() as (typeof journal)[number];
                apply(undo.deltas.map((d) => ({ ...d, deltaRaw: String(-BigInt(d.deltaRaw)) })).reverse());
                for (const [address, prev] of undo.balances) {
                  if (prev === undefined) balances.delete(address);
                  else balances.set(address, prev);
                }
              }
            }

            for (const unit of [SNEK, MIN]) {
              const batch = holdersFromBalances(
                [...balances].map(([address, assets]) => ({
                  address,
                  stakeAddress: stakeAddressOf(address),
                  quantityRaw: assets[unit] ?? '0',
                })),
                { combineByStake, limit: Number.MAX_SAFE_INTEGER },
              );
              const incremental = holdersFromBalances(
                [...docs.values()]
                  .filter((d) => d.unit === unit)
                  .map((d) => ({ address: d.holder, stakeAddress: null, quantityRaw: d.quantityRaw })),
                { combineByStake: false, limit: Number.MAX_SAFE_INTEGER },
              );
              assert.deepEqual(incremental.items, batch.items);
              assert.equal(counts.get(unit) ?? 0, batch.total);
            }
          }
        }),
        { numRuns: 150 },
      );
    });
  }
});
