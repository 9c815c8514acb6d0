/**
 * The tip the sync records (sync health: `ops status`'s "N block(s) behind", /healthz/sync's tipHeight, the
 * cardano_sync_tip_height metric) is the one the source last reported, also while the blocks it sent since wait in
 * the Ogmios client's pipeline. r22 operator audit, on FerretDB: a sync slower than the live devnet took answers
 * received minutes earlier, each carrying the tip of its time, and said "tip: height 165 … (0 block(s) behind)"
 * while the devnet's tip was 190. The oracle is the devnet's own tip.
 */
import assert from 'node:assert/strict';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import { createSyncActivities } from '../../activities/sync/index.js';
import { startDevnet } from '../../devnet/index.js';
import { readSyncHealth } from '../../mongo/collections/sync-state.js';
import { tempStore } from './helpers.js';

const NOW = Date.UTC(2026, 10, 20, 12);

describe('the source tip the sync records', function () {
  this.timeout(120_000);

  it('is the tip of the newest answer, not of the blocks a slice took from the pipeline', async () => {
    // No live blocks: the test publishes them (step), and no forks, so each step is one block on the tip.
    const devnet = await startDevnet({
      seed: 'source-tip',
      backfillHours: 0.2,
      blockMs: 0,
      forkRate: 0,
      now: () => NOW,
    });
    const chain = await connectOgmios(devnet.url, { pipeline: 20 });
    const t = await tempStore();
    try {
      const sync = createSyncActivities({ store: t.store, chain, k: 2160, network: 'mainnet' });
      let r = await sync.syncSlice({ maxBlocks: 1_000, waitMs: 200 });
      while (!r.atTip) r = await sync.syncSlice({ maxBlocks: 1_000, waitMs: 200 });
      assert.equal(r.height, devnet.tip().height);
      const at = r.height;
      // Five blocks published: the client's requests parked at the tip are answered, and the answers wait in its
      // buffer, each with the tip of when the devnet sent it.
      for (let i = 0; i < 5; i++) devnet.step();
      assert.equal(devnet.tip().height, at + 5);
      const received = Date.now();
      while (chain.latestTip?.() === null || (chain.latestTip?.() as { height: number }).height < at + 5) {
        assert.ok(Date.now() - received < 10_000, 'the client received the five answers');
        await new Promise((res) => setTimeout(res, 20));
      }
      // A slice that takes one block: the first answer's tip was that block.
      r = await sync.syncSlice({ maxBlocks: 1, waitMs: 200 });
      assert.equal(r.height, at + 1);
      assert.equal(r.tipHeight, at + 5);
      const health = await readSyncHealth(t.store);
      assert.deepEqual(health?.tip, devnet.tip());
    } finally {
      await chain.close();
      await devnet.close();
      await t.cleanup();
    }
  });
});
