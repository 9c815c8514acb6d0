/**
 * Explorer request and response schemas (spec: Explorer). Responses list the fields this version sends; the spec
 * allows fields to be added within /v1, so objects are open (no `additionalProperties: false`).
 */
import { component, type JsonSchema, type ObjectSchema } from '../schema.js';
import {
  Activity,
  Ada,
  AsOf,
  AssetList,
  BECH32_ADDRESS_PATTERN,
  CursorQueryProperties,
  handleSchemas,
  Hash64,
  IndexedFrom,
  Lovelace,
} from './common.js';
import { HandleRef } from './handles.js';

export const BlockIdParams: ObjectSchema = {
  type: 'object',
  required: ['id'],
  properties: {
    id: {
      type: 'string',
      // Any height a block could have (the ledger's block number is a 64-bit word: at most 20 digits) is well formed;
      // one above the tip is not found (404), as for a pool id.
      pattern: '^([0-9a-fA-F]{64}|[0-9]{1,20})$',
      'x-expected': 'a 64-hex block hash or a block height (a non-negative integer of at most 20 digits)',
      description: 'Block header hash (64 hex) or block height.',
    },
  },
};

export const TxHashParams: ObjectSchema = {
  type: 'object',
  required: ['hash'],
  properties: {
    hash: {
      type: 'string',
      pattern: '^[0-9a-fA-F]{64}$',
      'x-expected': '64 hex characters',
      description: 'Transaction id (64 hex).',
    },
  },
};

export const AddressParams: ObjectSchema = {
  type: 'object',
  required: ['address'],
  properties: {
    address: {
      type: 'string',
      anyOf: [
        {
          minLength: 8,
          maxLength: 1023,
          // Bech32 (addr1…, stake1…, their _test forms; capitals are refused by the read, saying so) or Byron
          // base58; the checksum must hold too.
          pattern: `^(${BECH32_ADDRESS_PATTERN}|[1-9A-HJ-NP-Za-km-z]{8,})$`,
          'x-expected': 'a Cardano address (addr1…, stake1… or Byron base58) or an ADA Handle ($name or sub@root)',
        },
        ...handleSchemas(false),
      ],
      'x-expected': 'a Cardano address (addr1…, stake1… or Byron base58) or an ADA Handle ($name or sub@root)',
      description:
        'Payment address (addr1… or Byron base58) or stake address (stake1…), or an ADA Handle ($name, URL-encoded %24name, or sub@root): the answer is then for the stake key of the address holding it (that address when it has no stake key) and carries `handle`: { handle, name, kind, address, stakeAddress, script }.',
    },
  },
};

export const BlockResponse = component('Block', {
  type: 'object',
  required: [
    'hash',
    'height',
    'slot',
    'time',
    'epoch',
    'era',
    'previousBlock',
    'nextBlock',
    'size',
    'txCount',
    'fees',
    'feesLovelace',
    'totalOutput',
    'totalOutputLovelace',
    'issuerPoolId',
    'issuerVkey',
    'protocolVersion',
    'confirmations',
    'txIds',
  ],
  properties: {
    hash: Hash64,
    height: { type: 'integer', minimum: 0, description: 'Block number (height) on the indexed chain.' },
    slot: { type: 'integer', minimum: 0 },
    time: { type: 'string', format: 'date-time', description: 'UTC time of the slot.' },
    epoch: { type: 'integer', minimum: 0 },
    era: { type: 'string' },
    previousBlock: { type: ['string', 'null'], description: 'Hash of the previous block; null after genesis.' },
    nextBlock: {
      type: ['string', 'null'],
      description: 'Hash of the next block; null at the indexed tip (it may still change by a rollback).',
    },
    size: { type: 'integer', minimum: 0, description: 'Block body size in bytes.' },
    txCount: { type: 'integer', minimum: 0 },
    fees: { ...Ada, description: 'Sum of the transaction fees, whole ADA.' },
    feesLovelace: Lovelace,
    totalOutput: {
      ...Ada,
      description:
        'Sum of the outputs its transactions created, whole ADA (a failed transaction created only its collateral return).',
    },
    totalOutputLovelace: Lovelace,
    issuerPoolId: { type: ['string', 'null'], description: 'pool1… id of the issuer; null for Byron blocks.' },
    issuerVkey: { type: ['string', 'null'], description: 'Issuer cold verification key (hex).' },
    protocolVersion: { type: ['string', 'null'], description: 'major.minor of the header.' },
    confirmations: {
      type: 'integer',
      minimum: 1,
      description: 'Indexed tip height - height + 1 (1 = this is the tip).',
    },
    txIds: { type: 'array', items: Hash64 },
  },
});

/** Query of the latest blocks: a cursor list (limit 1-200, default 50). */
export const BlocksQuery: ObjectSchema = { type: 'object', properties: { ...CursorQueryProperties } };

const blockProps = BlockResponse.properties as Record<string, JsonSchema>;
/** A block in the latest-blocks list: the block answer without its transaction ids and next block. */
const BlockSummary = component('BlockSummary', {
  type: 'object',
  required: (BlockResponse.required as string[]).filter((f) => f !== 'txIds' && f !== 'nextBlock'),
  properties: Object.fromEntries(Object.entries(blockProps).filter(([f]) => f !== 'txIds' && f !== 'nextBlock')),
});

export const BlockListResponse = component('BlockList', {
  type: 'object',
  required: ['items', 'nextCursor', 'tipHeight'],
  properties: {
    items: {
      type: 'array',
      items: BlockSummary,
      description:
        'The indexed chain’s blocks, newest first (height descending); GET /explorer/blocks/{id} has one with its transaction ids.',
    },
    nextCursor: { type: ['string', 'null'], description: 'Pass as cursor for the next (older) page; null at the end.' },
    tipHeight: {
      type: ['integer', 'null'],
      description:
        'Height of the indexed tip (the sync checkpoint) this page was read at; null before the first block. Blocks adopted after a first page are on a new first page, not on the older pages.',
    },
  },
});

const ValueFields = {
  ada: Ada,
  lovelace: Lovelace,
  assets: AssetList,
};

/** An output another transaction created, named by its reference and resolved from the indexed transactions. */
const ResolvedOutputFields = {
  txId: Hash64,
  index: { type: 'integer', minimum: 0 },
  resolved: { type: 'boolean' },
  address: { type: ['string', 'null'] },
  ada: { type: ['number', 'null'] },
  lovelace: { type: ['string', 'null'] },
  assets: AssetList,
};

export const TxInput = component('TxInput', {
  type: 'object',
  required: Object.keys(ResolvedOutputFields),
  description:
    'A spent output. resolved=false when the output predates the indexed range: address and amounts are then null.',
  properties: ResolvedOutputFields,
});

export const TxOutput = component('TxOutput', {
  type: 'object',
  required: ['index', 'address', 'stakeAddress', 'ada', 'lovelace', 'assets', 'datumHash', 'datum', 'scriptRef'],
  properties: {
    index: { type: 'integer', minimum: 0 },
    address: { type: 'string' },
    stakeAddress: { type: ['string', 'null'] },
    ...ValueFields,
    datumHash: { type: ['string', 'null'] },
    datum: { type: ['string', 'null'], description: 'Inline datum, CBOR hex.' },
    scriptRef: {
      anyOf: [{ type: 'object', properties: { language: { type: 'string' } } }, { type: 'null' }],
    },
  },
});

export const TxReferenceInput = component('TxReferenceInput', {
  type: 'object',
  required: [...Object.keys(ResolvedOutputFields), 'datumHash', 'datum', 'scriptRef'],
  description:
    'An output read, not spent, as the transaction that created it holds it. resolved=false when that transaction ' +
    'predates the indexed range: address, amounts, datum and script are then null.',
  properties: {
    ...ResolvedOutputFields,
    datumHash: { type: ['string', 'null'] },
    datum: { type: ['string', 'null'], description: 'Inline datum, CBOR hex.' },
    scriptRef: {
      anyOf: [{ type: 'object', properties: { language: { type: 'string' } } }, { type: 'null' }],
      description: 'The reference script the output carries (its language), the usual reason to reference it.',
    },
  },
});

export const TxResponse = component('Transaction', {
  type: 'object',
  required: [
    'hash',
    'block',
    'time',
    'slot',
    'confirmations',
    'valid',
    'fee',
    'feeLovelace',
    'size',
    'inputs',
    'outputs',
    'referenceInputs',
    'collaterals',
    'collateralReturn',
    'mint',
    'certificates',
    'withdrawals',
    'metadata',
    'datums',
    'redeemers',
    'validityInterval',
    'totalOutput',
    'totalOutputLovelace',
    'treasuryDonation',
    'treasuryDonationLovelace',
  ],
  properties: {
    hash: Hash64,
    block: {
      type: 'object',
      required: ['hash', 'height', 'index'],
      properties: {
        hash: Hash64,
        height: { type: 'integer', minimum: 0 },
        index: { type: 'integer', minimum: 0, description: 'Position of the transaction in the block.' },
      },
    },
    time: { type: 'string', format: 'date-time' },
    slot: { type: 'integer', minimum: 0 },
    confirmations: { type: ['integer', 'null'], minimum: 1 },
    valid: {
      type: 'boolean',
      description: 'false when phase-2 validation failed: the collaterals were spent instead of the inputs.',
    },
    fee: {
      ...Ada,
      description:
        'What the transaction paid, whole ADA: the fee its body declares; for a failed transaction (valid false) ' +
        'the collateral it lost instead (its total collateral, or its collaterals less the collateral return); for a ' +
        'Byron transaction, whose body declares none, its inputs less its outputs (0 when an input predates the ' +
        'indexed history, its value unknown).',
    },
    feeLovelace: Lovelace,
    size: { type: ['integer', 'null'], description: 'Serialized size in bytes.' },
    inputs: {
      type: 'array',
      items: TxInput,
      description:
        'The inputs the body declares; a failed transaction (valid false) spent none of them (its collaterals instead).',
    },
    outputs: {
      type: 'array',
      items: TxOutput,
      description: 'The outputs the body declares; a failed transaction (valid false) created none of them.',
    },
    referenceInputs: {
      type: 'array',
      items: TxReferenceInput,
      description:
        'Outputs the transaction reads without spending them (reference scripts and datums, CIP-31), in body order.',
    },
    collaterals: { type: 'array', items: TxInput },
    collateralReturn: { anyOf: [TxOutput, { type: 'null' }] },
    mint: {
      ...AssetList,
      description:
        'Minted (positive) and burned (negative) quantities the body declares; a failed transaction (valid false) minted and burned nothing.',
    },
    certificates: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type'],
        properties: {
          type: {
            type: 'string',
            description:
              'Ogmios v6 certificate type: stakeCredentialRegistration, stakeCredentialDeregistration, stakeDelegation, stakePoolRegistration, stakePoolRetirement, delegateRepresentativeRegistration, … (its other fields as Ogmios names them).',
          },
        },
      },
      description:
        'Certificates as Ogmios v6 reports them, except that every ADA amount (deposits, refunds, pledge, cost) is ' +
        '`{ ada: whole ADA, lovelace: exact integer string }`; other big integers are strings. Those of a failed ' +
        'transaction (valid false) took no effect.',
    },
    withdrawals: {
      type: 'array',
      description: 'Reward withdrawals the body declares; a failed transaction (valid false) withdrew nothing.',
      items: {
        type: 'object',
        required: ['stakeAddress', 'ada', 'lovelace'],
        properties: { stakeAddress: { type: 'string' }, ada: Ada, lovelace: Lovelace },
      },
    },
    metadata: {
      type: ['object', 'null'],
      propertyNames: { pattern: '^[0-9]+$' },
      additionalProperties: {
        // The depth and the text are the sync's (activities/sync/values.ts MAX_METADATUM_DEPTH, metadatumPlain);
        // test/api/explorer-deep-metadata.test.ts checks that this says what an answer carries.
        description:
          'The metadatum of this label in the chain source\'s "no schema" JSON: text, an integer (as a string when ' +
          'beyond 2^53), a list, or a map (integer keys written as text). A metadatum with no such form (one that ' +
          'holds a byte string, for instance) is `{ "cbor": hex }`: its CBOR. A list or map nested deeper than 100 ' +
          "levels is not kept (the ledger bounds a metadatum's strings, not its nesting): the text " +
          '"(nested deeper than 100 levels: not kept)" stands at its place.',
      },
      description: 'Transaction metadata by label (a word64 label, decimal) (big integers as strings).',
    },
    datums: {
      type: 'array',
      description:
        'Datums in the transaction’s witness set, by hash: the full datum of an output that carries only its ' +
        'datumHash (one this transaction creates, or one it spends from a script). Inline datums are on the outputs.',
      items: {
        type: 'object',
        required: ['hash', 'datum'],
        properties: {
          hash: Hash64,
          datum: { type: 'string', description: 'The datum, CBOR hex (its blake2b-256 is hash).' },
        },
      },
    },
    redeemers: {
      type: 'array',
      description:
        'Redeemers in the transaction’s witness set: one per Plutus script run, with what it unlocks, the data the ' +
        'script was handed and the execution units it was allowed. A failed transaction (valid false) is one whose ' +
        'scripts failed with them.',
      items: {
        type: 'object',
        required: ['purpose', 'index', 'redeemer', 'executionUnits'],
        properties: {
          purpose: {
            type: 'string',
            description: 'What the script validates: spend, mint, publish, withdraw, vote or propose.',
          },
          index: {
            type: 'integer',
            minimum: 0,
            description:
              'Position of what it validates in the body’s own order: the input among the inputs sorted by ' +
              'txId#index (spend), the policy id among the minted ones sorted (mint), the certificate (publish), the ' +
              'reward account among the withdrawals sorted (withdraw), the voter (vote) or the proposal (propose).',
          },
          redeemer: { type: 'string', description: 'The redeemer data, CBOR hex.' },
          executionUnits: {
            type: 'object',
            required: ['memory', 'cpu'],
            properties: {
              memory: { type: 'integer', minimum: 0, description: 'Memory units.' },
              cpu: { type: 'integer', minimum: 0, description: 'CPU steps.' },
            },
          },
        },
      },
    },
    validityInterval: {
      type: 'object',
      required: ['invalidBefore', 'invalidAfter'],
      properties: {
        invalidBefore: { type: ['integer', 'null'], description: 'Slot.' },
        invalidAfter: { type: ['integer', 'null'], description: 'Slot.' },
      },
    },
    proposals: { type: 'integer', minimum: 0, description: 'Governance proposals in the transaction.' },
    proposalDeposits: {
      type: 'array',
      description:
        'The deposit of each governance proposal of the transaction (returned to the return account when the ' +
        'action ends); with the certificate deposits, inputs + withdrawals + refunds = outputs + fee + deposits + ' +
        'treasuryDonation. ' +
        'Empty for a transaction without proposals or one that failed validation.',
      items: {
        type: 'object',
        required: ['proposalId', 'govActionId', 'deposit', 'depositLovelace', 'returnAccount'],
        properties: {
          proposalId: { type: 'string', description: '`txId#index`, as /governance/proposals/{id} takes it.' },
          govActionId: { type: 'string', description: 'CIP-129 gov_action1… id.' },
          deposit: Ada,
          depositLovelace: Lovelace,
          returnAccount: { type: 'string' },
        },
      },
    },
    votes: { type: 'integer', minimum: 0, description: 'Governance votes in the transaction.' },
    totalOutput: {
      ...Ada,
      description:
        'Sum of the outputs it created, whole ADA: its outputs, or for a failed transaction its collateral return.',
    },
    totalOutputLovelace: Lovelace,
    treasuryDonation: {
      ...Ada,
      description:
        'ADA the transaction gave to the treasury (Conway), whole ADA; 0 when it gave none, and for a transaction ' +
        'that failed validation (only its collateral is taken).',
    },
    treasuryDonationLovelace: Lovelace,
  },
});

export const StakeAccount = component('StakeAccount', {
  type: 'object',
  description: 'Registration and delegation of a stake key as certified on chain within the indexed range.',
  required: [
    'registered',
    'poolId',
    'drep',
    'deposit',
    'depositLovelace',
    'withdrawn',
    'withdrawnLovelace',
    'rewards',
    'rewardsLovelace',
    'rewardsAsOf',
  ],
  properties: {
    registered: { type: 'boolean' },
    poolId: { type: ['string', 'null'], description: 'pool1… id the key delegates to.' },
    drep: {
      type: ['string', 'null'],
      description:
        'DRep the key delegates its vote to, as GET /governance/dreps/{id} takes it: CIP-129 drep1…, or ' +
        'drep_always_abstain / drep_always_no_confidence (a store synced before this form holds the credential hex).',
    },
    deposit: { type: ['number', 'null'], description: 'Registration deposit, whole ADA.' },
    depositLovelace: { type: ['string', 'null'] },
    withdrawn: { ...Ada, description: 'Rewards withdrawn in the indexed range, whole ADA.' },
    withdrawnLovelace: Lovelace,
    rewards: {
      type: ['number', 'null'],
      description:
        'Unwithdrawn reward balance, whole ADA, as the ledger reported it at rewardsAsOf (the staking recompute reads it every 5 minutes; the ledger credits rewards at epoch boundaries, and a withdrawal since that read is not yet subtracted); null when not read: the key is not registered, or no recompute has read it yet.',
    },
    rewardsLovelace: { type: ['string', 'null'], pattern: '^[0-9]+$' },
    rewardsAsOf: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'When the staking recompute that read the balance finished (ISO 8601).',
    },
  },
});

const nullableActivity: JsonSchema = { anyOf: [Activity, { type: 'null' }] };
const nullableAccount: JsonSchema = { anyOf: [StakeAccount, { type: 'null' }] };

/** Shared head of both address answers. */
const addressCommon = {
  address: { type: 'string' },
  type: { type: 'string', enum: ['payment', 'stake'] },
  script: { type: 'boolean', description: 'The payment (or, for stake addresses, the stake) credential is a script.' },
  stakeAddress: { type: ['string', 'null'] },
  balance: { ...Ada, description: 'Sum of the unspent outputs, whole ADA.' },
  balanceLovelace: Lovelace,
  assets: AssetList,
  utxoCount: { type: 'integer', minimum: 0 },
  txCount: { type: 'integer', minimum: 0 },
  firstActivity: nullableActivity,
  lastActivity: nullableActivity,
  stakeAccount: nullableAccount,
  coverageFrom: IndexedFrom,
} satisfies Record<string, JsonSchema>;

export const PaymentAddressResponse = component('PaymentAddress', {
  type: 'object',
  required: Object.keys(addressCommon).concat(['addressType', 'paymentCred']),
  properties: {
    ...addressCommon,
    // The answer is one of two objects: api/route.ts adds asOf to an object answer's own properties only.
    asOf: AsOf,
    handle: HandleRef,
    type: { type: 'string', const: 'payment' },
    addressType: { type: 'string', enum: ['base', 'pointer', 'enterprise', 'byron'] },
    paymentCred: { type: ['string', 'null'], description: 'Payment credential hash (hex); null for Byron.' },
  },
});

export const StakeAddressResponse = component('StakeAddress', {
  type: 'object',
  required: Object.keys(addressCommon).concat([
    'addressCount',
    'addresses',
    'addressesLimit',
    'complete',
    'txCountExact',
  ]),
  properties: {
    ...addressCommon,
    asOf: AsOf,
    handle: HandleRef,
    type: { type: 'string', const: 'stake' },
    addressCount: { type: 'integer', minimum: 0, description: 'Payment addresses seen with this stake key.' },
    addresses: {
      type: 'array',
      description: 'The first addressesLimit addresses of the key (in address order) with their balances.',
      items: {
        type: 'object',
        required: ['address', 'balance', 'balanceLovelace', 'utxoCount', 'txCount'],
        properties: {
          address: { type: 'string' },
          balance: Ada,
          balanceLovelace: Lovelace,
          utxoCount: { type: 'integer', minimum: 0 },
          txCount: { type: 'integer', minimum: 0 },
        },
      },
    },
    addressesLimit: { type: 'integer', minimum: 1 },
    complete: {
      type: 'boolean',
      description:
        'true when balance, assets and utxoCount sum every address of the key (the sync keeps these totals, so always true).',
    },
    txCount: {
      type: 'integer',
      minimum: 0,
      description:
        'Distinct transactions touching any address of the key, withdrawing its rewards or certifying it (registration, delegation); a transaction doing several of these counts once. firstActivity and lastActivity are the first and last of them.',
    },
    txCountExact: {
      type: 'boolean',
      description: 'true when txCount counts distinct transactions (the sync keeps that count, so always true).',
    },
  },
});

export const AddressResponse: JsonSchema = { oneOf: [PaymentAddressResponse, StakeAddressResponse] };
