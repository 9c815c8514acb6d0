/**
 * Storage network (Iagon, reference §7). Amounts are raw IAG integer strings (6 decimals).
 *
 * Written by the storage sync extension (activities/storage/extension.ts) inside the sync slice, so a RollBackward
 * restores them exactly from the undo journal: `storage_events` (one document per staking or reward action seen
 * on chain) and `storage_script_addresses` (every address of a configured staking or reward script seen so far).
 * Written by the `storage` recompute (activities/storage/index.ts, every 60 s, wholesale): `storage_overview`.
 */
import { defineCollection } from '../store.js';

/**
 * stake: IAG locked at a staking script with a new datum; retire: a stake output re-locked with its state turned
 * Active → Retiring; resize: re-locked without that turn (the validator's Resize: a larger Active stake);
 * withdraw: a stake output spent with no continuing output of the same provider; reward-claim: IAG taken from a
 * reward script whose continuing output carries the provider's RewardCertificate; reward-reclaim: IAG taken from a
 * reward script without a certificate (the owner's reclaim); reward-fund: IAG added to a reward script.
 */
export type StorageEventKind =
  'stake' | 'resize' | 'retire' | 'withdraw' | 'reward-claim' | 'reward-reclaim' | 'reward-fund';

export interface StorageEventDoc {
  /** `${slot, 12 digits}|${position of the tx in its block, 5 digits}|${n, 3 digits}`: time order. */
  _id: string;
  kind: StorageEventKind;
  txId: string;
  slot: number;
  /** ISO time of the slot. */
  time: string;
  /** Provider payment key hash (hex) from the datum or certificate; null when the datum did not decode. */
  provider: string | null;
  /** The datum's providerAddr (bech32), when the layout carries it. */
  providerAddress: string | null;
  /** IAG moved (stake/withdraw/claim/fund) or left locked (retire/resize), raw. */
  amountRaw: string;
  /** State of the stake output after the event (stake, resize, retire); null otherwise. */
  state: 'active' | 'retiring' | null;
  /** The datum's locked_until after the event (ISO), stake outputs only. */
  lockedUntil: string | null;
  /** Payment script hash the event happened at. */
  script: string;
}
export const STORAGE_EVENTS = defineCollection<StorageEventDoc>({
  name: 'storage_events',
  indexes: [{ name: 'byKind', fields: ['kind', 'slot'] }],
});

export const storageEventId = (slot: number, txIndex: number, n: number) =>
  `${String(slot).padStart(12, '0')}|${String(txIndex).padStart(5, '0')}|${String(n).padStart(3, '0')}`;

/** An address whose payment part is a configured staking or reward script; `_id` = bech32 address. */
export interface StorageScriptAddressDoc {
  _id: string;
  role: 'stake' | 'reward';
  script: string;
  /** Slot it was first seen in an output or input. */
  firstSlot: number;
}
export const STORAGE_SCRIPT_ADDRESSES = defineCollection<StorageScriptAddressDoc>({ name: 'storage_script_addresses' });

/** A figure of the overview with the one-line description of what it is. */
export interface Described<T> {
  value: T;
  description: string;
}

export interface StorageActivityDoc {
  kind: StorageEventKind;
  time: string;
  txHash: string;
  provider: string | null;
  providerAddress: string | null;
  /** IAG, decimal-adjusted, and the raw integer. */
  amount: number;
  amountRaw: string;
  state: 'active' | 'retiring' | null;
}

/** The precomputed overview; one document, `_id` = STORAGE_OVERVIEW_ID. */
export interface StorageOverviewDoc {
  _id: string;
  network: 'iagon';
  token: { unit: string; ticker: string; decimals: number };
  /** Price, volume, liquidity from the market recompute's token_stats; supply and holders from the sync. */
  market: Record<string, Described<number | null>>;
  supply: Record<string, Described<number | null>>;
  staking: {
    available: boolean;
    /** Why the staking figures are unavailable (no scripts configured); null when available. */
    reason: string | null;
    stakeScripts: string[];
    rewardScripts: string[];
    figures: Record<string, Described<number | null>>;
  };
  /** Newest first. */
  recentActivity: StorageActivityDoc[];
  computedAt: string;
  /** Time of the first indexed block: events and claims before it are not counted. */
  coverageFrom: string | null;
  /** Slot of the indexed tip the figures reflect. */
  slot: number | null;
}
export const STORAGE_OVERVIEW = defineCollection<StorageOverviewDoc>({ name: 'storage_overview' });
export const STORAGE_OVERVIEW_ID = 'iagon';

/** Written by the sync extension (rolled back exactly). */
export const STORAGE_SYNC_COLLECTIONS = [STORAGE_EVENTS, STORAGE_SCRIPT_ADDRESSES];
export const STORAGE_COLLECTIONS = [STORAGE_EVENTS, STORAGE_SCRIPT_ADDRESSES, STORAGE_OVERVIEW];
