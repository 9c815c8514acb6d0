/**
 * Child process for the embedded-store tests, so a second OS process really shares the lmdb folder.
 *  write <path> <batches> <size>: writes numbered batches (outputs + one marker document per batch, over two
 *    collections), printing `committed <n>` after each; the parent kills it with SIGKILL somewhere in between.
 *  read <path> <target>: opens read-only beside a writer and prints `seen <count>` each time the number of outputs
 *    changes, until it reaches `target`.
 */
import { openEmbeddedStore } from '../../mongo/adapters/embedded.js';
import { put } from '../../mongo/store.js';
import { CHILD_BATCHES, CHILD_OUTPUTS, childOutput } from './child-data.js';

const [mode, path, a, b] = process.argv.slice(2) as [string, string, string, string];

if (mode === 'write') {
  const store = await openEmbeddedStore({ path });
  await store.ensureIndexes([CHILD_OUTPUTS, CHILD_BATCHES]);
  for (let n = 0; n < Number(a); n++) {
    const size = Number(b);
    const ops = Array.from({ length: size }, (_, i) => put(CHILD_OUTPUTS, childOutput(n, i)));
    ops.push(put(CHILD_BATCHES, { _id: `batch-${String(n).padStart(6, '0')}`, n, size }));
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
} else throw new Error(`unknown mode ${mode}`);
