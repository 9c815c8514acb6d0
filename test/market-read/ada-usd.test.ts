import assert from 'node:assert/strict';
import { adaUsdFromPools, currentAdaUsd } from '../../mongo/collections/ada-usd.js';
import { CHECKPOINTS, type CheckpointDoc } from '../../mongo/collections/sync-state.js';
import { openMemoryStore } from '../../mongo/adapters/embedded.js';
import { POOLS } from '../../mongo/collections/market.js';
import { put, type Store } from '../../mongo/store.js';
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

// The rate is kept per tip block, so it must be the tip block's own: a block that lands while the rate is read (the
// sync writes in another process) carries its reserves under the tip before it. When that block is then orphaned
// (a rollback of one block, back to the tip the read started at), the rate shown must be of the reserves the store
// holds again, not the orphaned block's until the next block.
describe('ADA/USD now after a block that landed while it was read is rolled back', () => {
  it('1,000 ADA against 450 USDM again after the orphan at 520 USDM: 0.45, not 0.52', async () => {
    const store = await openMemoryStore();
    await prepare(store);
    const usdm = (ada: bigint, usd: bigint) =>
      pool({ id: 7, tokenB: USDM, reserveARaw: String(ada * 1_000_000n), reserveBRaw: String(usd * 1_000_000n) });
    await store.write([...checkpointOps(), ...putAll.pools([usdm(1000n, 450n)])]);
    const tipBlock = (await store.collection(CHECKPOINTS).get('sync')) as CheckpointDoc;
    const orphan = '34'.repeat(32);
    // The orphan block: the USDM pool at 520 and the checkpoint on it, one batch of the sync.
    const orphanLands = () =>
      store.write([
        ...putAll.pools([usdm(1000n, 520n)]),
        put(CHECKPOINTS, {
          ...tipBlock,
          id: orphan,
          height: tipBlock.height + 1,
          slot: tipBlock.slot + 20,
          points: [{ slot: tipBlock.slot + 20, id: orphan, height: tipBlock.height + 1 }, ...tipBlock.points],
        }),
      ]);
    // The API process's view of the store, in which the orphan lands after the tip was read and before the pools
    // are (once).
    let landing: Promise<void> | null = null;
    const view: Store = Object.create(store, {
      collection: {
        value: (spec: Parameters<Store['collection']>[0]) => {
          const c = store.collection(spec);
          if (spec.name !== POOLS.name) return c;
          return Object.create(c, {
            find: {
              value: async (...args: Parameters<typeof c.find>) => {
                await (landing ??= orphanLands());
                return c.find(...args);
              },
            },
          });
        },
      },
    });
    // Read across the landing: the store's state then (the orphan's reserves).
    assert.equal(await currentAdaUsd(view), 0.52);
    // The rollback of the orphan: the pool and checkpoint back as the tip block left them.
    await store.write([...putAll.pools([usdm(1000n, 450n)]), put(CHECKPOINTS, tipBlock)]);
    await new Promise((r) => setImmediate(r));
    assert.equal(await currentAdaUsd(view), 0.45);
    await store.close();
  });
});

// Reference dex-nft-handles.md §6.1: prefer the fiat-backed coins (USDM, USDCx, wanUSDC/T) over synthetic and
// algorithmic ones (iUSD, DJED), and leave out pools under 50,000 ADA of TVL (25,000 ADA a side).
describe('ADA/USD now: which pools set the rate', () => {
  const IUSD = 'f66d78b4a3cb3d37afa0ec36461e51ecbde00f26c8f0a68f94b6988069555344';
  const DJED = '8db269c3ec630e06ae29f74bc39edd1f87c819f1056206e879a1cd61446a65644d6963726f555344';
  let id = 0;
  // `ada` whole ADA against `usd` whole dollars of a 6-decimal stablecoin.
  const at = (tokenB: string, ada: number, usd: number) =>
    pool({ id: ++id, tokenB, reserveARaw: String(ada * 1e6), reserveBRaw: String(usd * 1e6) });

  it('a deep USDM pool sets it although a deeper iUSD pool trades above the peg: 0.50, not 0.52', () => {
    assert.equal(adaUsdFromPools([at(USDM, 1_000_000, 500_000), at(IUSD, 3_000_000, 1_560_000)]), 0.5);
  });

  it('a USDM pool of 10,000 ADA a side is too thin while a deep DJED pool exists: 0.60', () => {
    assert.equal(adaUsdFromPools([at(USDM, 10_000, 4_000), at(DJED, 200_000, 120_000)]), 0.6);
  });

  it('with only thin pools, the fiat-backed one still comes first: 0.45', () => {
    assert.equal(adaUsdFromPools([at(USDM, 1_000, 450), at(IUSD, 2_000, 940)]), 0.45);
  });

  it('among the deep fiat-backed pools, the ADA-weighted median: 0.51 (700,000 of 1,300,000 ADA)', () => {
    const wanUsdc = '25c5de5f5b286073c593edfd77b48abc7a48e5a4f3d4cd9d428ff93555534443';
    const eightDecimals = pool({
      id: ++id,
      tokenB: wanUsdc,
      reserveARaw: String(700_000e6),
      reserveBRaw: String(357_000e8),
    });
    assert.equal(adaUsdFromPools([at(USDM, 600_000, 300_000), eightDecimals, at(IUSD, 5_000_000, 2_600_000)]), 0.51);
  });
});
