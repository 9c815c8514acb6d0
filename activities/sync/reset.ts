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
import { DERIVED_RUNS, SYNC_HEALTH } from '../../mongo/collections/sync-state.js';
import type { Store } from '../../mongo/store.js';
import { recordResync } from './health.js';

const KEPT = new Set(
  [...ACCESS_COLLECTIONS, ...NEWS_COLLECTIONS, RUNS, TOKEN_META, LOGOS, SYNC_HEALTH, DERIVED_RUNS].map((c) => c.name),
);

/** The collections a resync drops: the indexed chain and everything derived from it. */
export const RESYNC_CLEARS: readonly string[] = ALL_COLLECTIONS.map((c) => c.name).filter((n) => !KEPT.has(n));

export function createResyncActivities(deps: { store: Store; now?: () => number; onReset?: () => void }) {
  const now = deps.now ?? Date.now;
  return {
    async resetSync(input: { from: 'origin' }): Promise<{ cleared: number }> {
      if (input.from !== 'origin') throw new TypeError(`resync from ${String(input.from)}: only origin is supported`);
      // The new generation first: derived answers are withheld before their chain documents disappear.
      await recordResync(deps.store, new Date(now()).toISOString());
      await deps.store.clear(RESYNC_CLEARS);
      deps.onReset?.();
      return { cleared: RESYNC_CLEARS.length };
    },
  };
}
export type ResyncActivities = ReturnType<typeof createResyncActivities>;
