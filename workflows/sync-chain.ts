/**
 * Follows the chain source in slices. Reads: chain source, checkpoints. Writes: blocks, transactions, utxos,
 * addresses, address_txs, stake_accounts, stake_pool_regs, undo, checkpoints (all inside `syncSlice`).
 * Only counts and points travel through workflow history, never blocks.
 */
import type { SyncActivities } from '../activities/sync/index.js';
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
  /** Totals carried across continueAsNew. */
  totalBlocks?: number;
  totalRollbacks?: number;
}

export interface SyncChainResult {
  blocks: number;
  rollbacks: number;
  height: number;
}

export async function syncChainBody(
  ctx: WorkflowContext<Pick<SyncActivities, 'syncSlice'>>,
  input: SyncChainInput,
): Promise<SyncChainResult> {
  let blocks = input.totalBlocks ?? 0;
  let rollbacks = input.totalRollbacks ?? 0;
  for (let i = 0; i < input.slicesPerRun; i++) {
    const r = await ctx.activities.syncSlice({ maxBlocks: input.sliceBlocks, waitMs: input.tipWaitMs });
    blocks += r.blocks;
    rollbacks += r.rollbacks;
    if (r.atTip && input.stopAtTip) return { blocks, rollbacks, height: r.height };
  }
  return ctx.continueAsNew({ ...input, totalBlocks: blocks, totalRollbacks: rollbacks });
}
