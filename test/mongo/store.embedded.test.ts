import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as lmdb from 'lmdb';
import { openEmbeddedStore, openMemoryStore } from '../../mongo/adapters/embedded.js';
import { defineCollection, put, type CollectionSpec, type Store } from '../../mongo/store.js';
import { CHILD_BATCHES, CHILD_OUTPUTS, childOutput, type ChildBatchDoc } from './child-data.js';
import { storeContract } from './store-contract.js';

const CHILD = new URL('./store-child.ts', import.meta.url).pathname;

storeContract('embedded (lmdb)', openMemoryStore);

function child(
  args: string[],
): ChildProcess & { lines: string[]; exited: Promise<{ code: number | null; signal: string | null }> } {
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines: string[] = [];
  let partial = '';
  proc.stdout.on('data', (d: Buffer) => {
    const parts = (partial + d.toString()).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
    proc.emit('lines', lines);
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return Object.assign(proc, { lines, exited });
}

/** Resolves once the child has printed a line matching `re`. */
function waitFor(proc: ReturnType<typeof child>, re: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (proc.lines.some((l) => re.test(l))) {
        proc.off('lines', check);
        resolve();
      }
    };
    proc.on('lines', check);
    void proc.exited.then(() =>
      proc.lines.some((l) => re.test(l)) ? resolve() : reject(new Error(`child exited before ${re}`)),
    );
    check();
  });
}

describe('embedded store (lmdb) only', function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cds-embedded-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores a document without its id (the key) and reads documents stored with it the same', async () => {
    let store: Store = await openEmbeddedStore({ path: dir });
    await store.ensureIndexes([CHILD_OUTPUTS]);
    const [fresh, old] = [childOutput(0, 0), childOutput(0, 1)];
    await store.write([put(CHILD_OUTPUTS, fresh)]);
    await store.close();
    // What the folder holds, read with lmdb itself; and a document in the earlier form, id included.
    const root = lmdb.open({ path: dir, noSubdir: false, maxDbs: 256 });
    const raw = root.openDB<Record<string, unknown>, string>({
      name: `docs:${CHILD_OUTPUTS.name}`,
      encoding: 'msgpack',
      sharedStructuresKey: Symbol.for('structures'),
    });
    assert.equal(raw.get(fresh._id)?._id, '');
    await raw.put(old._id, { ...old });
    await root.close();

    store = await openEmbeddedStore({ path: dir });
    try {
      const withLovelace = {
        ...CHILD_OUTPUTS,
        indexes: [...CHILD_OUTPUTS.indexes, { name: 'byLovelace', fields: ['lovelace'] }],
      };
      await store.ensureIndexes([withLovelace]);
      const coll = store.collection(withLovelace);
      assert.deepEqual(await coll.getMany([fresh._id, old._id]), [fresh, old]);
      assert.deepEqual(Object.keys((await coll.get(fresh._id))!), Object.keys(fresh));
      const all = [fresh, old].sort((a, b) => (a._id < b._id ? -1 : 1));
      assert.deepEqual(await coll.find('_id'), all);
      const scanned = [];
      for await (const d of coll.scan()) scanned.push(d);
      assert.deepEqual(scanned, all);
      // The index built from stored documents (ensureIndexes above) and one rewritten over the earlier form.
      assert.equal(await coll.count('byLovelace'), 2);
      await store.write([put(CHILD_OUTPUTS, { ...old, batch: 7 })]);
      assert.deepEqual(await coll.find('byBatch', { eq: [7] }), [{ ...old, batch: 7 }]);
      assert.equal(await coll.count('byBatch', { eq: [old.batch] }), 1);
    } finally {
      await store.close();
    }
  });

  it('keeps documents and index entries across close and reopen', async () => {
    let store: Store = await openEmbeddedStore({ path: dir });
    await store.ensureIndexes([CHILD_OUTPUTS]);
    const docs = Array.from({ length: 30 }, (_, i) => childOutput(i % 3, i));
    await store.write(docs.map((d) => put(CHILD_OUTPUTS, d)));
    await store.close();

    store = await openEmbeddedStore({ path: dir });
    try {
      const coll = store.collection(CHILD_OUTPUTS);
      assert.deepEqual(await coll.get(docs[4]!._id), docs[4]);
      assert.equal(await coll.count('byBatch', { eq: [1] }), 10);
      assert.deepEqual(
        (await coll.find('byBatch', { eq: [2] })).map((d) => d._id),
        docs
          .filter((d) => d.batch === 2)
          .map((d) => d._id)
          .sort(),
      );
    } finally {
      await store.close();
    }
  });

  it('maintains declared indexes for a process that never called ensureIndexes, using the stored definitions', async () => {
    const first = await openEmbeddedStore({ path: dir });
    await first.ensureIndexes([CHILD_OUTPUTS]);
    await first.close();
    const second = await openEmbeddedStore({ path: dir });
    try {
      await second.write([put(CHILD_OUTPUTS, childOutput(4, 0))]);
      assert.equal(await second.collection(CHILD_OUTPUTS).count('byBatch', { eq: [4] }), 1);
      const UNKNOWN = defineCollection<{ _id: string }>({ name: 'never_declared' });
      await assert.rejects(second.write([put(UNKNOWN, { _id: 'x' })]), /unknown collection never_declared/);
    } finally {
      await second.close();
    }
  });

  it('builds the entries of an index declared after documents were written, and drops removed ones', async () => {
    const PLAIN = defineCollection<{ _id: string; batch: number }>({ name: 'child_outputs' });
    const store = await openEmbeddedStore({ path: dir });
    try {
      await store.ensureIndexes([PLAIN]);
      const docs = Array.from({ length: 12 }, (_, i) => childOutput(i % 4, i));
      await store.write(docs.map((d) => put(PLAIN, d)));
      await store.ensureIndexes([CHILD_OUTPUTS]);
      const coll = store.collection(CHILD_OUTPUTS);
      assert.equal(await coll.count('byBatch', { eq: [3] }), 3);
      assert.equal(await coll.count('byAddress'), 12);
      const NARROW = defineCollection<{ _id: string }>({
        name: 'child_outputs',
        indexes: [{ name: 'byAddress', fields: ['address', 'batch'] }],
      });
      await store.ensureIndexes([NARROW]);
      await store.ensureIndexes([CHILD_OUTPUTS]);
      assert.equal(await coll.count('byBatch'), 12);
    } finally {
      await store.close();
    }
  });

  // Every op naming its stored version would take the writer-thread path, but a key lmdb may refuse sends the write
  // to the transaction path (keysFit), whose abort undoes every op: both forms must apply nothing.
  for (const [how, named] of [
    ['when lmdb refuses an op inside the transaction', false],
    ['naming every stored version (no read), when a key is too long for the writer-thread path', true],
  ] as const)
    it(`aborts a whole batch ${how}`, async () => {
      const store = await openMemoryStore();
      try {
        await store.ensureIndexes([CHILD_OUTPUTS, CHILD_BATCHES]);
        const ok = childOutput(0, 0);
        const tooLong = { ...childOutput(0, 1), address: `addr1${'q'.repeat(4000)}` };
        const op = <D extends { _id: string }>(spec: CollectionSpec<D>, doc: D) =>
          named ? { ...put(spec, doc), prev: null } : put(spec, doc);
        await assert.rejects(
          store.write([
            op(CHILD_OUTPUTS, ok),
            op(CHILD_BATCHES, { _id: 'batch-0', n: 0, size: 2 }),
            op(CHILD_OUTPUTS, tooLong),
          ]),
          /key size/i,
        );
        assert.equal(await store.collection(CHILD_OUTPUTS).get(ok._id), null);
        assert.equal(await store.collection(CHILD_BATCHES).get('batch-0'), null);
        assert.equal(await store.collection(CHILD_OUTPUTS).count('byBatch'), 0);
      } finally {
        await store.close();
      }
    });

  it('refuses field names MongoDB restricts on the writer-thread path too (its encoder checks them), applying nothing', async () => {
    const store = await openMemoryStore();
    try {
      await store.ensureIndexes([CHILD_OUTPUTS, CHILD_BATCHES]);
      const ok = childOutput(0, 0);
      const unit = `${'ab'.repeat(28)}${'cd'.repeat(10)}`; // a map keyed by asset units (over 40 characters)
      const bad: Record<string, unknown>[] = [
        { ...childOutput(0, 1), assets: { [unit]: '1', [`${unit}.x`]: '2' } },
        { ...childOutput(0, 1), meta: [{ deep: { $where: 1 } }] },
        { ...childOutput(0, 1), meta: [{ pairs: [['a', 1]] }] },
      ];
      for (const doc of bad) {
        await assert.rejects(
          store.write([
            { ...put(CHILD_OUTPUTS, ok), prev: null },
            { coll: CHILD_OUTPUTS.name, put: doc as { _id: string }, prev: null },
          ]),
          /write op #1 \(child_outputs\).*(contains '\.'|array inside)/,
        );
      }
      assert.equal(await store.collection(CHILD_OUTPUTS).get(ok._id), null);
      assert.equal(await store.collection(CHILD_OUTPUTS).count('byBatch'), 0);
    } finally {
      await store.close();
    }
  });

  // `write-known`: every op names the stored version, so each batch is queued whole to lmdb's writer thread.
  for (const mode of ['write', 'write-known'])
    it(`survives SIGKILL mid-write (${mode}): every committed batch is complete, the interrupted one absent`, async () => {
      const SIZE = 3000;
      const rounds: number[] = [];
      for (const delayMs of [0, 3, 11]) {
        const proc = child([mode, dir, '1000', String(SIZE)]);
        await waitFor(proc, /^committed 1$/);
        await new Promise((r) => setTimeout(r, delayMs));
        proc.kill('SIGKILL');
        const { signal } = await proc.exited;
        assert.equal(signal, 'SIGKILL');
        rounds.push(
          Math.max(...proc.lines.filter((l) => l.startsWith('committed')).map((l) => Number(l.split(' ')[1]))),
        );
      }

      const store = await openEmbeddedStore({ path: dir });
      try {
        const batches = [];
        for await (const b of store.collection(CHILD_BATCHES).scan()) batches.push(b);
        const outputs = store.collection(CHILD_OUTPUTS);
        // Each run restarts numbering at 0 and overwrites the same ids, so the batches present are 0..max.
        const present = batches.map((b) => b.n);
        assert.deepEqual(present, [...present.keys()]);
        assert.ok(present.length >= Math.max(...rounds) + 1, 'every batch reported committed is there');
        for (const n of present) {
          assert.equal(await outputs.count('byBatch', { eq: [n] }), SIZE, `batch ${n} complete`);
          const sample = childOutput(n, SIZE - 1);
          assert.deepEqual(await outputs.get(sample._id), sample);
        }
        assert.equal(await outputs.count('byBatch', { gt: present.length - 1 }), 0, 'nothing of a later batch');
        assert.equal(await outputs.count('_id'), present.length * SIZE);
        // The killed writer left no lock behind: this process can write.
        await store.write([put(CHILD_BATCHES, { _id: 'after-crash', n: -1, size: 0 })]);
      } finally {
        await store.close();
      }
    });

  it('clears collections all or nothing: a process killed part-way through a clear (ops resync) cleared none', async () => {
    const store = await openEmbeddedStore({ path: dir });
    const outputs = [0, 1].flatMap((n) => [childOutput(n, 0), childOutput(n, 1)]);
    try {
      await store.ensureIndexes([CHILD_OUTPUTS, CHILD_BATCHES]);
      await store.write([
        ...outputs.map((o) => put(CHILD_OUTPUTS, o)),
        put(CHILD_BATCHES, { _id: 'batch-0', n: 0, size: 2 }),
        put(CHILD_BATCHES, { _id: 'batch-1', n: 1, size: 2 }),
      ]);
    } finally {
      await store.close();
    }
    // The child clears the outputs, then dies in the clear of the batches.
    const proc = child(['clear-killed', dir]);
    const { signal } = await proc.exited;
    assert.equal(signal, 'SIGKILL', proc.lines.join('\n'));
    const after = await openEmbeddedStore({ path: dir });
    try {
      assert.equal(await after.collection(CHILD_BATCHES).count('_id'), 2);
      assert.equal(
        await after.collection(CHILD_OUTPUTS).count('byBatch'),
        outputs.length,
        'the outputs were not cleared',
      );
      assert.deepEqual(await after.collection(CHILD_OUTPUTS).get(outputs[3]!._id), outputs[3]);
    } finally {
      await after.close();
    }
  });

  it('a process reading beside a clear (ops resync) decodes the documents written after it as written', async () => {
    // Documents are stored as msgpack records whose shapes (field lists) are kept once per collection and cached by
    // every process that read them; a clear that dropped those shapes let the writer give a new shape an id the
    // reader still knew as the old one: the API read the next market overview with the old overview's field names
    // ('Data read, but end of buffer not reached', a 500) or, shapes of one length, silently as the wrong fields.
    const before = { _id: 'before', n: 1, size: 2 };
    const after = { _id: 'after', label: 'resynced', n: 7 } as unknown as ChildBatchDoc;
    const first = child(['clear-put', dir, JSON.stringify(before)]);
    assert.equal((await first.exited).code, 0);
    const reader = await openEmbeddedStore({ path: dir, readOnly: true });
    try {
      assert.deepEqual(await reader.collection(CHILD_BATCHES).get('before'), before);
      const second = child(['clear-put', dir, JSON.stringify(after)]);
      assert.equal((await second.exited).code, 0);
      assert.equal(await reader.collection(CHILD_BATCHES).get('before'), null);
      assert.deepEqual(await reader.collection(CHILD_BATCHES).get('after'), after);
      assert.deepEqual(
        await reader.collection(CHILD_BATCHES).find('_id'),
        [after],
        'the kept structures are no document',
      );
    } finally {
      await reader.close();
    }
  });

  it('lets a second process read while this one writes, seeing whole batches only', async () => {
    const store = await openEmbeddedStore({ path: dir });
    try {
      await store.ensureIndexes([CHILD_OUTPUTS, CHILD_BATCHES]);
      const SIZE = 500;
      const BATCHES = 8;
      const reader = child(['read', dir, String(SIZE * BATCHES)]);
      await waitFor(reader, /^ready$/);
      for (let n = 0; n < BATCHES; n++) {
        await store.write(Array.from({ length: SIZE }, (_, i) => put(CHILD_OUTPUTS, childOutput(n, i))));
        await new Promise((r) => setTimeout(r, 30));
      }
      const { code } = await reader.exited;
      assert.equal(code, 0);
      const counts = reader.lines.filter((l) => l.startsWith('seen')).map((l) => Number(l.split(' ')[1]));
      assert.equal(counts[counts.length - 1], SIZE * BATCHES);
      assert.ok(counts.length >= 3, `the reader saw the data grow (${counts.join(', ')})`);
      for (const c of counts) assert.equal(c % SIZE, 0, `the reader saw a partial batch: ${c}`);
    } finally {
      await store.close();
    }
  });
});
