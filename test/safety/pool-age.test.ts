/**
 * The safety assessment's pool age on an index that starts mid-chain (SYNC_START_POINT, as a mainnet deployment
 * starts from a recent slot): a pool first seen there, not created, is older than the index, so the hours since the
 * index first saw it are only a lower bound and must not rate the token as having a new (< 24 h) pool.
 * Oracle: the real mainnet block 12069665 (test/fixtures), in which the ADA/SNEK Minswap V2 pool already exists: its
 * batch spends the pool's previous output (SNEK has traded on Minswap since 2023), so its creation is not in range.
 */
import assert from 'node:assert/strict';
import { createSafetyActivities } from '../../activities/safety/index.js';
import { safetyOf } from '../../api/read/token-safety.js';
import { POOLS, TOKENS } from '../../mongo/collections/market.js';
import { ChainBuilder, realBlock12069665 } from '../market/chain.js';
import { SNEK } from '../market/dex-txs.js';
import { all, syncMarket } from '../market/sync.js';

describe('token safety: pool age of a pool older than the indexed chain', () => {
  it('rates a pool first seen (not created) in range as a lower bound, not a pool younger than 24 h', async () => {
    const b = new ChainBuilder();
    realBlock12069665(b);
    const store = await syncMarket(b.clean());
    try {
      const snekPools = (await all(store, POOLS)).filter((p) => p.tokenA === SNEK || p.tokenB === SNEK);
      assert.ok(snekPools.length > 0 && snekPools.every((p) => !p.createdExact), 'the SNEK pool predates the block');
      assert.equal((await store.collection(TOKENS).get(SNEK))?.firstPoolExact, false);

      await createSafetyActivities({ store }).recomputeTokenSafety();
      // What get_token and list_tokens hideHighRisk read.
      const safety = (await safetyOf({ store }, [SNEK])).get(SNEK);
      const age = safety?.factors.find((f) => f.name === 'poolAge');
      // Seen in the index's only block: 0 hours since it was first seen, a bound on an age of years.
      assert.equal(age?.value, 0);
      assert.equal(age?.risk, 'unknown', JSON.stringify(age));
      assert.match(age?.detail ?? '', /lower bound/);
    } finally {
      await store.close();
    }
  });
});
