/**
 * The market overview (spec: "Objects with loosely specified fields", market overview), pure: totals over all
 * pools, per-DEX figures, and the token lists. topGainers/topLosers rank the 24 h ADA price change among tokens
 * traded in those 24 h with liquidity of 10,000 ADA or more; trending is most traded by 24 h volume (ties: trades
 * of the last hour).
 */
import type {
  DexOverview,
  MarketOverviewDoc,
  PoolStatsDoc,
  TokenStatsDoc,
} from '../../mongo/collections/market-read.js';
import { MARKET_OVERVIEW_ID } from '../../mongo/collections/market-read.js';
import type { PoolDoc } from '../../mongo/collections/market.js';
import { shownTvlLovelace } from '../../cardano/market.js';
import { lovelaceNumber } from './token-stats.js';

export const OVERVIEW_LIST_SIZE = 10;
export const MOVERS_MIN_LIQUIDITY_ADA = 10_000;

const byUnit = (a: TokenStatsDoc, b: TokenStatsDoc) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);

/**
 * A pool's 24 h volume (whole ADA, at most 6 decimals: lovelace scaled) back in lovelace, so the sums are exact:
 * added as binary floats, 0.1 + 0.2 ADA would show as 0.30000000000000004 ADA.
 */
const volumeLovelace = (s: PoolStatsDoc | undefined): bigint => BigInt(Math.round((s?.volume24h ?? 0) * 1_000_000));

export function buildOverview(
  pools: readonly PoolDoc[],
  poolStats: ReadonlyMap<number, PoolStatsDoc>,
  tokens: readonly TokenStatsDoc[],
  adaUsd: number | null,
  nowMs: number,
): MarketOverviewDoc {
  const dexes = new Map<string, { volume: bigint; tvl: bigint; pools: number; txns: number; fee: string | null }>();
  let tvl = 0n;
  let volume = 0n;
  let txns = 0;
  for (const p of pools) {
    const s = poolStats.get(p.id);
    // Token/token pools too, valued through their tokens' ADA prices (POOL_STATS.tvlLovelace).
    const poolTvl = shownTvlLovelace(p, s ?? null) ?? 0n;
    // Each pool's stats carry its DEX's typical batcher fee (the same figure on every pool of the DEX).
    const d = dexes.get(p.dex) ?? { volume: 0n, tvl: 0n, pools: 0, txns: 0, fee: null };
    d.fee ??= s?.batcherFeeLovelace ?? null;
    d.volume += volumeLovelace(s);
    d.tvl += poolTvl;
    d.pools++;
    d.txns += s?.txns24h ?? 0;
    dexes.set(p.dex, d);
    tvl += poolTvl;
    volume += volumeLovelace(s);
    txns += s?.txns24h ?? 0;
  }
  const dexList: DexOverview[] = [...dexes.entries()]
    .map(([dex, d]) => ({
      dex,
      volume24h: lovelaceNumber(d.volume),
      tvlAda: lovelaceNumber(d.tvl),
      pools: d.pools,
      txns24h: d.txns,
      batcherFeeLovelace: d.fee,
    }))
    .sort((a, b) => b.volume24h - a.volume24h || b.tvlAda - a.tvlAda || (a.dex < b.dex ? -1 : 1));

  const movers = tokens.filter(
    (t) => t.txns24h > 0 && (t.liquidityAda ?? 0) >= MOVERS_MIN_LIQUIDITY_ADA && t.change24h !== null,
  );
  const change = (t: TokenStatsDoc) => t.change24h as number;
  const top = (list: TokenStatsDoc[]) => list.slice(0, OVERVIEW_LIST_SIZE).map((t) => t._id);
  const gainers = movers
    .filter((t) => change(t) > 0)
    .sort((a, b) => change(b) - change(a) || b.volume24h - a.volume24h || byUnit(a, b));
  const losers = movers
    .filter((t) => change(t) < 0)
    .sort((a, b) => change(a) - change(b) || b.volume24h - a.volume24h || byUnit(a, b));
  const trending = tokens
    .filter((t) => t.volume24h > 0)
    .sort((a, b) => b.volume24h - a.volume24h || b.windows['1h'].txns - a.windows['1h'].txns || byUnit(a, b));

  return {
    _id: MARKET_OVERVIEW_ID,
    adaUsd,
    volume24h: lovelaceNumber(volume),
    tvlAda: lovelaceNumber(tvl),
    txns24h: txns,
    dexes: dexList,
    topGainers: top(gainers),
    topLosers: top(losers),
    trending: top(trending),
    updatedAt: new Date(nowMs).toISOString(),
  };
}
