/** Governance documents → REST bodies (whole ADA beside exact lovelace; shares in percent as stored). */
import { lovelaceToAda } from '../../cardano/units.js';
import type {
  DRepDoc,
  GovernanceProposalDoc,
  GovernanceVoteDoc,
  VoteTallyDoc,
} from '../../mongo/collections/governance.js';

function presentTally(t: VoteTallyDoc | null) {
  if (!t) return null;
  return {
    yesPct: t.yesPct,
    noPct: t.noPct,
    notVotedPct: t.notVotedPct,
    abstainPct: t.abstainPct,
    yes: lovelaceToAda(t.yes),
    no: lovelaceToAda(t.no),
    abstain: lovelaceToAda(t.abstain),
    notVoted: lovelaceToAda(t.notVoted),
    base: lovelaceToAda(t.base),
    lovelace: { yes: t.yes, no: t.no, abstain: t.abstain, notVoted: t.notVoted, base: t.base },
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
    requestedAda: d.requestedLovelace === null ? null : lovelaceToAda(d.requestedLovelace),
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
    votingPower: v.votingPower === null ? null : lovelaceToAda(v.votingPower),
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
    action: d.action,
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
    deposit: d.deposit === null ? null : lovelaceToAda(d.deposit),
    depositLovelace: d.deposit,
    mandateEpoch: d.mandateEpoch,
    anchor: d.anchor,
    votesCast: d.votesCast,
  };
}
