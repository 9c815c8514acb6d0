/**
 * A pool's 24 h figures describe the indexed chain: their window ends at the indexed tip block, which every answer
 * names (asOf), and the answers showing them say so (statsUpdatedAt; r18-live: GET /pools/17 changed volume24h between
 * two answers of the same asOf, and the pools list showed reserves older than its asOf, with nothing saying so).
 * The oracle is the scenario's trade list, summed by hand over the 24 h ending at the tip.
 */
import assert from 'node:assert/strict';
import { createRecomputeActivities } from '../../activities/recompute/index.js';
import { startTestApi } from '../api/seed.js';
import { checkpointOps, DAY, HOUR, NOW_MS, TIP_SLOT } from './seed.js';
import { TRADES, seedScenario } from './scenario.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

/** The oracle: pool 1's complete trades of the scenario within the 24 h ending at `endIso`, whole ADA. */
function handWindow(endIso: string): { volume: number; txns: number } {
  const end = Date.parse(endIso);
  const inWindow = TRADES.filter(
    (t) => t.poolId === 1 && t.status === 'complete' && NOW_MS - (TIP_SLOT - t.slot) * 1000 >= end - DAY * 1000,
  );
  return {
    volume: inWindow.reduce((s, t) => s + Number(t.valueLovelace) / 1e6, 0),
    txns: inWindow.length,
  };
}

describe('pool answers: 24 h figures as of the indexed tip, and saying so', () => {
  it('GET /pools/{id}, GET /pools and the Markdown pool view: the window ends at the tip; a later clock alone changes nothing', async () => {
    let now = NOW_MS;
    const api = await startTestApi(seedScenario, { now: () => now });
    try {
      const acts = createRecomputeActivities({ store: api.store, now: () => now });
      const run = async () => {
        await acts.recomputeTokenStats();
        await acts.recomputeRankings();
        await acts.recomputeMarketOverview();
      };
      const seen: number[] = [];
      // At the tip; 5 h later with the chain 5 h on (a block without trades); 3 h later still with no new block
      // (a source outage: the figures stay those of the tip the answers name, they do not decay with the clock).
      for (const [at, tipMs] of [
        [NOW_MS, NOW_MS],
        [NOW_MS + 5 * HOUR * 1000, NOW_MS + 5 * HOUR * 1000],
        [NOW_MS + 8 * HOUR * 1000, NOW_MS + 5 * HOUR * 1000],
      ] as const) {
        now = at;
        if (tipMs > NOW_MS) await api.store.write(checkpointOps(40, (tipMs - NOW_MS) / 1000));
        await run();
        const one = (await api.get('/api/v1/pools/1?logos=url')).body as Json;
        const list = (await api.get('/api/v1/pools?pageSize=100&logos=url')).body as Json;
        const listed = (list.items as Json[]).find((p) => p.id === 1);
        assert.ok(listed, 'pool 1 is listed');
        assert.equal(one.asOf, new Date(tipMs).toISOString(), 'the indexed tip');
        assert.equal(one.statsUpdatedAt, one.asOf, 'the window ends at the tip the answer names');
        assert.equal(listed.statsUpdatedAt, one.statsUpdatedAt);
        assert.equal(list.updatedAt, new Date(at).toISOString(), 'the ranking the list shows was computed then');
        const hand = handWindow(one.statsUpdatedAt);
        assert.equal(one.volume24h, hand.volume);
        assert.equal(one.txns24h, hand.txns);
        assert.equal(listed.volume24h, hand.volume);
        const md = String((await api.get('/api/md/pool/1')).body);
        assert.match(
          md,
          new RegExp(
            `\\| 24 h figures as of \\(UTC\\) \\| ${one.statsUpdatedAt.slice(0, 16).replace('T', ' ')} UTC \\|`,
          ),
        );
        seen.push(one.volume24h);
      }
      // 5 h on, the trade of 20 h before the first tip has left the window; the clock alone moves nothing.
      assert.deepEqual(seen, [1500, 1200, 1200]);
    } finally {
      await api.close();
    }
  });
});
