/**
 * Replace a recomputed collection's contents: put every document of `docs` and delete every other one, in write
 * batches of `batch` operations (each batch atomic in the embedded store). Readers see old and new documents
 * mixed only for the moment between batches; recomputes write whole snapshots this way.
 */
import { del, put, type CollectionSpec, type Store, type WriteOp } from './store.js';

export async function replaceAll<D extends { _id: string }>(
  store: Store,
  spec: CollectionSpec<D>,
  docs: readonly D[],
  batch = 200,
): Promise<void> {
  const keep = new Set(docs.map((d) => d._id));
  let ops: WriteOp[] = [];
  const flush = async () => {
    if (ops.length) await store.write(ops);
    ops = [];
  };
  for (const d of docs) {
    ops.push(put(spec, d));
    if (ops.length >= batch) await flush();
  }
  const stale: string[] = [];
  for await (const d of store.collection(spec).scan()) if (!keep.has(d._id)) stale.push(d._id);
  for (const id of stale) {
    ops.push(del(spec, id));
    if (ops.length >= batch) await flush();
  }
  await flush();
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
): Promise<{ written: number; deleted: number }> {
  const prev = new Map<string, D>();
  for await (const d of store.collection(spec).scan()) prev.set(d._id, d);
  let ops: WriteOp[] = [];
  const flush = async () => {
    if (ops.length) await store.write(ops);
    ops = [];
  };
  let written = 0;
  for (const d of docs) {
    const old = prev.get(d._id);
    prev.delete(d._id);
    if (old && same(old, d)) continue;
    ops.push(put(spec, d));
    written++;
    if (ops.length >= batch) await flush();
  }
  for (const id of prev.keys()) {
    ops.push(del(spec, id));
    if (ops.length >= batch) await flush();
  }
  await flush();
  return { written, deleted: prev.size };
}
