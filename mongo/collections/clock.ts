/**
 * The read side's clock: anchored at the indexed tip block (cardano/clock.ts has the slot ↔ time math).
 */
import { indexedTip, type CheckpointDoc } from './sync-state.js';
import type { Store } from '../store.js';
import { SLOT_LENGTH_MS, slotClock, type SlotClock } from '../../cardano/clock.js';

// The sync lag is not here: one formula for every surface, readSyncLag in ./sync-state.ts (cardano/sync-lag.ts).

export { SLOT_LENGTH_MS, slotClock, type SlotClock };

export const CHECKPOINT_ID = 'sync';

/**
 * The clock anchored at the indexed tip, and the tip block's time (unix ms); without a checkpoint and its block yet, a
 * clock where slot 0 is the Unix epoch and no tip time.
 */
export async function storeClock(
  store: Store,
): Promise<{ clock: SlotClock; checkpoint: CheckpointDoc | null; tipMs: number | null }> {
  const { checkpoint, block } = await indexedTip(store);
  if (checkpoint && block) {
    const tipMs = Date.parse(block.time);
    return { clock: slotClock({ slot: block.slot, timeMs: tipMs }), checkpoint, tipMs };
  }
  return { clock: slotClock({ slot: 0, timeMs: 0 }), checkpoint, tipMs: null };
}

/**
 * The moment recomputed figures describe: the indexed tip block's time, never after `nowMs`; `nowMs` with no tip
 * block. Their rolling windows and daily points end here, not at the wall clock: an index behind the chain (a
 * catch-up, a source outage) holds the data of that moment, as every answer's asOf says.
 */
export const asOfMs = (tipMs: number | null, nowMs: number): number =>
  tipMs === null ? nowMs : Math.min(tipMs, nowMs);
