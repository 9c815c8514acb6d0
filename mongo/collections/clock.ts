/**
 * The read side's clock: anchored at the indexed tip block (cardano/clock.ts has the slot ↔ time math).
 */
import { indexedTip, type CheckpointDoc } from './sync-state.js';
import type { Store } from '../store.js';
import { SLOT_LENGTH_MS, slotClock, type SlotClock } from '../../cardano/clock.js';

// The sync lag is not here: one formula for every surface, readSyncLag in ./sync-state.ts (cardano/sync-lag.ts).

export { SLOT_LENGTH_MS, slotClock, type SlotClock };

export const CHECKPOINT_ID = 'sync';

/** The clock anchored at the indexed tip; without a checkpoint yet, a clock where slot 0 is the Unix epoch. */
export async function storeClock(store: Store): Promise<{ clock: SlotClock; checkpoint: CheckpointDoc | null }> {
  const { checkpoint, block } = await indexedTip(store);
  if (checkpoint && block)
    return { clock: slotClock({ slot: block.slot, timeMs: Date.parse(block.time) }), checkpoint };
  return { clock: slotClock({ slot: 0, timeMs: 0 }), checkpoint };
}
