/**
 * How far behind the chain the index is, in seconds. Pure; the one formula behind the market overview's
 * `sync.lagSeconds`, `/readyz`, `/healthz/sync`, `ops status`, the MCP/Markdown as-of lines and the lag metric
 * (read through `readSyncLag` in mongo/collections/sync-state.ts).
 *
 * lag = max(tip − indexed, now − time of the indexed tip block)
 *
 * - `tip − indexed`: the slots between the tip the chain source last reported (recorded on every contact, not only
 *   with a committed slice) and the last indexed block, as seconds (one slot = one second since Shelley).
 * - `now − time of the indexed tip block`: on a chain whose slots follow the wall clock (mainnet, the testnets and
 *   the devnet: slot time = system start + slot × slot length), the index cannot be fresher than its newest block.
 *   This term keeps growing while the source is down or serves another chain, when the first term is frozen at the
 *   last tip the source reported. At the tip it is the age of the newest block (~20 s on average on mainnet).
 */

import { SLOT_LENGTH_MS } from './clock.js';

export interface LagInput {
  /** Slot of the last indexed block. */
  indexedSlot: number;
  /** Wall-clock time of that block's slot (unix ms); null when unknown. */
  indexedTimeMs: number | null;
  /** Slot of the chain tip the source last reported; null when it never reported one. */
  tipSlot: number | null;
  nowMs: number;
  /** Whether slots follow the wall clock (true for every Cardano network and the devnet). */
  wallClock?: boolean;
  slotLengthMs?: number;
}

/** Whole seconds, never negative. */
export function syncLagSeconds(i: LagInput): number {
  const slotMs = i.slotLengthMs ?? SLOT_LENGTH_MS;
  const behind = i.tipSlot === null ? 0 : (Math.max(0, i.tipSlot - i.indexedSlot) * slotMs) / 1000;
  const age =
    (i.wallClock ?? true) && i.indexedTimeMs !== null && Number.isFinite(i.indexedTimeMs)
      ? Math.max(0, (i.nowMs - i.indexedTimeMs) / 1000)
      : 0;
  return Math.round(Math.max(behind, age));
}
