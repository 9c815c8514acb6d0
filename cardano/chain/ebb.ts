/**
 * Byron epoch boundary blocks (EBBs). Ogmios sends them without a slot, but the node places each at the first slot
 * of the epoch it opens (the slot the epoch's first main block may also take), and a chain point naming one carries
 * that slot: so a stored EBB must have it for its time, its epoch, slot order and a checkpoint the sync can resume
 * from. A Byron epoch is 10·k slots (21,600 on mainnet and the public testnets, k = 2160).
 */
import type { Block } from './types.js';

/**
 * The block with its slot: an EBB without one gets the first slot of the epoch after its predecessor's
 * (`prevSlot`, null for the genesis EBB, which opens epoch 0 at slot 0). Any other block is returned as it is.
 */
export function withEbbSlot(block: Block, prevSlot: number | null, k: number): Block {
  if (block.slot !== undefined || block.type !== 'ebb') return block;
  const epochSlots = 10 * k;
  const slot = prevSlot === null ? 0 : (Math.floor(prevSlot / epochSlots) + 1) * epochSlots;
  return { ...block, slot };
}
