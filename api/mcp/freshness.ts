/**
 * The as-of line of every tool result: the time of the indexed tip block and the lag behind the chain tip (the
 * market overview's sync.lagSeconds). Mirrors api/read/freshness.ts (READ-LAYER.md) until that lands on main.
 */
import { lagSeconds, storeClock } from '../../mongo/collections/clock.js';
import type { Store } from '../../mongo/store.js';

export interface Freshness {
  /** ISO time of the indexed tip block; null before the first block is indexed. */
  asOf: string | null;
  /** Seconds between the chain tip the source last reported and the indexed tip. */
  lagSeconds: number | null;
}

export async function readFreshness(deps: { store: Store }): Promise<Freshness> {
  const { clock, checkpoint } = await storeClock(deps.store);
  return { asOf: checkpoint ? clock.iso(checkpoint.slot) : null, lagSeconds: lagSeconds(checkpoint) };
}
