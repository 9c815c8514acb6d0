/**
 * The as-of time and sync lag every view carries: the indexed tip block's time, and the seconds between the chain
 * tip the source last reported and the indexed tip (the market overview's `sync.lagSeconds`).
 */
import { lagSeconds, storeClock } from '../../mongo/collections/clock.js';
import type { Store } from '../../mongo/store.js';
import type { Freshness } from '../../views/md/types.js';

export async function mdFreshness(store: Store): Promise<Freshness> {
  const { clock, checkpoint } = await storeClock(store);
  return {
    asOf: checkpoint ? clock.iso(checkpoint.slot) : null,
    lagSeconds: lagSeconds(checkpoint),
    height: checkpoint?.height ?? null,
    tipHeight: checkpoint?.tip?.height ?? null,
  };
}
