/**
 * The market recompute (scheduled every minute, temporal/schedules.ts): token stats, then the rankings and the
 * overview built from those stats, in one run so a list never lags its stats by a whole interval. Each step is one
 * activity (its own retries); what each reads and writes (activities/recompute/index.ts):
 * - recomputeTokenStats: reads pools, tokens, token_meta, trades, candles, checkpoints, blocks; writes token_stats,
 *   pool_stats.
 * - recomputeRankings: reads token_stats, pools, pool_stats; writes rankings.
 * - recomputeMarketOverview: reads pools, pool_stats, token_stats; writes market_overview.
 */
import type { RecomputeActivities } from '../activities/recompute/index.js';
import type { WorkflowContext } from './context.js';

export interface RecomputeMarketResult {
  tokens: number;
  pools: number;
  lists: number;
}

export async function recomputeMarketBody(
  ctx: WorkflowContext<RecomputeActivities>,
  _input: null,
): Promise<RecomputeMarketResult> {
  const { tokens, pools } = await ctx.activities.recomputeTokenStats();
  const { lists } = await ctx.activities.recomputeRankings();
  await ctx.activities.recomputeMarketOverview();
  return { tokens, pools, lists };
}
