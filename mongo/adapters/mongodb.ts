/**
 * The MongoDB store, through the official driver. Documents are stored as they are (`_id` = the string id); each
 * declared index becomes a compound index `{ ...fields: 1, _id: 1 }` named after the spec, so every ordered scan of
 * the port is one index walk. Writes are applied in order, consecutive ops of one collection in ordered bulkWrites of
 * at most `writeBatch` statements; a crash or a refused statement between two of them leaves the earlier ones
 * applied (no multi-document transactions: FerretDB 1.x has none), which the sync's undo journal makes safe
 * (activities/sync/journal.ts `recoverIncomplete`), not this adapter.
 */
import {
  MongoClient,
  MongoError,
  MongoNetworkError,
  MongoOperationTimeoutError,
  MongoServerSelectionError,
  type AnyBulkWriteOperation,
  type Db,
  type Document,
  type Filter,
  type Sort,
} from 'mongodb';
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
import { checkQuery, indexFields, keyValue, validateOps } from './common.js';

type Doc = Document & { _id: string };

/** `field > v` in index order, where null (and a missing field) sorts before every value. */
function greater(field: string, v: KeyPart): Filter<Doc> {
  return v === null ? { [field]: { $ne: null } } : { [field]: { $gt: v } };
}
/** `field < v` in index order; `$lt` alone would skip nulls (MongoDB brackets comparisons by type). */
function less(field: string, v: KeyPart): Filter<Doc> | undefined {
  return v === null ? undefined : { $or: [{ [field]: { $lt: v } }, { [field]: null }] };
}

/**
 * Strictly after the cursor position `(v1, …, vn, id)` in the scan direction: the usual compound comparison,
 * `f1 > v1 OR (f1 = v1 AND f2 > v2) OR … OR (f1 = v1 … fn = vn AND _id > id)`.
 */
function afterFilter(
  coll: string,
  fields: readonly string[],
  at: Record<string, unknown>,
  reverse: boolean,
): Filter<Doc> {
  const all = fields[0] === '_id' ? [] : fields;
  const values = all.map((f) => keyValue(coll, at, f));
  const branches: Filter<Doc>[] = [];
  for (let i = 0; i <= all.length; i++) {
    const field = i < all.length ? (all[i] as string) : '_id';
    const v = i < all.length ? (values[i] as KeyPart) : (at._id as string);
    const step = reverse ? less(field, v) : greater(field, v);
    if (!step) continue;
    const prefix = all.slice(0, i).map((f, j) => ({ [f]: values[j] }));
    branches.push(prefix.length ? { $and: [...prefix, step] } : step);
  }
  return branches.length ? { $or: branches } : { _id: { $in: [] } };
}

function queryFilter(coll: string, fields: readonly string[], q: RangeQuery): Filter<Doc> {
  const parts: Filter<Doc>[] = [];
  const eq = q.eq ?? [];
  eq.forEach((v, i) => parts.push({ [fields[i] as string]: v }));
  const bounded = fields[eq.length];
  if (bounded !== undefined) {
    const range: Record<string, KeyPart> = {};
    for (const op of ['gt', 'gte', 'lt', 'lte'] as const) if (q[op] !== undefined) range[`$${op}`] = q[op];
    if (Object.keys(range).length) parts.push({ [bounded]: range });
  }
  if (q.after) parts.push(afterFilter(coll, fields, q.after as Record<string, unknown>, q.reverse ?? false));
  if (parts.length === 0) return {};
  return parts.length === 1 ? (parts[0] as Filter<Doc>) : { $and: parts };
}

function indexSort(fields: readonly string[], reverse: boolean): Sort {
  const dir = reverse ? -1 : 1;
  const sort: Record<string, 1 | -1> = {};
  for (const f of fields) sort[f] = dir;
  sort._id = dir;
  return sort;
}

class MongoCollection<D extends { _id: string }> implements Collection<D> {
  constructor(
    private readonly db: Db,
    readonly name: string,
    private readonly indexes: readonly IndexSpec[],
  ) {}

  private get coll() {
    return this.db.collection<Doc>(this.name);
  }

  async get(id: string): Promise<D | null> {
    return (await this.coll.findOne({ _id: id })) as D | null;
  }

  async getMany(ids: readonly string[]): Promise<(D | null)[]> {
    if (ids.length === 0) return [];
    const found = await this.coll.find({ _id: { $in: [...new Set(ids)] } }).toArray();
    const byId = new Map(found.map((d) => [d._id, d as unknown as D]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  private filter(index: string, q: RangeQuery): { fields: readonly string[]; filter: Filter<Doc> } {
    const fields = indexFields(this.name, this.indexes, index);
    checkQuery(this.name, index, fields, q);
    return { fields, filter: queryFilter(this.name, fields, q) };
  }

  async find(index: string, query: RangeQuery = {}): Promise<D[]> {
    const { fields, filter } = this.filter(index, query);
    if (query.limit === 0) return []; // the driver reads limit 0 as "no limit"
    const cursor = this.coll.find(filter).sort(indexSort(index === '_id' ? [] : fields, query.reverse ?? false));
    if (query.offset) cursor.skip(query.offset);
    if (query.limit !== undefined) cursor.limit(query.limit);
    return (await cursor.toArray()) as unknown as D[];
  }

  async findKeys(index: string, query: RangeQuery = {}): Promise<IndexEntry[]> {
    const { fields, filter } = this.filter(index, query);
    if (query.limit === 0) return [];
    const own = index === '_id' ? [] : fields;
    // Only the index's fields: MongoDB answers such a query from the index (a covered query).
    const projection: Record<string, 1> = { _id: 1 };
    for (const f of own) projection[f] = 1;
    const cursor = this.coll.find(filter, { projection }).sort(indexSort(own, query.reverse ?? false));
    if (query.offset) cursor.skip(query.offset);
    if (query.limit !== undefined) cursor.limit(query.limit);
    return (await cursor.toArray()).map((d) => {
      const entry: IndexEntry = { _id: d._id };
      for (const f of own) entry[f] = keyValue(this.name, d, f);
      return entry;
    });
  }

  async count(index: string, query: RangeQuery = {}): Promise<number> {
    const { filter } = this.filter(index, query);
    if (query.limit === 0) return 0;
    const opts: { skip?: number; limit?: number } = {};
    if (query.offset) opts.skip = query.offset;
    if (query.limit !== undefined) opts.limit = query.limit;
    return this.coll.countDocuments(filter, opts);
  }

  async *scan(pageSize = 1000): AsyncIterable<D> {
    for await (const doc of this.coll.find({}).sort({ _id: 1 }).batchSize(pageSize)) yield doc as unknown as D;
  }
}

/**
 * Write statements in flight at once, shared by every write command of one store (one process): a command of `n`
 * statements waits, first come first served, until `n` more fit under the capacity. FerretDB 1.x (SQLite) holds one
 * pooled SQLite connection per statement of an `update` until the command ends, from a pool of 100 per database, and
 * waits for a free one without timeout: so commands that together need 100 stop for good, and every other request on
 * that database with them. Seen in the production composition: the sync and two recomputes each sending an update of
 * up to 50 upserts at once held 43, 38 and 19 connections and no query of the worker or the API answered again.
 * Bounding the sum per process, not only each command, keeps the worker's writes under the pool.
 */
class StatementBudget {
  private inFlight = 0;
  private readonly waiting: { n: number; go: () => void }[] = [];

  constructor(private readonly capacity: number) {}

  async run<T>(n: number, fn: () => Promise<T>): Promise<T> {
    const need = Math.min(n, this.capacity);
    if (this.waiting.length > 0 || this.inFlight + need > this.capacity)
      await new Promise<void>((go) => this.waiting.push({ n: need, go }));
    else this.inFlight += need;
    try {
      return await fn();
    } finally {
      this.inFlight -= need;
      for (let next = this.waiting[0]; next && this.inFlight + next.n <= this.capacity; next = this.waiting[0]) {
        this.waiting.shift();
        this.inFlight += next.n;
        next.go();
      }
    }
  }
}

class MongoStore implements Store {
  readonly kind = 'mongodb' as const;
  private readonly budget: StatementBudget;

  constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
    /**
     * Most statements per bulkWrite (each becomes one `update`/`delete` command), and in flight at once over all of
     * this store's commands (see MONGODB_WRITE_BATCH and StatementBudget).
     */
    private readonly writeBatch: number,
  ) {
    this.budget = new StatementBudget(writeBatch);
  }

  collection<D extends { _id: string }>(spec: CollectionSpec<D>): Collection<D> {
    return new MongoCollection<D>(this.db, spec.name, spec.indexes);
  }

  async write(ops: readonly WriteOp[]): Promise<void> {
    validateOps(ops);
    for (let i = 0; i < ops.length;) {
      const coll = (ops[i] as WriteOp).coll;
      const batch: AnyBulkWriteOperation<Doc>[] = [];
      for (; i < ops.length && (ops[i] as WriteOp).coll === coll && batch.length < this.writeBatch; i++) {
        const op = ops[i] as WriteOp;
        if ('put' in op)
          batch.push({ replaceOne: { filter: { _id: op.put._id }, replacement: op.put as Doc, upsert: true } });
        else batch.push({ deleteOne: { filter: { _id: op.del } } });
      }
      await this.budget.run(batch.length, () => this.db.collection<Doc>(coll).bulkWrite(batch, { ordered: true }));
    }
  }

  async ensureIndexes(specs: readonly CollectionSpec<{ _id: string }>[]): Promise<void> {
    for (const spec of specs)
      for (const ix of spec.indexes) {
        const key: Record<string, 1> = {};
        for (const f of ix.fields) key[f] = 1;
        key._id = 1;
        await this.db.collection(spec.name).createIndex(key, { name: ix.name });
      }
  }

  async clear(names: readonly string[]): Promise<void> {
    for (const name of names) await this.db.collection(name).deleteMany({});
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** Statements per write command when not configured: well under MongoDB's 100,000, and few round trips. */
export const DEFAULT_WRITE_BATCH = 1000;

/**
 * Connects (failing if the server cannot be reached) and returns the store over database `db`. `writeBatch` bounds
 * the statements of one write command: FerretDB 1.x never answers an `update` of 100 upserts that change indexed
 * fields (50 pass).
 */
export async function openMongoStore(opts: { uri: string; db: string; writeBatch?: number }): Promise<Store> {
  const writeBatch = opts.writeBatch ?? DEFAULT_WRITE_BATCH;
  if (!Number.isInteger(writeBatch) || writeBatch < 1) throw new RangeError(`writeBatch must be ≥ 1: ${writeBatch}`);
  let client: MongoClient;
  try {
    // Fields set to undefined are left out, as JSON would, instead of being stored as null.
    client = new MongoClient(opts.uri, { ignoreUndefined: true });
  } catch (e) {
    // The connection string does not parse (no host, an unescaped '@', a port out of range, an unknown option). Its
    // parser throws errors of its own package, which are no MongoError: whatever it throws is the URI's fault.
    if (!(e instanceof Error)) throw e;
    throw StoreUnreachableError.of(e);
  }
  try {
    await client.connect();
    await client.db(opts.db).command({ ping: 1 });
  } catch (e) {
    if (!(e instanceof MongoError)) throw e;
    await client.close().catch(() => undefined);
    throw StoreUnreachableError.of(e);
  }
  return new MongoStore(client, client.db(opts.db), writeBatch);
}

/**
 * The driver could not parse the URI, reach the server or log in when the store was opened; the message is the
 * driver's error name and first line (it may repeat the URI: redact it before showing it).
 */
export class StoreUnreachableError extends Error {
  override name = 'StoreUnreachableError';

  /** The driver's error as one line: its name and the first line of its message. */
  static of(e: Error): StoreUnreachableError {
    return new StoreUnreachableError(`${e.name}: ${e.message.split('\n')[0] ?? ''}`, { cause: e });
  }
}

/**
 * An operation failed because the server does not answer (down, unreachable, the connection lost, no server
 * selected within the driver's serverSelectionTimeoutMS): the API answers 503, as for any part that is down, not
 * 500 as for a fault of its own.
 */
export function isStoreUnavailable(e: unknown): boolean {
  return (
    e instanceof MongoServerSelectionError || e instanceof MongoNetworkError || e instanceof MongoOperationTimeoutError
  );
}
