import assert from 'node:assert/strict';
import { createRecomputeActivities } from '../../activities/recompute/index.js';
import { resolveRanking } from '../../cardano/rankings.js';
import {
  RANKING_ENTRIES,
  RANKINGS,
  TOKEN_STATS,
  type RankingDoc,
  type TokenStatsDoc,
} from '../../mongo/collections/market-read.js';
import { put } from '../../mongo/store.js';
import { startTestApi, type TestApi } from '../api/seed.js';
import { DAY, NOW_MS, checkpointOps, meta, prepare, stats, unitOf } from './seed.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

// Units sort T1 < T2 < … < T6 (the final tie-break).
const T = Object.fromEntries([1, 2, 3, 4, 5, 6].map((i) => [`T${i}`, unitOf(`0${i}`, `TOK${i}`)])) as Record<
  'T1' | 'T2' | 'T3' | 'T4' | 'T5' | 'T6',
  string
>;
const name = Object.fromEntries(Object.entries(T).map(([k, v]) => [v, k]));
const ago = (days: number) => new Date(NOW_MS - days * DAY * 1000).toISOString();

/**
 * Six tokens built so each rule decides something: T1/T2 tie on volume (liquidity breaks it), T1/T6 tie on mcap
 * (liquidity breaks it), T5/T6 tie on txns and volume (the unit breaks it), T3 tops mcap but is under the default
 * floor, T4 has no ADA pool (liquidity, mcap, change missing), T5 has liquidity but no price.
 */
function dataSet(holders: Partial<Record<keyof typeof T, { n: number; capped?: boolean }>> = {}): TokenStatsDoc[] {
  const h = (k: keyof typeof T) => ({ holders: holders[k]?.n ?? null, holdersCapped: holders[k]?.capped ?? false });
  return [
    stats(T.T1, {
      liquidityAda: 50_000,
      mcapAda: 1e6,
      fdvAda: 2e6,
      makers24h: 5,
      firstPoolTime: ago(10),
      firstPoolExact: true,
      w24: { volume: 500, txns: 10, change: 0.1, changeUsd: 0.12 },
      w1h: { txns: 2 },
      search: `${T.T1} aaa alpha`,
      ...h('T1'),
    }),
    stats(T.T2, {
      liquidityAda: 80_000,
      mcapAda: 5e6,
      fdvAda: 5e6,
      makers24h: 4,
      firstPoolTime: ago(3),
      firstPoolExact: false,
      w24: { volume: 500, txns: 8, change: -0.2, changeUsd: -0.18 },
      w1h: { txns: 2 },
      ...h('T2'),
    }),
    stats(T.T3, {
      liquidityAda: 5_000,
      mcapAda: 9e6,
      fdvAda: 9e6,
      firstPoolTime: ago(1),
      firstPoolExact: true,
      w24: { volume: 100, txns: 2, change: 0.5, changeUsd: 0.6 },
      w1h: { txns: 5 },
      ...h('T3'),
    }),
    stats(T.T4, { w24: { volume: 0, txns: 0 }, ...h('T4') }),
    stats(T.T5, {
      liquidityAda: 20_000,
      firstPoolTime: ago(5),
      firstPoolExact: false,
      w24: { volume: 200, txns: 3, change: null, changeUsd: null },
      ...h('T5'),
    }),
    stats(T.T6, {
      liquidityAda: 30_000,
      mcapAda: 1e6,
      fdvAda: 1e6,
      firstPoolTime: ago(20),
      firstPoolExact: true,
      w24: { volume: 200, txns: 3, change: 0.2, changeUsd: 0.01 },
      ...h('T6'),
    }),
  ];
}

async function apiWith(data: TokenStatsDoc[]): Promise<TestApi> {
  return startTestApi(async (store) => {
    await prepare(store);
    await store.write([...checkpointOps(), ...data.map((s) => put(TOKEN_STATS, s)), meta(T.T1, 'AAA', 6)]);
    await createRecomputeActivities({ store, now: () => NOW_MS }).recomputeRankings();
  });
}

describe('GET /tokens: the spec’s sort semantics on a hand-built data set', () => {
  let api: TestApi;
  before(async () => {
    api = await apiWith(dataSet());
  });
  after(() => api.close());

  async function order(qs: string): Promise<{ names: string[]; body: Json }> {
    const r = await api.get(`/api/v1/tokens?logos=url&${qs}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const body = r.body as Json;
    return { names: (body.items as Json[]).map((i) => name[i.asset.unit] as string), body };
  }

  it('volume: ties fall to liquidity, then the unit; asc reverses the values but keeps ties', async () => {
    const d = await order('sort=volume');
    assert.deepEqual(d.names, ['T2', 'T1', 'T6', 'T5', 'T3', 'T4']);
    assert.equal(d.body.sort, 'volume');
    assert.equal(d.body.period, '24h');
    assert.equal(d.body.order, 'desc');
    assert.equal(d.body.quote, 'USD');
    assert.deepEqual(d.body.filters, { minLiquidity: null, minHolders: null });
    assert.equal(d.body.total, 6);
    assert.deepEqual((await order('sort=volume&order=asc')).names, ['T4', 'T3', 'T6', 'T5', 'T2', 'T1']);
    const v24 = await order('sort=volume24h&period=5m');
    assert.deepEqual(v24.names, ['T2', 'T1', 'T6', 'T5', 'T3', 'T4']);
    assert.equal(v24.body.period, '24h', 'volume24h is volume over 24 h whatever the period');
  });

  it('mcap: default floors (10,000 ADA, 100 holders; unknown holder counts kept), missing last both ways', async () => {
    const d = await order('sort=mcap');
    assert.deepEqual(d.names, ['T2', 'T1', 'T6', 'T5']);
    assert.deepEqual(d.body.filters, { minLiquidity: 10_000, minHolders: 100 });
    assert.deepEqual((await order('sort=mcap&order=asc')).names, ['T1', 'T6', 'T2', 'T5']);
    const none = await order('sort=mcap&minLiquidity=0');
    assert.deepEqual(none.names, ['T3', 'T2', 'T1', 'T6', 'T5', 'T4']);
    assert.deepEqual(none.body.filters, { minLiquidity: null, minHolders: 100 });
    const given = await order('sort=mcap&minLiquidity=40000&minHolders=5');
    assert.deepEqual(given.names, ['T2', 'T1']);
    assert.deepEqual(given.body.filters, { minLiquidity: 40_000, minHolders: 5 });
  });

  it('fdv uses the floors of mcap and ties to liquidity', async () => {
    const d = await order('sort=fdv');
    assert.deepEqual(d.names, ['T2', 'T1', 'T6', 'T5']);
    assert.deepEqual(d.body.filters, { minLiquidity: 10_000, minHolders: 100 });
  });

  it('gainers/losers/change: traded in the window, ≥ 10,000 ADA, ranked in the quote currency', async () => {
    const g = await order('sort=gainers');
    assert.deepEqual(g.names, ['T1', 'T6', 'T2', 'T5'], 'USD changes: 0.12, 0.01, -0.18, missing');
    assert.equal(g.body.order, 'desc');
    assert.deepEqual(g.body.filters, { minLiquidity: 10_000, minHolders: null });
    assert.deepEqual((await order('sort=gainers&quote=ADA')).names, ['T6', 'T1', 'T2', 'T5'], 'ADA: 0.2, 0.1, -0.2');
    const l = await order('sort=losers&order=desc');
    assert.deepEqual(l.names, ['T2', 'T6', 'T1', 'T5'], 'order is ignored by losers; missing stays last');
    assert.equal(l.body.order, 'asc');
    assert.deepEqual((await order('sort=change&order=asc&quote=ADA')).names, ['T2', 'T1', 'T6', 'T5']);
    assert.deepEqual((await order('sort=gainers&minLiquidity=0')).names, ['T3', 'T1', 'T6', 'T2', 'T5']);
    assert.deepEqual(
      (await order('sort=gainers&period=1h')).names,
      ['T1', 'T2'],
      'only tokens traded in the last hour; their 1 h change is unknown, so they are missing values',
    );
  });

  it('age: ascending by default (youngest first), missing last; new: only pools seen being created', async () => {
    const a = await order('sort=age');
    assert.deepEqual(a.names, ['T3', 'T2', 'T5', 'T1', 'T6', 'T4']);
    assert.equal(a.body.order, 'asc');
    assert.deepEqual((await order('sort=age&order=desc')).names, ['T6', 'T1', 'T5', 'T2', 'T3', 'T4']);
    const n = await order('sort=new&order=desc');
    assert.deepEqual(n.names, ['T3', 'T1', 'T6']);
    assert.equal(n.body.order, 'asc');
  });

  it('txns (ties to volume, then unit), makers, liquidity', async () => {
    assert.deepEqual((await order('sort=txns')).names, ['T1', 'T2', 'T5', 'T6', 'T3', 'T4']);
    assert.deepEqual((await order('sort=txns24h')).names, ['T1', 'T2', 'T5', 'T6', 'T3', 'T4']);
    assert.deepEqual((await order('sort=makers')).names, ['T1', 'T2', 'T5', 'T6', 'T3', 'T4']);
    assert.deepEqual((await order('sort=liquidity')).names, ['T2', 'T1', 'T6', 'T5', 'T3', 'T4']);
    assert.deepEqual((await order('sort=liquidity&order=asc')).names, ['T3', 'T5', 'T6', 'T1', 'T2', 'T4']);
  });

  it('rank (mcap × liquidity, ≥ 100 ADA) and trending (trades of the last hour) ignore order', async () => {
    const r = await order('sort=rank&order=asc');
    assert.deepEqual(r.names, ['T2', 'T1', 'T3', 'T6', 'T5']);
    assert.equal(r.body.order, 'desc');
    assert.deepEqual(r.body.filters, { minLiquidity: 100, minHolders: null });
    assert.deepEqual((await order('sort=trending&order=asc')).names, ['T3', 'T1', 'T2', 'T5', 'T6', 'T4']);
  });

  it('holders: ≥ 1,000 ADA; unknown counts are missing (ordered by volume)', async () => {
    const h = await order('sort=holders');
    assert.deepEqual(h.names, ['T1', 'T2', 'T5', 'T6', 'T3']);
    assert.deepEqual(h.body.filters, { minLiquidity: 1_000, minHolders: null });
  });

  it('q searches ticker, name and unit; pages slice the same order', async () => {
    const q = await order('q=AAA');
    assert.deepEqual(q.names, ['T1']);
    const p2 = await order('sort=volume&page=2&pageSize=4');
    assert.deepEqual(p2.names, ['T3', 'T4']);
    assert.equal(p2.body.total, 6);
    assert.equal(p2.body.page, 2);
    assert.equal(p2.body.pageSize, 4);
  });
});

describe('GET /tokens?sort=holders: exact counts before capped ones, holders floor', () => {
  let api: TestApi;
  before(async () => {
    api = await apiWith(dataSet({ T1: { n: 300 }, T2: { n: 1000, capped: true }, T6: { n: 200 } }));
  });
  after(() => api.close());
  const names = async (qs: string) =>
    ((await api.get(`/api/v1/tokens?logos=url&${qs}`)).body as Json).items.map((i: Json) => name[i.asset.unit]);

  it('orders exact, then capped, then unknown, in both directions', async () => {
    assert.deepEqual(await names('sort=holders'), ['T1', 'T6', 'T2', 'T5', 'T3']);
    assert.deepEqual(await names('sort=holders&order=asc'), ['T6', 'T1', 'T2', 'T5', 'T3']);
  });

  it('minHolders drops known counts under it and keeps unknown and capped ones', async () => {
    assert.deepEqual(await names('sort=holders&minHolders=250'), ['T1', 'T2', 'T5', 'T3']);
    assert.deepEqual(await names('sort=mcap'), ['T2', 'T1', 'T6', 'T5']);
    assert.deepEqual(await names('sort=mcap&minHolders=250'), ['T2', 'T1', 'T5']);
  });
});

describe('GET /tokens across rankings runs: each run’s list, never an earlier one', () => {
  let api: TestApi;
  const rankings = () => createRecomputeActivities({ store: api.store, now: () => NOW_MS }).recomputeRankings();
  const volumeOrder = async () => {
    const r = await api.get('/api/v1/tokens?logos=url&sort=volume&minLiquidity=0');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return ((r.body as Json).items as Json[]).map((i) => name[i.asset.unit] as string);
  };
  before(async () => {
    api = await apiWith(dataSet());
  });
  after(() => api.close());

  it('a later run’s order is served at once (the clock fixed: the runs differ only in their figures)', async () => {
    assert.deepEqual(await volumeOrder(), ['T2', 'T1', 'T6', 'T5', 'T3', 'T4']);
    // T3 now trades the most, T4 a little.
    const moved = dataSet().map((s) =>
      s._id === T.T3
        ? { ...s, volume24h: 900, windows: { ...s.windows, '24h': { ...s.windows['24h'], volume: 900 } } }
        : s._id === T.T4
          ? { ...s, volume24h: 50, windows: { ...s.windows, '24h': { ...s.windows['24h'], volume: 50 } } }
          : s,
    );
    await api.store.write(moved.map((s) => put(TOKEN_STATS, s)));
    await rankings();
    assert.deepEqual(await volumeOrder(), ['T3', 'T2', 'T1', 'T6', 'T5', 'T4']);
    await api.store.write(dataSet().map((s) => put(TOKEN_STATS, s)));
    await rankings();
    assert.deepEqual(await volumeOrder(), ['T2', 'T1', 'T6', 'T5', 'T3', 'T4']);
  });

  it('keeps the entries of the last two runs only; each list names its own', async () => {
    const lists: RankingDoc[] = [];
    for await (const d of api.store.collection(RANKINGS).scan()) if (d._id.startsWith('tokens|')) lists.push(d);
    assert.ok(lists.length >= 20, `${lists.length} token lists`);
    const kept = new Set<number>();
    for await (const d of api.store.collection(RANKING_ENTRIES).scan()) kept.add(d.snapshot);
    const current = lists[0]!.snapshot!;
    assert.deepEqual([...kept].sort(), [current - 1, current], 'this run and the one a reader may still be paging');
    for (const l of lists) {
      assert.deepEqual(l.entries, [], `${l._id}: entries kept apart`);
      const entries = await api.store.collection(RANKING_ENTRIES).get(l.entriesId!);
      assert.equal(entries?.snapshot, current, l._id);
    }
  });

  it('reads a list written before entries were kept apart (inline, no entriesId)', async () => {
    const list = (await api.store
      .collection(RANKINGS)
      .get(resolveRanking({ sort: 'volume', period: '24h', quote: 'USD' }).listId))!;
    const entries = (await api.store.collection(RANKING_ENTRIES).get(list.entriesId!))!.entries;
    const { entriesId: _e, ...inline } = list;
    await api.store.write([put(RANKINGS, { ...inline, entries: entries.toReversed() })]);
    assert.deepEqual(await volumeOrder(), ['T4', 'T3', 'T5', 'T6', 'T1', 'T2']);
  });
});
