/**
 * The chain-source port. The one production adapter is the Ogmios v6 JSON-RPC client
 * (`activities/chain/ogmios-client.ts`); the devnet speaks the same protocol, so the same adapter runs in every
 * default start and in every test.
 */
import type { ChainEvent, EraTime, NetworkTime, Point, Tip } from '../../cardano/chain/types.js';

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
  /**
   * When the source last sent anything on chain-sync (an answer, a pong), ms since the epoch; null before any
   * connection. A wait at the tip that ends with no block is not an answer: a frozen source and a quiet chain look
   * alike until the keepalive tells them apart, so contact is recorded as of this time, not of the slice's end.
   */
  lastHeard?(): number | null;
  /**
   * The tip the source reported in its newest chain-sync answer, null before any. Pipelined answers wait in a buffer
   * until the consumer takes them, each with the tip of when it was sent: a consumer slower than the chain (a slow
   * store at the tip) takes answers minutes old, and their tips with them.
   */
  latestTip?(): Tip | null;
  close(): Promise<void>;
}

const CONNECTION_ERRORS = new Set(['OgmiosConnectionError', 'OgmiosTimeoutError']);
const CONNECTION_CODES = /ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENOTFOUND|ETIMEDOUT|EPIPE/;

/** Whether the error says the chain source did not answer (down, dropped, timed out). */
export function isSourceDown(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  if (CONNECTION_ERRORS.has(e.name)) return true;
  // The store's driver reports the same socket codes (`connect ECONNREFUSED` of a MongoDB server that is down): that
  // is the store's outage, not the chain source's (syncCondition names the store for it).
  if (e.name.startsWith('Mongo')) return false;
  return CONNECTION_CODES.test(`${(e as { code?: unknown }).code ?? ''} ${e.message}`);
}

/** The era a slot belongs to: the latest one starting at or before it (the top level when `eras` is absent). */
function eraOfSlot(t: NetworkTime, slot: number): EraTime {
  let era: EraTime = t;
  for (const e of t.eras ?? []) if (e.startSlot <= slot) era = e;
  return t.eras?.length && slot >= t.startSlot ? t : era;
}

export function slotToMs(t: NetworkTime, slot: number): number {
  const e = eraOfSlot(t, slot);
  return e.startTimeMs + (slot - e.startSlot) * e.slotLengthMs;
}

export function msToSlot(t: NetworkTime, ms: number): number {
  let e: EraTime = t;
  for (const x of t.eras ?? []) if (x.startTimeMs <= ms) e = x;
  if (ms >= t.startTimeMs) e = t;
  return e.startSlot + Math.floor((ms - e.startTimeMs) / e.slotLengthMs);
}

export function slotToEpoch(t: NetworkTime, slot: number): number {
  const e = eraOfSlot(t, slot);
  return e.startEpoch + Math.floor((slot - e.startSlot) / e.epochLength);
}
