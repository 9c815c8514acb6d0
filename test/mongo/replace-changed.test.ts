/**
 * replaceChanged (mongo/replace-all.ts): a recomputed collection with over a million documents on mainnet
 * (stake_rewards) is rewritten per run only where a document changed.
 */
import assert from 'node:assert/strict';
import { STAKE_REWARDS, type StakeRewardDoc } from '../../mongo/collections/staking.js';
import { replaceChanged } from '../../mongo/replace-all.js';
import { put, type Store, type WriteOp } from '../../mongo/store.js';
import { tempStore } from '../sync/helpers.js';

describe('replaceChanged', () => {
  let env: Awaited<ReturnType<typeof tempStore>>;
  before(async () => {
    env = await tempStore();
  });
  after(() => env.cleanup());

  it('writes the new and changed documents, deletes the missing ones, leaves the same ones untouched', async () => {
    const doc = (id: string, rewards: string): StakeRewardDoc => ({ _id: id, rewards });
    await env.store.write([
      put(STAKE_REWARDS, doc('a', '1')),
      put(STAKE_REWARDS, doc('b', '2')),
      put(STAKE_REWARDS, doc('c', '3')),
    ]);
    const ops: WriteOp[] = [];
    const counting: Store = Object.create(env.store, {
      write: { value: (w: WriteOp[]) => (ops.push(...w), env.store.write(w)) },
    }) as Store;
    await replaceChanged(
      counting,
      STAKE_REWARDS,
      [doc('a', '1'), doc('b', '5'), doc('d', '4')],
      (x, y) => x.rewards === y.rewards,
    );
    const after: StakeRewardDoc[] = [];
    for await (const d of env.store.collection(STAKE_REWARDS).scan()) after.push(d);
    assert.deepEqual(
      after.sort((x, y) => (x._id < y._id ? -1 : 1)),
      [doc('a', '1'), doc('b', '5'), doc('d', '4')],
    );
    assert.deepEqual(ops.map((o) => ('put' in o ? `put ${o.put._id}` : `del ${o.del}`)).sort(), [
      'del c',
      'put b',
      'put d',
    ]);
  });
});
