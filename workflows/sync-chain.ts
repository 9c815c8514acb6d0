/**
 * Follows the chain source in slices. Reads: chain source, checkpoints. Writes: blocks, transactions, utxos,
 * addresses, address_txs, stake_accounts, stake_pool_regs, undo, checkpoints (all inside `syncSlice`).
 * Only counts and points travel through workflow history, never blocks.
 *
 * After a rollback deeper than DEEP_ROLLBACK_BLOCKS (mongo/collections/sync-state.ts) every recompute reading chain
 * data runs at once (`triggerRecomputes`); until each has run, the API withholds its answers (api/sync-guard.ts).
 * A `resync` input (`npm run ops -- resync --from origin`) first drops the indexed chain and everything derived
 * from it, then follows the source from origin; the recomputes run again when the sync reaches the tip.
 */
import type { SyncActivities } from '../activities/sync/index.js';
import type { ResyncActivities, ResyncRequest } from '../activities/sync/reset.js';
import type { WorkflowContext } from './context.js';

export interface SyncChainInput {
  /** Slices per run before continueAsNew (keeps Temporal histories bounded). */
  slicesPerRun: number;
  /** Blocks per slice. */
  sliceBlocks: number;
  /** How long one slice waits at the tip for a new block. */
  tipWaitMs: number;
  /** Stop when the tip is reached instead of following (used by tests and catch-up runs). */
  stopAtTip?: boolean;
  /**
   * Drop the indexed chain and start again from this point (only origin: see activities/sync/reset.ts).
   * `requestedAt` (when the operator asked) names the request: an `ops retry` of a run that already cleared the store
   * for it continues the rebuild from its checkpoint instead of clearing hours of it again.
   */
  resync?: ResyncRequest;
  /**
   * Rerun the recomputes when the tip is reached (set by a resync and by `schedules:apply`; carried across
   * continueAsNew).
   */
  refreshAtTip?: boolean;
  /** Totals carried across continueAsNew. */
  totalBlocks?: number;
  totalRollbacks?: number;
}

export interface SyncChainResult {
  blocks: number;
  rollbacks: number;
  height: number;
}

/** Starts every recompute whose inputs the sync writes (workflows/registry.ts `reads`), now. */
export interface TriggerActivities {
  triggerRecomputes(input: { reason: string }): Promise<{ triggered: string[] }>;
}

export async function syncChainBody(
  ctx: WorkflowContext<Pick<SyncActivities, 'syncSlice'> & ResyncActivities & TriggerActivities>,
  input: SyncChainInput,
): Promise<SyncChainResult> {
  let blocks = input.totalBlocks ?? 0;
  let rollbacks = input.totalRollbacks ?? 0;
  let refreshAtTip = input.refreshAtTip ?? false;
  if (input.resync) {
    await ctx.activities.resetSync(input.resync);
    refreshAtTip = true;
  }
  for (let i = 0; i < input.slicesPerRun; i++) {
    const r = await ctx.activities.syncSlice({ maxBlocks: input.sliceBlocks, waitMs: input.tipWaitMs });
    blocks += r.blocks;
    rollbacks += r.rollbacks;
    if (r.deepRollback) await ctx.activities.triggerRecomputes({ reason: `rollback of ${r.deepestRollback} blocks` });
    else if (r.atTip && refreshAtTip)
      await ctx.activities.triggerRecomputes({ reason: 'the sync reached the tip (a resync or a first start)' });
    if (r.atTip) refreshAtTip = false;
    if (r.atTip && input.stopAtTip) return { blocks, rollbacks, height: r.height };
  }
  const { resync: _done, ...next } = input;
  return ctx.continueAsNew({ ...next, refreshAtTip, totalBlocks: blocks, totalRollbacks: rollbacks });
}
