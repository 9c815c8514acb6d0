/**
 * The storage sync extension: per block, the Iagon staking and reward events of activities/storage/events.ts,
 * written through the SliceState into `storage_events` and `storage_script_addresses`
 * (mongo/collections/storage.ts). A RollBackward restores them exactly from the core's undo journal; there is no
 * rollback code here. Inert (no reads, no writes) when no scripts are configured.
 *
 * The scripts are fixed for the life of the index: outputs at a script configured later are found by the recompute
 * only once an event there is seen; set them before the first sync (or reindex) for complete history.
 */
import {
  STORAGE_EVENTS,
  STORAGE_SCRIPT_ADDRESSES,
  STORAGE_SYNC_COLLECTIONS,
  storageEventId,
} from '../../mongo/collections/storage.js';
import type { SyncExtension } from '../sync/extension.js';
import { scanStorageBlock } from './events.js';
import { NO_IAGON_SCRIPTS, type IagonScripts } from '../../cardano/iagon.js';

/** ISO time of POSIX ms; null beyond what a Date holds (±8.64e15 ms; a datum may carry any integer). */
const isoOrNull = (ms: number | null): string | null =>
  ms === null || ms > 8.64e15 ? null : new Date(ms).toISOString();

export function createStorageExtension(scripts: IagonScripts = NO_IAGON_SCRIPTS): SyncExtension {
  const sets = { stake: new Set(scripts.stake), reward: new Set(scripts.reward) };
  const inert = sets.stake.size === 0 && sets.reward.size === 0;
  return {
    name: 'storage',
    collections: STORAGE_SYNC_COLLECTIONS,
    async applyBlock(state, { block, spent, timeMs }, ctx) {
      if (inert) return;
      const { events, addresses } = scanStorageBlock(block, spent, sets, ctx.network);
      if (addresses.length === 0) return;
      const slot = block.slot ?? 0;
      const perTx = new Map<number, number>();
      const ids = events.map((e) => {
        const n = perTx.get(e.txIndex) ?? 0;
        perTx.set(e.txIndex, n + 1);
        return storageEventId(slot, e.txIndex, n);
      });
      await Promise.all([
        state.prefetch(
          STORAGE_SCRIPT_ADDRESSES,
          addresses.map((a) => a.address),
        ),
        state.prefetch(STORAGE_EVENTS, ids),
      ]);
      for (const a of addresses)
        if (!state.get(STORAGE_SCRIPT_ADDRESSES, a.address))
          state.put(STORAGE_SCRIPT_ADDRESSES, { _id: a.address, role: a.role, script: a.script, firstSlot: slot });
      const time = new Date(timeMs).toISOString();
      events.forEach((e, i) =>
        state.put(STORAGE_EVENTS, {
          _id: ids[i] as string,
          kind: e.kind,
          txId: e.txId,
          slot,
          time,
          provider: e.provider,
          providerAddress: e.providerAddress,
          amountRaw: String(e.amount),
          state: e.state,
          lockedUntil: isoOrNull(e.lockedUntilMs),
          script: e.script,
        }),
      );
    },
  };
}
