/**
 * Two writable processes on one lmdb folder, as `npm start` runs them: the embedded worker (here the test's child
 * process, store-child.ts `write`) commits big batches while the API process (this one) keeps reading and writing
 * its own collection. Oracles: the batches the child reports committed and the documents this process wrote.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedStore } from '../../mongo/adapters/embedded.js';
import { defineCollection, put } from '../../mongo/store.js';
import { CHILD_BATCHES, CHILD_OUTPUTS, childOutput } from './child-data.js';

const CHILD = new URL('./store-child.ts', import.meta.url).pathname;
const API_SIDE = defineCollection<{ _id: string; n: number }>({
  name: 'api_side',
  indexes: [{ name: 'byN', fields: ['n'] }],
});

describe('embedded store (lmdb): two writing processes', function () {
  this.timeout(180_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cds-embedded-2w-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('both commit; each read sees whole batches of the other, across collections and map growth', async () => {
    const SIZE = 2000;
    const BATCHES = 12;
    // This process opens first (the API process of npm start), before the other creates its collections.
    const store = await openEmbeddedStore({ path: dir });
    try {
      await store.ensureIndexes([API_SIDE, CHILD_OUTPUTS, CHILD_BATCHES]);
      const child = spawn(process.execPath, ['--import', 'tsx', CHILD, 'write', dir, String(BATCHES), String(SIZE)], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      let running = true;
      void exited.then(() => (running = false));

      const outputs = store.collection(CHILD_OUTPUTS);
      const batches = store.collection(CHILD_BATCHES);
      const mine = store.collection(API_SIDE);
      const seen: number[] = [];
      let written = 0;
      while (running) {
        // One event turn, one read snapshot: the outputs and the batch markers the child commits together.
        const [nOutputs, nBatches] = await Promise.all([outputs.count('byBatch'), batches.count('_id')]);
        assert.equal(nOutputs, nBatches * SIZE, `a read saw part of a batch: ${nOutputs} outputs, ${nBatches} batches`);
        if (seen.at(-1) !== nBatches) seen.push(nBatches);
        await store.write([put(API_SIDE, { _id: `doc-${written}`, n: written })]);
        written++;
        await new Promise((r) => setTimeout(r, 5));
      }
      assert.equal(await exited, 0, out);
      assert.match(out, new RegExp(`committed ${BATCHES - 1}\\ndone`));
      assert.ok(seen.length >= 3, `this process saw the other's batches arrive (${seen.join(', ')})`);

      // Everything both wrote is there, read by this process after the other grew the map many times over.
      assert.equal(await batches.count('_id'), BATCHES);
      assert.equal(await outputs.count('_id'), BATCHES * SIZE);
      for (const n of [0, BATCHES - 1]) {
        assert.equal(await outputs.count('byBatch', { eq: [n] }), SIZE);
        const last = childOutput(n, SIZE - 1);
        assert.deepEqual(await outputs.get(last._id), last);
      }
      assert.ok(written > 10, `this process wrote while the other did (${written})`);
      assert.equal(await mine.count('byN'), written);
      assert.deepEqual(await mine.get(`doc-${written - 1}`), { _id: `doc-${written - 1}`, n: written - 1 });
    } finally {
      await store.close();
    }
  });

  it('a process ended by exitNow while a write waits on its thread is gone at once; the write is whole or absent', async () => {
    // process.exit() there hangs for good (scripts/exit-now.ts): the embedded worker of a SIGKILLed npm start did.
    const SIZE = 2000;
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, 'exit-mid-write', dir, String(SIZE), 'exitNow'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const ended = await new Promise<string>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve('still running after 60 s');
      }, 60_000);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        resolve(`ended by ${signal ?? `code ${code}`}`);
      });
    });
    assert.equal(ended, 'ended by SIGKILL', out);
    assert.match(out, /committed 0/);
    const store = await openEmbeddedStore({ path: dir });
    try {
      const batches = await store.collection(CHILD_BATCHES).count('_id');
      assert.ok(batches === 1 || batches === 2, `batch 0 committed, batch 1 whole or absent: ${batches} batches`);
      assert.equal(await store.collection(CHILD_OUTPUTS).count('byBatch'), batches * SIZE);
    } finally {
      await store.close();
    }
  });
});
