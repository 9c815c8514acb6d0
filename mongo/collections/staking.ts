/**
 * Stake pool read documents, rewritten wholesale by the staking recompute (activities/staking/, every 5 minutes).
 * One document per pool with every list and detail field precomputed, so the REST answers are point reads and one
 * ordered scan. Amounts are lovelace integer strings (they exceed 2^53 on mainnet); `rankStake` is the same live
 * stake as a number of whole ADA, only for ordering.
 */
import { defineCollection } from '../store.js';

export type StakePoolStatus = 'active' | 'retiring' | 'retired';

export interface StakePoolMetaDoc {
  ticker: string | null;
  name: string | null;
  description: string | null;
  homepage: string | null;
  url: string | null;
  hash: string | null;
  /**
   * true: the JSON at `url` hashed (blake2b-256) to `hash` and its fields were taken; false: it was fetched but did
   * not match or did not parse; null: not fetched (no fetcher configured, no URL, or the fetch failed).
   */
  verified: boolean | null;
}

export interface StakePoolDelegatorDoc {
  stakeAddress: string;
  /** Σ lovelace of the stake key's addresses (UTxO stake; unwithdrawn rewards are not in documents). */
  stake: string;
}

export interface StakePoolDoc {
  /** pool1… id. */
  _id: string;
  /** Pool key hash (hex, 28 bytes). */
  hash: string;
  meta: StakePoolMetaDoc;
  status: StakePoolStatus;
  retiringEpoch: number | null;
  registeredSlot: number | null;
  vrfKeyHash: string | null;
  rewardAccount: string | null;
  owners: string[];
  relays: unknown[];
  /** Fixed cost per epoch and pledge, lovelace. */
  cost: string;
  pledge: string;
  /** Margin as a fraction (0.02 = 2 %), from the certificate's "n/d". */
  margin: number;
  /** Live stake as the ledger reports it (UTxO stake + unwithdrawn rewards of the delegators), lovelace. */
  liveStake: string;
  /** Σ over the delegators' address balances from the indexed documents, lovelace. */
  delegatedUtxoStake: string;
  /** Stake of the last epoch snapshot, lovelace; null when the source did not report it. */
  activeStake: string | null;
  /** Live stake / (total live stake / nOpt); above 1 the pool is saturated. */
  saturation: number;
  delegators: number;
  topDelegators: StakePoolDelegatorDoc[];
  blocksThisEpoch: number;
  blocksMinted: number;
  /** Estimated yearly return for delegators as a fraction; null when the reward pot is unknown. */
  estimatedRoa: number | null;
  /** Realised yearly return as a fraction; null when not derivable from what is indexed. */
  realisedRoa: number | null;
  epoch: number;
  /** Whole ADA of live stake, for the byStake ranking only. */
  rankStake: number;
  computedAt: string;
}

export const STAKE_POOLS = defineCollection<StakePoolDoc>({
  name: 'stake_pools',
  indexes: [{ name: 'byStake', fields: ['rankStake'] }],
});

export const STAKING_COLLECTIONS = [STAKE_POOLS];
