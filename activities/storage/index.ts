/**
 * Storage-network recompute, run every 60 s (temporal/schedules.ts `storage`):
 * - recomputeStorageOverview — reads storage_script_addresses, utxos (byAddress, the staking and reward scripts'
 *   unspent outputs), storage_events, token_stats, tokens, holder_counts, blocks, checkpoints; writes
 *   storage_overview (one document, rewritten whole: idempotent, a failed run is simply repeated).
 * Totals come from the UTxO set as it stands (exact after any rollback the sync applied); events come from the
 * storage sync extension (rolled back with the blocks they came from).
 */
import type { Network } from '../../cardano/address.js';
import { BLOCKS, UTXOS } from '../../mongo/collections/chain.js';
import { HOLDER_COUNTS } from '../../mongo/collections/holders.js';
import { TOKEN_STATS } from '../../mongo/collections/market-read.js';
import { TOKENS } from '../../mongo/collections/market.js';
import {
  STORAGE_EVENTS,
  STORAGE_OVERVIEW,
  STORAGE_SCRIPT_ADDRESSES,
  type StorageEventDoc,
} from '../../mongo/collections/storage.js';
import { put, type Store } from '../../mongo/store.js';
import { asOfMs, storeClock } from '../../mongo/collections/clock.js';
import { decodeStakeDatum } from './datum.js';
import { IAG_UNIT, NO_IAGON_SCRIPTS, type IagonScripts } from '../../cardano/iagon.js';
import { buildStorageOverview, type StakeOutput } from './overview.js';

export interface StorageDeps {
  store: Store;
  /** The staking and reward scripts followed (resolveIagonScripts); none = staking figures unavailable. */
  scripts?: IagonScripts;
  network?: Network;
  /** Clock (unix ms); tests pin it. */
  now?: () => number;
}

/** Activity items kept in the overview, newest first. */
export const RECENT_ACTIVITY = 25;
const DAY_MS = 86_400_000;

async function claimsSince(store: Store, slot: number): Promise<{ raw: bigint; count: number }> {
  const docs = await store.collection(STORAGE_EVENTS).find('byKind', { eq: ['reward-claim'], gte: slot });
  return { raw: docs.reduce((s, e) => s + BigInt(e.amountRaw), 0n), count: docs.length };
}

export function createStorageActivities(deps: StorageDeps) {
  const { store } = deps;
  const scripts = deps.scripts ?? NO_IAGON_SCRIPTS;
  const network = deps.network ?? 'mainnet';
  const now = deps.now ?? Date.now;
  return {
    async recomputeStorageOverview(): Promise<{ providers: number | null; stakeOutputs: number; events: number }> {
      const nowMs = now();
      const { clock, checkpoint, tipMs } = await storeClock(store);
      // The claim windows end at the indexed tip's time, as the market's do (asOfMs): an index behind the chain (a
      // catch-up, a source outage) answers the claims of the 24 h before its tip, which is what asOf says, not an
      // empty window of wall-clock time it holds no blocks of.
      const endMs = asOfMs(tipMs, nowMs);
      const addresses = [];
      for await (const a of store.collection(STORAGE_SCRIPT_ADDRESSES).scan()) addresses.push(a);
      const stakeOutputs: StakeOutput[] = [];
      let rewardPoolRaw = 0n;
      const utxos = store.collection(UTXOS);
      for (const a of addresses) {
        const outs = await utxos.find('byAddress', { eq: [a._id] });
        for (const u of outs) {
          const iag = BigInt(u.value.assets[IAG_UNIT] ?? '0');
          if (a.role === 'reward') rewardPoolRaw += iag;
          else stakeOutputs.push({ iag, datum: u.datum ? decodeStakeDatum(u.datum, network) : null });
        }
      }
      const [claims24h, claims7d, recent, tokenStats, token, holders, first] = await Promise.all([
        claimsSince(store, clock.msToSlot(endMs - DAY_MS)),
        claimsSince(store, clock.msToSlot(endMs - 7 * DAY_MS)),
        store.collection(STORAGE_EVENTS).find('_id', { reverse: true, limit: RECENT_ACTIVITY }),
        store.collection(TOKEN_STATS).get(IAG_UNIT),
        store.collection(TOKENS).get(IAG_UNIT),
        store.collection(HOLDER_COUNTS).get(IAG_UNIT),
        store.collection(BLOCKS).find('byHeight', { limit: 1 }),
      ]);
      const doc = buildStorageOverview({
        scripts,
        stakeOutputs,
        rewardPoolRaw,
        claims24h,
        claims7d,
        recentEvents: recent as StorageEventDoc[],
        tokenStats,
        token,
        holders,
        computedAt: new Date(nowMs).toISOString(),
        coverageFrom: first[0]?.time ?? null,
        slot: checkpoint?.slot ?? null,
      });
      await store.write([put(STORAGE_OVERVIEW, doc)]);
      const providers = doc.staking.figures.providers?.value ?? null;
      return { providers, stakeOutputs: stakeOutputs.length, events: recent.length };
    },
  };
}

export type StorageActivities = ReturnType<typeof createStorageActivities>;
