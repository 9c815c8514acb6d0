/**
 * The store with every operation timed (for the store-latency metric): the same Store, each call reported to
 * `observe(op, collection, seconds, ok)`. `write` reports its first collection ('batch' when it spans several).
 */
import type { Collection, Store } from './store.js';

export type StoreObserver = (op: string, collection: string, seconds: number, ok: boolean) => void;

async function timed<T>(observe: StoreObserver, op: string, coll: string, f: () => Promise<T>): Promise<T> {
  const t = performance.now();
  try {
    const r = await f();
    observe(op, coll, (performance.now() - t) / 1000, true);
    return r;
  } catch (e) {
    observe(op, coll, (performance.now() - t) / 1000, false);
    throw e;
  }
}

export function timedStore(store: Store, observe: StoreObserver): Store {
  // One wrapper per collection, built on first use: the request path asks for collections on every read.
  const wrapped = new Map<string, Collection<{ _id: string }>>();
  const collection = <D extends { _id: string }>(spec: Parameters<Store['collection']>[0]): Collection<D> => {
    const known = wrapped.get(spec.name);
    if (known) return known as unknown as Collection<D>;
    const c = store.collection(spec) as unknown as Collection<D>;
    const w: Collection<D> = {
      name: c.name,
      get: (id) => timed(observe, 'get', c.name, () => c.get(id)),
      getMany: (ids) => timed(observe, 'getMany', c.name, () => c.getMany(ids)),
      find: (index, q) => timed(observe, 'find', c.name, () => c.find(index, q)),
      findKeys: (index, q) => timed(observe, 'findKeys', c.name, () => c.findKeys(index, q)),
      count: (index, q) => timed(observe, 'count', c.name, () => c.count(index, q)),
      scan: (pageSize) => c.scan(pageSize),
    };
    wrapped.set(spec.name, w as unknown as Collection<{ _id: string }>);
    return w;
  };
  return {
    get kind() {
      return store.kind;
    },
    collection: collection as Store['collection'],
    write: (ops) => {
      const colls = new Set(ops.map((o) => o.coll));
      const name = colls.size === 1 ? ([...colls][0] ?? 'batch') : 'batch';
      return timed(observe, 'write', name, () => store.write(ops));
    },
    ensureIndexes: (specs) => store.ensureIndexes(specs),
    clear: (names) => timed(observe, 'clear', 'batch', () => store.clear(names)),
    close: () => store.close(),
  };
}
