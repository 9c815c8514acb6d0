/**
 * The chain-source port. The one production adapter is the Ogmios v6 JSON-RPC client
 * (`activities/chain/ogmios-client.ts`); the devnet speaks the same protocol, so the same adapter runs in every
 * default start and in every test.
 */
import type { ChainEvent, NetworkTime, Point, Tip } from '../../cardano/chain/types.js';

export interface ChainSource {
  /** Chain-sync: the best of `points` (best first) that is on the chain, and the tip. Throws when none is. */
  findIntersection(points: readonly Point[]): Promise<{ intersection: Point; tip: Tip }>;
  /**
   * Up to `max` chain-sync events in order (requests pipelined). Waits at most `waitMs` for the first event when
   * the follower is at the tip; returns `[]` when none came. The first event after an intersection is always a
   * RollBackward to that intersection (Ogmios semantics).
   */
  nextEvents(max: number, waitMs: number): Promise<ChainEvent[]>;
  /** A ledger-state or network query (`queryLedgerState/*`, `queryNetwork/*`), result parsed big-number-safe. */
  query<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
  /** Slot ↔ time parameters of the network (from eraSummaries and the network start time). */
  networkTime(): Promise<NetworkTime>;
  close(): Promise<void>;
}

export function slotToMs(t: NetworkTime, slot: number): number {
  return t.startTimeMs + (slot - t.startSlot) * t.slotLengthMs;
}

export function msToSlot(t: NetworkTime, ms: number): number {
  return t.startSlot + Math.floor((ms - t.startTimeMs) / t.slotLengthMs);
}

export function slotToEpoch(t: NetworkTime, slot: number): number {
  return t.startEpoch + Math.floor((slot - t.startSlot) / t.epochLength);
}
