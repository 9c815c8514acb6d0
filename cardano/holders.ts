/**
 * Holders of a token, from address balances of the maintained UTxO set (mongo/collections/chain.ts AddressDoc).
 * Pure.
 *
 * Who a holder is: a stake key when the address has one (all addresses of one stake key are one holder, their
 * quantities added), else the address itself (enterprise, pointer and Byron addresses, which have no stake key).
 * With `combineByStake: false` every address is its own holder.
 *
 * Two forms compute the same thing:
 *  - `holdersFromBalances`: the batch answer over all balances of one token (a scheduled recompute);
 *  - `applyBalanceDelta`: per-(unit, holder) documents kept up to date from balance changes (a sync extension).
 *    It returns the next document (null once the quantity reaches 0, so the document is deleted) and the change
 *    of the token's holder count (+1 when a holder appears, −1 when one empties). Both the documents and the
 *    per-token counts are written through the sync slice, so a rollback restores them exactly from the undo
 *    journal; applying the negated delta is also an exact inverse (tested).
 *
 * Quantities are raw integer strings (they exceed 2^53 on mainnet), added as bigint.
 */
import type { ValueDoc } from '../mongo/collections/chain.js';

export interface BalanceEntry {
  address: string;
  stakeAddress: string | null;
  /** Raw quantity of the token at this address (integer string, ≥ 0). */
  quantityRaw: string;
}

export interface HolderItem {
  /** Stake address when combined and the address has one, else the address. */
  address: string;
  quantityRaw: string;
  /**
   * Fraction of the denominator held, rounded DOWN to 10^-15 (so the shares of all holders never add up to more
   * than 1); null when the denominator is 0.
   */
  share: number | null;
}

export interface HoldersOptions {
  /** Combine the addresses of one stake key into one holder. */
  combineByStake: boolean;
  /** Largest holders returned in `items`. */
  limit: number;
  /**
   * Circulating supply (raw). The share denominator is max(circulating, sum of all holders' quantities): a share
   * never exceeds the whole even when the circulating figure leaves out addresses that do hold the token.
   */
  circulatingRaw?: string;
}

export interface HoldersResult {
  /** The `limit` largest holders: quantity descending, then holder ascending. */
  items: HolderItem[];
  /** Distinct holders with a positive quantity. */
  total: number;
  /** Sum of all holders' quantities (raw). */
  sumRaw: string;
  /** The share denominator (raw). */
  denominatorRaw: string;
}

export const holderOf = (e: { address: string; stakeAddress: string | null }, combineByStake: boolean): string =>
  combineByStake ? (e.stakeAddress ?? e.address) : e.address;

export const SHARE_SCALE = 10n ** 15n;

/** floor(quantity / denominator · 10^15) / 10^15; null for a zero denominator. */
export function shareOf(quantity: bigint, denominator: bigint): number | null {
  if (denominator <= 0n) return null;
  return Number((quantity * SHARE_SCALE) / denominator) / Number(SHARE_SCALE);
}

const cmpStr = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function holdersFromBalances(entries: Iterable<BalanceEntry>, opts: HoldersOptions): HoldersResult {
  const byHolder = new Map<string, bigint>();
  for (const e of entries) {
    const q = BigInt(e.quantityRaw);
    if (q < 0n) throw new RangeError(`negative balance at ${e.address}`);
    if (q === 0n) continue;
    const h = holderOf(e, opts.combineByStake);
    byHolder.set(h, (byHolder.get(h) ?? 0n) + q);
  }
  let sum = 0n;
  for (const q of byHolder.values()) sum += q;
  const circulating = opts.circulatingRaw === undefined ? 0n : BigInt(opts.circulatingRaw);
  const denominator = circulating > sum ? circulating : sum;
  const ranked = [...byHolder].sort(([ha, qa], [hb, qb]) => (qa > qb ? -1 : qa < qb ? 1 : cmpStr(ha, hb)));
  return {
    items: ranked.slice(0, Math.max(0, opts.limit)).map(([address, q]) => ({
      address,
      quantityRaw: String(q),
      share: shareOf(q, denominator),
    })),
    total: byHolder.size,
    sumRaw: String(sum),
    denominatorRaw: String(denominator),
  };
}

/** The balance entries of one token from address summaries (AddressDoc-shaped), skipping addresses without it. */
export function* balanceEntries(
  addresses: Iterable<{ _id: string; stakeAddress: string | null; balance: ValueDoc }>,
  unit: string,
): Generator<BalanceEntry> {
  for (const a of addresses) {
    const q = a.balance.assets[unit];
    if (q !== undefined && q !== '0') yield { address: a._id, stakeAddress: a.stakeAddress, quantityRaw: q };
  }
}

/** One holder's balance of one token; `_id` = `${unit}|${holder}`, so one token's holders are an `_id` range. */
export interface HolderDoc {
  _id: string;
  unit: string;
  /** Stake address, or the address when it has none (see the module comment). */
  holder: string;
  /** Positive raw quantity (documents at 0 are deleted). */
  quantityRaw: string;
  /** Slot of the last change. */
  slot: number;
}

export const holderDocId = (unit: string, holder: string) => `${unit}|${holder}`;

export interface BalanceDelta {
  unit: string;
  holder: string;
  /** Signed raw change (integer string). */
  deltaRaw: string;
  slot: number;
}

export class HolderBalanceError extends Error {}

/**
 * The holder document after a balance change, and the change of the token's holder count. `prev` must be the
 * document of (delta.unit, delta.holder). A quantity below 0 means the deltas and documents disagree: thrown,
 * never clamped.
 */
export function applyBalanceDelta(
  prev: HolderDoc | null,
  delta: BalanceDelta,
): { doc: HolderDoc | null; holdersDelta: -1 | 0 | 1 } {
  const id = holderDocId(delta.unit, delta.holder);
  if (prev && prev._id !== id) throw new HolderBalanceError(`delta for ${id} applied to ${prev._id}`);
  const before = prev ? BigInt(prev.quantityRaw) : 0n;
  const after = before + BigInt(delta.deltaRaw);
  if (after < 0n) throw new HolderBalanceError(`${id}: balance ${before} + ${delta.deltaRaw} < 0`);
  const doc =
    after === 0n
      ? null
      : { _id: id, unit: delta.unit, holder: delta.holder, quantityRaw: String(after), slot: delta.slot };
  const holdersDelta = before === 0n && after > 0n ? 1 : before > 0n && after === 0n ? -1 : 0;
  return { doc, holdersDelta };
}

/** Per-unit signed changes between two asset maps (`ValueDoc.assets`; null = the address did not exist). */
export function assetDeltas(
  before: Record<string, string> | null,
  after: Record<string, string> | null,
): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const [unit, q] of Object.entries(after ?? {})) out.set(unit, BigInt(q));
  for (const [unit, q] of Object.entries(before ?? {})) out.set(unit, (out.get(unit) ?? 0n) - BigInt(q));
  for (const [unit, d] of out) if (d === 0n) out.delete(unit);
  return out;
}

/**
 * Net holder deltas of a set of address balance changes (one slice): changes of addresses of one stake key are
 * added first, so a transfer between two addresses of one wallet makes no holder change.
 */
export function holderDeltas(
  changes: Iterable<{ address: string; stakeAddress: string | null; deltas: Map<string, bigint> }>,
  combineByStake: boolean,
  slot: number,
): BalanceDelta[] {
  const net = new Map<string, { unit: string; holder: string; d: bigint }>();
  for (const c of changes) {
    const holder = holderOf(c, combineByStake);
    for (const [unit, d] of c.deltas) {
      const id = holderDocId(unit, holder);
      const cur = net.get(id);
      if (cur) cur.d += d;
      else net.set(id, { unit, holder, d });
    }
  }
  return [...net.values()]
    .filter((x) => x.d !== 0n)
    .map((x) => ({ unit: x.unit, holder: x.holder, deltaRaw: String(x.d), slot }));
}
