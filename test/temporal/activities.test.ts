/**
 * The real sync activity as a Temporal worker runs it (inside an activity context, via MockActivityEnvironment),
 * over an in-memory Ogmios-like event stream and an embedded store: slices advance to the tip and report it, and a
 * slice that fails half way is retried as a fresh attempt that resumes from the stored checkpoint.
 */
import assert from 'node:assert/strict';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import type { ChainSource } from '../../activities/chain/source.js';
import type { Block, ChainEvent } from '../../cardano/chain/types.js';
import { createSyncActivities, type SliceInput, type SliceResult } from '../../activities/sync/index.js';
import { BLOCKS, CHECKPOINTS } from '../../mongo/collections/index.js';
import { buildChain } from '../sync/build-chain.js';
import { chainDigest, syncAll, tempStore } from '../sync/helpers.js';
import { memoryChain } from '../sync/memory-chain.js';

/**
 * The stream as a node that already holds the whole chain serves it: every event carries the final tip (the
 * stream of build-chain.ts reports each block as the tip, like a chain growing while it is followed).
 */
function syncedNode(events: readonly ChainEvent[], tip: Block): ChainSource {
  const t = { slot: tip.slot ?? 0, id: tip.id, height: tip.height };
  return memoryChain(events.map((e) => ({ ...e, tip: t })));
}

/** Wraps a source so that its `n`-th nextEvents call fails like a dropped Ogmios connection. */
function failingOnce(chain: ChainSource, n: number): ChainSource {
  let calls = 0;
  return {
    ...chain,
    async nextEvents(max, waitMs) {
      if (++calls === n) throw new Error('WebSocket closed (1006) while waiting for nextBlock');
      return chain.nextEvents(max, waitMs);
    },
  };
}

/** The expected failure of the retry test would be logged as a warning by the SDK. */
const QUIET = { logger: new DefaultLogger('ERROR') };

type SyncSlice = (input: SliceInput) => Promise<SliceResult>;
/** One activity execution in a mock activity context (R does not infer from a method reference). */
const runSlice = (env: MockActivityEnvironment, fn: SyncSlice, input: SliceInput) =>
  env.run<[SliceInput], SliceResult, SyncSlice>(fn, input);

describe('sync activities under MockActivityEnvironment', function () {
  it('slices advance to the tip, report progress against it, and stop there', async function () {
    const { events, canonical } = buildChain({ blocks: 45, forkEvery: 9 });
    const tip = canonical[canonical.length - 1]!;
    const t = await tempStore();
    try {
      const acts = createSyncActivities({
        store: t.store,
        chain: syncedNode(events, tip),
        k: 2160,
        network: 'mainnet',
      });
      const env = new MockActivityEnvironment({}, QUIET);
      const results: SliceResult[] = [];
      for (let i = 0; i < 20; i++) {
        const r = await runSlice(env, acts.syncSlice, { maxBlocks: 10, waitMs: 0 });
        results.push(r);
        if (r.atTip) break;
      }
      const first = results[0]!;
      assert.ok(first.blocks > 0 && first.blocks <= 10, 'a slice applies at most maxBlocks blocks');
      assert.ok(first.height <= 10);
      assert.equal(first.tipHeight, tip.height);
      assert.equal(first.atTip, false);
      assert.ok(results.length >= 5, 'the chain takes several slices');
      const last = results[results.length - 1]!;
      assert.equal(last.atTip, true);
      assert.equal(last.height, tip.height);
      assert.equal(last.tipHeight, tip.height);
      assert.equal(last.slot, tip.slot);
      assert.ok(results.reduce((n, r) => n + r.rollbacks, 0) > 0, 'the forks of the stream are reported as rollbacks');
      const cp = await t.store.collection(CHECKPOINTS).get('sync');
      assert.equal(cp?.id, tip.id);
      assert.equal(await t.store.collection(BLOCKS).count('byHeight'), canonical.length);

      // At the tip, a further slice applies nothing and says so (the workflow then waits or stops).
      const idle = await runSlice(env, acts.syncSlice, { maxBlocks: 10, waitMs: 0 });
      assert.deepEqual([idle.blocks, idle.atTip, idle.height], [0, true, tip.height]);
    } finally {
      await t.cleanup();
    }
  });

  it('a slice that fails mid-way is retried as attempt 2 and the result equals an uninterrupted sync', async function () {
    const { events, canonical } = buildChain({ blocks: 30, forkEvery: 8, seed: 3 });
    const tip = canonical[canonical.length - 1]!;
    const clean = await tempStore();
    const retried = await tempStore();
    try {
      await syncAll(clean.store, memoryChain(events), 30);
      const acts = createSyncActivities({
        store: retried.store,
        chain: failingOnce(syncedNode(events, tip), 2),
        k: 2160,
        network: 'mainnet',
      });
      const input = { maxBlocks: 30, waitMs: 0 };
      await assert.rejects(
        runSlice(new MockActivityEnvironment({ attempt: 1 }, QUIET), acts.syncSlice, input),
        /WebSocket closed/,
      );
      let r = await runSlice(new MockActivityEnvironment({ attempt: 2 }, QUIET), acts.syncSlice, input);
      for (let i = 0; i < 10 && !r.atTip; i++)
        r = await runSlice(new MockActivityEnvironment({}, QUIET), acts.syncSlice, input);
      assert.equal(r.height, tip.height);
      assert.deepEqual(await chainDigest(retried.store), await chainDigest(clean.store));
    } finally {
      await clean.cleanup();
      await retried.cleanup();
    }
  });
});
