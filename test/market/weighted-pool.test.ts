/**
 * A Splash weighted (20/80) pool, from a real mainnet pool output (iris golden fixture "Can index weighted pools
 * v1": ADA/SPLASH, weights 1 and 4). Its spot price is (reserveA / 1) / (reserveB / 4) and ADA is a fifth of its
 * value, so its price is four times the reserve ratio and its TVL five times its ADA reserve (reference
 * dex-nft-handles.md §2.7). Every figure below is computed by hand from the fixture's reserves.
 */
import assert from 'node:assert/strict';
import { createRecomputeActivities } from '../../activities/recompute/index.js';
import type { Transaction } from '../../cardano/chain/types.js';
import { TOKEN_STATS, type TokenStatsDoc } from '../../mongo/collections/market-read.js';
import { POOLS } from '../../mongo/collections/market.js';
import type { Store } from '../../mongo/store.js';
import { irisItems, irisOutput } from '../dex/fixtures.js';
import { prepare } from '../market-read/seed.js';
import { TEST_TIME } from '../sync/memory-chain.js';
import { ChainBuilder } from './chain.js';
import { all, syncMarket } from './sync.js';

// The fixture's pool: 86,611.481423 ADA against 2,782,768.941736 SPLASH (after treasuries), weights 1 (ADA) : 4.
const RESERVE_ADA = 86_611_481_423n;
const RESERVE_SPLASH = 2_782_768_941_736n;

function weightedPoolOutput() {
  const items = irisItems('splash.test.json');
  const exp = items.find((i) => i.kind === 'expected' && i.test === 'Can index weighted pools v1');
  const e = exp!.value as unknown as { outputId: { transactionIndex: number } };
  const tx = items.find((t) => t.kind === 'transaction' && t.test === exp!.test);
  return irisOutput(tx!.value.outputs.find((x) => x.index === e.outputId.transactionIndex)!);
}

describe('a Splash weighted (20/80) pool from a real mainnet output', () => {
  let store: Store;
  let nowMs = 0;
  before(async () => {
    const b = new ChainBuilder();
    const tx: Transaction = {
      id: b.txId(),
      spends: 'inputs',
      inputs: [b.outsideInput()],
      outputs: [weightedPoolOutput()],
    };
    const block = b.block([tx]);
    store = await syncMarket(b.clean());
    await prepare(store);
    nowMs = TEST_TIME.startTimeMs + ((block.slot ?? 0) - TEST_TIME.startSlot) * 1000 + 60_000;
    await createRecomputeActivities({ store, now: () => nowMs }).recomputeTokenStats();
  });
  after(() => store.close());

  it('stores its weights, a spot price of 4 × the reserve ratio and a TVL of 5 × its ADA reserve', async () => {
    const [pool] = await all(store, POOLS);
    assert.ok(pool);
    assert.equal(pool.dex, 'splash');
    assert.deepEqual([pool.reserveARaw, pool.reserveBRaw], [String(RESERVE_ADA), String(RESERVE_SPLASH)]);
    assert.deepEqual([pool.weightA, pool.weightB], [1, 4]);
    // 0.12449… lovelace per SPLASH base unit; the reserve ratio alone would say 0.03112….
    assert.equal(pool.priceRaw, Number(RESERVE_ADA * 4n) / Number(RESERVE_SPLASH));
    assert.equal(pool.tvlLovelace, String(RESERVE_ADA * 5n));
  });

  it('prices the token at the pool’s spot price and counts the pool’s whole value as its liquidity', async () => {
    const [pool] = await all(store, POOLS);
    const stats = (await store.collection(TOKEN_STATS).get(pool!.tokenB)) as TokenStatsDoc;
    assert.ok(stats, 'the recompute wrote the token’s stats');
    // The token has no metadata here (0 decimals): ADA per base unit = lovelace per base unit / 10^6.
    assert.ok(Math.abs(stats.priceAda! - Number(RESERVE_ADA * 4n) / Number(RESERVE_SPLASH) / 1e6) < 1e-15);
    assert.equal(stats.liquidityAda, 433_057.407115);
  });
});
