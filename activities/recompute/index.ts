/**
 * Market recompute activities, run every minute by the schedules of temporal/schedules.ts:
 * - recomputeTokenStats — reads pools, tokens, token_meta, trades, candles, checkpoints, blocks, holder_counts; writes
 *   token_stats, pool_stats.
 * - recomputeRankings — reads token_stats, pools, pool_stats; writes rankings, ranking_entries and the snapshots.
 * - recomputeMarketOverview — reads pools, pool_stats, token_stats; writes market_overview.
 * Each rewrites its documents wholesale and removes the ones whose token or pool no longer exists (after a
 * rollback), so a run is idempotent and a failed run is simply repeated.
 */
import { randomUUID } from 'node:crypto';
import {
  MARKET_OVERVIEW,
  POOL_STATS,
  RANKED_POOLS,
  RANKED_TOKEN_STATS,
  RANKING_ENTRIES,
  RANKINGS,
  STATS_WINDOWS,
  poolRankingId,
  snapshotDocId,
  TOKEN_STATS,
  WINDOW_SECONDS,
  type PoolStatsDoc,
  type StatsWindow,
  type TokenStatsDoc,
} from '../../mongo/collections/market-read.js';
import { HOLDER_COUNTS, HOLDERS } from '../../mongo/collections/holders.js';
import { TOKEN_SAFETY } from '../../mongo/collections/search.js';
import { circulatingRaw, LOCKED_HOLDERS_SCANNED } from '../../cardano/supply.js';
import { scaleInteger } from '../../cardano/units.js';
import { POOLS, TOKENS, TOKEN_META, type PoolDoc } from '../../mongo/collections/market.js';
import { replaceAll } from '../../mongo/replace-all.js';
import { del, put, type CollectionSpec, type Store, type WriteOp } from '../../mongo/store.js';
import { LOVELACE, tokenMetadata } from '../../cardano/token-metadata.js';
import { adaUsdAtSlot, adaUsdFromPools } from '../../mongo/collections/ada-usd.js';
import { asOfMs, storeClock } from '../../mongo/collections/clock.js';
import { buildOverview } from './overview.js';
import { buildPoolRankings, buildTokenRankings } from '../../cardano/rankings.js';
import {
  computePoolStats,
  computeTokenStats,
  loadTokenInputs,
  lovelaceNumber,
  type MarketContext,
} from './token-stats.js';
import { isAdaPool, pairTvlLovelace, primaryAdaPool, shownTvlLovelace } from '../../cardano/market.js';
import { typicalOrderFee } from '../../cardano/dex/order-fee.js';

export interface RecomputeDeps {
  store: Store;
  /** Clock (unix ms); tests pin it. */
  now?: () => number;
}

async function allDocs<D extends { _id: string }>(store: Store, spec: CollectionSpec<D>): Promise<D[]> {
  const out: D[] = [];
  for await (const d of store.collection(spec).scan()) out.push(d);
  return out;
}

/** Writes in batches of 200 operations (each batch atomic in the embedded store). */
async function writeAll(store: Store, ops: readonly WriteOp[]): Promise<void> {
  for (let i = 0; i < ops.length; i += 200) await store.write(ops.slice(i, i + 200));
}

/** Clock, ADA/USD now and at each window start: what every token's stats share. */
export async function marketContext(store: Store, nowMs: number, pools: readonly PoolDoc[]): Promise<MarketContext> {
  const { clock, tipMs } = await storeClock(store);
  const windowEndMs = asOfMs(tipMs, nowMs);
  // At the window starts the token prices' changes are measured from (token-stats.ts loadTokenInputs).
  const at = await Promise.all(
    STATS_WINDOWS.map((w) => adaUsdAtSlot(store, pools, clock.msToSlot(windowEndMs - WINDOW_SECONDS[w] * 1000))),
  );
  const adaUsdAt = Object.fromEntries(STATS_WINDOWS.map((w, i) => [w, at[i] ?? null])) as Record<
    StatsWindow,
    number | null
  >;
  return { windowEndMs, clock, adaUsd: adaUsdFromPools(pools), adaUsdAt };
}

/** Every token that trades in a pool, with its pools. */
export function tokensOfPools(pools: readonly PoolDoc[]): Map<string, PoolDoc[]> {
  const byUnit = new Map<string, PoolDoc[]>();
  for (const p of pools)
    for (const u of [p.tokenA, p.tokenB]) if (u !== LOVELACE) byUnit.set(u, [...(byUnit.get(u) ?? []), p]);
  return byUnit;
}

export async function computeAllTokenStats(store: Store, nowMs: number) {
  const pools = await allDocs(store, POOLS);
  const ctx = await marketContext(store, nowMs, pools);
  const byUnit = tokensOfPools(pools);
  const units = [...byUnit.keys()].sort();
  const [tokens, metas] = await Promise.all([
    store.collection(TOKENS).getMany(units),
    store.collection(TOKEN_META).getMany(units),
  ]);
  // Each token's ADA price source, as its stats read it: a token/token pool's TVL is valued through these.
  const priceSources = new Map<string, PoolDoc | null>();
  for (const [i, unit] of units.entries()) {
    const token = tokens[i];
    priceSources.set(unit, token ? primaryAdaPool(token, byUnit.get(unit) ?? []) : null);
  }
  const poolStats: PoolStatsDoc[] = [];
  const feesByDex = new Map<string, bigint[]>();
  for (const p of pools) {
    const { stats: s, orderFees } = await computePoolStats(store, p.id, ctx);
    const pairTvl = isAdaPool(p) ? null : pairTvlLovelace(p, (u) => priceSources.get(u) ?? null);
    poolStats.push({ ...s, tvlLovelace: pairTvl === null ? null : String(pairTvl) });
    let dexFees = feesByDex.get(p.dex);
    if (!dexFees) feesByDex.set(p.dex, (dexFees = []));
    dexFees.push(...orderFees);
  }
  // A batcher fee is the DEX's setting, not the pool's: each pool carries its DEX's typical fee, so a pool with no
  // order in the window (the quote may still route through it) has one too.
  const dexFee = new Map([...feesByDex].map(([dex, fees]) => [dex, typicalOrderFee(fees)]));
  for (const [i, p] of pools.entries()) {
    const fee = dexFee.get(p.dex) ?? null;
    poolStats[i] = { ...(poolStats[i] as PoolStatsDoc), batcherFeeLovelace: fee === null ? null : String(fee) };
  }
  const stats: TokenStatsDoc[] = [];
  for (const [i, unit] of units.entries()) {
    const token = tokens[i];
    // The sync writes a token document with its first pool; a pool seen before its token is skipped this round.
    if (!token) continue;
    const meta = tokenMetadata(unit, metas[i] ?? null, token);
    const input = await loadTokenInputs(store, meta, token, byUnit.get(unit) ?? [], ctx);
    stats.push(computeTokenStats(input, ctx));
  }
  // Holder counts are kept exact by the holders sync extension (holder_counts). A traded token without one has its
  // outputs (its pools' at least) before the indexed range: its count is unknown, left null.
  const counts = await store.collection(HOLDER_COUNTS).getMany(stats.map((s) => s._id));
  const decimals = new Map(stats.map((s) => [s._id, 0]));
  for (const [i, unit] of units.entries())
    if (decimals.has(unit)) decimals.set(unit, tokenMetadata(unit, metas[i] ?? null, tokens[i] ?? null).decimals);
  for (const [i, s] of stats.entries()) {
    const count = counts[i];
    // Circulating supply from chain data (cardano/supply.ts): the quantity in unspent outputs minus what the
    // largest holders keep locked in non-DEX scripts; the market cap uses it where known.
    let circulatingSupply: number | null = null;
    if (count) {
      const largest = await store
        .collection(HOLDERS)
        .find('byQuantity', { eq: [s._id], reverse: true, limit: LOCKED_HOLDERS_SCANNED });
      circulatingSupply = scaleInteger(circulatingRaw(BigInt(count.supplyRaw), largest), decimals.get(s._id) ?? 0);
    }
    const mcapAda = s.priceAda !== null && circulatingSupply !== null ? s.priceAda * circulatingSupply : s.mcapAda;
    stats[i] = {
      ...s,
      holders: count?.count ?? null,
      holdersCapped: false,
      circulatingSupply,
      mcapAda,
      mcapUsd: mcapAda !== null && ctx.adaUsd !== null ? mcapAda * ctx.adaUsd : null,
    };
  }
  return { stats, poolStats, pools, ctx };
}

export function createRecomputeActivities(deps: RecomputeDeps) {
  const { store } = deps;
  const now = deps.now ?? Date.now;
  return {
    async recomputeTokenStats(): Promise<{ tokens: number; pools: number }> {
      const { stats, poolStats } = await computeAllTokenStats(store, now());
      await replaceAll(store, POOL_STATS, poolStats);
      await replaceAll(store, TOKEN_STATS, stats);
      return { tokens: stats.length, pools: poolStats.length };
    },

    /**
     * One consistent snapshot per run: the stats and pools it ranks are copied under a new snapshot id first, then
     * the lists (each naming the snapshot) replace the old ones, then snapshots before the previous one go. A page
     * thus shows the figures it was ordered by, whatever the token-stats recompute or the sync did since.
     */
    async recomputeRankings(): Promise<{ lists: number }> {
      const nowMs = now();
      const [stats, pools, poolStats, current, safety] = await Promise.all([
        allDocs(store, TOKEN_STATS),
        allDocs(store, POOLS),
        allDocs(store, POOL_STATS),
        store.collection(RANKINGS).get(poolRankingId('tvl', null)),
        allDocs(store, TOKEN_SAFETY),
      ]);
      // As the safety recompute last assessed them (every 5 min): tools can hide these before paging.
      const highRisk = new Set(safety.filter((s) => s.highRisk).map((s) => s._id));
      // Every list of a run names the same snapshot; the all-pools TVL list is always written.
      const previous = current?.snapshot ?? null;
      const snapshot = Math.max(nowMs, (previous ?? 0) + 1);
      const statsOf = new Map(poolStats.map((s) => [s.poolId, s]));
      const poolRows = pools.map((p) => {
        const tvl = shownTvlLovelace(p, statsOf.get(p.id) ?? null);
        return {
          id: p.id,
          dex: p.dex,
          tvlAda: tvl === null ? null : lovelaceNumber(tvl),
          volume24h: statsOf.get(p.id)?.volume24h ?? 0,
        };
      });
      // Each token list's entries in a document of their own, named once (a nonce: a store resynced under a fixed
      // clock can reach the same snapshot again), so readers may keep them decoded.
      const tokenLists = buildTokenRankings(stats, nowMs, highRisk).map(({ entries, ...list }) => ({
        list: { ...list, entries: [], entriesId: `${snapshotDocId(snapshot, list._id)}|${randomUUID()}` },
        entries,
      }));
      await writeAll(store, [
        ...tokenLists.map(({ list, entries }) => put(RANKING_ENTRIES, { _id: list.entriesId, snapshot, entries })),
        ...stats.map((s) => put(RANKED_TOKEN_STATS, { _id: snapshotDocId(snapshot, s._id), snapshot, stats: s })),
        ...pools.map((p) =>
          put(RANKED_POOLS, {
            _id: snapshotDocId(snapshot, p.id),
            snapshot,
            pool: p,
            stats: statsOf.get(p.id) ?? null,
          }),
        ),
      ]);
      const docs = [...tokenLists.map((t) => t.list), ...buildPoolRankings(poolRows, nowMs)].map((d) => ({
        ...d,
        snapshot,
      }));
      await replaceAll(store, RANKINGS, docs);
      // Older snapshots than the previous one: no list names them, no request still reading one can need them.
      const keepFrom = previous ?? snapshot;
      const stale = await Promise.all([
        store.collection(RANKED_TOKEN_STATS).find('bySnapshot', { lt: keepFrom }),
        store.collection(RANKED_POOLS).find('bySnapshot', { lt: keepFrom }),
        store.collection(RANKING_ENTRIES).findKeys('bySnapshot', { lt: keepFrom }),
      ]);
      await writeAll(store, [
        ...stale[0].map((d) => del(RANKED_TOKEN_STATS, d._id)),
        ...stale[1].map((d) => del(RANKED_POOLS, d._id)),
        ...stale[2].map((k) => del(RANKING_ENTRIES, k._id)),
      ]);
      return { lists: docs.length };
    },

    async recomputeMarketOverview(): Promise<{ tokens: number; pools: number }> {
      const nowMs = now();
      const [pools, poolStats, stats, ranking] = await Promise.all([
        allDocs(store, POOLS),
        allDocs(store, POOL_STATS),
        allDocs(store, TOKEN_STATS),
        // This run's rankings snapshot (written by recomputeRankings just before, from these same token stats).
        store.collection(RANKINGS).get(poolRankingId('tvl', null)),
      ]);
      const doc = buildOverview(
        pools,
        new Map(poolStats.map((s) => [s.poolId, s])),
        stats,
        adaUsdFromPools(pools),
        nowMs,
      );
      const snapshot = ranking?.snapshot;
      await store.write([put(MARKET_OVERVIEW, snapshot === undefined ? doc : { ...doc, snapshot })]);
      return { tokens: stats.length, pools: pools.length };
    },
  };
}

export type RecomputeActivities = ReturnType<typeof createRecomputeActivities>;
