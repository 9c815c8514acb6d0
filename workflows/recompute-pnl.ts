/**
 * The wallet PnL precompute (`pnl`, every 10 minutes, temporal/schedules.ts): one activity, recomputeWalletPnl —
 * reads trades, checkpoints, blocks, tokens, token_meta, token_stats, pools, candles; writes wallet_pnl for the
 * wallets that traded in the last 24 h and deletes the others' documents (activities/pnl/precompute.ts).
 * Idempotent: a failed run is simply repeated.
 */
import type { PnlActivities } from '../activities/pnl/precompute.js';
import type { WorkflowContext } from './context.js';

export async function recomputePnlBody(
  ctx: WorkflowContext<PnlActivities>,
  _input: null,
): Promise<{ wallets: number; removed: number }> {
  return ctx.activities.recomputeWalletPnl();
}
