/**
 * Pure governance figures: parsing the Ogmios v6 results of `queryLedgerState/governanceProposals`,
 * `delegateRepresentatives` and `stakePools` (with stake), the vote tallies of DReps and stake pools by voting
 * power, proposal statuses, and the documents of mongo/collections/governance.ts.
 *
 * Voting power follows the Conway ratification rules (see VoteTallyDoc for the exact denominators) over the live
 * stake the queries report — the ledger itself ratifies on the stake distribution snapshotted at the last epoch
 * boundary, so a displayed share can differ from the ratified one by what moved since.
 */
import { parseAddress, poolIdFromHash } from '../../cardano/address.js';
import {
  ccHotBech32,
  drepBech32,
  drepLegacyBech32,
  govActionBech32,
  PREDEFINED_DREPS,
  proposalKey,
} from '../../cardano/governance-ids.js';
import { lovelaceToAda } from '../../cardano/units.js';
import type {
  DRepDoc,
  GovAnchorDoc,
  GovChainProposalDoc,
  GovChainVoteDoc,
  GovernanceProposalDoc,
  GovernanceVoteDoc,
  ProposalStatus,
  VoteTallyDoc,
  VoterRole,
} from '../../mongo/collections/governance.js';
import { voteShares } from '../../cardano/governance-shares.js';
import { toPlain } from '../sync/values.js';
import { lovelace } from '../staking/compute.js';

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const num = (x: unknown): number | null =>
  typeof x === 'number'
    ? x
    : typeof x === 'bigint'
      ? Number(x)
      : typeof x === 'string' && /^\d+$/.test(x)
        ? Number(x)
        : null;

export type VoteChoice = 'yes' | 'no' | 'abstain';

export interface ParsedVote {
  role: VoterRole;
  /** Credential hash (hex) for DReps and committee members, pool1… for stake pools. */
  id: string;
  script: boolean;
  vote: VoteChoice;
  anchor: GovAnchorDoc | null;
}

export interface ParsedProposal {
  txId: string;
  index: number;
  deposit: bigint;
  returnAccount: string;
  anchor: GovAnchorDoc | null;
  action: Obj;
  since: number;
  until: number;
  votes: ParsedVote[];
}

export interface ParsedDRep {
  kind: 'registered' | 'abstain' | 'noConfidence';
  credential: string | null;
  script: boolean;
  mandate: number | null;
  anchor: GovAnchorDoc | null;
  deposit: bigint | null;
  stake: bigint;
  /** Stake credentials (hex) delegating their vote here. */
  delegators: string[];
}

export interface PoolPower {
  stake: bigint;
  /** Stake credential of the pool's reward account (decides how a silent pool counts). */
  rewardCred: string | null;
}

export function anchorOf(x: unknown): GovAnchorDoc | null {
  return isObj(x) && typeof x.url === 'string' && typeof x.hash === 'string' ? { url: x.url, hash: x.hash } : null;
}

const ROLES: Record<string, VoterRole> = {
  delegateRepresentative: 'drep',
  stakePoolOperator: 'spo',
  constitutionalCommittee: 'committee',
};

/** One vote (`issuer`, `vote`, `metadata`) of a ledger proposal's `votes` or a transaction's `votes`. */
export function parseVote(x: unknown): ParsedVote | null {
  if (!isObj(x) || !isObj(x.issuer)) return null;
  const role = ROLES[String(x.issuer.role)];
  const vote = x.vote;
  if (!role || typeof x.issuer.id !== 'string' || (vote !== 'yes' && vote !== 'no' && vote !== 'abstain')) return null;
  return { role, id: x.issuer.id, script: x.issuer.from === 'script', vote, anchor: anchorOf(x.metadata) };
}

/** The entries of `queryLedgerState/governanceProposals` (malformed entries are skipped). */
export function parseProposals(raw: unknown): ParsedProposal[] {
  if (!Array.isArray(raw)) return [];
  const out: ParsedProposal[] = [];
  for (const p of raw) {
    if (!isObj(p) || !isObj(p.proposal) || !isObj(p.proposal.transaction) || !isObj(p.action)) continue;
    const txId = p.proposal.transaction.id;
    const index = num(p.proposal.index);
    const since = num(isObj(p.since) ? p.since.epoch : null);
    const until = num(isObj(p.until) ? p.until.epoch : null);
    if (typeof txId !== 'string' || index === null || since === null || until === null) continue;
    out.push({
      txId,
      index,
      deposit: lovelace(p.deposit) ?? 0n,
      returnAccount: typeof p.returnAccount === 'string' ? p.returnAccount : '',
      anchor: anchorOf(p.metadata),
      action: p.action,
      since,
      until,
      votes: (Array.isArray(p.votes) ? p.votes : []).map(parseVote).filter((v): v is ParsedVote => v !== null),
    });
  }
  return out;
}

/** The entries of `queryLedgerState/delegateRepresentatives`. */
export function parseDReps(raw: unknown): ParsedDRep[] {
  if (!Array.isArray(raw)) return [];
  const out: ParsedDRep[] = [];
  for (const d of raw) {
    if (!isObj(d)) continue;
    const kind = d.type;
    if (kind !== 'registered' && kind !== 'abstain' && kind !== 'noConfidence') continue;
    const delegators = (Array.isArray(d.delegators) ? d.delegators : [])
      .map((x) => (isObj(x) && typeof x.credential === 'string' ? x.credential : null))
      .filter((x): x is string => x !== null);
    if (kind === 'registered' && typeof d.id !== 'string') continue;
    out.push({
      kind,
      credential: kind === 'registered' ? (d.id as string) : null,
      script: d.from === 'script',
      mandate: isObj(d.mandate) ? num(d.mandate.epoch) : null,
      anchor: anchorOf(d.metadata),
      deposit: kind === 'registered' ? lovelace(d.deposit) : null,
      stake: lovelace(d.stake) ?? 0n,
      delegators,
    });
  }
  return out;
}

/** `queryLedgerState/stakePools` with `includeStake`: pool id → live stake and reward credential. */
export function parsePools(raw: unknown): Map<string, PoolPower> {
  const out = new Map<string, PoolPower>();
  if (!isObj(raw)) return out;
  for (const [id, p] of Object.entries(raw)) {
    if (!isObj(p)) continue;
    let rewardCred: string | null = null;
    try {
      if (typeof p.rewardAccount === 'string') rewardCred = parseAddress(p.rewardAccount).stakeCred;
    } catch {
      rewardCred = null;
    }
    out.set(id, { stake: lovelace(p.stake) ?? 0n, rewardCred });
  }
  return out;
}

/** Protocol parameters of the security group: changing one of them needs the stake pools' vote too (Conway). */
const SECURITY_PARAMETERS = new Set([
  'maxBlockBodySize',
  'maxTransactionSize',
  'maxBlockHeaderSize',
  'maxValueSize',
  'maxExecutionUnitsPerBlock',
  'minFeeCoefficient',
  'minFeeConstant',
  'minUtxoDepositCoefficient',
  'governanceActionDeposit',
  'minFeeReferenceScripts',
]);

/** Which bodies vote on an action (Conway): DReps on all, pools and the committee on some. */
export function votingBodies(action: Obj): { drep: boolean; spo: boolean; committee: boolean } {
  switch (action.type) {
    case 'noConfidence':
    case 'constitutionalCommittee':
      return { drep: true, spo: true, committee: false };
    case 'hardForkInitiation':
    case 'information':
      return { drep: true, spo: true, committee: true };
    case 'protocolParametersUpdate': {
      const params = isObj(action.parameters) ? Object.keys(action.parameters) : [];
      return { drep: true, spo: params.some((k) => SECURITY_PARAMETERS.has(k)), committee: true };
    }
    case 'treasuryWithdrawals':
    case 'constitution':
      return { drep: true, spo: false, committee: true };
    default:
      // treasuryTransfer (pre-Conway MIR) and anything unknown: no Conway body votes on it.
      return { drep: false, spo: false, committee: false };
  }
}

/** A vote on a proposal the ledger no longer lists, cast or changed after its tally was taken. */
interface LateMove {
  role: 'drep' | 'spo';
  /** The stand the tally counts the voter's power in: its earlier vote, or not voted. */
  from: VoteChoice | 'notVoted';
  to: VoteChoice;
  power: bigint;
}

/**
 * A kept tally with the late votes of its body moved in: each voter's power goes to its vote, out of the stand the
 * tally counted it in, as far as that stand holds it. Power the tally did not count (a DRep registered or a pool
 * grown since the listing) joins the base, as it would join the ledger's when the vote counts.
 */
function withLateVotes(
  t: VoteTallyDoc | null,
  moves: readonly LateMove[],
  role: LateMove['role'],
): VoteTallyDoc | null {
  const mine = moves.filter((m) => m.role === role);
  if (!t || mine.length === 0) return t;
  const stands = { yes: BigInt(t.yes), no: BigInt(t.no), abstain: BigInt(t.abstain), notVoted: BigInt(t.notVoted) };
  for (const m of mine) {
    stands[m.from] -= m.power < stands[m.from] ? m.power : stands[m.from];
    stands[m.to] += m.power;
  }
  return tallyOf(stands.yes, stands.no, stands.abstain, stands.notVoted);
}

/** A body's tally: the voting power behind each stand and the shares over one base (cardano/governance-shares). */
export function tallyOf(yes: bigint, no: bigint, abstain: bigint, notVoted: bigint): VoteTallyDoc {
  const { base, ...shares } = voteShares(yes, no, abstain, notVoted);
  return {
    yes: String(yes),
    no: String(no),
    abstain: String(abstain),
    notVoted: String(notVoted),
    base: String(base),
    ...shares,
  };
}

/**
 * DReps' stand on a proposal: active registered DReps (mandate ≥ epoch) by their vote; noConfidence stake is yes
 * on a noConfidence action, no otherwise; the abstain option and inactive DReps are left out.
 */
export function drepTally(p: ParsedProposal, dreps: readonly ParsedDRep[], epoch: number): VoteTallyDoc {
  const votes = new Map(p.votes.filter((v) => v.role === 'drep').map((v) => [v.id, v.vote]));
  let yes = 0n;
  let no = 0n;
  let abstain = 0n;
  let notVoted = 0n;
  for (const d of dreps) {
    if (d.kind === 'noConfidence') {
      if (p.action.type === 'noConfidence') yes += d.stake;
      else no += d.stake;
      continue;
    }
    if (d.kind !== 'registered' || d.mandate === null || d.mandate < epoch) continue;
    const v = votes.get(d.credential as string);
    if (v === 'yes') yes += d.stake;
    else if (v === 'no') no += d.stake;
    else if (v === 'abstain') abstain += d.stake;
    else notVoted += d.stake;
  }
  return tallyOf(yes, no, abstain, notVoted);
}

/**
 * Stake pools' stand: each pool's live stake by its vote; a silent pool counts by its reward account's DRep
 * delegation (abstain option → abstain; noConfidence option → yes on a noConfidence action), except on hard forks
 * where silence is never an abstention (Conway).
 */
export function spoTally(
  p: ParsedProposal,
  pools: ReadonlyMap<string, PoolPower>,
  dreps: readonly ParsedDRep[],
): VoteTallyDoc {
  const votes = new Map(p.votes.filter((v) => v.role === 'spo').map((v) => [v.id, v.vote]));
  const abstainers = new Set(dreps.find((d) => d.kind === 'abstain')?.delegators ?? []);
  const noConfidence = new Set(dreps.find((d) => d.kind === 'noConfidence')?.delegators ?? []);
  const hardFork = p.action.type === 'hardForkInitiation';
  let yes = 0n;
  let no = 0n;
  let abstain = 0n;
  let notVoted = 0n;
  for (const [id, pool] of pools) {
    let v = votes.get(id);
    if (!v && !hardFork && pool.rewardCred) {
      if (abstainers.has(pool.rewardCred)) v = 'abstain';
      else if (noConfidence.has(pool.rewardCred) && p.action.type === 'noConfidence') v = 'yes';
    }
    if (v === 'yes') yes += pool.stake;
    else if (v === 'no') no += pool.stake;
    else if (v === 'abstain') abstain += pool.stake;
    else notVoted += pool.stake;
  }
  return tallyOf(yes, no, abstain, notVoted);
}

/** Treasury withdrawals: Σ requested lovelace and the recipients; null for other actions. */
export function requestedWithdrawals(action: Obj): {
  total: bigint | null;
  withdrawals: { rewardAccount: string; lovelace: string }[];
} {
  if (action.type !== 'treasuryWithdrawals' || !isObj(action.withdrawals)) return { total: null, withdrawals: [] };
  let total = 0n;
  const withdrawals = [];
  for (const [rewardAccount, amount] of Object.entries(action.withdrawals)) {
    const l = lovelace(amount) ?? 0n;
    total += l;
    withdrawals.push({ rewardAccount, lovelace: String(l) });
  }
  return { total, withdrawals };
}

const adaText = (l: bigint) => `${lovelaceToAda(l).toLocaleString('en-US', { maximumFractionDigits: 6 })} ADA`;

/** One line saying what the action asks for, from the action itself. */
export function summarize(action: Obj): string {
  switch (action.type) {
    case 'treasuryWithdrawals': {
      const r = requestedWithdrawals(action);
      const n = r.withdrawals.length;
      return `Treasury withdrawal of ${adaText(r.total ?? 0n)} to ${n} reward account${n === 1 ? '' : 's'}`;
    }
    case 'information':
      return 'Info action (no on-chain effect)';
    case 'protocolParametersUpdate': {
      const keys = isObj(action.parameters) ? Object.keys(action.parameters) : [];
      return `Protocol parameter change: ${keys.join(', ') || 'none'}`;
    }
    case 'hardForkInitiation': {
      const v = isObj(action.version) ? `${String(action.version.major)}.${String(action.version.minor)}` : '?';
      return `Hard fork to protocol version ${v}`;
    }
    case 'noConfidence':
      return 'Motion of no confidence in the constitutional committee';
    case 'constitutionalCommittee':
      return 'Constitutional committee update';
    case 'constitution':
      return 'New constitution';
    case 'treasuryTransfer':
      return 'Transfer between treasury and reserves';
    default:
      return String(action.type ?? 'unknown action');
  }
}

/**
 * A proposal's status: listed → active, or expired once the epoch is past `until` (no vote or ratification can
 * happen then; the ledger removes it at the next boundary); not listed any more → expired when past `until`,
 * otherwise removed (ratified and enacted, or dropped — the ledger queries cannot tell which). A proposal the
 * ledger reading predates (submitted in a block after it) counts as listed: it is not gone, just not seen yet.
 */
export function proposalStatus(listed: boolean, epoch: number, until: number): ProposalStatus {
  if (epoch > until) return 'expired';
  return listed ? 'active' : 'removed';
}

export interface GovernanceInput {
  epoch: number;
  proposals: readonly ParsedProposal[];
  dreps: readonly ParsedDRep[];
  pools: ReadonlyMap<string, PoolPower>;
  previous: {
    proposals: readonly GovernanceProposalDoc[];
    votes: readonly GovernanceVoteDoc[];
    dreps: readonly DRepDoc[];
  };
  /** Slot and ISO time of proposal transactions found in the index. */
  txTimes: ReadonlyMap<string, { slot: number; time: string }>;
  /**
   * What the synced blocks carried (governance sync extension): every proposal procedure and each voter's last
   * vote, including those on proposals the ledger no longer lists.
   */
  chain?: { proposals: readonly GovChainProposalDoc[]; votes: readonly GovChainVoteDoc[] };
  /** `governanceActionLifetime` (epochs) from the protocol parameters; null = unknown. */
  govActionLifetime?: number | null;
  /**
   * Slot of the ledger tip (queryLedgerState/tip) read before the proposals were listed: the listing covers every
   * block up to it. A proposal the blocks carried after it may simply be too new for the listing (the sync goes on
   * while the ledger is queried); null = unknown (every unlisted proposal is taken as gone).
   */
  ledgerSlot?: number | null;
  computedAt: string;
}

export interface GovernanceOutput {
  proposals: GovernanceProposalDoc[];
  votes: GovernanceVoteDoc[];
  dreps: DRepDoc[];
}

export const drepDocId = (d: { kind: ParsedDRep['kind']; credential: string | null; script: boolean }): string =>
  d.kind === 'registered' ? drepBech32({ hash: d.credential as string, script: d.script }) : PREDEFINED_DREPS[d.kind];

/** A voter's public id: drep1… / cc_hot1… (CIP-129) or pool1…. */
export function voterId(v: ParsedVote): string {
  if (v.role === 'drep') return drepBech32({ hash: v.id, script: v.script });
  if (v.role === 'committee') return ccHotBech32({ hash: v.id, script: v.script });
  // Stake pools come as pool1…; accept a bare key hash too.
  return /^[0-9a-f]{56}$/.test(v.id) ? poolIdFromHash(v.id) : v.id;
}

const sameAnchor = (a: GovAnchorDoc | null, b: GovAnchorDoc | null) =>
  a === b || (a !== null && b !== null && a.url === b.url && a.hash === b.hash);

const adaRank = (l: bigint) => Math.floor(lovelaceToAda(l));

type VoteCounts = GovernanceProposalDoc['voteCounts'];

function countVotes(votes: readonly { role: VoterRole; vote: VoteChoice }[]): VoteCounts {
  const counts: VoteCounts = {
    drep: { yes: 0, no: 0, abstain: 0 },
    spo: { yes: 0, no: 0, abstain: 0 },
    committee: { yes: 0, no: 0, abstain: 0 },
  };
  for (const v of votes) counts[v.role][v.vote]++;
  return counts;
}

/**
 * The lifetime of a proposal in epochs: the protocol parameter, else what the ledger shows on the proposals it
 * lists or listed (until − since); null when neither is known.
 */
export function lifetimeOf(input: GovernanceInput): number | null {
  if (input.govActionLifetime != null) return input.govActionLifetime;
  const p = input.proposals[0];
  if (p) return p.until - p.since;
  const prev = input.previous.proposals.find((x) => (x.source ?? 'ledger') === 'ledger');
  return prev ? prev.untilEpoch - prev.sinceEpoch : null;
}

/** Every document of a recompute: listed proposals fresh, earlier ones kept with their final status. */
export function buildGovernance(input: GovernanceInput): GovernanceOutput {
  const { epoch, computedAt } = input;
  const drepStake = new Map<string, bigint>();
  for (const d of input.dreps) if (d.kind === 'registered') drepStake.set(d.credential as string, d.stake);

  const prevById = new Map(input.previous.proposals.map((x) => [x._id, x]));
  const chainProposals = new Map((input.chain?.proposals ?? []).map((x) => [x._id, x]));
  const chainVotes = new Map((input.chain?.votes ?? []).map((x) => [x._id, x]));
  const proposals: GovernanceProposalDoc[] = [];
  const votes: GovernanceVoteDoc[] = [];
  const listed = new Set<string>();
  for (const p of input.proposals) {
    const id = proposalKey(p);
    listed.add(id);
    const prev = prevById.get(id);
    const origin = chainProposals.get(id);
    const t = origin ?? input.txTimes.get(p.txId);
    const bodies = votingBodies(p.action);
    const counts = countVotes(p.votes);
    for (const v of p.votes) {
      const vid = voterId(v);
      const power =
        v.role === 'drep' ? (drepStake.get(v.id) ?? 0n) : v.role === 'spo' ? (input.pools.get(vid)?.stake ?? 0n) : null;
      const _id = `${id}|${v.role}|${vid}`;
      // The ledger keeps a voter's vote, not its anchor (GovActionState's vote maps), so Ogmios lists none: the
      // rationale is the one the blocks carried with the voter's last vote, when that is the vote the ledger holds
      // (the sync may not have reached a later one yet).
      const onChain = chainVotes.get(_id);
      votes.push({
        _id,
        proposalId: id,
        role: v.role,
        voterId: vid,
        vote: v.vote,
        anchor: v.anchor ?? (onChain?.vote === v.vote ? onChain.anchor : null),
        votingPower: power === null ? null : String(power),
        rankPower: power === null ? -1 : adaRank(power),
        epoch,
        computedAt,
      });
    }
    const req = requestedWithdrawals(p.action);
    proposals.push({
      _id: id,
      govActionId: govActionBech32(p.txId, p.index),
      txId: p.txId,
      index: p.index,
      type: String(p.action.type),
      summary: summarize(p.action),
      status: proposalStatus(true, epoch, p.until),
      sinceEpoch: p.since,
      untilEpoch: p.until,
      deposit: String(p.deposit),
      returnAccount: p.returnAccount,
      anchor: p.anchor,
      requestedLovelace: req.total === null ? null : String(req.total),
      withdrawals: req.withdrawals,
      action: toPlain(p.action) as Record<string, unknown>,
      proposedSlot: t?.slot ?? prev?.proposedSlot ?? null,
      proposedAt: t?.time ?? prev?.proposedAt ?? null,
      voteCounts: counts,
      drep: bodies.drep ? drepTally(p, input.dreps, epoch) : null,
      spo: bodies.spo ? spoTally(p, input.pools, input.dreps) : null,
      lastSeenEpoch: epoch,
      source: 'ledger',
      epoch,
      computedAt,
    });
  }

  // Votes on proposals the ledger no longer lists: the ones recorded while it did, with the blocks' last vote of
  // each voter on top (a vote cast after the last recompute that saw the proposal, or while none ran). A voter's
  // power is the one last recorded, else its current power.
  const drepStakeById = new Map<string, bigint>();
  for (const d of input.dreps)
    if (d.kind === 'registered')
      drepStakeById.set(drepBech32({ hash: d.credential as string, script: d.script }), d.stake);
  const unlistedVotes = new Map<string, GovernanceVoteDoc>();
  for (const v of input.previous.votes) if (!listed.has(v.proposalId)) unlistedVotes.set(v._id, v);
  const lateMoves = new Map<string, LateMove[]>();
  for (const c of input.chain?.votes ?? []) {
    if (listed.has(c.proposalId)) continue;
    const prev = unlistedVotes.get(c._id);
    if (prev && prev.vote === c.vote && sameAnchor(prev.anchor, c.anchor)) continue;
    const power =
      prev?.votingPower != null
        ? BigInt(prev.votingPower)
        : c.role === 'drep'
          ? (drepStakeById.get(c.voterId) ?? null)
          : c.role === 'spo'
            ? (input.pools.get(c.voterId)?.stake ?? null)
            : null;
    // The proposal's kept tally counts `prev` (the vote the last listing had, or one moved in since) and nothing of
    // a voter new to it: this vote moves the voter's power once, in the run that first sees it.
    if (power !== null && (c.role === 'drep' || c.role === 'spo') && prev?.vote !== c.vote) {
      let moves = lateMoves.get(c.proposalId);
      if (!moves) lateMoves.set(c.proposalId, (moves = []));
      moves.push({ role: c.role, from: prev?.vote ?? 'notVoted', to: c.vote, power });
    }
    unlistedVotes.set(c._id, {
      _id: c._id,
      proposalId: c.proposalId,
      role: c.role,
      voterId: c.voterId,
      vote: c.vote,
      anchor: c.anchor,
      votingPower: power === null ? null : String(power),
      rankPower: power === null ? -1 : adaRank(power),
      epoch,
      computedAt,
    });
  }
  const votesOf = new Map<string, GovernanceVoteDoc[]>();
  for (const v of unlistedVotes.values()) {
    let list = votesOf.get(v.proposalId);
    if (!list) votesOf.set(v.proposalId, (list = []));
    list.push(v);
    votes.push(v);
  }

  // Proposals the ledger no longer lists keep their last tallies, with the votes cast since moved in; the status
  // moves on and the vote counts follow the votes above. Those known only from blocks are rebuilt from their block document on every run (so a
  // rolled-back submission disappears), never from an earlier run's document.
  const lifetime = lifetimeOf(input);
  const kept = new Set(listed);
  for (const prev of input.previous.proposals) {
    if (listed.has(prev._id) || prev.source === 'chain') continue;
    kept.add(prev._id);
    const status = prev.status === 'active' ? proposalStatus(false, epoch, prev.untilEpoch) : prev.status;
    const origin = chainProposals.get(prev._id);
    const voteCounts = votesOf.has(prev._id) ? countVotes(votesOf.get(prev._id) ?? []) : prev.voteCounts;
    const moves = lateMoves.get(prev._id) ?? [];
    proposals.push({
      ...prev,
      status,
      proposedSlot: origin?.slot ?? prev.proposedSlot,
      proposedAt: origin?.time ?? prev.proposedAt,
      voteCounts,
      drep: withLateVotes(prev.drep, moves, 'drep'),
      spo: withLateVotes(prev.spo, moves, 'spo'),
      source: 'ledger',
      epoch,
      computedAt,
    });
  }
  for (const origin of chainProposals.values()) {
    if (kept.has(origin._id) || lifetime === null) continue;
    kept.add(origin._id);
    const until = origin.epoch + lifetime;
    // Submitted after the ledger state this run read: new, not ratified or dropped.
    const unseen = input.ledgerSlot != null && origin.slot > input.ledgerSlot;
    proposals.push({
      _id: origin._id,
      govActionId: govActionBech32(origin.txId, origin.index),
      txId: origin.txId,
      index: origin.index,
      type: origin.type,
      summary: summarize(origin.action),
      status: proposalStatus(unseen, epoch, until),
      sinceEpoch: origin.epoch,
      untilEpoch: until,
      deposit: origin.deposit,
      returnAccount: origin.returnAccount,
      anchor: origin.anchor,
      requestedLovelace: origin.requestedLovelace,
      withdrawals: origin.withdrawals,
      action: origin.action,
      proposedSlot: origin.slot,
      proposedAt: origin.time,
      voteCounts: countVotes(votesOf.get(origin._id) ?? []),
      // No ledger state was seen for it: no tallies by voting power.
      drep: null,
      spo: null,
      lastSeenEpoch: origin.epoch,
      source: 'chain',
      epoch,
      computedAt,
    });
  }
  // Votes whose proposal is unknown (cast on a proposal submitted before the synced range and never listed while
  // a recompute ran) are dropped: there is no proposal to show them under.
  for (let i = votes.length - 1; i >= 0; i--)
    if (!kept.has((votes[i] as GovernanceVoteDoc).proposalId)) votes.splice(i, 1);

  const votesByDRep = new Map<string, number>();
  for (const v of votes) if (v.role === 'drep') votesByDRep.set(v.voterId, (votesByDRep.get(v.voterId) ?? 0) + 1);

  const dreps: DRepDoc[] = [];
  const seen = new Set<string>();
  for (const d of input.dreps) {
    const id = drepDocId(d);
    seen.add(id);
    const registered = d.kind === 'registered';
    // A registered-type entry without mandate and deposit has no DRep state: Ogmios lists it from the DRep stake
    // distribution computed at the epoch's start, which still holds a DRep that retired since. The ledger no longer
    // counts it (ratification skips a DRep without state; drepTally too) and its delegations were cleared: retired,
    // with no stake, as it will be listed once the next epoch's distribution drops it.
    const retired = registered && d.mandate === null && d.deposit === null;
    dreps.push({
      _id: id,
      kind: d.kind,
      legacyId: registered ? drepLegacyBech32({ hash: d.credential as string, script: d.script }) : null,
      credential: d.credential,
      script: d.script,
      status: retired ? 'retired' : !registered || d.mandate === null || d.mandate >= epoch ? 'active' : 'inactive',
      stake: retired ? '0' : String(d.stake),
      delegators: d.delegators.length,
      deposit: d.deposit === null ? null : String(d.deposit),
      mandateEpoch: d.mandate,
      anchor: d.anchor,
      votesCast: votesByDRep.get(id) ?? 0,
      rankStake: retired ? 0 : adaRank(d.stake),
      epoch,
      computedAt,
    });
  }
  for (const prev of input.previous.dreps) {
    if (seen.has(prev._id)) continue;
    // Retired (deregistered): no stake or delegators any more; the votes it cast stay counted.
    dreps.push({
      ...prev,
      status: 'retired',
      stake: '0',
      delegators: 0,
      rankStake: 0,
      votesCast: votesByDRep.get(prev._id) ?? prev.votesCast,
      epoch,
      computedAt,
    });
  }
  return { proposals, votes, dreps };
}
