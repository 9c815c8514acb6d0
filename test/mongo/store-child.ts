/**
 * Child process for the embedded-store tests, so a second OS process really shares the lmdb folder.
 *  write <path> <batches> <size>: writes numbered batches (outputs + one marker document per batch, over two
 *    collections), printing `committed <n>` after each; the parent kills it with SIGKILL somewhere in between.
 *  write-known <path> <batches> <size>: the same, each op naming the document's stored version (`prev`, read first),
 *    as the sync writes.
 *  read <path> <target>: opens read-only beside a writer and prints `seen <count>` each time the number of outputs
 *    changes, until it reaches `target`.
 *  clear-killed <path>: clears the outputs and the batches (in that order) and is killed with SIGKILL by the clear of
 *    the batches, after the outputs' (a process killed part-way through `ops resync`'s clear).
 *  clear-put <path> <json>: clears the batches, then writes the document given (a resync's clear and its first write,
 *    while another process keeps reading).
 *  exit-mid-write <path> <size> <how>: commits batch 0, then ends (`exitNow`, or `process.exit`) while batch 1's write
 *    waits for this thread to run its transaction callback (the embedded worker told its parent is gone).
 */
import { openEmbeddedStore } from '../../mongo/adapters/embedded.js';
import { exitNow } from '../../scripts/exit-now.js';
import { put, type WriteOp } from '../../mongo/store.js';
import { CHILD_BATCHES, CHILD_OUTPUTS, childOutput, type ChildBatchDoc } from './child-data.js';

const [mode, path, a, b] = process.argv.slice(2) as [string, string, string, string];

if (mode === 'write' || mode === 'write-known') {
  const store = await openEmbeddedStore({ path });
  await store.ensureIndexes([CHILD_OUTPUTS, CHILD_BATCHES]);
  for (let n = 0; n < Number(a); n++) {
    const size = Number(b);
    const ops: WriteOp[] = Array.from({ length: size }, (_, i) => put(CHILD_OUTPUTS, childOutput(n, i)));
    ops.push(put(CHILD_BATCHES, { _id: `batch-${String(n).padStart(6, '0')}`, n, size }));
    if (mode === 'write-known') {
      const outputs = await store
        .collection(CHILD_OUTPUTS)
        .getMany(ops.slice(0, size).map((o) => o.coll && (o as { put: { _id: string } }).put._id));
      const batch = await store.collection(CHILD_BATCHES).get(`batch-${String(n).padStart(6, '0')}`);
      ops.forEach((o, i) => ((o as { prev?: unknown }).prev = i < size ? outputs[i] : batch));
    }
    await store.write(ops);
    process.stdout.write(`committed ${n}\n`);
  }
  await store.close();
  process.stdout.write('done\n');
} else if (mode === 'read') {
  const store = await openEmbeddedStore({ path, readOnly: true });
  const outputs = store.collection(CHILD_OUTPUTS);
  process.stdout.write('ready\n');
  let last = -1;
  for (;;) {
    const count = await outputs.count('byBatch');
    if (count !== last) process.stdout.write(`seen ${count}\n`);
    last = count;
    if (count >= Number(a)) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  await store.close();
} else if (mode === 'clear-killed') {
  const store = await openEmbeddedStore({ path });
  await store.ensureIndexes([CHILD_OUTPUTS, CHILD_BATCHES]);
  // The clear of the batches' documents is where the process dies (the adapter's sub-database handles, by name).
  type Handles = { docs: { clearSync(): void } };
  const inner = store as unknown as { dbs(name: string): Handles | undefined };
  const dbs = inner.dbs.bind(inner);
  inner.dbs = (name) => {
    const h = dbs(name);
    if (name !== CHILD_BATCHES.name || !h) return h;
    const docs = new Proxy(h.docs, {
      get: (t, p) => (p === 'clearSync' ? () => process.kill(process.pid, 'SIGKILL') : (Reflect.get(t, p) as unknown)),
    });
    return { ...h, docs };
  };
  await store.clear([CHILD_OUTPUTS.name, CHILD_BATCHES.name]);
  process.stdout.write('survived\n');
} else if (mode === 'clear-put') {
  const store = await openEmbeddedStore({ path });
  await store.ensureIndexes([CHILD_BATCHES]);
  await store.clear([CHILD_BATCHES.name]);
  await store.write([put(CHILD_BATCHES, JSON.parse(a) as ChildBatchDoc)]);
  await store.close();
  process.stdout.write('done\n');
} else if (mode === 'exit-mid-write') {
  const store = await openEmbeddedStore({ path });
  await store.ensureIndexes([CHILD_OUTPUTS, CHILD_BATCHES]);
  const batch = (n: number): WriteOp[] => [
    ...Array.from({ length: Number(a) }, (_, i) => put(CHILD_OUTPUTS, childOutput(n, i))),
    put(CHILD_BATCHES, { _id: `batch-${String(n).padStart(6, '0')}`, n, size: Number(a) }),
  ];
  await store.write(batch(0));
  process.stdout.write('committed 0\n');
  void store.write(batch(1));
  // lmdb's writer thread starts batch 1 and waits for this thread to run its callback; this thread is busy, then ends.
  setImmediate(() => {
    const until = Date.now() + 300;
    while (Date.now() < until);
    if (b === 'exitNow') exitNow();
    else process.exit(1);
  });
} else throw new Error(`unknown mode ${mode}`);
