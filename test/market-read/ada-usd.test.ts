import assert from 'node:assert/strict';
import { currentAdaUsd } from '../../mongo/collections/ada-usd.js';
import { CHECKPOINTS, type CheckpointDoc } from '../../mongo/collections/sync-state.js';
import { openMemoryStore } from '../../mongo/adapters/embedded.js';
import { put } from '../../mongo/store.js';
import { USDM, checkpointOps, pool, prepare, putAll } from './seed.js';

// ADA/USD is read once per indexed block (pool reserves change only with a block): it must follow the chain,
// including a rollback that replaces the tip block with another at the same height.
describe('ADA/USD now follows the indexed tip', () => {
  it('1,000 ADA against 450 USDM is 0.45 USD/ADA; a new tip block (same height, other hash) with other reserves reprices', async () => {
    const store = await openMemoryStore();
    await prepare(store);
    const usdm = (ada: bigint, usd: bigint) =>
      pool({ id: 7, tokenB: USDM, reserveARaw: String(ada * 1_000_000n), reserveBRaw: String(usd * 1_000_000n) });
    await store.write([...checkpointOps(), ...putAll.pools([usdm(1000n, 450n)])]);
    assert.equal(await currentAdaUsd(store), 0.45);

    // The rollback and the replacement block are one batch of the sync: reserves and checkpoint change together.
    const cp = (await store.collection(CHECKPOINTS).get('sync')) as CheckpointDoc;
    await store.write([
      ...putAll.pools([usdm(1000n, 520n)]),
      put(CHECKPOINTS, {
        ...cp,
        id: '12'.repeat(32),
        points: [{ slot: cp.slot, id: '12'.repeat(32), height: cp.height }],
      }),
    ]);
    assert.equal(await currentAdaUsd(store), 0.52);
    await store.close();
  });
});
