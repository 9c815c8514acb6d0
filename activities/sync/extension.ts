/**
 * Sync extensions derive further documents from each block (DEX pools and trades, NFT sales, handles, …) inside
 * the same slice as the core documents. They write through the SliceState, so their changes land in the same
 * atomic batch and the same undo records: a RollBackward restores them exactly, with no rollback code of their own.
 *
 * Contract: `applyBlock` runs after the core has applied the block (the UTxO set already reflects it). It may
 * `await state.prefetch(...)` the documents it needs for this block, then change them with `state.put/remove`
 * (never mutating a document object in place). It must be deterministic: same block + same store ⇒ same writes.
 */
import type { UtxoDoc } from '../../mongo/collections/chain.js';
import type { CollectionSpec } from '../../mongo/store.js';
import type { Block } from '../../cardano/chain/types.js';
import type { BlockContext } from './apply-block.js';
import type { SliceState } from './slice-state.js';

export interface BlockEffects {
  block: Block;
  /** Unix ms of the block's slot. */
  timeMs: number;
  /** UTxOs consumed by the block (`txId#index` → output as it was created, datum included). */
  spent: ReadonlyMap<string, UtxoDoc>;
}

export interface SyncExtension {
  name: string;
  /** Collections the extension writes (index creation, digests, reads/writes declarations). */
  collections: readonly CollectionSpec<{ _id: string }>[];
  applyBlock(state: SliceState, effects: BlockEffects, ctx: BlockContext): Promise<void>;
}
