/**
 * `GET /tokens` at mainnet scale, for working on the rankings read: BENCH_TOKENS (20,000: Cardano has tens of
 * thousands of tokens with DEX pools) synthetic token stats ranked by the real rankings recompute into a fresh lmdb
 * store, then the read function behind `GET /tokens` (default sort, first page of 50, cache off), its lists as the
 * recompute writes them (entries in documents of their own, kept decoded) against the same lists written inline in
 * the list document (the form before; the baseline), in turn. Prints ms per request of each and the ratio.
 *
 *   BENCH_TOKENS=20000 BENCH_REQUESTS=200 npm run bench:rankings
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRecomputeActivities } from '../activities/recompute/index.js';
import { listTokens } from '../api/read/tokens.js';
import { openEmbeddedStore } from '../mongo/adapters/embedded.js';
import { ALL_COLLECTIONS } from '../mongo/collections/index.js';
import {
  RANKING_ENTRIES,
  RANKINGS,
  TOKEN_STATS,
  type RankingDoc,
  type TokenStatsDoc,
  type WindowStats,
} from '../mongo/collections/market-read.js';
import { put, type Store } from '../mongo/store.js';

const TOKENS = Number(process.env.BENCH_TOKENS ?? 20_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const NOW = Date.UTC(2026, 10, 28);

const window = (i: number): WindowStats => ({
  volume: (i * 7919) % 100_000,
  txns: i % 50,
  buys: i % 30,
  sells: i % 20,
  change: ((i % 200) - 100) / 1000,
  changeUsd: ((i % 180) - 90) / 1000,
});

/** A token with every ranked figure set, spread so the lists differ (not real market data: sizes only). */
function tokenStats(i: number): TokenStatsDoc {
  const unit = `${(i * 2654435761).toString(16).padStart(56, '0').slice(-56)}${Buffer.from(`TOKEN${i}`).toString('hex')}`;
  const w = window(i);
  return {
    _id: unit,
    priceAda: 1 / (1 + (i % 1000)),
    priceUsd: 0.5 / (1 + (i % 1000)),
    liquidityAda: (i * 104729) % 2_000_000,
    liquidityUsd: ((i * 104729) % 2_000_000) / 2,
    volume24h: w.volume,
    volume7d: w.volume * 7,
    change1h: w.change,
    change24h: w.change,
    change7d: w.change,
    change1hUsd: w.changeUsd,
    change24hUsd: w.changeUsd,
    change7dUsd: w.changeUsd,
    txns24h: w.txns,
    buys24h: w.buys,
    sells24h: w.sells,
    makers24h: i % 10,
    mcapAda: (i * 15485863) % 1e9,
    mcapUsd: ((i * 15485863) % 1e9) / 2,
    fdvUsd: ((i * 15485863) % 1e9) / 2,
    holders: (i * 31) % 5000,
    totalSupply: 1e9,
    circulatingSupply: 5e8,
    pools: 1 + (i % 3),
    firstPoolTime: new Date(NOW - (i % 1000) * 86_400_000).toISOString(),
    firstPoolExact: i % 2 === 0,
    updatedAt: new Date(NOW).toISOString(),
    windows: { '5m': w, '1h': w, '6h': w, '24h': w, '7d': w },
    primaryPoolId: i,
    fdvAda: (i * 15485863) % 1e9,
    holdersCapped: false,
    search: `${unit} token${i} tkn${i}`,
  };
}

/** ms per `GET /tokens` first page, the read function alone. */
async function perRequest(store: Store): Promise<number> {
  const deps = { store, config: { SITE_URL: 'http://bench', CARDANO_NETWORK: 'mainnet' as const } };
  const input = { sort: 'volume', period: '24h', quote: 'USD', page: 1, pageSize: 50, logos: 'url' } as const;
  await listTokens(deps as never, input as never);
  const t = process.hrtime.bigint();
  for (let i = 0; i < REQUESTS; i++) await listTokens(deps as never, input as never);
  return Number(process.hrtime.bigint() - t) / 1e6 / REQUESTS;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'cds-bench-rankings-'));
  try {
    const store = await openEmbeddedStore({ path: dir });
    await store.ensureIndexes(ALL_COLLECTIONS);
    for (let i = 0; i < TOKENS; i += 1000)
      await store.write(
        Array.from({ length: Math.min(1000, TOKENS - i) }, (_, j) => put(TOKEN_STATS, tokenStats(i + j))),
      );
    await createRecomputeActivities({ store, now: () => NOW }).recomputeRankings();
    const lists: RankingDoc[] = [];
    for await (const d of store.collection(RANKINGS).scan()) if (d.entriesId) lists.push(d);
    const inline = await Promise.all(
      lists.map(async ({ entriesId, ...l }) => ({
        ...l,
        entries: (await store.collection(RANKING_ENTRIES).get(entriesId!))!.entries,
      })),
    );
    const apart = async () => store.write(lists.map((l) => put(RANKINGS, l)));
    const together = async () => store.write(inline.map((l) => put(RANKINGS, l)));
    const runs: { apart: number[]; inline: number[] } = { apart: [], inline: [] };
    for (let r = 0; r < 3; r++) {
      await together();
      runs.inline.push(await perRequest(store));
      await apart();
      runs.apart.push(await perRequest(store));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const [a, b] = [median(runs.apart), median(runs.inline)];
    process.stdout.write(
      `GET /tokens (sort=volume, first page of 50, read function, cache off) over ${TOKENS} ranked tokens, ` +
        `median of 3 runs of ${REQUESTS} requests:\n` +
        `  lists inline (the form before; baseline): ${b.toFixed(2)} ms per request\n` +
        `  entries apart, kept decoded:              ${a.toFixed(2)} ms per request (${(b / a).toFixed(1)} × faster)\n`,
    );
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
