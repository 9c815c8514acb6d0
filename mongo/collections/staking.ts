/**
 * Stake pool read documents, rewritten wholesale by the staking recompute (activities/staking/, every 5 minutes).
 * One document per pool with every list and detail field precomputed, so the REST answers are point reads and one
 * ordered scan. Amounts are lovelace integer strings (they exceed 2^53 on mainnet); `rankStake` is the same live
 * stake as a number of whole ADA, only for ordering.
 */
import { defineCollection, type Store } from '../store.js';
import { DERIVED_RUNS } from './sync-state.js';

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
  /** Why the fields are null when `verified` is not true (hash mismatch, fetch failure, …); null when verified. */
  reason: string | null;
  /**
   * When the URL was last fetched (ISO); null when never. A verified document is kept while the registered hash
   * stays the same (the hash pins the bytes); one that did not match is fetched again after an hour; one that could
   * not be fetched (timeout, host down) sooner (activities/staking/index.ts metadataRetryMs).
   */
  checkedAt: string | null;
  /** Fetches in a row that could not reach the document (`verified` null after a fetch); absent: none. */
  unreachable?: number;
}

export interface StakePoolDelegatorDoc {
  stakeAddress: string;
  /** The delegator's live stake as the ledger counts it: `utxoStake` + `rewards` (rewards when known), lovelace. */
  stake: string;
  /** Σ lovelace of every address carrying the stake key, script payment parts included (DEX orders). */
  utxoStake: string;
  /** Unwithdrawn reward balance (queryLedgerState/rewardAccountSummaries); null without a ledger source. */
  rewards: string | null;
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
  /**
   * Live stake as the ledger reports it, lovelace: Σ over the registered stake keys delegating to the pool of the
   * lovelace at every address whose stake part is that key (any payment part; pointer addresses do not count
   * since Conway) plus the key's unwithdrawn rewards. Deposits (stake key, pool) are not stake.
   */
  liveStake: string;
  /** Σ over the delegators' address balances from the indexed documents, lovelace. */
  delegatedUtxoStake: string;
  /**
   * Σ of the delegators' unwithdrawn rewards (ledger query), lovelace; null without a ledger source. With a ledger
   * source, liveStake = delegatedUtxoStake + delegatorRewards when the index is at the ledger's tip.
   */
  delegatorRewards: string | null;
  /** Stake of the last epoch snapshot, lovelace; null when the source did not report it. */
  activeStake: string | null;
  /** Live stake / (the ledger's total stake, i.e. circulation / nOpt); above 1 the pool is saturated. */
  saturation: number;
  delegators: number;
  topDelegators: StakePoolDelegatorDoc[];
  blocksThisEpoch: number;
  blocksMinted: number;
  /**
   * The owners' live stake delegated to the pool (what the ledger's pledge check compares with the pledge),
   * lovelace; null when the owners are unknown. Absent on documents written before it was kept.
   */
  ownerStake?: string | null;
  /**
   * Estimated yearly return for delegators as a fraction (0 when the owners' live stake is below the pledge: the
   * ledger pays such a pool nothing); null when the reward pot is unknown.
   */
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

/**
 * A registered stake key's unwithdrawn reward balance as the ledger reported it (queryLedgerState/
 * rewardAccountSummaries), written by the staking recompute. Rewards are credited by the ledger at epoch boundaries
 * and appear in no block, so the index cannot derive them; a withdrawal lowers the balance from the block it is in,
 * so between two runs the figure can be above the ledger's by what was withdrawn since (the answer says when it was
 * read). Only documents whose balance changed are rewritten: mainnet has over a million reward accounts.
 */
export interface StakeRewardDoc {
  /** stake1… address. */
  _id: string;
  /** Lovelace. */
  rewards: string;
  /**
   * Slot of the ledger tip the balance was read at (queryLedgerState/tip around the query): withdrawals in later
   * blocks are not in it. Kept while the balance is unchanged (a withdrawal takes the whole balance, so an unchanged
   * one saw none); absent on documents written before it was kept, or when the source did not answer the tip.
   */
  slot?: number;
}

export const STAKE_REWARDS = defineCollection<StakeRewardDoc>({ name: 'stake_rewards' });

export const STAKING_COLLECTIONS = [STAKE_POOLS, STAKE_REWARDS];

// ---- named reads ----------------------------------------------------------------------------------------------

/** Stake pools by live stake, largest first. */
export const stakePoolsByStake = (store: Store, page: { offset: number; limit: number }): Promise<StakePoolDoc[]> =>
  store.collection(STAKE_POOLS).find('byStake', { reverse: true, ...page });
export const countStakePools = (store: Store): Promise<number> => store.collection(STAKE_POOLS).count('byStake');

/**
 * A stake key's unwithdrawn rewards as the staking recompute last read them from the ledger, with when that run
 * finished and the ledger slot they were read at (null when unknown); null when no run has read this key (not
 * registered at the time, or no ledger source).
 */
export async function rewardBalanceOf(
  store: Store,
  stakeAddress: string,
): Promise<{ lovelace: string; asOf: string | null; slot: number | null } | null> {
  const [doc, run] = await Promise.all([
    store.collection(STAKE_REWARDS).get(stakeAddress),
    store.collection(DERIVED_RUNS).get('recomputeStaking'),
  ]);
  return doc ? { lovelace: doc.rewards, asOf: run?.finishedAt ?? null, slot: doc.slot ?? null } : null;
}
