/**
 * Governance request and response schemas (Conway proposals, DReps, votes). ADA amounts are whole ADA with the
 * exact lovelace string beside them; vote shares are percent of voting power (0–100) with the denominators
 * described on VoteTally.
 */
import { component, type JsonSchema, type ObjectSchema } from '../schema.js';
import { Ada, Lovelace, PageQueryProperties, searchText } from './common.js';

export const PROPOSAL_STATUSES = ['active', 'expired', 'removed'] as const;

export const ProposalsQuery: ObjectSchema = {
  type: 'object',
  properties: {
    ...PageQueryProperties,
    status: {
      type: 'string',
      enum: [...PROPOSAL_STATUSES],
      description:
        'active: open for votes; expired: past its last epoch; removed: left the ledger before expiring ' +
        '(ratified and enacted, or dropped).',
    },
    q: searchText(
      100,
      'Case-insensitive text search over summary, type, id (txId#index or gov_action1…) and anchor URL; a whole ' +
        'proposal id (txId#index, txId:index or gov_action1…) finds that proposal alone.',
    ),
  },
};

export const ProposalIdParams: ObjectSchema = {
  type: 'object',
  required: ['id'],
  properties: {
    id: {
      type: 'string',
      // The index is a word16 on chain (0-65535); a CIP-129 id is 33 bytes (txId + index byte) in bech32.
      pattern:
        '^([0-9a-fA-F]{64}[#:](0*[0-9]{1,4}|0*[1-5][0-9]{4}|0*6[0-4][0-9]{3}|0*65[0-4][0-9]{2}|0*655[0-2][0-9]|0*6553[0-5])|gov_action1[02-9ac-hj-np-z]{59})$',
      'x-expected': 'txId#index (URL-encoded), txId:index (index 0-65535) or a CIP-129 gov_action1… id',
      description:
        'Proposal id: `txId#index` (URL-encoded as txId%23index), `txId:index` (index 0-65535) or CIP-129 gov_action1… (its bech32 checksum must hold).',
    },
  },
};

export const DRepsQuery: ObjectSchema = { type: 'object', properties: { ...PageQueryProperties } };

export const DRepIdParams: ObjectSchema = {
  type: 'object',
  required: ['id'],
  properties: {
    id: {
      type: 'string',
      // CIP-105 drep1…/drep_script1…: a 28-byte credential hash (51 bech32 characters); CIP-129 drep1…: a header
      // byte and the hash (53); or the credential hash as 56 hex.
      pattern:
        '^(drep1([02-9ac-hj-np-z]{51}|[02-9ac-hj-np-z]{53})|drep_script1[02-9ac-hj-np-z]{51}|drep_always_abstain|drep_always_no_confidence|[0-9a-fA-F]{56})$',
      'x-expected':
        'a DRep id (drep1… CIP-129 or CIP-105, drep_script1…) or drep_always_abstain / drep_always_no_confidence',
      description:
        'DRep id: drep1… (CIP-129 or CIP-105), drep_script1…, or drep_always_abstain / drep_always_no_confidence (a bech32 id’s checksum must hold).',
    },
  },
};

const pct = (description: string): JsonSchema => ({ type: ['number', 'null'], description });
const AsOf = {
  epoch: { type: ['integer', 'null'], description: 'Epoch of the ledger state the figures come from.' },
  computedAt: { type: ['string', 'null'], format: 'date-time', description: 'When the figures were computed.' },
} satisfies Record<string, JsonSchema>;

const Anchor: JsonSchema = {
  type: ['object', 'null'],
  required: ['url', 'hash'],
  properties: { url: { type: 'string' }, hash: { type: 'string' } },
  description: 'Metadata anchor (URL and blake2b-256 of the document); the document is not fetched.',
};

export const VoteTally = component('VoteTally', {
  type: ['object', 'null'],
  description:
    'How one voting body stands, by voting power; null when the body does not vote on this action type, or when ' +
    'the proposal is known only from blocks (source chain). ' +
    'DReps: stake of active registered DReps plus the noConfidence option (yes on a noConfidence action, no ' +
    'otherwise); the abstain option and inactive DReps are left out. Stake pools: live pool stake; a silent pool ' +
    'counts as abstain when its reward account delegates to the abstain option. Every share is over one base, ' +
    "named by shareBase: base = yes + no + abstain + not voted (the body's whole counted voting power), so " +
    'yesPct + noPct + abstainPct + notVotedPct ≤ 100 (each truncated to 4 decimals). ratificationYesPct is the ' +
    "ledger's ratio yes / (yes + no + not voted), the figure compared with a ratification threshold.",
  required: [
    'shareBase',
    'yesPct',
    'noPct',
    'abstainPct',
    'notVotedPct',
    'ratificationYesPct',
    'yes',
    'no',
    'abstain',
    'notVoted',
    'base',
    'lovelace',
  ],
  properties: {
    shareBase: {
      type: 'string',
      enum: ['yes+no+abstain+notVoted'],
      description: 'The denominator of every share here: yes + no + abstain + not voted.',
    },
    yesPct: pct('Yes, percent of base.'),
    noPct: pct('No, percent of base.'),
    abstainPct: pct('Abstaining, percent of base.'),
    notVotedPct: pct('Not voted, percent of base (counts against ratification).'),
    ratificationYesPct: pct('Yes over yes + no + not voted (abstentions excluded), as the ledger ratifies.'),
    yes: Ada,
    no: Ada,
    abstain: Ada,
    notVoted: Ada,
    base: Ada,
    lovelace: {
      type: 'object',
      required: ['yes', 'no', 'abstain', 'notVoted', 'base'],
      properties: { yes: Lovelace, no: Lovelace, abstain: Lovelace, notVoted: Lovelace, base: Lovelace },
    },
  },
});

const counts: JsonSchema = {
  type: 'object',
  required: ['yes', 'no', 'abstain'],
  properties: {
    yes: { type: 'integer', minimum: 0 },
    no: { type: 'integer', minimum: 0 },
    abstain: { type: 'integer', minimum: 0 },
  },
};

const proposalProps: Record<string, JsonSchema> = {
  id: { type: 'string', description: 'txId#index.' },
  govActionId: { type: 'string', description: 'CIP-129 gov_action1… id.' },
  txId: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  index: { type: 'integer', minimum: 0 },
  type: {
    type: 'string',
    description:
      'treasuryWithdrawals, information, protocolParametersUpdate, hardForkInitiation, noConfidence, ' +
      'constitutionalCommittee or constitution.',
  },
  summary: { type: 'string', description: 'What the action asks for, derived from the action itself.' },
  status: { type: 'string', enum: [...PROPOSAL_STATUSES] },
  sinceEpoch: { type: 'integer', minimum: 0, description: 'Epoch of submission.' },
  untilEpoch: { type: 'integer', minimum: 0, description: 'Last epoch in which it can be voted on and ratified.' },
  proposedAt: { type: ['string', 'null'], format: 'date-time', description: 'Time of the submitting transaction.' },
  proposedSlot: {
    type: ['integer', 'null'],
    minimum: 0,
    description: 'Slot of the block that carried the submitting transaction; null when the index does not hold it.',
  },
  deposit: Ada,
  depositLovelace: Lovelace,
  returnAccount: { type: 'string', description: 'Reward account that gets the deposit back.' },
  anchor: Anchor,
  requestedAda: { type: ['number', 'null'], description: 'Treasury withdrawals: Σ requested, whole ADA; else null.' },
  requestedLovelace: { type: ['string', 'null'], pattern: '^[0-9]+$' },
  voteCounts: {
    type: 'object',
    required: ['drep', 'spo', 'committee'],
    description: 'Number of votes cast per body.',
    properties: { drep: counts, spo: counts, committee: counts },
  },
  drep: VoteTally,
  spo: VoteTally,
  lastSeenEpoch: {
    type: 'integer',
    description: 'Last epoch the ledger listed it (tallies are as of then); for source chain, its submission epoch.',
  },
  source: {
    type: 'string',
    enum: ['ledger', 'chain'],
    description:
      'ledger: seen listed by the ledger (tallies by voting power). chain: known only from the synced blocks — ' +
      'submitted and gone before any recompute saw it, or submitted after the ledger reading of the last ' +
      'recompute (active until the next one lists it); no tallies (drep/spo null), votes are the last vote of ' +
      'each voter the blocks carried, status expired when past untilEpoch (submission + the ' +
      'governanceActionLifetime protocol parameter), otherwise removed (or active when newer than the reading).',
  },
};
const PROPOSAL_REQUIRED = Object.keys(proposalProps);

export const ProposalRow = component('GovernanceProposalRow', {
  type: 'object',
  required: PROPOSAL_REQUIRED,
  properties: proposalProps,
});

export const ProposalListResponse = component('GovernanceProposalList', {
  type: 'object',
  required: ['items', 'page', 'pageSize', 'total', 'epoch', 'computedAt'],
  properties: {
    items: { type: 'array', items: ProposalRow },
    page: { type: 'integer', minimum: 1 },
    pageSize: { type: 'integer', minimum: 1 },
    total: { type: 'integer', minimum: 0 },
    ...AsOf,
  },
});

export const GovernanceVote = component('GovernanceVote', {
  type: 'object',
  required: ['role', 'voterId', 'vote', 'votingPower', 'votingPowerLovelace', 'anchor'],
  properties: {
    proposalId: { type: 'string', description: 'txId#index of the proposal.' },
    role: { type: 'string', enum: ['drep', 'spo', 'committee'] },
    voterId: { type: 'string', description: 'drep1… (CIP-129), pool1…, or cc_hot1… (CIP-129).' },
    vote: { type: 'string', enum: ['yes', 'no', 'abstain'] },
    votingPower: { type: ['number', 'null'], description: 'Whole ADA when last seen; null for committee members.' },
    votingPowerLovelace: { type: ['string', 'null'] },
    anchor: Anchor,
  },
});

/** Votes listed in a proposal's detail, largest voting power first. */
export const MAX_DETAIL_VOTES = 500;

export const ProposalDetailResponse = component('GovernanceProposalDetail', {
  type: 'object',
  required: [...PROPOSAL_REQUIRED, 'withdrawals', 'action', 'votes', 'votesTotal', 'epoch', 'computedAt'],
  properties: {
    ...proposalProps,
    withdrawals: {
      type: 'array',
      items: {
        type: 'object',
        required: ['rewardAccount', 'amount', 'lovelace'],
        properties: { rewardAccount: { type: 'string' }, amount: Ada, lovelace: Lovelace },
      },
    },
    action: {
      type: 'object',
      required: ['type'],
      properties: {
        type: {
          type: 'string',
          description:
            'Ogmios v6 action type: treasuryWithdrawals, protocolParametersUpdate, hardForkInitiation, noConfidence, constitutionalCommittee, constitution, information; the other fields as Ogmios names them.',
        },
      },
      description:
        'The action as the ledger reports it (Ogmios v6 form), except that every ADA amount (withdrawals, ' +
        'deposits and fees of a parameter update) is `{ ada: whole ADA, lovelace: exact integer string }`.',
    },
    votes: { type: 'array', items: GovernanceVote, description: `At most ${MAX_DETAIL_VOTES}, by voting power.` },
    votesTotal: { type: 'integer', minimum: 0 },
    ...AsOf,
  },
});

const drepProps: Record<string, JsonSchema> = {
  id: { type: 'string', description: 'CIP-129 drep1…, or drep_always_abstain / drep_always_no_confidence.' },
  kind: { type: 'string', enum: ['registered', 'abstain', 'noConfidence'] },
  legacyId: { type: ['string', 'null'], description: 'CIP-105 form (drep1… / drep_script1…).' },
  credential: { type: ['string', 'null'] },
  script: { type: 'boolean' },
  status: {
    type: 'string',
    enum: ['active', 'inactive', 'retired'],
    description: 'inactive: mandate expired, its stake does not count; retired: no longer registered.',
  },
  stake: { ...Ada, description: 'Stake delegated to it (what its delegators control), whole ADA.' },
  stakeLovelace: Lovelace,
  delegators: { type: 'integer', minimum: 0 },
  deposit: { type: ['number', 'null'] },
  depositLovelace: { type: ['string', 'null'] },
  mandateEpoch: { type: ['integer', 'null'], description: 'Last epoch of its mandate unless it votes again.' },
  anchor: Anchor,
  votesCast: { type: 'integer', minimum: 0 },
};
const DREP_REQUIRED = Object.keys(drepProps);

export const DRepRow = component('DRepRow', { type: 'object', required: DREP_REQUIRED, properties: drepProps });

export const DRepListResponse = component('DRepList', {
  type: 'object',
  required: ['items', 'page', 'pageSize', 'total', 'epoch', 'computedAt'],
  properties: {
    items: { type: 'array', items: DRepRow },
    page: { type: 'integer', minimum: 1 },
    pageSize: { type: 'integer', minimum: 1 },
    total: { type: 'integer', minimum: 0 },
    ...AsOf,
  },
});

/** Votes listed in a DRep's detail. */
export const MAX_DREP_VOTES = 200;

export const DRepDetailResponse = component('DRepDetail', {
  type: 'object',
  required: [...DREP_REQUIRED, 'votes', 'epoch', 'computedAt'],
  properties: {
    ...drepProps,
    votes: { type: 'array', items: GovernanceVote, description: `Its votes (at most ${MAX_DREP_VOTES}).` },
    ...AsOf,
  },
});
