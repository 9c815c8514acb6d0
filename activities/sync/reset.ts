/**
 * `npm run ops -- resync --from origin`: what an operator runs after the sync stalled on a chain it cannot undo
 * (a rollback beyond SYNC_K blocks, a source that moved to another chain). Writes: every collection of the indexed
 * chain and of what is derived from it (cleared), sync_health (a new generation, no stall).
 *
 * Only origin: a later start point would need the point's block height and the outputs created before it, which a
 * chain source cannot hand out; from origin the index is rebuilt exactly. Kept: API keys and quotas, recorded runs,
 * the token registry import and logos, news (none of them comes from the chain).
 */
import { ACCESS_COLLECTIONS } from '../../mongo/collections/access.js';
import { ALL_COLLECTIONS } from '../../mongo/collections/index.js';
import { LOGOS, TOKEN_META } from '../../mongo/collections/market.js';
import { NEWS_COLLECTIONS } from '../../mongo/collections/news.js';
import { RUNS } from '../../mongo/collections/runs.js';
import { DERIVED_RUNS, SYNC_HEALTH, readSyncHealth } from '../../mongo/collections/sync-state.js';
import type { Store } from '../../mongo/store.js';
import { recordResync, recordResyncCleared } from './health.js';
import { holdGate, type SliceGate } from './index.js';

const KEPT = new Set(
  [...ACCESS_COLLECTIONS, ...NEWS_COLLECTIONS, RUNS, TOKEN_META, LOGOS, SYNC_HEALTH, DERIVED_RUNS].map((c) => c.name),
);

/** The collections a resync drops: the indexed chain and everything derived from it. */
export const RESYNC_CLEARS: readonly string[] = ALL_COLLECTIONS.map((c) => c.name).filter((n) => !KEPT.has(n));

/**
 * One operator request (`ops -- resync --from origin`). `requestedAt` (ISO) identifies it; runs queued by builds
 * before it have none and clear the store on every run.
 */
export interface ResyncRequest {
  from: 'origin';
  requestedAt?: string;
}

export function createResyncActivities(deps: {
  store: Store;
  now?: () => number;
  onReset?: () => void;
  /** The sync's slice gate (createSyncActivities' SyncDeps.sliceGate): the clear waits for a slice in progress. */
  sliceGate?: SliceGate;
}) {
  const now = deps.now ?? Date.now;
  return {
    /**
     * Clears the store for `input`, once per request: a retried run of the same resync (after a failure or a kill
     * hours into the rebuild) finds the request recorded as cleared and goes on from the rebuild's checkpoint.
     */
    async resetSync(input: ResyncRequest): Promise<{ cleared: number }> {
      if (input.from !== 'origin') throw new TypeError(`resync from ${String(input.from)}: only origin is supported`);
      // The operator stops the sync workflow first (`temporal workflow terminate`, as `ops resync` says), but
      // Temporal does not stop its slice on the worker: it goes on applying blocks and commits them, with their
      // checkpoint, up to a minute later. Cleared under it, the store got that batch back (the index then began at
      // the tip, every spend of an earlier output failed the sync for good): the clear waits for the slice to end,
      // and a slice starting meanwhile waits for the clear.
      const gate = deps.sliceGate;
      if (!gate) return clearFor(input);
      const { previous, release } = holdGate(gate);
      try {
        await previous.catch(() => undefined);
        return await clearFor(input);
      } finally {
        release();
      }
    },
  };
  async function clearFor(input: ResyncRequest): Promise<{ cleared: number }> {
    if (input.requestedAt && (await readSyncHealth(deps.store))?.resyncCleared === input.requestedAt)
      return { cleared: 0 };
    // The new generation first: derived answers are withheld before their chain documents disappear.
    await recordResync(deps.store, new Date(now()).toISOString());
    await deps.store.clear(RESYNC_CLEARS);
    // Only once the clear completed: a clear interrupted half-way is done again by the retry.
    if (input.requestedAt) await recordResyncCleared(deps.store, input.requestedAt, new Date(now()).toISOString());
    deps.onReset?.();
    return { cleared: RESYNC_CLEARS.length };
  }
}
export type ResyncActivities = ReturnType<typeof createResyncActivities>;
