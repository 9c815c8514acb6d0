/**
 * The embedded store: one lmdb environment in a folder (`${DATA_DIR}/store`), two sub-databases per collection.
 *
 *  - `docs:<name>`: `_id` → document (msgpack). Its key order is the `'_id'` index.
 *  - `idx:<name>`:  `[indexName, ...fieldValues, _id]` → empty, ordered-binary array keys, one entry per document
 *    per declared index. Missing fields index as null.
 *  - `meta`: collection name → the index definitions its `idx:` entries were built for (see ensureIndexes).
 *
 * A `write()` is one synchronous lmdb transaction over every collection it touches: a crash or SIGKILL leaves the
 * whole batch applied or none of it. lmdb is multi-process: an `ops` CLI may open the same folder (read-only) while
 * the service writes; each read call sees one committed snapshot.
 *
 * Byte order of ordered-binary keys: null < false < true < numbers (numeric) < strings. Strings are encoded as UTF-8,
 * so they compare by code point, as MongoDB's (UTF-8 byte) order does, characters outside the BMP included (the
 * contract suite checks it: JavaScript's own < differs there).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as lmdb from 'lmdb';
import type { Database, Key, RangeOptions, RootDatabase } from 'lmdb';
import type {
  Collection,
  CollectionSpec,
  IndexEntry,
  IndexSpec,
  KeyPart,
  RangeQuery,
  Store,
  WriteOp,
} from '../store.js';
import { checkQuery, indexFields, isBadName, keyValue, StoreError, validateOps } from './common.js';

type Doc = { _id: string } & Record<string, unknown>;
type DocsDb = Database<Doc, string>;
type IndexDb = Database<Buffer, Key>;
interface Handles {
  docs: DocsDb;
  idx: IndexDb;
}

/** Sorts after every value an index field can hold (no encoded scalar starts with byte 0xff). */
const MAX = new Uint8Array([0xff]);
const EMPTY = Buffer.alloc(0);
/** lmdb's own key encoder (ordered-binary), exported at run time but absent from its typings. */
const keyBytes = (lmdb as unknown as { keyValueToBuffer(k: unknown): Buffer }).keyValueToBuffer;
const compareKeys = (a: Key, b: Key): number => Buffer.compare(keyBytes(a), keyBytes(b));
const asKey = (parts: readonly unknown[]): Key => parts as unknown as Key;

/** One edge of a key range; `incl` says whether a stored key equal to `key` belongs to the range. */
interface Bound {
  key: Key;
  incl: boolean;
}
interface Plan {
  lo?: Bound;
  hi?: Bound;
}

function indexKey(coll: string, ix: IndexSpec, doc: Record<string, unknown>): KeyPart[] {
  const key: KeyPart[] = [ix.name];
  for (const f of ix.fields) key.push(keyValue(coll, doc, f));
  key.push(doc._id as string);
  return key;
}

/** One op of a write, resolved: its collection's handles and indexes, and the index keys of its new version. */
interface Step {
  h: Handles;
  indexes: readonly IndexSpec[];
  coll: string;
  id: string;
  doc: Doc | undefined;
  /** The stored version the writer named (null: absent), undefined when the store must read it. */
  prev: Record<string, unknown> | null | undefined;
  keys: KeyPart[][];
}

/** An index entry to remove (the stored version's, now stale) or to add (the new version's). */
interface IndexEdit {
  key: KeyPart[];
  del: boolean;
}

/** The index entries a step replaces, given the version the store holds (`old`, null/undefined: none). */
function indexEdits(s: Step, old: Record<string, unknown> | null | undefined): IndexEdit[] {
  const out: IndexEdit[] = [];
  s.indexes.forEach((ix, i) => {
    const next = s.keys[i];
    const prev = old ? indexKey(s.coll, ix, old) : undefined;
    if (prev && next && sameKey(prev, next)) return;
    if (prev) out.push({ key: prev, del: true });
    if (next) out.push({ key: next, del: false });
  });
  return out;
}

/**
 * Whether every key a step writes is surely below lmdb's key size limit (1,978 bytes), counting 3 bytes per UTF-16
 * unit and 10 per other part: a key over the limit throws while queued, so such a write takes the transaction path,
 * which aborts whole. The stored version's keys are those of an earlier write, which fitted.
 */
function keysFit(s: Step): boolean {
  const LIMIT = 1900;
  if (s.id.length * 3 > LIMIT) return false;
  for (const key of s.keys) {
    let n = 0;
    for (const part of key) n += typeof part === 'string' ? part.length * 3 + 1 : 10;
    if (n > LIMIT) return false;
  }
  return true;
}

/**
 * The key under which lmdb keeps a sub-database's shared record structures (the field lists of its document shapes,
 * each by a record id). Every process caches them once read and asks the store again only for an id it does not know.
 */
const STRUCTURES = Symbol.for('structures');

/** The msgpack encoder lmdb made for a sub-database (with its shared record structures); absent from the typings. */
const encoderOf = (db: DocsDb): { encode(value: unknown): Uint8Array } =>
  (db as unknown as { encoder: { encode(value: unknown): Uint8Array } }).encoder;

/**
 * A document's stored bytes: without its `_id` value, which is the key already (an address history entry's id is
 * ~190 characters, an output's 66): an empty string keeps the field's place, so the record shape and field order
 * stay those of the document, and `withId` puts the key back on every read. No written document has an empty id
 * (validateOps), so the empty string is unambiguous; documents stored with their id read as they are.
 */
const encodeDoc = (db: DocsDb, doc: Doc): Uint8Array => encoderOf(db).encode({ ...doc, _id: '' });

/** A stored document as written: its `_id` restored from the key (see encodeDoc). */
function withId<T>(doc: T | undefined, id: string): T | undefined {
  const d = doc as { _id?: unknown } | undefined;
  if (d && d._id === '') d._id = id;
  return doc;
}

function sameKey(a: readonly KeyPart[], b: readonly KeyPart[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameIndexes(a: readonly IndexSpec[], b: readonly IndexSpec[]): boolean {
  return a.length === b.length && a.every((x, i) => sameIndex(x, b[i]));
}
function sameIndex(a: IndexSpec, b: IndexSpec | undefined): boolean {
  return (
    b !== undefined &&
    a.name === b.name &&
    a.fields.length === b.fields.length &&
    a.fields.every((f, i) => f === b.fields[i])
  );
}

/**
 * A bound on one type brackets the range to that type (as MongoDB does): `lt: 5` does not match nulls or strings.
 * Lower edge of the bound's type:
 */
function typeLow(prefix: readonly unknown[], v: KeyPart): Key {
  if (typeof v === 'number') return asKey([...prefix, -Infinity]);
  if (typeof v === 'boolean') return asKey([...prefix, false]);
  return asKey([...prefix, '']);
}
/** …and the (exclusive) upper edge of the bound's type. */
function typeHigh(prefix: readonly unknown[], v: KeyPart): Key {
  if (typeof v === 'number') return asKey([...prefix, Infinity, MAX]);
  if (typeof v === 'boolean') return asKey([...prefix, true, MAX]);
  return asKey([...prefix, MAX]);
}

/**
 * Key range of a query over a secondary index. Every edge built here is shorter than any stored key (those carry
 * all fields plus `_id`), so no stored key equals an edge and a key `[...p, v]` sorts before every stored key that
 * extends it, `[...p, v, MAX]` after all of them.
 */
function indexPlan(name: string, q: RangeQuery): Plan {
  const p: unknown[] = [name, ...(q.eq ?? [])];
  const lower = q.gte ?? q.gt;
  const upper = q.lte ?? q.lt;
  let lo: Key;
  if (q.gte !== undefined) lo = asKey([...p, q.gte]);
  else if (q.gt !== undefined) lo = asKey([...p, q.gt, MAX]);
  else if (upper !== undefined) lo = typeLow(p, upper);
  else lo = asKey(p);
  let hi: Key;
  if (q.lt !== undefined) hi = asKey([...p, q.lt]);
  else if (q.lte !== undefined) hi = asKey([...p, q.lte, MAX]);
  else if (lower !== undefined) hi = typeHigh(p, lower);
  else hi = asKey([...p, MAX]);
  return { lo: { key: lo, incl: true }, hi: { key: hi, incl: false } };
}

/** Key range of a query over the primary key (`docs:` keys are the `_id` strings themselves). */
function idPlan(q: RangeQuery): Plan {
  const plan: Plan = {};
  const eq = q.eq?.[0];
  if (q.eq?.length) return { lo: { key: eq as Key, incl: true }, hi: { key: eq as Key, incl: true } };
  if (q.gte !== undefined) plan.lo = { key: q.gte as Key, incl: true };
  if (q.gt !== undefined) plan.lo = { key: q.gt as Key, incl: false };
  if (q.lte !== undefined) plan.hi = { key: q.lte as Key, incl: true };
  if (q.lt !== undefined) plan.hi = { key: q.lt as Key, incl: false };
  return plan;
}

/** Narrows the range to what lies strictly after the cursor document, in the direction of the scan. */
function applyAfter(plan: Plan, after: Key, reverse: boolean): Plan {
  const edge: Bound = { key: after, incl: false };
  if (!reverse) return !plan.lo || compareKeys(after, plan.lo.key) >= 0 ? { ...plan, lo: edge } : plan;
  return !plan.hi || compareKeys(after, plan.hi.key) <= 0 ? { ...plan, hi: edge } : plan;
}

function rangeOptions(plan: Plan, reverse: boolean): RangeOptions {
  const o: RangeOptions = { reverse };
  const [start, end] = reverse ? [plan.hi, plan.lo] : [plan.lo, plan.hi];
  if (start) {
    o.start = start.key;
    o.exclusiveStart = !start.incl;
  }
  if (end) {
    o.end = end.key;
    o.inclusiveEnd = end.incl;
  }
  return o;
}

/** Removes every entry of one index (all keys starting with its name) inside the current write transaction. */
function dropIndexEntries(idx: IndexDb, name: string): void {
  const keys = [...idx.getKeys({ start: name, end: asKey([name, MAX]) })];
  for (const k of keys) idx.removeSync(k);
}

/**
 * Whether msgpackr writes an object as a record (its field names stored once per shape, shared) rather than as a
 * plain map. Document shapes recur; maps keyed by chain data — a balance's asset units (56-120 hex characters), a
 * transaction's withdrawals by stake address — almost never do, and as records each new key set grew msgpackr's
 * shape tree for the life of the process and wrote its key list anyway. Field names are short; such keys are not.
 * Stores written before this read the same (a record and a map decode to the same object).
 */
function isRecordShaped(o: object): boolean {
  let record = true;
  for (const k in o) {
    if (k.length > 40) record = false;
    checkField(o, k);
  }
  return record;
}

/** Raised inside the encoder for a field name MongoDB restricts; `write` then names the op and the field. */
class BadFieldSignal extends Error {}

/**
 * The field-name rule of both adapters (`badFieldName`, common.ts), checked as the encoder meets each object of a
 * document (it asks isRecordShaped about every one) instead of in a walk of its own over every document before the
 * write: no name containing `.` or starting with `$`, and no array directly inside an array (every array of a
 * document is a field's value or an element of another array, so checking each field's value covers them all).
 */
function checkField(o: object, k: string): void {
  if (isBadName(k)) throw new BadFieldSignal(k);
  const v = (o as Record<string, unknown>)[k];
  if (Array.isArray(v)) for (let i = 0; i < v.length; i++) if (Array.isArray(v[i])) throw new BadFieldSignal(k);
}

/**
 * The error of a write whose lmdb commit failed. lmdb rejects it with 'Commit failed (see commitError for details)'
 * and the cause (a full disk: 'Input/output error') in a promise of its own, `commitError`, rejected by its writer
 * thread's callback in the same turn; unhandled, that promise ended the process. The returned error names the cause
 * (`/healthz/sync` and `ops status` show it); it is no StoreError, so the sync retries it (space may come back).
 */
async function commitFailure(e: unknown): Promise<unknown> {
  const pending = (e as { commitError?: unknown } | null)?.commitError;
  if (!(pending instanceof Promise)) return e;
  const cause = await settledWithin(
    pending.then(
      () => null,
      (c: unknown) => c,
    ),
    1_000,
  );
  return cause instanceof Error ? new Error(`lmdb commit failed: ${cause.message}`, { cause }) : e;
}

/** `work`'s value, or undefined once `ms` passed first (lmdb promises that may never settle after a failed commit). */
async function settledWithin<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Free space a writable store leaves on its disk: a write is refused below it. lmdb given a full disk does not fail
 * cleanly: its commit fails with 'Input/output error', the writing process goes on with the msgpack record
 * structures it failed to store, and every other process (the API, `ops`, the next start) then reads no document at
 * all ("Data read, but end of buffer not reached"; measured on a 40 MB tmpfs: all 133 sub-databases unreadable, also
 * after space came back). A batch of the sync or of a recompute grows the file by a few MB at most.
 */
export const MIN_FREE_BYTES = 128 * 1024 * 1024;
/** How long a reading of the free space is used for: one statfs a second at most, whatever the write rate. */
const FREE_SPACE_TTL_MS = 1_000;

/**
 * A write refused because the store's disk is (almost) full. Retryable: the sync and the recomputes write again
 * once space is freed (their retries and `/healthz/sync` show this message meanwhile).
 */
export class StoreDiskFullError extends Error {
  override name = 'StoreDiskFullError';
  /**
   * @param detail the facts (the disk, its free space, the reserve, nothing written), without what happens next:
   * the sync and the recomputes write again by themselves, a one-off write (an `ops` command) does not.
   */
  constructor(readonly detail: string) {
    super(`${detail}. Free space on that disk (or move DATA_DIR to a larger one); writing resumes by itself`);
  }
}

/**
 * Refuses writes while the disk holding `path` has less than `minFree` bytes free. Writes to the `unguarded`
 * collections (the small status records that say why writing stopped: sync and job health, run records) go on down
 * to a quarter of the reserve, so `/healthz/sync`, `/healthz/jobs` and `ops` show the stall instead of the last state.
 */
class FreeSpaceGuard {
  private free: { bytes: number; at: number } | null = null;
  constructor(
    private readonly path: string,
    private readonly minFree: number,
    private readonly unguarded: ReadonlySet<string>,
  ) {}

  async check(ops?: readonly WriteOp[]): Promise<void> {
    const now = Date.now();
    if (this.free === null || now - this.free.at >= FREE_SPACE_TTL_MS) {
      const fs = await statfs(this.path);
      this.free = { bytes: fs.bavail * fs.bsize, at: now };
    }
    const status = ops !== undefined && ops.every((op) => this.unguarded.has(op.coll));
    if (this.free.bytes < (status ? this.minFree / 4 : this.minFree))
      throw new StoreDiskFullError(
        `the disk holding the store (${this.path}) has ${mb(this.free.bytes)} MB free, under the ${mb(this.minFree)} MB ` +
          'the store keeps free (a full disk corrupts it): nothing was written',
      );
  }
}

const mb = (bytes: number) => Math.floor(bytes / (1024 * 1024));

class EmbeddedStore implements Store {
  readonly kind = 'embedded' as const;
  /** Index definitions known to this process, by collection: from `collection(spec)` and `ensureIndexes`. */
  private readonly specs = new Map<string, readonly IndexSpec[]>();
  private readonly handles = new Map<string, Handles>();
  private meta: Database<IndexSpec[], string> | undefined;
  private closed = false;
  /** A commit of this process failed (see close). */
  private commitFailed = false;

  constructor(
    private readonly root: RootDatabase,
    private readonly readOnly: boolean,
    private readonly onClose: () => void = () => {},
    private readonly space: FreeSpaceGuard | null = null,
  ) {}

  /** Sub-databases of a collection, opened on first use; undefined when a read-only process finds none yet. */
  dbs(name: string): Handles | undefined {
    const open = this.handles.get(name);
    if (open) return open;
    if (this.closed) throw new StoreError('the store is closed');
    // Shared record structures: msgpackr stores each document shape once per collection instead of repeating
    // field names in every value (smaller values, faster packing); lmdb keeps the structures durable and in step
    // across processes.
    // msgpackr options lmdb passes on to its encoder (absent from lmdb's typings).
    const packing = { useRecords: isRecordShaped, mapsAsObjects: true };
    const docs = this.root.openDB<Doc, string>({
      name: `docs:${name}`,
      encoding: 'msgpack',
      sharedStructuresKey: STRUCTURES,
      // Objects written as plain maps (see isRecordShaped) read back as objects, not as Maps.
      ...packing,
    }) as DocsDb | undefined;
    const idx = this.root.openDB<Buffer, Key>({ name: `idx:${name}`, encoding: 'binary' }) as IndexDb | undefined;
    if (!docs || !idx) return undefined;
    const h = { docs, idx };
    this.handles.set(name, h);
    return h;
  }

  private metaDb(): Database<IndexSpec[], string> | undefined {
    this.meta ??= this.root.openDB<IndexSpec[], string>({ name: 'meta', encoding: 'msgpack' }) as
      Database<IndexSpec[], string> | undefined;
    return this.meta;
  }

  /** The indexes a write must maintain: this process's spec, else the definitions stored by `ensureIndexes`. */
  private indexesOf(name: string): readonly IndexSpec[] {
    const known = this.specs.get(name) ?? this.metaDb()?.get(name);
    if (!known)
      throw new StoreError(
        `unknown collection ${name}: call store.collection(spec) or store.ensureIndexes([spec]) before writing to it`,
      );
    return known;
  }

  private writable(what: string): void {
    if (this.readOnly) throw new StoreError(`${what}: the store was opened read-only`);
  }

  collection<D extends { _id: string }>(spec: CollectionSpec<D>): Collection<D> {
    this.specs.set(spec.name, spec.indexes);
    return new EmbeddedCollection<D>(this, spec.name, spec.indexes);
  }

  async write(ops: readonly WriteOp[]): Promise<void> {
    this.writable('write');
    // Field names are checked by the encoder (checkField): all of them are encoded before the batch is queued, or
    // inside the transaction, which the throw aborts; either way nothing is written.
    validateOps(ops, { fieldNames: false });
    if (ops.length === 0) return;
    await this.space?.check(ops);
    try {
      await this.writeChecked(ops);
    } catch (e) {
      if (!(e instanceof BadFieldSignal)) {
        if (e instanceof Error && 'commitError' in e) this.commitFailed = true;
        throw await commitFailure(e);
      }
      validateOps(ops); // throws, naming the op and the field
      throw new StoreError(`write: field ${JSON.stringify(e.message)} is refused (see validateOps)`);
    }
  }

  private async writeChecked(ops: readonly WriteOp[]): Promise<void> {
    // Everything that can fail for a reason other than the disk (unknown collection, a bad index field) fails here,
    // before the transaction starts. Opening sub-databases also needs its own transaction, so it happens first.
    const steps = ops.map((op): Step => {
      const h = this.dbs(op.coll) as Handles;
      const indexes = this.indexesOf(op.coll);
      if ('put' in op)
        return {
          h,
          indexes,
          coll: op.coll,
          id: op.put._id,
          doc: op.put,
          prev: op.prev,
          keys: indexes.map((ix) => indexKey(op.coll, ix, op.put)),
        };
      return { h, indexes, coll: op.coll, id: op.del, doc: undefined, prev: op.prev, keys: [] };
    });
    // Every op names the stored version of its document (or has no index entries to replace), and every key fits:
    // nothing inside the transaction reads or can fail, so the whole write goes to lmdb's writer thread.
    if (steps.every((s) => s.indexes.length === 0 || s.prev !== undefined) && steps.every(keysFit))
      return this.writeOnWriterThread(steps);
    // lmdb runs this callback in an abortable child transaction of its next write batch (all or nothing: a throw
    // inside aborts every op of this call; kill -9 leaves the last committed batch) and commits the batch on its
    // writer thread, so the commit's page writes and fsync overlap the caller's work.
    await this.root.childTransaction(() => {
      for (const s of steps) {
        // The stored version (as of the earlier ops of this batch) says which index entries are now stale; the
        // writer may know it already (`prev`, see WriteOp), which spares reading and decoding it.
        const old = s.indexes.length && s.prev === undefined ? withId(s.h.docs.get(s.id), s.id) : s.prev;
        for (const e of indexEdits(s, old)) {
          if (e.del) s.h.idx.removeSync(asKey(e.key));
          else s.h.idx.putSync(asKey(e.key), EMPTY);
        }
        if (s.doc) s.h.docs.putSync(s.id, lmdb.asBinary(encodeDoc(s.h.docs, s.doc)) as unknown as Doc);
        else s.h.docs.removeSync(s.id);
      }
    });
  }

  /**
   * A write that needs no read: its values are encoded here, on the caller's thread (which also saves any new
   * msgpack record shape in its own small transaction first, so none is saved in the middle of this batch), then
   * queued as one lmdb batch that the writer thread applies and commits: LMDB's B-tree work leaves the caller's
   * thread, which goes on with the next slice. A batch is one conditional block of lmdb's instruction queue, which
   * its writer never commits part of (it waits for the block's end), so the write stays all or nothing; nothing in
   * the queuing can throw (the encodings are done and every key was checked to fit).
   */
  private async writeOnWriterThread(steps: readonly Step[]): Promise<void> {
    const values = steps.map((s) => (s.doc ? lmdb.asBinary(encodeDoc(s.h.docs, s.doc)) : null));
    const edits = steps.map((s) => indexEdits(s, s.prev));
    await this.root.batch(() => {
      steps.forEach((s, i) => {
        for (const e of edits[i] as IndexEdit[]) {
          if (e.del) void s.h.idx.remove(asKey(e.key));
          else void s.h.idx.put(asKey(e.key), EMPTY);
        }
        const v = values[i];
        if (v) void s.h.docs.put(s.id, v as unknown as Doc);
        else void s.h.docs.remove(s.id);
      });
    });
    // The encoded values are referenced until here: lmdb's writer reads them from their buffers.
    values.length = 0;
  }

  /**
   * Records each collection's index definitions and (re)builds the entries of any index whose definition is new or
   * changed since the last call, dropping entries of indexes no longer declared; one transaction for all of it.
   */
  async ensureIndexes(specs: readonly CollectionSpec<{ _id: string }>[]): Promise<void> {
    for (const spec of specs) this.specs.set(spec.name, spec.indexes);
    if (this.readOnly) {
      const stale = specs.filter((s) => !sameIndexes(s.indexes, this.metaDb()?.get(s.name) ?? []));
      if (stale.length)
        throw new StoreError(
          `read-only store: the indexes of ${stale.map((s) => s.name).join(', ')} are not built; run npm run mongo:indexes`,
        );
      return;
    }
    const meta = this.metaDb() as Database<IndexSpec[], string>;
    const targets = specs.map((spec) => ({ spec, h: this.dbs(spec.name) as Handles }));
    this.root.transactionSync(() => {
      for (const { spec, h } of targets) {
        const stored = meta.get(spec.name);
        if (stored && sameIndexes(stored, spec.indexes)) continue;
        // Without a record, entries may exist from writes made before any ensureIndexes: rebuild all of them.
        const rebuild = spec.indexes.filter((ix) => !stored?.some((s) => sameIndex(ix, s)));
        const drop = stored ? stored.filter((s) => !spec.indexes.some((ix) => sameIndex(ix, s))) : [];
        if (stored) for (const ix of [...drop, ...rebuild]) dropIndexEntries(h.idx, ix.name);
        else for (const k of [...h.idx.getKeys({})]) h.idx.removeSync(k);
        if (rebuild.length)
          for (const { key, value } of h.docs.getRange({}))
            for (const ix of rebuild) h.idx.putSync(asKey(indexKey(spec.name, ix, withId(value, key) as Doc)), EMPTY);
        meta.putSync(
          spec.name,
          spec.indexes.map((ix) => ({ name: ix.name, fields: [...ix.fields] })),
        );
      }
    });
  }

  async clear(names: readonly string[]): Promise<void> {
    this.writable('clear');
    await this.space?.check();
    // Opening a sub-database needs a transaction of its own: every one first.
    const handles = names.map((name) => this.dbs(name)).filter((h) => h !== undefined);
    // One transaction, as every write: a kill part-way clears nothing. A resync killed between two collections left
    // the blocks and transactions cleared under a kept checkpoint, and the sync resumed over them (history lost).
    this.root.transactionSync(() => {
      for (const h of handles) {
        // The record structures survive the clear, so a record id keeps its shape for the store's life: lmdb's clear
        // drops them, the next write gave a new shape the first id again, and a process that had read the collection
        // before (the API beside the resync run) decoded the new documents with the old shape's field names.
        const structures = h.docs.getBinary(STRUCTURES as unknown as string);
        h.docs.clearSync();
        h.idx.clearSync();
        if (structures) h.docs.putSync(STRUCTURES as unknown as string, lmdb.asBinary(structures) as unknown as Doc);
      }
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const closing = this.root.close();
    if (!this.commitFailed) await closing;
    else {
      // lmdb (3.x) waits for the flush of the last commit, which never comes once a commit failed (a full disk): the
      // process's exit releases the environment then (every committed batch is on disk, the failed one is not).
      await settledWithin(closing, CLOSE_AFTER_FAILURE_MS);
    }
    this.onClose();
  }
}

class EmbeddedCollection<D extends { _id: string }> implements Collection<D> {
  constructor(
    private readonly store: EmbeddedStore,
    readonly name: string,
    private readonly indexes: readonly IndexSpec[],
  ) {}

  async get(id: string): Promise<D | null> {
    return (withId(this.store.dbs(this.name)?.docs.get(id), id) as D | undefined) ?? null;
  }

  /** Synchronous gets in one event turn share one read transaction: the result is one consistent snapshot. */
  async getMany(ids: readonly string[]): Promise<(D | null)[]> {
    const h = this.store.dbs(this.name);
    return ids.map((id) => (withId(h?.docs.get(id), id) as D | undefined) ?? null);
  }

  private plan(index: string, q: RangeQuery): Plan {
    const fields = indexFields(this.name, this.indexes, index);
    checkQuery(this.name, index, fields, q);
    const plan = index === '_id' ? idPlan(q) : indexPlan(index, q);
    if (!q.after) return plan;
    const at = q.after as Record<string, unknown> & { _id: string };
    const key = index === '_id' ? at._id : asKey(indexKey(this.name, { name: index, fields }, at));
    return applyAfter(plan, key, q.reverse ?? false);
  }

  /** The sub-databases and lmdb range of a scan, or null when it matches nothing (no collection yet, limit 0). */
  private scanRange(index: string, query: RangeQuery): { h: Handles; opts: RangeOptions } | null {
    const plan = this.plan(index, query);
    const h = this.store.dbs(this.name);
    if (!h || query.limit === 0) return null;
    const opts = rangeOptions(plan, query.reverse ?? false);
    if (query.offset) opts.offset = query.offset;
    if (query.limit !== undefined) opts.limit = query.limit;
    return { h, opts };
  }

  async find(index: string, query: RangeQuery = {}): Promise<D[]> {
    const range = this.scanRange(index, query);
    if (!range) return [];
    const { h, opts } = range;
    if (index === '_id') return [...h.docs.getRange(opts)].map((e) => withId(e.value, e.key) as D);
    const out: D[] = [];
    for (const key of h.idx.getKeys(opts)) {
      const id = (key as unknown as unknown[]).at(-1) as string;
      const doc = withId(h.docs.get(id), id);
      if (!doc) throw new StoreError(`${this.name}.${index} lists ${id}, which is not stored: the index is corrupt`);
      out.push(doc as D);
    }
    return out;
  }

  async findKeys(index: string, query: RangeQuery = {}): Promise<IndexEntry[]> {
    const range = this.scanRange(index, query);
    if (!range) return [];
    const { h, opts } = range;
    if (index === '_id') return [...h.docs.getKeys(opts)].map((id) => ({ _id: id as string }));
    const fields = indexFields(this.name, this.indexes, index);
    const out: IndexEntry[] = [];
    // An index key is [index name, ...field values, _id] (indexKey).
    for (const key of h.idx.getKeys(opts)) {
      const parts = key as unknown as KeyPart[];
      const entry: IndexEntry = { _id: parts[parts.length - 1] as string };
      for (let i = 0; i < fields.length; i++) entry[fields[i] as string] = parts[i + 1] as KeyPart;
      out.push(entry);
    }
    return out;
  }

  async count(index: string, query: RangeQuery = {}): Promise<number> {
    const plan = this.plan(index, query);
    const h = this.store.dbs(this.name);
    if (!h) return 0;
    const opts = rangeOptions(plan, false);
    const total = index === '_id' ? h.docs.getKeysCount(opts) : h.idx.getKeysCount(opts);
    const n = Math.max(0, total - (query.offset ?? 0));
    return query.limit === undefined ? n : Math.min(n, query.limit);
  }

  async *scan(pageSize = 1000): AsyncIterable<D> {
    let last: string | undefined;
    for (;;) {
      const h = this.store.dbs(this.name);
      if (!h) return;
      const page = [
        ...h.docs.getRange(
          last === undefined ? { limit: pageSize } : { start: last, exclusiveStart: true, limit: pageSize },
        ),
      ];
      for (const e of page) yield withId(e.value, e.key) as D;
      if (page.length < pageSize) return;
      last = page[page.length - 1]?.key;
    }
  }
}

/**
 * A failed commit (a full disk) also rejects promises lmdb (3.x) hands to no caller: the one of the event-turn batch
 * it opens for a write, and those of the puts of a batch (writeOnWriterThread drops them: the batch's own promise
 * says the same). Unhandled, such a rejection ended the process (the embedded worker crashed at each start until
 * npm start gave up, its API with it), although every write of the commit is rejected to its caller as well. Once
 * per process, such a rejection (lmdb's error with `commitError`) is handled; any other unhandled rejection still
 * ends the process, unless another listener (a test runner) handles it.
 */
let lmdbCopiesHandled = false;
/** How long `close` waits for lmdb after a commit of the process failed. */
const CLOSE_AFTER_FAILURE_MS = 2_000;
function handleLmdbCommitCopies(): void {
  if (lmdbCopiesHandled) return;
  lmdbCopiesHandled = true;
  process.on('unhandledRejection', (reason) => {
    if (reason instanceof Error && 'commitError' in reason) {
      (reason.commitError as Promise<unknown> | undefined)?.catch(() => undefined);
      return;
    }
    if (process.listenerCount('unhandledRejection') === 1) throw reason;
  });
}

/**
 * Opens (creating if needed) the store in `path`. `readOnly` for tools that read beside a running service;
 * `minFreeBytes`: the free space its writes leave on the disk (MIN_FREE_BYTES).
 */
export async function openEmbeddedStore(opts: {
  path: string;
  readOnly?: boolean;
  minFreeBytes?: number;
  /** Collections written below the reserve (FreeSpaceGuard): the status records that say why writing stopped. */
  unguarded?: readonly string[];
}): Promise<Store> {
  const readOnly = opts.readOnly ?? false;
  if (!readOnly) handleLmdbCommitCopies();
  if (!readOnly) mkdirSync(opts.path, { recursive: true });
  const root = lmdb.open({ path: opts.path, noSubdir: false, maxDbs: 256, readOnly });
  const space = readOnly
    ? null
    : new FreeSpaceGuard(opts.path, opts.minFreeBytes ?? MIN_FREE_BYTES, new Set(opts.unguarded ?? []));
  return new EmbeddedStore(root, readOnly, undefined, space);
}

/** A throwaway embedded store in a fresh temporary folder, deleted on close (tests). */
export async function openMemoryStore(): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'cds-store-'));
  const root = lmdb.open({ path: dir, noSubdir: false, maxDbs: 256 });
  return new EmbeddedStore(root, false, () => rmSync(dir, { recursive: true, force: true }));
}
