/**
 * Child process of the disk-full test: writes batches into the embedded store at argv[2] until one fails (the parent
 * runs it under a file size limit, as a full disk), then reads and writes again. Prints one JSON line of what it saw;
 * a process ended by an unhandled rejection prints none.
 */
import { openEmbeddedStore } from '../../mongo/adapters/embedded.js';
import { defineCollection, type WriteOp } from '../../mongo/store.js';

const THINGS = defineCollection<{ _id: string; n: number; v: string }>({
  name: 'things',
  indexes: [{ name: 'byN', fields: ['n'] }],
});
const store = await openEmbeddedStore({ path: process.argv[2] as string });
await store.ensureIndexes([THINGS]);
const batch = (i: number, prev?: null): WriteOp[] =>
  Array.from({ length: 200 }, (_, j) => ({
    coll: THINGS.name,
    put: { _id: `t${i}-${j}`, n: i * 1000 + j, v: 'x'.repeat(1000) },
    ...(prev === null ? { prev } : {}),
  }));
let written = 0;
let error = '';
// Both write paths: batches whose writer names the stored version (the writer thread) and batches without it.
for (let i = 0; i < 1000 && !error; i++)
  await store.write(batch(i, i % 2 ? null : undefined)).then(
    () => written++,
    (e: unknown) => (error = String(e)),
  );
// Time for the failed commit's other promises to be rejected (unhandled, they end the process).
await new Promise((r) => setTimeout(r, 200));
const stored = await store.collection(THINGS).count('byN');
const things = store.collection(THINGS);
const last = await things.get(`t${written - 1}-199`);
await store.close();
process.stdout.write(`${JSON.stringify({ written, error, stored, lastStored: last !== null })}\n`);
