/**
 * Slot ↔ time on the read side. Market documents carry slots (pool creation, pool states, trades); the answers
 * carry ISO times and the windows are in seconds. The anchor is the indexed tip block (its slot and the time the
 * sync stored for it); slots are one second apart since Shelley on mainnet, the testnets and the devnet, which
 * covers every slot a DEX document can hold (no DEX existed in Byron).
 */
import { BLOCKS } from '../../mongo/collections/chain.js';
import { CHECKPOINTS, type CheckpointDoc } from '../../mongo/collections/sync-state.js';
import type { Store } from '../../mongo/store.js';

export const SLOT_LENGTH_MS = 1000;
export const CHECKPOINT_ID = 'sync';

export interface SlotClock {
  slotToMs(slot: number): number;
  msToSlot(ms: number): number;
  iso(slot: number): string;
}

export function slotClock(anchor: { slot: number; timeMs: number }): SlotClock {
  const slotToMs = (slot: number) => anchor.timeMs + (slot - anchor.slot) * SLOT_LENGTH_MS;
  return {
    slotToMs,
    msToSlot: (ms) => anchor.slot + Math.floor((ms - anchor.timeMs) / SLOT_LENGTH_MS),
    iso: (slot) => new Date(slotToMs(slot)).toISOString(),
  };
}

/** The clock anchored at the indexed tip; without a checkpoint yet, a clock where slot 0 is the Unix epoch. */
export async function storeClock(store: Store): Promise<{ clock: SlotClock; checkpoint: CheckpointDoc | null }> {
  const checkpoint = await store.collection(CHECKPOINTS).get(CHECKPOINT_ID);
  const block = checkpoint ? await store.collection(BLOCKS).get(checkpoint.id) : null;
  if (checkpoint && block)
    return { clock: slotClock({ slot: block.slot, timeMs: Date.parse(block.time) }), checkpoint };
  return { clock: slotClock({ slot: 0, timeMs: 0 }), checkpoint };
}

/** Seconds between the chain tip the source last reported and the indexed tip; null before the first slice. */
export function lagSeconds(cp: CheckpointDoc | null): number | null {
  if (!cp) return null;
  if (!cp.tip) return 0;
  return Math.max(0, Math.round(((cp.tip.slot - cp.slot) * SLOT_LENGTH_MS) / 1000));
}
