/** Governance documents → REST bodies (whole ADA beside exact lovelace; shares in percent as stored). */
import { voteShares } from '../../cardano/governance-shares.js';
import { adaAmountsIn, lovelaceToAda, lovelaceToAdaOrNull } from '../../cardano/units.js';
import type {
  DRepDoc,
  GovernanceProposalDoc,
  GovernanceVoteDoc,
  VoteTallyDoc,
} from '../../mongo/collections/governance.js';

/**
 * Shares are derived here from the stored voting power, so a tally a recompute wrote before the one-base rule
 * (kept for proposals that left the ledger) answers on the same base as a fresh one.
 */
function presentTally(t: VoteTallyDoc | null) {
  if (!t) return null;
  const s = voteShares(BigInt(t.yes), BigInt(t.no), BigInt(t.abstain), BigInt(t.notVoted));
  const base = String(s.base);
  return {
    shareBase: s.shareBase,
    yesPct: s.yesPct,
    noPct: s.noPct,
    abstainPct: s.abstainPct,
    notVotedPct: s.notVotedPct,
    ratificationYesPct: s.ratificationYesPct,
    yes: lovelaceToAda(t.yes),
    no: lovelaceToAda(t.no),
    abstain: lovelaceToAda(t.abstain),
    notVoted: lovelaceToAda(t.notVoted),
    base: lovelaceToAda(base),
    lovelace: { yes: t.yes, no: t.no, abstain: t.abstain, notVoted: t.notVoted, base },
  };
}

export function presentProposalRow(d: GovernanceProposalDoc) {
  return {
    id: d._id,
    govActionId: d.govActionId,
    txId: d.txId,
    index: d.index,
    type: d.type,
    summary: d.summary,
    status: d.status,
    sinceEpoch: d.sinceEpoch,
    untilEpoch: d.untilEpoch,
    proposedAt: d.proposedAt,
    proposedSlot: d.proposedSlot,
    deposit: lovelaceToAda(d.deposit),
    depositLovelace: d.deposit,
    returnAccount: d.returnAccount,
    anchor: d.anchor,
    requestedAda: lovelaceToAdaOrNull(d.requestedLovelace),
    requestedLovelace: d.requestedLovelace,
    voteCounts: d.voteCounts,
    drep: presentTally(d.drep),
    spo: presentTally(d.spo),
    lastSeenEpoch: d.lastSeenEpoch,
    source: d.source ?? 'ledger',
  };
}

export function presentVote(v: GovernanceVoteDoc) {
  return {
    proposalId: v.proposalId,
    role: v.role,
    voterId: v.voterId,
    vote: v.vote,
    votingPower: lovelaceToAdaOrNull(v.votingPower),
    votingPowerLovelace: v.votingPower,
    anchor: v.anchor,
  };
}

export function presentProposal(d: GovernanceProposalDoc, votes: GovernanceVoteDoc[], votesTotal: number) {
  return {
    ...presentProposalRow(d),
    withdrawals: d.withdrawals.map((w) => ({
      rewardAccount: w.rewardAccount,
      amount: lovelaceToAda(w.lovelace),
      lovelace: w.lovelace,
    })),
    action: adaAmountsIn(d.action),
    votes: votes.map(presentVote),
    votesTotal,
    epoch: d.epoch,
    computedAt: d.computedAt,
  };
}

export function presentDRepRow(d: DRepDoc) {
  return {
    id: d._id,
    kind: d.kind,
    legacyId: d.legacyId,
    credential: d.credential,
    script: d.script,
    status: d.status,
    stake: lovelaceToAda(d.stake),
    stakeLovelace: d.stake,
    delegators: d.delegators,
    deposit: lovelaceToAdaOrNull(d.deposit),
    depositLovelace: d.deposit,
    mandateEpoch: d.mandateEpoch,
    anchor: d.anchor,
    votesCast: d.votesCast,
  };
}
