/**
 * Conway governance read documents, rewritten together by the governance recompute (activities/governance/, every
 * 5 minutes) from the ledger queries `governanceProposals`, `delegateRepresentatives` and `stakePools`. Proposals
 * that the ledger no longer lists are kept with their last tallies and a final status, so the history grows.
 * Amounts are lovelace integer strings; `rank*` fields are numbers only for ordering.
 */
import { defineCollection, type Store } from '../store.js';

/**
 * active: listed by the ledger and still open for votes; expired: past its `until` epoch (listed or not);
 * removed: no longer listed although not past `until` — ratified and enacted, or dropped (the ledger drops a
 * proposal whose sibling of the same purpose was enacted); the query cannot tell which.
 */
export type ProposalStatus = 'active' | 'expired' | 'removed';

export interface GovAnchorDoc {
  url: string;
  hash: string;
}

/**
 * How one voting body stands on a proposal, by voting power (lovelace strings) and in percent.
 * DReps: the voting power is the stake delegated to active registered DReps (mandate not expired) plus the
 *   predefined noConfidence option; stake delegated to the predefined abstain option is left out. noConfidence
 *   stake counts as yes on a noConfidence action and as no on every other one (Conway ratification rules).
 * SPOs: the voting power is each pool's live stake. A pool that did not vote counts as abstain when its reward
 *   account delegates to the abstain option, as yes on a noConfidence action when it delegates to noConfidence
 *   (Conway rules, except for hard forks), otherwise as not voted.
 * Every percentage shares one denominator, `base` = yes + no + abstain + notVoted (the body's whole counted voting
 * power, named by `shareBase`), so the four shares sum to at most 100 (each truncated to 4 decimals).
 * `ratificationYesPct` is the ledger's ratio yes / (yes + no + notVoted) (abstentions excluded), the figure a
 * ratification threshold is compared with.
 */
export interface VoteTallyDoc {
  yes: string;
  no: string;
  abstain: string;
  notVoted: string;
  base: string;
  /** Names the denominator of the shares; absent on documents written before it existed (base then excluded abstain). */
  shareBase?: string;
  yesPct: number | null;
  noPct: number | null;
  notVotedPct: number | null;
  abstainPct: number | null;
  ratificationYesPct?: number | null;
}

export interface GovernanceProposalDoc {
  /** `txId#index`. */
  _id: string;
  /** CIP-129 `gov_action1…`. */
  govActionId: string;
  txId: string;
  index: number;
  /** Ogmios action type: treasuryWithdrawals, information, protocolParametersUpdate, hardForkInitiation, … */
  type: string;
  /** One line derived from the action (what it asks for); the anchor's document is not fetched. */
  summary: string;
  status: ProposalStatus;
  sinceEpoch: number;
  untilEpoch: number;
  deposit: string;
  returnAccount: string;
  anchor: GovAnchorDoc | null;
  /** Treasury withdrawals: Σ requested lovelace and the recipients; null/[] for other actions. */
  requestedLovelace: string | null;
  withdrawals: { rewardAccount: string; lovelace: string }[];
  /** The action as Ogmios reports it (big integers as strings), for detail views. */
  action: Record<string, unknown>;
  /** Slot and time of the submitting transaction, when the index holds it. */
  proposedSlot: number | null;
  proposedAt: string | null;
  /**
   * ledger: the recompute saw the ledger list it (tallies by voting power as of `lastSeenEpoch`); chain: known only
   * from the synced blocks (governance_chain_proposals) — submitted and gone while no recompute ran (or submitted
   * after the ledger tip the last recompute read: status active until the next run lists it), so there are
   * no tallies (`drep`/`spo` null), its votes are the ones the blocks carried and `lastSeenEpoch` is its
   * submission epoch. Absent on documents written before the field existed (= ledger).
   */
  source?: 'ledger' | 'chain';
  voteCounts: {
    drep: { yes: number; no: number; abstain: number };
    spo: { yes: number; no: number; abstain: number };
    committee: { yes: number; no: number; abstain: number };
  };
  /** Null when that body does not vote on this action type (SPOs on treasury withdrawals, constitutions). */
  drep: VoteTallyDoc | null;
  spo: VoteTallyDoc | null;
  /** Last epoch the ledger listed the proposal (tallies are as of then). */
  lastSeenEpoch: number;
  /** Epoch and time of the recompute that wrote this document. */
  epoch: number;
  computedAt: string;
}

export type VoterRole = 'drep' | 'spo' | 'committee';

/** One voter's vote on one proposal, as the ledger and the blocks both state it. */
export interface GovVote {
  /** `${proposalId}|${role}|${voterId}`. */
  _id: string;
  /** `txId#index` of the proposal. */
  proposalId: string;
  role: VoterRole;
  /** drep1… (CIP-129), pool1…, or cc_hot1… (CIP-129). */
  voterId: string;
  vote: 'yes' | 'no' | 'abstain';
  anchor: GovAnchorDoc | null;
}

export interface GovernanceVoteDoc extends GovVote {
  /** The voter's voting power when last seen, lovelace; null for committee members (one member, one vote). */
  votingPower: string | null;
  /** Whole ADA of voting power (−1 for committee members), for ordering. */
  rankPower: number;
  epoch: number;
  computedAt: string;
}

export type DRepKind = 'registered' | 'abstain' | 'noConfidence';

export interface DRepDoc {
  /** CIP-129 drep1… for registered DReps; `drep_always_abstain` / `drep_always_no_confidence` for the options. */
  _id: string;
  kind: DRepKind;
  /** CIP-105 form (drep1… / drep_script1… over the bare credential); null for the predefined options. */
  legacyId: string | null;
  credential: string | null;
  script: boolean;
  /**
   * active: registered, mandate not expired; inactive: registered, mandate expired (its stake does not count in
   * tallies); retired: seen before, no longer registered. The predefined options are always active.
   */
  status: 'active' | 'inactive' | 'retired';
  /** Lovelace delegated (what the delegators control), as the ledger reports it. */
  stake: string;
  delegators: number;
  deposit: string | null;
  /** Last epoch of the DRep's mandate (it lapses unless it votes or updates). */
  mandateEpoch: number | null;
  anchor: GovAnchorDoc | null;
  /** Votes on proposals this index has seen (kept after proposals leave the ledger). */
  votesCast: number;
  /** Whole ADA of stake, for ordering. */
  rankStake: number;
  epoch: number;
  computedAt: string;
}

export const GOVERNANCE_PROPOSALS = defineCollection<GovernanceProposalDoc>({
  name: 'governance_proposals',
  indexes: [
    // Newest first: submission epoch, then slot (null, when the transaction is not indexed, sorts first).
    { name: 'byNewest', fields: ['sinceEpoch', 'proposedSlot'] },
    { name: 'byStatus', fields: ['status', 'sinceEpoch', 'proposedSlot'] },
  ],
});

export const GOVERNANCE_VOTES = defineCollection<GovernanceVoteDoc>({
  name: 'governance_votes',
  indexes: [
    { name: 'byProposal', fields: ['proposalId', 'rankPower'] },
    { name: 'byVoter', fields: ['voterId', 'epoch'] },
  ],
});

export const DREPS = defineCollection<DRepDoc>({
  name: 'dreps',
  indexes: [{ name: 'byStake', fields: ['rankStake'] }],
});

/**
 * A proposal procedure as a block carried it (governance sync extension, activities/governance/extension.ts):
 * written when its transaction is applied, undone with it on a rollback. Unlike the ledger query, which lists
 * live proposals only, these stay after the proposal leaves the ledger.
 */
export interface GovChainProposalDoc {
  /** `txId#index` (index = position in the transaction's `proposals`). */
  _id: string;
  txId: string;
  index: number;
  /** Slot, block height, time (ISO) and epoch of the block that carried the transaction. */
  slot: number;
  height: number;
  time: string;
  epoch: number;
  deposit: string;
  returnAccount: string;
  anchor: GovAnchorDoc | null;
  type: string;
  /** Treasury withdrawals: Σ requested lovelace and the recipients; null/[] for other actions. */
  requestedLovelace: string | null;
  withdrawals: { rewardAccount: string; lovelace: string }[];
  /** The action as the block carried it (big integers as strings). */
  action: Record<string, unknown>;
}

/**
 * The latest vote of one voter on one proposal as the blocks carried it. A re-vote replaces the document (as the
 * ledger replaces the vote); a rollback restores the earlier one from the sync's undo journal.
 */
export interface GovChainVoteDoc extends GovVote {
  /** The transaction and block of the vote. */
  txId: string;
  slot: number;
  height: number;
  time: string;
  epoch: number;
}

export const GOVERNANCE_CHAIN_PROPOSALS = defineCollection<GovChainProposalDoc>({
  name: 'governance_chain_proposals',
  indexes: [{ name: 'bySlot', fields: ['slot'] }],
});

export const GOVERNANCE_CHAIN_VOTES = defineCollection<GovChainVoteDoc>({
  name: 'governance_chain_votes',
  indexes: [
    { name: 'byProposal', fields: ['proposalId', 'slot'] },
    { name: 'byVoter', fields: ['voterId', 'slot'] },
  ],
});

/** What the governance sync extension writes. */
export const GOVERNANCE_SYNC_COLLECTIONS = [GOVERNANCE_CHAIN_PROPOSALS, GOVERNANCE_CHAIN_VOTES];

export const GOVERNANCE_COLLECTIONS = [GOVERNANCE_PROPOSALS, GOVERNANCE_VOTES, DREPS, ...GOVERNANCE_SYNC_COLLECTIONS];

// ---- named reads ----------------------------------------------------------------------------------------------

/** Proposals newest first (submission epoch, then slot), all or of one status; a page or all of them. */
export function proposalsNewestFirst(
  store: Store,
  status: string | undefined,
  page?: { offset: number; limit: number },
): Promise<GovernanceProposalDoc[]> {
  const [index, eq] = status ? ['byStatus', [status]] : ['byNewest', []];
  return store.collection(GOVERNANCE_PROPOSALS).find(index, { eq, reverse: true, ...page });
}
export const countProposals = (store: Store, status: string | undefined): Promise<number> =>
  status
    ? store.collection(GOVERNANCE_PROPOSALS).count('byStatus', { eq: [status] })
    : store.collection(GOVERNANCE_PROPOSALS).count('byNewest');

/** The votes on a proposal, largest voting power first (at most `limit`), and their count. */
export const votesOnProposal = (store: Store, proposalId: string, limit: number): Promise<GovernanceVoteDoc[]> =>
  store.collection(GOVERNANCE_VOTES).find('byProposal', { eq: [proposalId], reverse: true, limit });
export const countVotesOnProposal = (store: Store, proposalId: string): Promise<number> =>
  store.collection(GOVERNANCE_VOTES).count('byProposal', { eq: [proposalId] });
/** A voter's votes, newest epoch first. */
export const votesOfVoter = (store: Store, voterId: string, limit: number): Promise<GovernanceVoteDoc[]> =>
  store.collection(GOVERNANCE_VOTES).find('byVoter', { eq: [voterId], reverse: true, limit });

/** DReps by delegated stake, largest first. */
export const drepsByStake = (store: Store, page: { offset: number; limit: number }): Promise<DRepDoc[]> =>
  store.collection(DREPS).find('byStake', { reverse: true, ...page });
export const countDReps = (store: Store): Promise<number> => store.collection(DREPS).count('byStake');
