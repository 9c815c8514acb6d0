/**
 * The holders sync extension: per block, the balance change of every (token, holder) from the outputs the block
 * consumed and created, applied to the `holders` and `holder_counts` documents (mongo/collections/holders.ts), and a
 * count that changes to its day's point of the daily series (`holder_series`), through the SliceState. A
 * RollBackward restores them exactly from the core's undo journal; there is no rollback code here. Deterministic:
 * the block, its `spent` outputs and the prefetched documents decide every write.
 *
 * A holder is a stake address when the address has a stake key, else the address (activities/holders/index.ts).
 */
import {
  HOLDERS,
  HOLDERS_SYNC_COLLECTIONS,
  HOLDER_COUNTS,
  HOLDER_SERIES,
  dayStart,
  holderSeriesId,
  quantitySortKey,
  type HolderCountDoc,
} from '../../mongo/collections/holders.js';
import type { SyncExtension } from '../sync/extension.js';
import type { SliceState } from '../sync/slice-state.js';
import { blockAddressChanges } from './block-changes.js';
import { applyBalanceDelta, holderDeltas, holderDocId, type BalanceDelta } from '../../cardano/holders.js';

/** What the extension reads and writes (besides the block and its `spent` outputs, which the core provides). */
export const HOLDERS_EXTENSION_READS_WRITES = {
  reads: ['holders', 'holder_counts', 'holder_series'],
  writes: ['holders', 'holder_counts', 'holder_series'],
} as const;

/**
 * Applies net holder deltas (one per (unit, holder)) and the resulting count and supply changes per unit. A unit
 * whose count changes also gets the count as its point of the block's UTC day (`timeMs`): the daily holders series
 * is the count at each day's end, exact under rollbacks (the point is journaled like the count).
 */
export async function applyHolderDeltas(
  state: SliceState,
  deltas: readonly BalanceDelta[],
  slot: number,
  timeMs: number,
) {
  if (deltas.length === 0) return;
  const units = [...new Set(deltas.map((d) => d.unit))];
  const day = dayStart(timeMs);
  await Promise.all([
    state.prefetch(
      HOLDERS,
      deltas.map((d) => holderDocId(d.unit, d.holder)),
    ),
    state.prefetch(HOLDER_COUNTS, units),
    state.prefetch(
      HOLDER_SERIES,
      units.map((u) => holderSeriesId(u, day)),
    ),
  ]);
  const perUnit = new Map<string, { holders: number; supply: bigint }>();
  for (const d of deltas) {
    const id = holderDocId(d.unit, d.holder);
    const { doc, holdersDelta } = applyBalanceDelta(state.get(HOLDERS, id), d);
    if (doc) state.put(HOLDERS, { ...doc, sortKey: quantitySortKey(doc.quantityRaw) });
    else state.remove(HOLDERS, id);
    const u = perUnit.get(d.unit) ?? { holders: 0, supply: 0n };
    perUnit.set(d.unit, { holders: u.holders + holdersDelta, supply: u.supply + BigInt(d.deltaRaw) });
  }
  for (const [unit, change] of perUnit) {
    const prev = state.get(HOLDER_COUNTS, unit);
    const count = (prev?.count ?? 0) + change.holders;
    const supply = BigInt(prev?.supplyRaw ?? '0') + change.supply;
    if (count < 0 || supply < 0n) throw new Error(`holders: ${unit} count ${count}, supply ${supply} below 0`);
    if (change.holders !== 0)
      state.put(HOLDER_SERIES, { _id: holderSeriesId(unit, day), unit, time: day, holders: count, slot });
    if (count === 0) {
      if (prev) state.remove(HOLDER_COUNTS, unit);
      continue;
    }
    const next: HolderCountDoc = { _id: unit, unit, count, supplyRaw: String(supply), slot };
    state.put(HOLDER_COUNTS, next);
  }
}

export function createHoldersExtension(opts: { combineByStake?: boolean } = {}): SyncExtension {
  const combineByStake = opts.combineByStake ?? true;
  return {
    name: 'holders',
    collections: HOLDERS_SYNC_COLLECTIONS,
    async applyBlock(state, { block, spent, timeMs }) {
      const slot = block.slot ?? 0;
      const deltas = holderDeltas(blockAddressChanges(block, spent), combineByStake, slot);
      await applyHolderDeltas(state, deltas, slot, timeMs);
    },
  };
}
