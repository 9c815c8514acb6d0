/**
 * The behaviour every Store adapter must share, run against the embedded store always and against MongoDB where
 * MONGODB_URI is set. Index fields hold one type each (plus null for missing), the rule under which lmdb's key
 * order and MongoDB's sort order agree.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { defineCollection, del, put, type RangeQuery, type Store, type WriteOp } from '../../mongo/store.js';

/** An unspent output as an explorer keeps it: looked up by address (newest first) and by spent state. */
interface UtxoDoc {
  _id: string;
  address: string | null;
  slot: number;
  lovelace: string;
  spent: boolean;
}
const UTXOS = defineCollection<UtxoDoc>({
  name: 'contract_utxos',
  indexes: [
    { name: 'byAddress', fields: ['address', 'slot'] },
    { name: 'bySlot', fields: ['slot'] },
    { name: 'bySpent', fields: ['spent', 'slot'] },
  ],
});

interface BlockDoc {
  _id: string;
  height: number;
  fees: string;
}
const BLOCKS = defineCollection<BlockDoc>({
  name: 'contract_blocks',
  indexes: [{ name: 'byHeight', fields: ['height'] }],
});

const hex = (seed: string, bytes = 32) =>
  createHash('sha256')
    .update(seed)
    .digest('hex')
    .repeat(2)
    .slice(0, bytes * 2);
/** Mainnet-shaped (not valid) Shelley base addresses: the `addr1` prefix and bech32 alphabet. */
const ADDRESSES = ['addr1qx', 'addr1q9', 'addr1vy', 'addr1w8'].map(
  (p, i) => `${p}${hex(`address ${i}`, 48).replace(/[^ac-hj-np-z02-9]/g, 'q')}`,
);

/** `n` outputs over a few addresses and slots, with equal slots on purpose so the `_id` tie-break matters. */
function utxos(n: number): UtxoDoc[] {
  return Array.from({ length: n }, (_, i) => ({
    _id: `${hex(`tx ${Math.floor(i / 3)}`)}#${i % 3}`,
    address: i % 17 === 5 ? null : (ADDRESSES[i % ADDRESSES.length] as string),
    slot: 120_000_000 + Math.floor(i / 4) * 20,
    lovelace: String(1_000_000n + BigInt(i) * 2_500_000_000_000n),
    spent: i % 5 === 0,
  }));
}

/** A document as a write's `prev` (the stored version) takes it. */
const stored = (d: UtxoDoc) => d as unknown as { _id: string } & Record<string, unknown>;

/** Reference order of an index: fields in order (null first), then `_id`. */
function byKeys(fields: readonly string[]) {
  const rank = (v: unknown) => (v === null || v === undefined ? 0 : 1);
  return (a: object, b: object): number => {
    for (const f of [...fields, '_id']) {
      const x = (a as Record<string, unknown>)[f];
      const y = (b as Record<string, unknown>)[f];
      if (rank(x) !== rank(y)) return rank(x) - rank(y);
      if (x === y || rank(x) === 0) continue;
      return (x as string | number) < (y as string | number) ? -1 : 1;
    }
    return 0;
  };
}
const ids = (docs: readonly { _id: string }[]) => docs.map((d) => d._id);

/** An output whose document has no `address` field at all (indexed as null, like a null address). */
const outputWithoutAddress = (): UtxoDoc =>
  ({ _id: `${hex('byron')}#0`, slot: 120_000_000, lovelace: '1', spent: false }) as unknown as UtxoDoc;

export function storeContract(name: string, open: () => Promise<Store>): void {
  describe(`Store contract: ${name}`, function () {
    let store: Store;

    beforeEach(async () => {
      store = await open();
      await store.ensureIndexes([UTXOS, BLOCKS]);
      await store.clear([UTXOS.name, BLOCKS.name]);
    });
    afterEach(async () => {
      await store.close();
    });

    it('gets documents by id, one or many, with null for the missing ones', async () => {
      const docs = utxos(10);
      await store.write(docs.map((d) => put(UTXOS, d)));
      const coll = store.collection(UTXOS);
      assert.deepEqual(await coll.get(docs[3]!._id), docs[3]);
      assert.equal(await coll.get(`${hex('never spent')}#0`), null);
      const many = await coll.getMany([docs[7]!._id, 'missing#1', docs[0]!._id, docs[7]!._id]);
      assert.deepEqual(many, [docs[7], null, docs[0], docs[7]]);
      assert.deepEqual(await coll.getMany([]), []);
    });

    it('keeps amounts beyond 2^53 as exact strings and large slots as exact numbers', async () => {
      const doc: UtxoDoc = {
        _id: `${hex('whale')}#0`,
        address: ADDRESSES[0] as string,
        slot: 2 ** 53 - 1,
        lovelace: '45000000000000000000000001',
        spent: false,
      };
      await store.write([put(UTXOS, doc)]);
      const got = await store.collection(UTXOS).get(doc._id);
      assert.equal(got?.lovelace, '45000000000000000000000001');
      assert.equal(got?.slot, 9007199254740991);
      assert.deepEqual(got, doc);
    });

    it('replaces a document on overwrite, and its old index entries go with it', async () => {
      const [a, b] = ADDRESSES as [string, string];
      const doc: UtxoDoc = { _id: `${hex('moved')}#1`, address: a, slot: 500, lovelace: '1500000', spent: false };
      await store.write([put(UTXOS, doc)]);
      const moved = { _id: doc._id, address: b, slot: 900, lovelace: '1400000', spent: true };
      await store.write([put(UTXOS, moved)]);
      const coll = store.collection(UTXOS);
      assert.deepEqual(await coll.get(doc._id), moved);
      assert.deepEqual(await coll.find('byAddress', { eq: [a] }), []);
      assert.deepEqual(await coll.find('byAddress', { eq: [b] }), [moved]);
      assert.equal(await coll.count('byAddress', { eq: [a] }), 0);
      assert.deepEqual(await coll.find('bySlot', { eq: [500] }), []);
      assert.deepEqual(await coll.find('bySpent', { eq: [true] }), [moved]);
      assert.equal(await coll.count('bySlot'), 1);
    });

    it('replaces index entries from the stored version a write names (prev), across collections, as if read', async () => {
      const [a, b] = ADDRESSES as [string, string];
      const [kept, moved, gone] = utxos(3) as [UtxoDoc, UtxoDoc, UtxoDoc];
      await store.write([put(UTXOS, kept), put(UTXOS, { ...moved, address: a }), put(UTXOS, gone)]);
      const block: BlockDoc = { _id: hex('block 7'), height: 7, fees: '170000' };
      const next = { ...moved, address: b, slot: 999, spent: true };
      // Every op names what the store holds (null: absent), the way the sync writes.
      await store.write([
        { ...put(UTXOS, next), prev: stored({ ...moved, address: a }) },
        { ...del(UTXOS, gone._id), prev: stored(gone) },
        { ...put(BLOCKS, block), prev: null },
      ]);
      const coll = store.collection(UTXOS);
      assert.deepEqual(await coll.get(next._id), next);
      assert.equal(await coll.get(gone._id), null);
      assert.deepEqual(
        ids(await coll.find('byAddress', { eq: [b] })),
        ids([next, kept].filter((d) => d.address === b)),
      );
      assert.ok(!ids(await coll.find('byAddress', { eq: [a] })).includes(next._id));
      assert.equal(await coll.count('bySlot'), 2);
      assert.deepEqual(await coll.find('bySlot', { eq: [999] }), [next]);
      assert.deepEqual(await store.collection(BLOCKS).find('byHeight', { eq: [7] }), [block]);
    });

    it('deletes documents and their index entries; deleting a missing id is a no-op', async () => {
      const docs = utxos(6);
      await store.write(docs.map((d) => put(UTXOS, d)));
      await store.write([del(UTXOS, docs[2]!._id), del(UTXOS, 'never-existed#0')]);
      const coll = store.collection(UTXOS);
      assert.equal(await coll.get(docs[2]!._id), null);
      assert.equal(await coll.count('bySlot'), 5);
      assert.ok(!ids(await coll.find('byAddress')).includes(docs[2]!._id));
      assert.equal(await coll.count('_id'), 5);
    });

    it('applies a batch in order: put then delete of one id leaves it deleted, delete then put leaves it stored', async () => {
      const [x, y] = utxos(2) as [UtxoDoc, UtxoDoc];
      await store.write([
        put(UTXOS, x),
        del(UTXOS, x._id),
        del(UTXOS, y._id),
        put(UTXOS, y),
        put(UTXOS, { ...y, slot: 7 }),
      ]);
      const coll = store.collection(UTXOS);
      assert.equal(await coll.get(x._id), null);
      assert.deepEqual(await coll.get(y._id), { ...y, slot: 7 });
      assert.deepEqual(ids(await coll.find('bySlot')), [y._id]);
      assert.deepEqual(ids(await coll.find('bySlot', { eq: [7] })), [y._id]);
    });

    it('scans an index with an eq prefix, range bounds, reverse, limit and offset', async () => {
      const docs = utxos(120);
      await store.write(docs.map((d) => put(UTXOS, d)));
      const coll = store.collection(UTXOS);
      const addr = ADDRESSES[1] as string;
      const order = byKeys(['address', 'slot']);
      const mine = docs.filter((d) => d.address === addr).sort(order);
      const lo = 120_000_100;
      const hi = 120_000_400;

      assert.deepEqual(ids(await coll.find('byAddress', { eq: [addr] })), ids(mine));
      assert.deepEqual(ids(await coll.find('byAddress', { eq: [addr], reverse: true })), ids(mine).reverse());
      const inRange = mine.filter((d) => d.slot >= lo && d.slot < hi);
      assert.ok(inRange.length > 3);
      assert.deepEqual(ids(await coll.find('byAddress', { eq: [addr], gte: lo, lt: hi })), ids(inRange));
      assert.deepEqual(
        ids(await coll.find('byAddress', { eq: [addr], gt: lo, lte: hi })),
        ids(mine.filter((d) => d.slot > lo && d.slot <= hi)),
      );
      assert.deepEqual(
        ids(await coll.find('byAddress', { eq: [addr], gte: lo, lt: hi, reverse: true, limit: 3 })),
        ids(inRange).reverse().slice(0, 3),
      );
      assert.deepEqual(
        ids(await coll.find('byAddress', { eq: [addr], gte: lo, lt: hi, offset: 2, limit: 2 })),
        ids(inRange).slice(2, 4),
      );
      assert.deepEqual(ids(await coll.find('byAddress', { eq: [addr], offset: 1000 })), []);
      assert.deepEqual(await coll.find('byAddress', { eq: [addr], limit: 0 }), []);
      // Both fields fixed: every output of that address in that slot, in _id order.
      const slot = mine[0]!.slot;
      assert.deepEqual(
        ids(await coll.find('byAddress', { eq: [addr, slot] })),
        ids(mine.filter((d) => d.slot === slot)),
      );
      // Bounds on the first field of an index.
      assert.deepEqual(
        ids(await coll.find('bySlot', { lt: 120_000_060 })),
        ids(docs.filter((d) => d.slot < 120_000_060).sort(byKeys(['slot']))),
      );
      assert.deepEqual(
        ids(await coll.find('bySlot', { gt: 120_000_500, reverse: true })),
        ids(docs.filter((d) => d.slot > 120_000_500).sort(byKeys(['slot']))).reverse(),
      );
      // A prefix that matches nothing, and an empty range.
      assert.deepEqual(await coll.find('byAddress', { eq: ['addr1nothing'] }), []);
      assert.deepEqual(await coll.find('bySlot', { gte: 5, lt: 5 }), []);
    });

    it('answers a scan from the index alone (findKeys): each match of find as its _id and indexed fields', async () => {
      const docs = utxos(120);
      const noAddress = outputWithoutAddress();
      await store.write([...docs, noAddress].map((d) => put(UTXOS, d)));
      const coll = store.collection(UTXOS);
      const addr = ADDRESSES[1] as string;
      const entries = (found: UtxoDoc[], fields: string[]) =>
        found.map((d) => {
          const e: Record<string, unknown> = { _id: d._id };
          for (const f of fields) e[f] = (d as unknown as Record<string, unknown>)[f] ?? null;
          return e;
        });
      const queries: [string, string[], RangeQuery][] = [
        ['byAddress', ['address', 'slot'], { eq: [addr] }],
        ['byAddress', ['address', 'slot'], { eq: [addr], gte: 120_000_100, lt: 120_000_400, reverse: true, limit: 3 }],
        ['byAddress', ['address', 'slot'], { eq: [addr], offset: 2, limit: 2 }],
        ['byAddress', ['address', 'slot'], { eq: [null] }],
        ['bySlot', ['slot'], { gt: 120_000_500, reverse: true }],
        ['bySpent', ['spent', 'slot'], { eq: [true], limit: 5 }],
        ['byAddress', ['address', 'slot'], { eq: [addr], limit: 0 }],
        ['_id', [], { gte: docs[3]!._id, limit: 4 }],
      ];
      for (const [index, fields, q] of queries) {
        const want = entries(await coll.find(index, q), fields);
        assert.deepEqual(await coll.findKeys(index, q), want, `${index} ${JSON.stringify(q)}`);
      }
      const first = (await coll.find('byAddress', { eq: [addr], limit: 1 }))[0]!;
      assert.deepEqual(
        await coll.findKeys('byAddress', { eq: [addr], after: first, limit: 2 }),
        entries(await coll.find('byAddress', { eq: [addr], after: first, limit: 2 }), ['address', 'slot']),
      );
    });

    it('indexes a missing or null field as null, sorting before every value; bounds never match nulls', async () => {
      const docs = utxos(40);
      const noAddress = outputWithoutAddress();
      await store.write([...docs, noAddress].map((d) => put(UTXOS, d)));
      const coll = store.collection(UTXOS);
      const nulls = [...docs.filter((d) => d.address === null), noAddress].sort(byKeys(['address', 'slot']));
      assert.ok(nulls.length >= 3);
      assert.deepEqual(ids(await coll.find('byAddress', { eq: [null] })), ids(nulls));
      assert.deepEqual(ids(await coll.find('byAddress', { limit: nulls.length })), ids(nulls));
      assert.equal(await coll.count('byAddress', { eq: [null] }), nulls.length);
      assert.equal(await coll.count('byAddress', { lt: 'addr1z' }), docs.length + 1 - nulls.length);
      assert.equal(await coll.count('byAddress', { gte: 'addr1' }), docs.length + 1 - nulls.length);
    });

    it('orders booleans false before true', async () => {
      const docs = utxos(30);
      await store.write(docs.map((d) => put(UTXOS, d)));
      const coll = store.collection(UTXOS);
      const expected = [...docs].sort(byKeys(['spent', 'slot']));
      assert.deepEqual(ids(await coll.find('bySpent')), ids(expected));
      assert.deepEqual(ids(await coll.find('bySpent', { gt: false })), ids(expected.filter((d) => d.spent)));
      assert.equal(await coll.count('bySpent', { eq: [false] }), docs.filter((d) => !d.spent).length);
    });

    it('orders strings by code point, characters outside the BMP included (a prefix scan up to U+10FFFF)', async () => {
      // JavaScript's < compares UTF-16 code units (an emoji's surrogates sort before U+E000); both stores compare
      // UTF-8 bytes, i.e. code points, so the expected order is written out by hand.
      const names = ['a', 'a\ue000', 'a\uffff', 'a🐶', 'a🐶b', 'b'];
      const docs = names.map((address, i) => ({
        _id: `${hex(`name ${i}`)}#0`,
        address,
        slot: 1,
        lovelace: '1',
        spent: false,
      }));
      await store.write([...docs].reverse().map((d) => put(UTXOS, d)));
      const coll = store.collection(UTXOS);
      assert.deepEqual(ids(await coll.find('byAddress')), ids(docs));
      assert.deepEqual(ids(await coll.find('byAddress', { reverse: true })), ids(docs).reverse());
      // Every name starting with "a": the bound U+FFFF would leave out the two whose next character is an emoji.
      assert.deepEqual(ids(await coll.find('byAddress', { gte: 'a', lt: 'a\u{10ffff}' })), ids(docs.slice(0, 5)));
      assert.deepEqual(ids(await coll.find('byAddress', { gte: 'a', lt: 'a\uffff' })), ids(docs.slice(0, 2)));
      assert.deepEqual(ids(await coll.find('byAddress', { after: docs[2]!, limit: 2 })), ids(docs.slice(3, 5)));
    });

    it('pages through 250 documents with `after` cursors in both directions, without gaps or repeats', async () => {
      const docs = utxos(250);
      for (let i = 0; i < docs.length; i += 100) await store.write(docs.slice(i, i + 100).map((d) => put(UTXOS, d)));
      const coll = store.collection(UTXOS);
      const cases = [
        { index: 'bySlot', fields: ['slot'], query: {} },
        { index: 'byAddress', fields: ['address', 'slot'], query: {} },
        { index: 'bySpent', fields: ['spent', 'slot'], query: {} },
        { index: '_id', fields: [], query: {} },
      ];
      for (const { index, fields, query } of cases)
        for (const reverse of [false, true]) {
          const expected = ids([...docs].sort(byKeys(fields)));
          if (reverse) expected.reverse();
          const seen: string[] = [];
          let after: UtxoDoc | undefined;
          for (let page = 0; page < 10; page++) {
            const got = await coll.find(index, { ...query, reverse, limit: 50, ...(after ? { after } : {}) });
            seen.push(...ids(got));
            if (got.length < 50) break;
            after = got[got.length - 1];
          }
          assert.deepEqual(seen, expected, `${index} reverse=${reverse}`);
        }
    });

    it('pages within an eq prefix and a range with `after`, and counts what a query matches', async () => {
      const docs = utxos(250);
      await store.write(docs.map((d) => put(UTXOS, d)));
      const coll = store.collection(UTXOS);
      const addr = ADDRESSES[2] as string;
      const q = { eq: [addr], gte: 120_000_200 } as const;
      const expected = docs
        .filter((d) => d.address === addr && d.slot >= 120_000_200)
        .sort(byKeys(['address', 'slot']));
      for (const reverse of [false, true]) {
        const want = reverse ? [...expected].reverse() : expected;
        const seen: UtxoDoc[] = [];
        for (;;) {
          const last = seen[seen.length - 1];
          const got = await coll.find('byAddress', { ...q, reverse, limit: 7, ...(last ? { after: last } : {}) });
          seen.push(...got);
          if (got.length < 7) break;
        }
        assert.deepEqual(ids(seen), ids(want));
      }
      assert.equal(await coll.count('byAddress', q), expected.length);
      assert.equal(await coll.count('byAddress', { ...q, offset: 5 }), expected.length - 5);
      assert.equal(await coll.count('byAddress', { ...q, limit: 4 }), 4);
      assert.equal(await coll.count('bySlot'), 250);
      assert.equal(await coll.count('_id'), 250);
      assert.equal(await coll.count('_id', { gt: docs[0]!._id }), docs.filter((d) => d._id > docs[0]!._id).length);
      // A cursor from before the range starts the range; one past its end gives nothing.
      const first = await coll.find('byAddress', { ...q, limit: 1, after: { ...expected[0]!, slot: 1 } });
      assert.deepEqual(ids(first), ids(expected.slice(0, 1)));
      assert.deepEqual(await coll.find('byAddress', { ...q, after: expected[expected.length - 1]! }), []);
    });

    it('ranges over `_id` like any index', async () => {
      const docs = utxos(60);
      await store.write(docs.map((d) => put(UTXOS, d)));
      const coll = store.collection(UTXOS);
      const sorted = ids(docs).sort();
      const [lo, hi] = [sorted[10] as string, sorted[20] as string];
      assert.deepEqual(ids(await coll.find('_id', { gte: lo, lt: hi })), sorted.slice(10, 20));
      assert.deepEqual(ids(await coll.find('_id', { gt: lo, lte: hi, reverse: true })), sorted.slice(11, 21).reverse());
      assert.deepEqual(ids(await coll.find('_id', { eq: [lo] })), [lo]);
      assert.deepEqual(ids(await coll.find('_id', { gt: lo, limit: 3, offset: 1 })), sorted.slice(12, 15));
    });

    it('scans every document in _id order, across pages', async () => {
      const docs = utxos(53);
      await store.write(docs.map((d) => put(UTXOS, d)));
      const seen: UtxoDoc[] = [];
      for await (const d of store.collection(UTXOS).scan(7)) seen.push(d);
      assert.deepEqual(ids(seen), ids(docs).sort());
      assert.deepEqual(
        seen.find((d) => d._id === docs[9]!._id),
        docs[9],
      );
    });

    it('applies nothing of a batch over several collections when one op is invalid, and says which', async () => {
      const docs = utxos(5);
      await store.write([put(UTXOS, docs[0]!), put(BLOCKS, { _id: hex('block 1'), height: 1, fees: '170000' })]);
      const bad: WriteOp[] = [
        put(UTXOS, docs[1]!),
        put(BLOCKS, { _id: hex('block 2'), height: 2, fees: '180000' }),
        del(UTXOS, docs[0]!._id),
        { coll: UTXOS.name, put: { _id: 7 as unknown as string, address: 'addr1x' } },
      ];
      await assert.rejects(store.write(bad), /#3.*_id/);
      assert.deepEqual(await store.collection(UTXOS).get(docs[0]!._id), docs[0]);
      assert.equal(await store.collection(UTXOS).get(docs[1]!._id), null);
      assert.equal(await store.collection(BLOCKS).get(hex('block 2')), null);
      assert.equal(await store.collection(BLOCKS).count('byHeight'), 1);
      await assert.rejects(store.write([put(UTXOS, docs[2]!), { coll: BLOCKS.name, del: '' }]), /#1/);
      assert.equal(await store.collection(UTXOS).get(docs[2]!._id), null);
    });

    it('refuses a field name with a dot or a leading $ at any depth (chain data as keys), applying nothing', async () => {
      const docs = utxos(2);
      // A CIP-25 asset name and a handle as metadata keys: what a transaction's metadata holds on mainnet.
      const dotted = { ...docs[1]!, metadata: [{ label: '721', json: { p: { 'nova.eth': { name: '$nova.eth' } } } }] };
      await assert.rejects(
        store.write([put(UTXOS, docs[0]!), { coll: UTXOS.name, put: dotted }]),
        /#1 .*metadata\.\[0\]json\.p\."nova\.eth"/,
      );
      await assert.rejects(store.write([{ coll: UTXOS.name, put: { ...docs[1]!, $set: 1 } }]), /"\$set"/);
      // FerretDB 1.x refuses arrays inside arrays: pairs are objects, not tuples.
      await assert.rejects(store.write([{ coll: UTXOS.name, put: { ...docs[1]!, m: [['a', 1]] } }]), /array inside/);
      assert.equal(await store.collection(UTXOS).get(docs[0]!._id), null);
      // Values may hold anything: only names are restricted.
      const asValues = { ...docs[1]!, metadata: [{ name: 'nova.eth', value: '$nova.eth' }] };
      await store.write([{ coll: UTXOS.name, put: asValues }]);
      assert.deepEqual(await store.collection(UTXOS).get(docs[1]!._id), asValues);
    });

    it('applies a batch of 1,000 upserts and 1,000 deletes of one collection (bounded commands on MongoDB)', async () => {
      const docs = utxos(1000);
      await store.write(docs.map((d) => put(UTXOS, d)));
      await store.write(docs.map((d) => put(UTXOS, { ...d, spent: true })));
      assert.equal(await store.collection(UTXOS).count('bySpent', { eq: [true] }), 1000);
      await store.write(docs.map((d) => del(UTXOS, d._id)));
      assert.equal(await store.collection(UTXOS).count('_id'), 0);
    });

    it('applies concurrent writes of one process (the sync and recomputes at once), each whole', async () => {
      // Four writers replacing 150 stored documents each (indexed fields changed), all at once: on FerretDB 1.x,
      // update commands that together hold 100 SQLite connections never answered (nor did anything else).
      const docs = utxos(600);
      await store.write(docs.map((d) => put(UTXOS, d)));
      const moved = docs.map((d, i) => ({ ...d, slot: d.slot + 1, spent: !d.spent, address: ADDRESSES[(i + 1) % 4]! }));
      const writers = [0, 1, 2, 3].map((w) =>
        store.write(moved.slice(w * 150, w * 150 + 150).map((d) => put(UTXOS, d))),
      );
      let timer: NodeJS.Timeout | undefined;
      const stuck = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('concurrent writes did not finish within 60 s')), 60_000);
      });
      try {
        await Promise.race([Promise.all(writers), stuck]);
      } finally {
        clearTimeout(timer);
      }
      const coll = store.collection(UTXOS);
      assert.deepEqual(ids(await coll.find('bySlot')), ids([...moved].sort(byKeys(['slot']))));
      assert.deepEqual(await coll.getMany(ids(moved)), moved);
    });

    it('refuses unknown indexes and contradictory queries', async () => {
      const coll = store.collection(UTXOS);
      await assert.rejects(coll.find('byColour'), /no index "byColour"/);
      await assert.rejects(coll.find('bySlot', { gt: 1, gte: 2 }), /gt or gte/);
      await assert.rejects(coll.find('bySlot', { eq: [1], lt: 3 }), /no field left/);
      await assert.rejects(coll.count('bySlot', { lt: null }), /lt must be/);
    });

    it('clears the named collections only, keeping their indexes usable', async () => {
      await store.write([
        ...utxos(20).map((d) => put(UTXOS, d)),
        put(BLOCKS, { _id: hex('block 9'), height: 9, fees: '200000' }),
      ]);
      await store.clear([UTXOS.name]);
      const coll = store.collection(UTXOS);
      assert.equal(await coll.count('_id'), 0);
      assert.equal(await coll.count('byAddress'), 0);
      assert.deepEqual(await coll.find('bySlot'), []);
      assert.equal(await store.collection(BLOCKS).count('byHeight'), 1);
      const again = utxos(3);
      await store.write(again.map((d) => put(UTXOS, d)));
      assert.deepEqual(ids(await coll.find('bySlot')), ids([...again].sort(byKeys(['slot']))));
    });
  });
}
