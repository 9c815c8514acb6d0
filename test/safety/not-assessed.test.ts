/**
 * get_token for a token that trades in a DEX pool but has no safety assessment yet (the safety recompute runs every
 * 5 minutes: after a start, or for a pool created since its last run): `safety` is null, and the answer says it is
 * not assessed yet rather than leaving null to read as "no DEX pool". Oracle: the real mainnet block 12069665, in
 * which SNEK trades in the ADA/SNEK Minswap V2 pool (get_token lists it), with the market recompute run and the
 * safety one not.
 */
import assert from 'node:assert/strict';
import { createRecomputeActivities } from '../../activities/recompute/index.js';
import { createSafetyActivities } from '../../activities/safety/index.js';
import { serveTestApp } from '../api/seed.js';
import { ChainBuilder, realBlock12069665 } from '../market/chain.js';
import { SNEK } from '../market/dex-txs.js';
import { syncMarket } from '../market/sync.js';
import { callToolOnce } from '../mcp/call-once.js';

describe('get_token before the token’s safety assessment', () => {
  it('says a pooled token is not assessed yet, and drops the note once it is', async () => {
    const b = new ChainBuilder();
    realBlock12069665(b);
    const store = await syncMarket(b.clean());
    await createRecomputeActivities({ store }).recomputeTokenStats();
    const api = await serveTestApp(store);
    try {
      const token = async () => {
        const { message } = await callToolOnce(api.url, 'get_token', { unit: SNEK });
        assert.notEqual(message.result?.isError, true, JSON.stringify(message));
        return message.result.structuredContent as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      };
      const before = await token();
      assert.equal((before.pools as unknown[]).length, 1, 'SNEK trades in the block’s ADA/SNEK pool');
      assert.equal(before.safety, null);
      assert.match(before.safetyNote, /^Not assessed yet: .*every 5 minutes.*call again/);

      await createSafetyActivities({ store }).recomputeTokenSafety();
      const after = await token();
      assert.ok(after.safety, 'assessed');
      assert.equal(after.safetyNote, null);
    } finally {
      await api.close();
      await store.close();
    }
  });
});
