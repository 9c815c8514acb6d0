/**
 * The store port. Domain code (activities/, api/) talks to this interface only; the two adapters in
 * `mongo/adapters/` implement it with lmdb (embedded default, `DATA_DIR`) and the official MongoDB driver
 * (`MONGODB_URI`). Neither the driver nor the embedded engine is imported anywhere else.
 *
 * Model: named collections of JSON documents keyed by a string `_id`. Each collection declares its secondary
 * indexes (ordered lists of top-level fields). Reads are point gets and ordered range scans over one index;
 * writes are batches of puts and deletes that the embedded adapter applies atomically and the MongoDB adapter
 * applies in order (the sync's undo journal makes that crash-safe; see activities/sync/apply.ts).
 */

/**
 * A scalar that can be part of an index key. Numbers must be finite; amounts are stored as strings.
 * Each index field holds ONE of these types across its collection (plus null, which is also what a missing field
 * indexes as): that is the rule under which the embedded key order and MongoDB's sort order agree. Within it both
 * order null first, then false < true, numbers numerically, strings by code point (UTF-8 bytes, not JS's UTF-16 <).
 * Range bounds (gt/gte/lt/lte) are non-null and match only values of their own type, as in MongoDB.
 */
export type KeyPart = string | number | boolean | null;

export interface IndexSpec {
  /** Unique within the collection, e.g. `byHeight`. */
  name: string;
  /** Top-level document fields, in key order. `_id` is appended implicitly as the final tie-break. */
  fields: readonly string[];
}

export interface CollectionSpec<D extends { _id: string }> {
  name: string;
  indexes: readonly IndexSpec[];
  /** Phantom field carrying the document type; never set at run time. */
  readonly __doc?: D;
}

export function defineCollection<D extends { _id: string }>(spec: {
  name: string;
  indexes?: readonly IndexSpec[];
}): CollectionSpec<D> {
  return { name: spec.name, indexes: spec.indexes ?? [] };
}

/**
 * An ordered scan over one index.
 * `eq` fixes the first `eq.length` fields of the index; `gte`/`lte`/`gt`/`lt` bound the next field.
 * `after` resumes strictly after a document (its index key, used for cursors): pass the last document seen.
 */
export interface RangeQuery {
  eq?: readonly KeyPart[];
  gt?: KeyPart;
  gte?: KeyPart;
  lt?: KeyPart;
  lte?: KeyPart;
  reverse?: boolean;
  limit?: number;
  /** Skip this many matches first (paged lists). */
  offset?: number;
  /** Any document of the collection; the union lets interface-typed documents (no index signature) through. */
  after?: ({ _id: string } & Record<string, unknown>) | { _id: string };
}

/**
 * `prev` (optional): the document as the store holds it before this write (null = absent), given by a writer that
 * knows it for certain — the sync, the only writer of its collections, loaded it itself. The embedded store then
 * replaces the document's index entries without reading it back first. It must be exact (a wrong one leaves stale
 * index entries); leave it out when unsure. At most one op per document in a batch may carry it.
 */
export type WriteOp =
  | {
      coll: string;
      put: { _id: string } & Record<string, unknown>;
      prev?: ({ _id: string } & Record<string, unknown>) | null;
    }
  | { coll: string; del: string; prev?: ({ _id: string } & Record<string, unknown>) | null };

/** One match of `findKeys`: the document's `_id` and the values of the index's fields. */
export type IndexEntry = { _id: string } & Record<string, KeyPart>;

export interface Collection<D extends { _id: string }> {
  readonly name: string;
  get(id: string): Promise<D | null>;
  getMany(ids: readonly string[]): Promise<(D | null)[]>;
  /** Ordered scan of `index` (or `_id` when index is `'_id'`). */
  find(index: string, query?: RangeQuery): Promise<D[]>;
  /**
   * The same scan as `find`, answering per match only its `_id` and the index's fields (a missing field as null),
   * read from the index: no document is read or decoded. For answers that need no other field.
   */
  findKeys(index: string, query?: RangeQuery): Promise<IndexEntry[]>;
  count(index: string, query?: RangeQuery): Promise<number>;
  /** Every document in `_id` order, in pages; for digests, recomputes and tests. */
  scan(pageSize?: number): AsyncIterable<D>;
}

export interface Store {
  readonly kind: 'embedded' | 'mongodb';
  collection<D extends { _id: string }>(spec: CollectionSpec<D>): Collection<D>;
  /** Apply puts and deletes. Embedded: one atomic transaction. MongoDB: in the given order. */
  write(ops: readonly WriteOp[]): Promise<void>;
  /** Create every declared index (idempotent; fails loudly). */
  ensureIndexes(specs: readonly CollectionSpec<{ _id: string }>[]): Promise<void>;
  /** Drop every document of the named collections (tests, reindex). */
  clear(names: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** Builders that keep write batches typed at the call site. */
export const put = <D extends { _id: string }>(spec: CollectionSpec<D>, doc: D): WriteOp => ({
  coll: spec.name,
  put: doc as { _id: string } & Record<string, unknown>,
});
export const del = <D extends { _id: string }>(spec: CollectionSpec<D>, id: string): WriteOp => ({
  coll: spec.name,
  del: id,
});
