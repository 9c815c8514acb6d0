/**
 * Slot ↔ time. Market documents carry slots (pool creation, pool states, trades); answers carry ISO times and the
 * windows are in seconds. A clock is anchored at a known block (its slot and block time); slots are one second apart
 * since Shelley on mainnet, the testnets and the devnet, which covers every slot a DEX document can hold (no DEX
 * existed in Byron).
 */
export const SLOT_LENGTH_MS = 1000;
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
