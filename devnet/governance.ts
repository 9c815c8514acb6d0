/**
 * Conway governance on the devnet: the ledger's governance state (registered DReps, vote delegations, proposals
 * and their votes), the CBOR and Ogmios v6 JSON of the governance parts of a transaction (DRep certificates, vote
 * delegation, `proposals`, `votes`) and the answers of `queryLedgerState/governanceProposals` and
 * `queryLedgerState/delegateRepresentatives`.
 *
 * Rules kept from Conway (mainnet parameters unless said): a DRep registers with a 500 ADA deposit and an
 * optional anchor; its mandate runs `DREP_ACTIVITY` epochs from its registration or last vote; a proposal locks a
 * 100,000 ADA deposit returned to its (registered) return account when it leaves the ledger; a vote replaces the
 * same voter's earlier vote on the same proposal. The lifetime is `GOV_ACTION_LIFETIME` epochs (mainnet: 6 of
 * 5 days) so that a 48 h devnet history sees proposals expire.
 *
 * What the devnet does NOT model: a constitutional committee. Under Conway rules no action that needs the
 * committee's approval (treasury withdrawals, parameter changes, hard forks, constitutions) can be ratified
 * without one, and info actions are never ratified, so every devnet proposal ends by expiring. The devnet drops
 * an expired proposal at the first epoch boundary after its `until` epoch (the real ledger one boundary later).
 */
import { addressBytes } from './world.js';
import { Tagged, type CborValue } from './cbor.js';
import { stringify } from './json.js';

export const GOV_ACTION_LIFETIME = 3;
export const GOV_ACTION_DEPOSIT = 100_000_000_000n;
export const DREP_DEPOSIT = 500_000_000n;
export const DREP_ACTIVITY = 6;

export interface Anchor {
  url: string;
  /** blake2b-256 of the document, hex. */
  hash: string;
}

export type DRepChoice = { type: 'registered'; cred: string } | { type: 'abstain' } | { type: 'noConfidence' };

export type GovCert =
  | { type: 'delegateRepresentativeRegistration'; drep: string; deposit: bigint; anchor: Anchor | null }
  /** Conway vote delegation (CBOR tag 9); Ogmios shows it as a `stakeDelegation` with `delegateRepresentative`. */
  | { type: 'voteDelegation'; cred: string; drep: DRepChoice };

/** The protocol parameters a devnet proposal may change (Ogmios names; sizes in bytes, fee in lovelace/byte). */
export interface ParamUpdate {
  minFeeCoefficient?: bigint;
  maxBlockBodySize?: number;
  maxTransactionSize?: number;
  desiredNumberOfStakePools?: number;
}

export type GovAction =
  | { type: 'information' }
  | { type: 'treasuryWithdrawals'; withdrawals: { rewardAddress: string; amount: bigint }[]; guardrails: string }
  | { type: 'protocolParametersUpdate'; parameters: ParamUpdate; guardrails: string };

export interface ProposalDraft {
  deposit: bigint;
  returnAccount: string;
  /** Stake credential of the return account (where the deposit goes back). */
  returnCred: string;
  anchor: Anchor;
  action: GovAction;
}

export type Voter =
  { role: 'delegateRepresentative'; cred: string } | { role: 'stakePoolOperator'; poolId: string; poolHash: string };

export type VoteChoice = 'yes' | 'no' | 'abstain';

export interface VoteDraft {
  voter: Voter;
  proposal: { txId: string; index: number };
  vote: VoteChoice;
  anchor: Anchor | null;
}

export interface DRepState {
  cred: string;
  deposit: bigint;
  anchor: Anchor | null;
  /** Last epoch the DRep counts as active (registration or last vote + DREP_ACTIVITY). */
  mandate: number;
}

export interface ProposalState extends ProposalDraft {
  txId: string;
  index: number;
  since: number;
  until: number;
  /** Voter key (`drep:<cred>`, `spo:<pool id>`) → the voter's current vote. */
  votes: Map<string, { voter: Voter; vote: VoteChoice; anchor: Anchor | null }>;
}

const voterKey = (v: Voter) => (v.role === 'delegateRepresentative' ? `drep:${v.cred}` : `spo:${v.poolId}`);

export class GovState {
  readonly dreps = new Map<string, DRepState>();
  /** Stake credential → its vote delegation. */
  readonly voteDelegations = new Map<string, DRepChoice>();
  /** `txId#index` → proposal, in submission order. */
  readonly proposals = new Map<string, ProposalState>();

  /** Applies a transaction's governance certificates, proposals and votes in `epoch`. */
  apply(
    tx: { id: string; certificates: readonly { type: string }[]; proposals?: ProposalDraft[]; votes?: VoteDraft[] },
    epoch: number,
  ): void {
    for (const c of tx.certificates as GovCert[]) {
      if (c.type === 'delegateRepresentativeRegistration')
        this.dreps.set(c.drep, { cred: c.drep, deposit: c.deposit, anchor: c.anchor, mandate: epoch + DREP_ACTIVITY });
      else if (c.type === 'voteDelegation') this.voteDelegations.set(c.cred, c.drep);
    }
    (tx.proposals ?? []).forEach((p, index) => {
      this.proposals.set(`${tx.id}#${index}`, {
        ...p,
        txId: tx.id,
        index,
        since: epoch,
        until: epoch + GOV_ACTION_LIFETIME,
        votes: new Map(),
      });
    });
    for (const v of tx.votes ?? []) {
      const p = this.proposals.get(`${v.proposal.txId}#${v.proposal.index}`);
      if (!p) throw new Error(`devnet ledger: vote on unknown proposal ${v.proposal.txId}#${v.proposal.index}`);
      p.votes.set(voterKey(v.voter), { voter: v.voter, vote: v.vote, anchor: v.anchor });
      if (v.voter.role === 'delegateRepresentative') {
        const d = this.dreps.get(v.voter.cred);
        if (d) d.mandate = epoch + DREP_ACTIVITY;
      }
    }
  }

  /** Epoch boundary: drops proposals past their `until` epoch; returns their deposit refunds. */
  startEpoch(epoch: number): { cred: string; amount: bigint }[] {
    const refunds: { cred: string; amount: bigint }[] = [];
    for (const [key, p] of [...this.proposals]) {
      if (p.until >= epoch) continue;
      this.proposals.delete(key);
      refunds.push({ cred: p.returnCred, amount: p.deposit });
    }
    return refunds;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// CBOR (Conway CDDL) of the governance parts of a transaction body.

const unhex = (h: string): Uint8Array => Buffer.from(h, 'hex');
const anchorCbor = (a: Anchor | null): CborValue => (a ? [a.url, unhex(a.hash)] : null);

function drepCbor(d: DRepChoice): CborValue {
  if (d.type === 'registered') return [0, unhex(d.cred)];
  return d.type === 'abstain' ? [2] : [3];
}

export function govCertCbor(c: GovCert): CborValue {
  switch (c.type) {
    case 'delegateRepresentativeRegistration':
      return [16, [0, unhex(c.drep)], c.deposit, anchorCbor(c.anchor)];
    case 'voteDelegation':
      return [9, [0, unhex(c.cred)], drepCbor(c.drep)];
  }
}

/** Conway protocol_param_update keys of the parameters devnet proposals change. */
function paramsCbor(p: ParamUpdate): CborValue {
  const m = new Map<CborValue, CborValue>();
  if (p.minFeeCoefficient !== undefined) m.set(0, p.minFeeCoefficient);
  if (p.maxBlockBodySize !== undefined) m.set(2, p.maxBlockBodySize);
  if (p.maxTransactionSize !== undefined) m.set(3, p.maxTransactionSize);
  if (p.desiredNumberOfStakePools !== undefined) m.set(8, p.desiredNumberOfStakePools);
  return m;
}

function actionCbor(a: GovAction): CborValue {
  switch (a.type) {
    case 'information':
      return [6];
    case 'treasuryWithdrawals':
      return [
        2,
        new Map<CborValue, CborValue>(a.withdrawals.map((w) => [addressBytes(w.rewardAddress), w.amount])),
        unhex(a.guardrails),
      ];
    case 'protocolParametersUpdate':
      return [0, null, paramsCbor(a.parameters), unhex(a.guardrails)];
  }
}

/** Body key 20: proposal_procedures (a tagged set). */
export const proposalsCbor = (ps: readonly ProposalDraft[]): CborValue =>
  new Tagged(
    258,
    ps.map((p) => [p.deposit, addressBytes(p.returnAccount), actionCbor(p.action), anchorCbor(p.anchor)]),
  );

const VOTE_CODE: Record<VoteChoice, number> = { no: 0, yes: 1, abstain: 2 };

/** Body key 19: voting_procedures, voter → (gov action id → [vote, anchor]). */
export function votesCbor(vs: readonly VoteDraft[]): CborValue {
  const byVoter = new Map<string, { voter: CborValue; votes: Map<CborValue, CborValue> }>();
  for (const v of vs) {
    const key = voterKey(v.voter);
    let entry = byVoter.get(key);
    if (!entry) {
      const voter: CborValue =
        v.voter.role === 'delegateRepresentative' ? [2, unhex(v.voter.cred)] : [4, unhex(v.voter.poolHash)];
      byVoter.set(key, (entry = { voter, votes: new Map() }));
    }
    entry.votes.set([unhex(v.proposal.txId), v.proposal.index], [VOTE_CODE[v.vote], anchorCbor(v.anchor)]);
  }
  return new Map<CborValue, CborValue>([...byVoter.values()].map((e) => [e.voter, e.votes]));
}

// ---------------------------------------------------------------------------------------------------------------
// Ogmios v6 JSON.

const ada = (n: bigint) => ({ ada: { lovelace: n } });

function drepJson(d: DRepChoice): Record<string, unknown> {
  return d.type === 'registered' ? { type: 'registered', from: 'verificationKey', id: d.cred } : { type: d.type };
}

export function govCertJson(c: GovCert): Record<string, unknown> {
  switch (c.type) {
    case 'delegateRepresentativeRegistration':
      return {
        type: c.type,
        delegateRepresentative: { type: 'registered', from: 'verificationKey', id: c.drep },
        deposit: ada(c.deposit),
        ...(c.anchor ? { metadata: c.anchor } : {}),
      };
    case 'voteDelegation':
      return {
        type: 'stakeDelegation',
        from: 'verificationKey',
        credential: c.cred,
        delegateRepresentative: drepJson(c.drep),
      };
  }
}

function paramsJson(p: ParamUpdate): Record<string, unknown> {
  return {
    ...(p.minFeeCoefficient !== undefined ? { minFeeCoefficient: p.minFeeCoefficient } : {}),
    ...(p.maxBlockBodySize !== undefined ? { maxBlockBodySize: { bytes: p.maxBlockBodySize } } : {}),
    ...(p.maxTransactionSize !== undefined ? { maxTransactionSize: { bytes: p.maxTransactionSize } } : {}),
    ...(p.desiredNumberOfStakePools !== undefined ? { desiredNumberOfStakePools: p.desiredNumberOfStakePools } : {}),
  };
}

function actionJson(a: GovAction): Record<string, unknown> {
  switch (a.type) {
    case 'information':
      return { type: 'information' };
    case 'treasuryWithdrawals':
      return {
        type: 'treasuryWithdrawals',
        withdrawals: Object.fromEntries(a.withdrawals.map((w) => [w.rewardAddress, ada(w.amount)])),
        guardrails: { hash: a.guardrails },
      };
    case 'protocolParametersUpdate':
      return {
        type: 'protocolParametersUpdate',
        parameters: paramsJson(a.parameters),
        guardrails: { hash: a.guardrails },
      };
  }
}

const proposalJson = (p: ProposalDraft) => ({
  deposit: ada(p.deposit),
  returnAccount: p.returnAccount,
  metadata: p.anchor,
  action: actionJson(p.action),
});

function issuerJson(v: Voter): Record<string, unknown> {
  return v.role === 'delegateRepresentative'
    ? { role: v.role, from: 'verificationKey', id: v.cred }
    : { role: v.role, id: v.poolId };
}

/** The `proposals` field of a transaction. */
export const proposalsJson = (ps: readonly ProposalDraft[]): string => stringify(ps.map(proposalJson));

/** The `votes` field of a transaction. */
export const votesJson = (vs: readonly VoteDraft[]): string =>
  stringify(
    vs.map((v) => ({
      proposal: { transaction: { id: v.proposal.txId }, index: v.proposal.index },
      issuer: issuerJson(v.voter),
      vote: v.vote,
      ...(v.anchor ? { metadata: v.anchor } : {}),
    })),
  );

/** `queryLedgerState/governanceProposals` (optionally filtered by `proposals: [{transaction:{id}, index}]`). */
export function governanceProposalsResult(gov: GovState, params: Record<string, unknown>): string {
  const filter = Array.isArray(params.proposals)
    ? new Set(
        (params.proposals as { transaction?: { id?: unknown }; index?: unknown }[]).map(
          (r) => `${String(r?.transaction?.id)}#${String(r?.index)}`,
        ),
      )
    : null;
  const out: unknown[] = [];
  for (const [key, p] of gov.proposals) {
    if (filter && !filter.has(key)) continue;
    out.push({
      proposal: { transaction: { id: p.txId }, index: p.index },
      ...proposalJson(p),
      since: { epoch: p.since },
      until: { epoch: p.until },
      // The ledger keeps each voter's vote, not the anchor it came with (GovActionState's vote maps), and Ogmios
      // lists votes as {issuer, vote}: the rationale anchor is in the voting transaction only.
      votes: [...p.votes.values()].map((v) => ({ issuer: issuerJson(v.voter), vote: v.vote })),
    });
  }
  return stringify(out);
}

/**
 * `queryLedgerState/delegateRepresentatives` (optionally filtered by `keys: [hex credential]`): every registered
 * DRep, then the predefined abstain and noConfidence options. A DRep's stake is what its delegators control —
 * `stakeOf(credential)` (UTxO stake plus unwithdrawn rewards) — plus the deposits of live proposals whose return
 * account delegates to it, as the Conway DRep distribution counts them.
 */
export function delegateRepresentativesResult(
  gov: GovState,
  stakeOf: (cred: string) => bigint,
  params: Record<string, unknown>,
): string {
  const keys = Array.isArray(params.keys) ? new Set(params.keys.map((k) => String(k).toLowerCase())) : null;
  const delegators = new Map<string, string[]>();
  for (const [cred, d] of gov.voteDelegations) {
    const key = d.type === 'registered' ? d.cred : `:${d.type}`;
    let list = delegators.get(key);
    if (!list) delegators.set(key, (list = []));
    list.push(cred);
  }
  const deposits = new Map<string, bigint>();
  for (const p of gov.proposals.values()) {
    const d = gov.voteDelegations.get(p.returnCred);
    if (!d) continue;
    const key = d.type === 'registered' ? d.cred : `:${d.type}`;
    deposits.set(key, (deposits.get(key) ?? 0n) + p.deposit);
  }
  const stake = (key: string) =>
    (delegators.get(key) ?? []).reduce((s, c) => s + stakeOf(c), 0n) + (deposits.get(key) ?? 0n);
  const delegatorsJson = (key: string) =>
    (delegators.get(key) ?? []).map((credential) => ({ from: 'verificationKey', credential }));
  const out: unknown[] = [];
  for (const d of gov.dreps.values()) {
    if (keys && !keys.has(d.cred)) continue;
    out.push({
      type: 'registered',
      from: 'verificationKey',
      id: d.cred,
      mandate: { epoch: d.mandate },
      ...(d.anchor ? { metadata: d.anchor } : {}),
      deposit: ada(d.deposit),
      stake: ada(stake(d.cred)),
      delegators: delegatorsJson(d.cred),
    });
  }
  if (!keys)
    for (const type of ['abstain', 'noConfidence'] as const)
      out.push({ type, stake: ada(stake(`:${type}`)), delegators: delegatorsJson(`:${type}`) });
  return stringify(out);
}
