/**
 * Replace a recomputed collection's contents: put every document of `docs` and delete every other one, in write
 * batches of `batch` operations (each batch atomic in the embedded store). Readers see old and new documents
 * mixed only for the moment between batches; recomputes write whole snapshots this way.
 */
import { del, put, type CollectionSpec, type Store, type WriteOp } from './store.js';

/** Operations written `batch` at a time; `done` writes the rest. */
function batchedWrites(store: Store, batch: number) {
  let ops: WriteOp[] = [];
  const flush = async () => {
    if (ops.length) await store.write(ops);
    ops = [];
  };
  return {
    async add(op: WriteOp) {
      ops.push(op);
      if (ops.length >= batch) await flush();
    },
    done: flush,
  };
}

export async function replaceAll<D extends { _id: string }>(
  store: Store,
  spec: CollectionSpec<D>,
  docs: readonly D[],
  batch = 200,
): Promise<void> {
  const keep = new Set(docs.map((d) => d._id));
  const writes = batchedWrites(store, batch);
  for (const d of docs) await writes.add(put(spec, d));
  const stale: string[] = [];
  for await (const d of store.collection(spec).scan()) if (!keep.has(d._id)) stale.push(d._id);
  for (const id of stale) await writes.add(del(spec, id));
  await writes.done();
}

/**
 * `replaceAll` for a large collection that changes little between runs: reads the current documents first and
 * writes only those `same` says differ, then deletes the rest. A reader sees each document either before or after.
 */
export async function replaceChanged<D extends { _id: string }>(
  store: Store,
  spec: CollectionSpec<D>,
  docs: readonly D[],
  same: (prev: D, next: D) => boolean,
  batch = 500,
): Promise<void> {
  const prev = new Map<string, D>();
  for await (const d of store.collection(spec).scan()) prev.set(d._id, d);
  const writes = batchedWrites(store, batch);
  for (const d of docs) {
    const old = prev.get(d._id);
    prev.delete(d._id);
    if (!old || !same(old, d)) await writes.add(put(spec, d));
  }
  for (const id of prev.keys()) await writes.add(del(spec, id));
  await writes.done();
}
