/**
 * Token holders (issue 4, item 1), kept from the maintained UTxO set.
 *
 * Written by the holders sync extension (activities/holders/extension.ts), inside the sync slice, so a RollBackward
 * restores them exactly from the undo journal: `holders` (one document per (unit, holder)), `holder_counts` (one
 * per unit) and `holder_series` (a unit's count at the end of each day it changed; the `holders-series` job only
 * seeds a store synced before the extension wrote it).
 *
 * A holder is a stake address when the output address has a stake key (all addresses of one stake key are one
 * holder), else the address itself. Quantities are raw integer strings (they exceed 2^53 on mainnet).
 */
import type { HolderDoc } from '../../cardano/holders.js';
import { defineCollection, type Store } from '../store.js';

/**
 * Width of `sortKey`. One output holds at most 2^64 − 1 of an asset (20 digits); a holder's sum over many outputs
 * stays far below 10^40.
 */
export const SORT_KEY_DIGITS = 40;

/** A raw quantity as a string whose code-point order is numeric order (left-padded with zeros). */
export const quantitySortKey = (quantityRaw: string): string => quantityRaw.padStart(SORT_KEY_DIGITS, '0');

/** HolderDoc (activities/holders) plus its sortable quantity; `_id` = `${unit}|${holder}`. */
export interface HolderRowDoc extends HolderDoc {
  /** `quantityRaw` zero-padded to SORT_KEY_DIGITS digits, for the largest-holders index. */
  sortKey: string;
}
export const HOLDERS = defineCollection<HolderRowDoc>({
  name: 'holders',
  indexes: [{ name: 'byQuantity', fields: ['unit', 'sortKey'] }],
});

/** Holder count and on-chain circulating quantity of one token; `_id` = unit. Removed once no one holds it. */
export interface HolderCountDoc {
  _id: string;
  unit: string;
  /** Distinct holders with a positive quantity. */
  count: number;
  /** Sum of all holders' quantities = the quantity in unspent outputs (raw). */
  supplyRaw: string;
  /** Slot of the last change. */
  slot: number;
}
export const HOLDER_COUNTS = defineCollection<HolderCountDoc>({ name: 'holder_counts' });

/**
 * One daily point of a token's holder count; `_id` = `${unit}|${day start, unix seconds, 12 digits}`. The holders
 * extension writes it with the count of every block that changes the count (so a day's point is the count after its
 * last such block: at the day's end); a day without a change has no point and holds the count of the point before.
 */
export interface HolderSeriesDoc {
  _id: string;
  unit: string;
  /** Start of the UTC day of the block, unix seconds. */
  time: number;
  /** Holder count after the day's last block that changed it (0 once nobody holds the token). */
  holders: number;
  /** Slot of that block. */
  slot: number;
}
export const HOLDER_SERIES = defineCollection<HolderSeriesDoc>({
  name: 'holder_series',
  indexes: [{ name: 'byUnit', fields: ['unit', 'time'] }],
});

export const holderSeriesId = (unit: string, dayStart: number) => `${unit}|${String(dayStart).padStart(12, '0')}`;

/** Written by the sync extension (rolled back exactly). */
export const HOLDERS_SYNC_COLLECTIONS = [HOLDERS, HOLDER_COUNTS, HOLDER_SERIES];

export const DAY_SECONDS = 86_400;
/** The UTC day (unix seconds of its start) of a time in ms. */
export const dayStart = (ms: number) => Math.floor(ms / 1000 / DAY_SECONDS) * DAY_SECONDS;

/**
 * The daily holder counts of a token over the last `days` UTC days up to the day of `endMs` (the indexed tip's: an
 * index behind the clock knows no later day), one per day from its first point on: a day without a point of its own
 * holds the count of the point before it (the count did not change that day). Reads the range's points and the one
 * point before it.
 */
export async function readHolderSeries(
  store: Store,
  unit: string,
  days: number,
  endMs: number,
): Promise<{ time: number; value: number }[]> {
  const last = dayStart(endMs);
  const first = last - (days - 1) * DAY_SECONDS;
  const series = store.collection(HOLDER_SERIES);
  const [before, docs] = await Promise.all([
    series.find('byUnit', { eq: [unit], lt: first, reverse: true, limit: 1 }),
    series.find('byUnit', { eq: [unit], gte: first, lte: last }),
  ]);
  const points: { time: number; value: number }[] = [];
  let held = before[0]?.holders ?? null;
  let i = 0;
  for (let day = first; day <= last; day += DAY_SECONDS) {
    while (i < docs.length && (docs[i] as HolderSeriesDoc).time <= day) held = (docs[i++] as HolderSeriesDoc).holders;
    if (held !== null) points.push({ time: day, value: held });
  }
  return points;
}

/** Day (unix seconds of its start) of a token's first holder-count point, or null before its first point. */
export async function firstHolderSeriesDay(store: Store, unit: string): Promise<number | null> {
  const [first] = await store.collection(HOLDER_SERIES).find('byUnit', { eq: [unit], limit: 1 });
  return first?.time ?? null;
}

// ---- named reads ----------------------------------------------------------------------------------------------

/** `quantityRaw` back from its `sortKey` (quantitySortKey): the digits without the padding zeros. */
export const quantityOfSortKey = (sortKey: string): string => sortKey.replace(/^0+(?=[0-9])/, '');

/**
 * A token's largest holders, largest first, as their holder and quantity only, read from the byQuantity index
 * entries alone: the entry holds `_id` (`${unit}|${holder}`) and `sortKey` (the quantity zero-padded), so no holder
 * document is read or decoded (a hundred of them were about half of the holders answer's reads).
 */
export async function topHolderQuantities(
  store: Store,
  unit: string,
  limit: number,
): Promise<{ holder: string; quantityRaw: string }[]> {
  const entries = await store.collection(HOLDERS).findKeys('byQuantity', { eq: [unit], reverse: true, limit });
  return entries.map((e) => ({
    holder: e._id.slice(unit.length + 1),
    quantityRaw: quantityOfSortKey(e.sortKey as string),
  }));
}
