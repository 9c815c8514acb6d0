/**
 * Sync activities. Reads: chain source, checkpoints, utxos, addresses, stake_accounts, stake_pool_regs.
 * Writes: blocks, transactions, utxos, addresses, address_txs, stake_accounts, stake_pool_regs, undo, checkpoints.
 */
import type { Store } from '../../mongo/store.js';
import type { ChainSource } from '../chain/source.js';

export interface SliceInput {
  maxBlocks: number;
  /** How long to wait at the tip for the next block. */
  waitMs: number;
}

export interface SliceResult {
  /** Blocks applied in this slice. */
  blocks: number;
  /** RollBackward events handled in this slice. */
  rollbacks: number;
  /** Indexed tip after the slice. */
  height: number;
  slot: number;
  tipHeight: number;
  tipSlot: number;
  atTip: boolean;
}

export interface SyncDeps {
  store: Store;
  chain: ChainSource;
  /** Undo information is kept for this many blocks. */
  k: number;
  network: 'mainnet' | 'testnet';
  onProgress?: (r: SliceResult & { blocksPerSecond: number }) => void;
}

export function createSyncActivities(deps: SyncDeps) {
  return {
    async syncSlice(input: SliceInput): Promise<SliceResult> {
      void deps;
      void input;
      throw new Error('not implemented yet');
    },
  };
}
export type SyncActivities = ReturnType<typeof createSyncActivities>;
