/**
 * A slice whose write batch fails part-way, as on MongoDB (no multi-document transactions): the ops before the
 * failing statement are applied, the rest are not, and the activity throws. Temporal then retries the activity in
 * the same worker process. The retry must first undo the partial slice from the undo journal; otherwise it applies
 * its blocks again on a half-written store (seen on FerretDB: `nft: owner … count -1 below 0`).
 */
import assert from 'node:assert/strict';
import { createSyncActivities } from '../../activities/sync/index.js';
import { CHECKPOINTS } from '../../mongo/collections/sync-state.js';
import type { Store, WriteOp } from '../../mongo/store.js';
import { buildChain } from './build-chain.js';
import { chainDigest, syncAll } from './helpers.js';
import { memoryChain } from './memory-chain.js';

/**
 * The store, except that the `failAt`-th write batch of the sync (1-based: a write that moves the checkpoint) applies
 * only its first `fraction` of ops, in order, and then fails like a refused statement. Every other write goes through
 * unchanged: the sync health records (a slice records the source's contact as it starts, as well as at its end) are
 * not counted, so `failAt` names a slice's batch whatever the records around it.
 */
export function failingPartway(store: Store, failAt: number, fraction: number): Store & { failed: () => boolean } {
  let writes = 0;
  let failed = false;
  const wrapped = Object.create(store) as Store & { failed: () => boolean };
  wrapped.write = async (ops: readonly WriteOp[]) => {
    if (!ops.some((op) => op.coll === CHECKPOINTS.name)) return store.write(ops);
    writes++;
    if (writes !== failAt) return store.write(ops);
    const applied = Math.floor(ops.length * fraction);
    await store.write(ops.slice(0, applied));
    failed = true;
    throw new Error(`write refused after ${applied} of ${ops.length} ops (injected)`);
  };
  wrapped.failed = () => failed;
  return wrapped;
}

/**
 * Sync a forked chain into `clean` in one go, and into `broken` through a store whose `failAt`-th write fails
 * half-way; retry the failed slice with the same activities (as a Temporal retry does) and sync to the tip.
 * Both stores must end with the same chain digest.
 */
export async function partialSliceRetried(clean: Store, broken: Store, failAt: number): Promise<void> {
  const { events } = buildChain({ blocks: 40, forkEvery: 9, seed: 5 });
  await syncAll(clean, memoryChain(events), 6);
  const expected = await chainDigest(clean);

  const flaky = failingPartway(broken, failAt, 0.5);
  const acts = createSyncActivities({ store: flaky, chain: memoryChain(events), k: 2160, network: 'mainnet' });
  let failures = 0;
  for (let i = 0; i < 100; i++) {
    let r;
    try {
      r = await acts.syncSlice({ maxBlocks: 6, waitMs: 0 });
    } catch (e) {
      failures++;
      assert.match(String(e), /injected/);
      continue;
    }
    if (r.blocks === 0 && r.atTip) break;
  }
  assert.equal(failures, 1, 'exactly the injected failure, and the retry succeeds');
  assert.ok(flaky.failed());
  const got = await chainDigest(broken);
  assert.deepEqual(got.counts, expected.counts);
  assert.equal(got.digest, expected.digest);
  assert.equal(got.at, expected.at);
}
