/**
 * Read functions of market (REST, MCP and Markdown present their results).
 */
import { readSyncLag } from '../../mongo/collections/sync-state.js';
import { lovelaceToAdaOrNull } from '../../cardano/units.js';
import { NotReadyError } from '../errors.js';
import {
  MARKET_OVERVIEW,
  MARKET_OVERVIEW_ID,
  RANKED_TOKEN_STATS,
  TOKEN_STATS,
  snapshotDocId,
  type TokenStatsDoc,
} from '../../mongo/collections/market-read.js';
import { loadAssets, presentTokenRow } from '../present/market.js';
import { logoMode } from './tokens.js';
import type { marketRoutes } from '../routes/market.js';
import type { ReadDeps, RouteInput } from './deps.js';
import { withAsOf } from './freshness.js';
async function getMarketOverviewAnswer(deps: ReadDeps, input: RouteInput<typeof marketRoutes.overview>) {
  const { store } = deps;
  const [stored, sync] = await Promise.all([
    store.collection(MARKET_OVERVIEW).get(MARKET_OVERVIEW_ID),
    readSyncLag(store, (deps.now ?? Date.now)()),
  ]);
  if (!stored)
    throw new NotReadyError(
      'the market overview is not computed yet (the market recompute runs every 20 s); retry shortly',
      20,
    );
  const o = stored;
  const units = [...new Set([...o.topGainers, ...o.topLosers, ...o.trending])];
  // The figures the lists were ordered by: the snapshot of the overview's own run. The next run writes token_stats
  // before its overview; a unit whose snapshot is gone (an overview that failed for two runs) shows the live ones.
  const snap = o.snapshot;
  const kept =
    snap === undefined
      ? []
      : (await store.collection(RANKED_TOKEN_STATS).getMany(units.map((u) => snapshotDocId(snap, u)))).map(
          (d) => d?.stats ?? null,
        );
  const live = await store.collection(TOKEN_STATS).getMany(units.filter((_, i) => !kept[i]));
  const byUnit = new Map(
    [...kept, ...live].filter((s): s is TokenStatsDoc => s !== null && s !== undefined).map((s) => [s._id, s]),
  );
  const assets = await loadAssets(store, byUnit.keys(), deps.config.SITE_URL, logoMode(input));
  const rows = (list: string[]) =>
    list.flatMap((u) => {
      const s = byUnit.get(u);
      return s ? [presentTokenRow(s, assets)] : [];
    });
  return {
    adaUsd: o.adaUsd,
    volume24h: o.volume24h,
    tvlAda: o.tvlAda,
    txns24h: o.txns24h,
    dexes: o.dexes.map((d) => ({
      dex: d.dex,
      volume24h: d.volume24h,
      tvlAda: d.tvlAda,
      pools: d.pools,
      txns24h: d.txns24h,
      batcherFee: lovelaceToAdaOrNull(d.batcherFeeLovelace),
      batcherFeeLovelace: d.batcherFeeLovelace ?? null,
    })),
    topGainers: rows(o.topGainers),
    topLosers: rows(o.topLosers),
    trending: rows(o.trending),
    sync: {
      // max(tip − indexed, now − time of the indexed tip block): readSyncLag, as on every surface.
      lagSeconds: sync.lagSeconds,
      height: sync.height,
      tipHeight: sync.tipHeight,
    },
    updatedAt: stored?.updatedAt ?? null,
  };
}

export const getMarketOverview = withAsOf(getMarketOverviewAnswer);
