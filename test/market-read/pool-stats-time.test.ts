/**
 * A pool's 24 h figures are the market recompute's, not the answer's as-of moment: with no new block (asOf fixed) the
 * next run moves the window and the figures change. Every answer showing them must say when their window ends, or a
 * reader cannot tell which 24 h they cover (r18-live: on the live service GET /pools/17 changed volume24h between
 * two answers of the same asOf, and the pools list showed reserves older than its asOf, with nothing saying so).
 */
import assert from 'node:assert/strict';
import { createRecomputeActivities } from '../../activities/recompute/index.js';
import { startTestApi } from '../api/seed.js';
import { DAY, HOUR, NOW_MS, TIP_SLOT } from './seed.js';
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

describe('pool answers say when their 24 h figures were computed', () => {
  it('GET /pools/{id}, GET /pools and the Markdown pool view name the end of the window; the figures match it', async () => {
    let now = NOW_MS;
    // The index stays at its tip block (time NOW_MS) throughout: no new block, only the recompute's clock moves.
    const api = await startTestApi(seedScenario, { now: () => NOW_MS });
    try {
      const acts = createRecomputeActivities({ store: api.store, now: () => now });
      const run = async () => {
        await acts.recomputeTokenStats();
        await acts.recomputeRankings();
        await acts.recomputeMarketOverview();
      };
      const seen: number[] = [];
      for (const at of [NOW_MS, NOW_MS + 5 * HOUR * 1000]) {
        now = at;
        await run();
        const one = (await api.get('/api/v1/pools/1?logos=url')).body as Json;
        const list = (await api.get('/api/v1/pools?pageSize=100&logos=url')).body as Json;
        const listed = (list.items as Json[]).find((p) => p.id === 1);
        assert.ok(listed, 'pool 1 is listed');
        assert.equal(one.asOf, new Date(NOW_MS).toISOString(), 'the indexed tip has not moved');
        assert.equal(one.statsUpdatedAt, new Date(at).toISOString());
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
            `\\| 24 h figures computed \\(UTC\\) \\| ${one.statsUpdatedAt.slice(0, 16).replace('T', ' ')} UTC \\|`,
          ),
        );
        seen.push(one.volume24h);
      }
      // 5 h later the trade of 20 h before the tip has left the window: the same asOf, another figure.
      assert.deepEqual(seen, [1500, 1200]);
    } finally {
      await api.close();
    }
  });
});
