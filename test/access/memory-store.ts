/**
 * A Store over Maps for the access tests (fast, no files). The restart test uses the real embedded adapter; this
 * one keeps the port's semantics the access layer relies on: point gets, eq + one bounded field scans in index
 * order, and batches applied in order.
 */
import type { Collection, CollectionSpec, IndexEntry, KeyPart, RangeQuery, Store, WriteOp } from '../../mongo/store.js';

type Doc = { _id: string } & Record<string, unknown>;

const rank = (v: KeyPart) => (v === null ? 0 : typeof v === 'number' ? 1 : typeof v === 'string' ? 2 : 3);
function cmp(a: KeyPart, b: KeyPart): number {
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (a === b) return 0;
  return (a as number | string | boolean) < (b as number | string | boolean) ? -1 : 1;
}

export class MemoryStore implements Store {
  readonly kind = 'embedded' as const;
  readonly data = new Map<string, Map<string, Doc>>();
  private readonly specs = new Map<string, CollectionSpec<{ _id: string }>>();
  closed = false;

  private docs(name: string) {
    let m = this.data.get(name);
    if (!m) this.data.set(name, (m = new Map()));
    return m;
  }

  collection<D extends { _id: string }>(spec: CollectionSpec<D>): Collection<D> {
    this.specs.set(spec.name, spec as CollectionSpec<{ _id: string }>);
    const docs = () => this.docs(spec.name);
    const copy = (d: Doc | undefined) => (d ? (structuredClone(d) as unknown as D) : null);
    const select = (index: string, q: RangeQuery = {}) => {
      const fields = index === '_id' ? ['_id'] : spec.indexes.find((i) => i.name === index)?.fields;
      if (!fields) throw new Error(`${spec.name} has no index ${index}`);
      const key = (d: Doc) => [...fields.map((f) => (d[f] ?? null) as KeyPart), d._id];
      const eq = q.eq ?? [];
      const next = fields[eq.length];
      let rows = [...docs().values()].filter((d) => {
        if (!eq.every((v, i) => cmp((d[fields[i]!] ?? null) as KeyPart, v) === 0)) return false;
        if (next === undefined) return true;
        const v = (d[next] ?? null) as KeyPart;
        if (q.gt !== undefined && !(cmp(v, q.gt) > 0)) return false;
        if (q.gte !== undefined && !(cmp(v, q.gte) >= 0)) return false;
        if (q.lt !== undefined && !(cmp(v, q.lt) < 0)) return false;
        if (q.lte !== undefined && !(cmp(v, q.lte) <= 0)) return false;
        return true;
      });
      rows.sort((a, b) => {
        const ka = key(a);
        const kb = key(b);
        for (let i = 0; i < ka.length; i++) {
          const c = cmp(ka[i]!, kb[i]!);
          if (c) return c;
        }
        return 0;
      });
      if (q.reverse) rows.reverse();
      rows = rows.slice(q.offset ?? 0);
      return q.limit === undefined ? rows : rows.slice(0, q.limit);
    };
    return {
      name: spec.name,
      get: async (id) => copy(docs().get(id)),
      getMany: async (ids) => ids.map((id) => copy(docs().get(id))),
      find: async (index, q) => select(index, q).map((d) => copy(d)!),
      findKeys: async (index, q) => {
        const fields = index === '_id' ? [] : (spec.indexes.find((i) => i.name === index)?.fields ?? []);
        return select(index, q).map((d) => {
          const entry: IndexEntry = { _id: d._id };
          for (const f of fields) entry[f] = (d[f] ?? null) as KeyPart;
          return entry;
        });
      },
      count: async (index, q) => select(index, q).length,
      scan: async function* () {
        for (const d of select('_id')) yield copy(d)!;
      },
    };
  }

  async write(ops: readonly WriteOp[]): Promise<void> {
    if (this.closed) throw new Error('store closed');
    for (const op of ops) {
      if ('put' in op) this.docs(op.coll).set(op.put._id, structuredClone(op.put));
      else this.docs(op.coll).delete(op.del);
    }
  }
  async ensureIndexes(): Promise<void> {}
  async clear(names: readonly string[]): Promise<void> {
    for (const n of names) this.data.delete(n);
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}
