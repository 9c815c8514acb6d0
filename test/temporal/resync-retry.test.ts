/**
 * An operator's resync (`ops -- resync --from origin`) clears the store and rebuilds it from origin; on mainnet the
 * rebuild takes hours. When its run fails or is killed part-way, the operator retries it (`ops -- retry <run id>`,
 * the advice for a failed run). The retry goes on with the rebuild from its checkpoint; it must not clear the hours
 * already rebuilt. A new resync request clears again. The real sync workflow body, resync activity and ops functions
 * run on the embedded runner over an embedded store; the chain source is a fake that advances the checkpoint.
 */
import assert from 'node:assert/strict';
import type { SliceInput, SliceResult } from '../../activities/sync/index.js';
import { createResyncActivities } from '../../activities/sync/reset.js';
import { RUNS, type RunDoc } from '../../mongo/collections/runs.js';
import { CHECKPOINTS, readSyncHealth } from '../../mongo/collections/sync-state.js';
import { put, type Store } from '../../mongo/store.js';
import { embeddedRetry, embeddedSyncRun } from '../../temporal/ops.js';
import { createRunner, type Runner } from '../../temporal/runner.js';
import { SYNC_ACTIVITY } from '../../workflows/policies.js';
import { WORKFLOWS } from '../../workflows/registry.js';
import { tempStore } from '../sync/helpers.js';

const TIP = 300;

/** A source of TIP blocks, 100 per slice, each slice committing its checkpoint; `failAt` fails the slice reaching it. */
function chainSource(store: Store, failAt: { height: number | null }) {
  const slices: number[] = [];
  const syncSlice = async (_: SliceInput): Promise<SliceResult> => {
    const at = (await store.collection(CHECKPOINTS).get('sync'))?.height ?? 0;
    const height = Math.min(TIP, at + 100);
    if (height === failAt.height) {
      failAt.height = null;
      throw Object.assign(new Error('store refused a document'), { nonRetryable: true });
    }
    const point = { slot: height * 20, id: height.toString(16).padStart(64, '0'), height };
    await store.write([
      put(CHECKPOINTS, { _id: 'sync', ...point, points: [point], tip: null, updatedAt: new Date().toISOString() }),
    ]);
    slices.push(height);
    return {
      blocks: height - at,
      rollbacks: 0,
      height,
      slot: point.slot,
      tipHeight: TIP,
      tipSlot: TIP * 20,
      atTip: height === TIP,
    };
  };
  return { syncSlice, slices };
}

describe('ops retry of a resync run that failed part-way', function () {
  this.timeout(30_000);
  let store: Store;
  let cleanup: () => Promise<void>;
  let runner: Runner | null = null;
  /** Started once a case queued its run as it wants it (the runner picks queued runs up within 10 ms). */
  let startRunner: () => Runner;
  const failAt: { height: number | null } = { height: null };
  let source: ReturnType<typeof chainSource>;

  beforeEach(async () => {
    ({ store, cleanup } = await tempStore());
    source = chainSource(store, failAt);
    const workflows = {
      syncChain: {
        ...WORKFLOWS.syncChain,
        activityOptions: { ...SYNC_ACTIVITY, retry: { ...SYNC_ACTIVITY.retry, initialIntervalMs: 1 } },
      },
    };
    const activities = {
      ...createResyncActivities({ store }),
      syncSlice: source.syncSlice,
      triggerRecomputes: async () => ({ triggered: [] }),
    };
    startRunner = () => (runner = createRunner({ store, activities, workflows, pollMs: 10 }));
    // The old chain, indexed up to 250 before the operator asked for the resync.
    const old = { slot: 5_000, id: 'ee'.repeat(32), height: 250 };
    await store.write([put(CHECKPOINTS, { _id: 'sync', ...old, points: [old], tip: null, updatedAt: '' })]);
  });
  afterEach(async () => {
    await runner?.stop();
    runner = null;
    await cleanup();
  });

  async function finished(run: RunDoc): Promise<RunDoc> {
    for (;;) {
      await runner!.pollQueue();
      const doc = await store.collection(RUNS).get(run._id);
      if (doc && doc.status !== 'queued' && doc.status !== 'running') return doc;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  /** The queued run, made to stop at the tip (the service's follows the chain forever). */
  const stoppingAtTip = async (doc: RunDoc) => {
    const next = { ...doc, input: { ...(doc.input as object), stopAtTip: true } };
    await store.write([put(RUNS, next)]);
    return next;
  };
  const checkpoint = async () => (await store.collection(CHECKPOINTS).get('sync'))?.height;

  it('goes on from the rebuilt checkpoint instead of clearing the store again', async () => {
    failAt.height = 300;
    const queued = await embeddedSyncRun(store, { resync: true, sliceBlocks: 100 });
    await stoppingAtTip(queued);
    startRunner();
    const failed = await finished(queued);
    assert.equal(failed.status, 'failed');
    assert.deepEqual(source.slices, [100, 200], 'rebuilt from origin to 200, then the slice reaching 300 failed');
    const generation = (await readSyncHealth(store))?.generation;

    const retry = await finished(await embeddedRetry(store, failed._id));
    assert.equal(retry.status, 'completed');
    assert.deepEqual(source.slices, [100, 200, 300], 'the retry went on from 200, not from origin');
    assert.equal(await checkpoint(), 300);
    assert.equal((await readSyncHealth(store))?.generation, generation, 'no second resync generation');

    // A new request is a new resync: the store is cleared and rebuilt from origin. Queued with the runner stopped,
    // so it is not picked up before it is made to stop at the tip (it would follow the tip forever).
    await runner!.stop();
    const again = await embeddedSyncRun(store, { resync: true, sliceBlocks: 100 }, Date.now() + 1_000);
    await stoppingAtTip(again);
    startRunner();
    assert.equal((await finished(again)).status, 'completed');
    assert.deepEqual(source.slices, [100, 200, 300, 100, 200, 300]);
  });

  it('clears the store again when the failed run had not finished clearing it', async () => {
    const queued = await stoppingAtTip(await embeddedSyncRun(store, { resync: true, sliceBlocks: 100 }));
    // The previous attempt was killed during the clear: the request is not recorded as cleared.
    const failed = { ...queued, status: 'failed' as const, error: 'interrupted', finishedAt: new Date().toISOString() };
    await store.write([put(RUNS, failed)]);
    startRunner();
    const retry = await finished(await embeddedRetry(store, failed._id));
    assert.equal(retry.status, 'completed');
    assert.deepEqual(source.slices, [100, 200, 300], 'rebuilt from origin, not from the old chain’s 250');
  });
});
