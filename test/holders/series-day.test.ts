/**
 * The daily holders series is the count at each UTC day's end. The holders sync extension writes a token's count as
 * its block's day's point whenever a block changes it, so catch-ups, recompute timing and rollbacks cannot leave a
 * mid-day count in a past day (r22 rollback audit: two stores synced over the same chain answered 63 and 67 for one
 * day, the count the hourly snapshot happened to find). The oracle is the holders recomputed from the UTxO set of
 * a store synced to the last block of each day. The `holders-series` job only seeds stores synced before the
 * extension wrote points.
 */
import assert from 'node:assert/strict';
import { createHoldersExtension } from '../../activities/holders/extension.js';
import { createHoldersActivities } from '../../activities/holders/series.js';
import type { ChainEvent } from '../../cardano/chain/types.js';
import { HOLDER_COUNTS } from '../../mongo/collections/holders.js';
import { put, type WriteOp } from '../../mongo/store.js';
import { startTestApi, type TestApi } from '../api/seed.js';
import { HOUR, NOW_MS, TIP_SLOT, checkpointOps } from '../market-read/seed.js';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import { startDevnet } from '../../devnet/index.js';
import { canonicalBlocks } from '../governance/chain-expected.js';
import { tempStore } from '../sync/helpers.js';
import { memoryChain } from '../sync/memory-chain.js';
import { recomputedHolders, syncWith } from './sync-holders.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const UNIT = 'ee'.repeat(28) + Buffer.from('HELD').toString('hex');
const DAY_MS = 86_400_000;
/** UTC midnight (unix seconds) of the day holding `ms`: the oracle of each point's `time`. */
const utcDay = (ms: number) =>
  Date.UTC(new Date(ms).getUTCFullYear(), new Date(ms).getUTCMonth(), new Date(ms).getUTCDate()) / 1000;

const counted = (count: number, slot: number): WriteOp =>
  put(HOLDER_COUNTS, { _id: UNIT, unit: UNIT, count, supplyRaw: '1000', slot });

/** Holders per unit recomputed from a store's UTxO set and address summaries (not from the extension's counts). */
async function countsOf(store: Parameters<typeof recomputedHolders>[0]): Promise<Map<string, number>> {
  const m = new Map<string, number>();
  for (const [id] of await recomputedHolders(store)) {
    const unit = id.split('|')[0]!;
    m.set(unit, (m.get(unit) ?? 0) + 1);
  }
  return m;
}

describe("holders series: the count at each day's end", function () {
  this.timeout(120_000);

  it("a devnet chain with forks across midnight: each day's point is the count after its last block", async () => {
    // Eight hours of devnet history ending at 04:00 UTC: it crosses one midnight.
    const NOW = Date.UTC(2026, 10, 20, 4);
    const devnet = await startDevnet({
      seed: 'holders-days',
      backfillHours: 8,
      blockMs: 3_600_000,
      forkRate: 0.1,
      now: () => NOW,
    });
    const chain = await connectOgmios(devnet.url);
    let api: TestApi | null = null;
    try {
      assert.ok(
        devnet.events().some((e) => e.kind === 'backward'),
        'the devnet rolled back',
      );
      const canonical = canonicalBlocks(devnet);
      const midnight = utcDay(NOW) * 1000;
      const timeOf = (slot: number) => devnet.systemStartMs + slot * 1000;
      // Oracle of the first day: a store synced over that day's canonical blocks alone, its holders recomputed.
      const firstDay: ChainEvent[] = canonical
        .filter((b) => timeOf(b.slot ?? 0) < midnight)
        .map((block) => ({ direction: 'forward', block, tip: 'origin' }) as ChainEvent);
      assert.ok(firstDay.length > 100 && firstDay.length < canonical.length - 100, 'blocks on both days');
      const dayOne = await tempStore();
      let expectedFirst: Map<string, number>;
      try {
        await syncWith(dayOne.store, memoryChain(firstDay), [createHoldersExtension()], 500);
        expectedFirst = await countsOf(dayOne.store);
      } finally {
        await dayOne.cleanup();
      }
      // The service, synced through the forks; its clock three days past the tip.
      api = await startTestApi((store) => syncWith(store, chain, [createHoldersExtension()], 97), {
        now: () => NOW + 3 * DAY_MS,
      });
      const expectedLast = await countsOf(api.store);
      const [d0, d1] = [utcDay(NOW) - 86_400, utcDay(NOW)];
      let changed = 0;
      for (const [unit, last] of expectedLast) {
        const r = await api.get(`/api/v1/tokens/${unit}/series/holders?days=5`);
        assert.equal(r.status, 200, unit);
        const points = (r.body as Json).points as Json[];
        // Up to the tip's day only: the index knows no later day than its tip's.
        const first = expectedFirst.get(unit);
        const expected = [...(first !== undefined ? [{ time: d0, value: first }] : []), { time: d1, value: last }];
        // A token held during the first day by nobody at its end has a point of 0 that day.
        assert.deepEqual(
          points.filter((p) => first !== undefined || p.time !== d0 || p.value !== 0),
          expected,
          unit,
        );
        if (first !== undefined && first !== last) changed++;
      }
      assert.ok(changed >= 3, `counts that changed overnight (${changed})`);
    } finally {
      await api?.close();
      await chain.close();
      await devnet.close();
    }
  });

  it("the job seeds a store synced before the extension wrote points: the tip day's count, then nothing", async () => {
    // The seed's tip block is at NOW_MS (12:00 UTC); the clock reads 01:00 UTC the next day: the index is 13 h behind.
    const wall = utcDay(NOW_MS) * 1000 + DAY_MS + HOUR * 1000;
    const api = await startTestApi(async (store) => store.write([...checkpointOps(0), counted(7, TIP_SLOT)]), {
      now: () => wall,
    });
    try {
      const series = createHoldersActivities({ store: api.store, now: () => wall });
      const points = async () =>
        ((await api.get(`/api/v1/tokens/${UNIT}/series/holders?days=2`)).body as Json).points as Json[];
      assert.deepEqual(await series.snapshotHolderSeries(), { tokens: 1, day: utcDay(NOW_MS) });
      assert.deepEqual(await points(), [{ time: utcDay(NOW_MS), value: 7 }], 'the count of the tip day, on that day');
      // The token has its point: the sync writes the next ones (a block changing the count), not the job.
      assert.deepEqual(await series.snapshotHolderSeries(), { tokens: 0, day: utcDay(NOW_MS) });
    } finally {
      await api.close();
    }
  });
});
