/**
 * Staking request and response schemas (spec: Staking). ADA amounts are whole ADA with the exact lovelace string
 * beside them; margin, saturation and returns are plain fractions (0.02 = 2 %), the REST convention.
 */
import { component, type JsonSchema, type ObjectSchema } from '../schema.js';
import { Ada, IndexedFrom, Lovelace, PageQueryProperties } from './common.js';

export const StakePoolIdParams: ObjectSchema = {
  type: 'object',
  required: ['id'],
  properties: {
    id: {
      type: 'string',
      pattern: '^pool1[02-9ac-hj-np-z]{50,60}$',
      'x-expected': 'a bech32 pool id (pool1…)',
      description: 'Bech32 pool id (pool1…).',
    },
  },
};

export const StakePoolsQuery: ObjectSchema = {
  type: 'object',
  properties: {
    ...PageQueryProperties,
  },
};

const fraction = (description: string): JsonSchema => ({ type: 'number', description });
const nullableFraction = (description: string): JsonSchema => ({ type: ['number', 'null'], description });
/** An exact lovelace amount as a decimal string (beside its whole-ADA number), or null. */
const nullableLovelace = (description: string): JsonSchema => ({
  type: ['string', 'null'],
  pattern: '^[0-9]+$',
  description,
});
const ROA =
  'Estimated yearly return for delegators, fraction (an estimate: the Shelley rewards model at the live stake ' +
  "with ideal performance and the latest epoch reward pot; 0 when the owners' live stake is below the pledge, " +
  'as the ledger then pays the pool nothing); null when the reward pot is unknown.';

const rowProps: Record<string, JsonSchema> = {
  id: { type: 'string', description: 'pool1… id.' },
  ticker: { type: ['string', 'null'], description: 'From hash-verified metadata; null when not verified.' },
  name: { type: ['string', 'null'] },
  status: { type: 'string', enum: ['active', 'retiring', 'retired'] },
  liveStake: Ada,
  liveStakeLovelace: Lovelace,
  saturation: fraction(
    'Live stake / saturation point (circulating supply / nOpt, as the ledger counts it), fraction; saturated from 100 % up.',
  ),
  margin: fraction('Operator margin, fraction.'),
  fixedCost: { ...Ada, description: 'Fixed cost, whole ADA per epoch.' },
  fixedCostLovelace: Lovelace,
  pledge: Ada,
  pledgeLovelace: Lovelace,
  delegators: { type: 'integer', minimum: 0 },
  blocksThisEpoch: { type: 'integer', minimum: 0 },
  roa: nullableFraction(ROA),
};
const ROW_REQUIRED = Object.keys(rowProps);

export const StakePoolRow = component('StakePoolRow', {
  type: 'object',
  required: ROW_REQUIRED,
  properties: rowProps,
});

export const StakePoolListResponse = component('StakePoolList', {
  type: 'object',
  required: ['items', 'page', 'pageSize', 'total', 'epoch', 'computedAt'],
  properties: {
    items: { type: 'array', items: StakePoolRow },
    page: { type: 'integer', minimum: 1 },
    pageSize: { type: 'integer', minimum: 1 },
    total: { type: 'integer', minimum: 0 },
    epoch: { type: ['integer', 'null'] },
    computedAt: { type: ['string', 'null'], format: 'date-time', description: 'When the pool figures were computed.' },
  },
});

export const StakePoolDetailResponse = component('StakePoolDetail', {
  type: 'object',
  required: [...ROW_REQUIRED, 'hash', 'metadata', 'performance', 'delegatorsSummary', 'epoch', 'computedAt'],
  properties: {
    ...rowProps,
    hash: { type: 'string', pattern: '^[0-9a-f]{56}$', description: 'Pool key hash.' },
    epoch: { type: 'integer', minimum: 0, description: 'Epoch the figures refer to.' },
    computedAt: { type: 'string', format: 'date-time', description: 'When the figures were computed.' },
    coverageFrom: IndexedFrom,
    retiringEpoch: { type: ['integer', 'null'] },
    activeStake: {
      type: ['number', 'null'],
      description: 'Stake of the epoch snapshot, whole ADA; null when unknown.',
    },
    activeStakeLovelace: nullableLovelace('activeStake, exact lovelace; null when unknown.'),
    ownerStake: {
      type: ['number', 'null'],
      description:
        "The owners' live stake delegated to the pool, whole ADA (what the ledger's reward rule compares with the " +
        'pledge); null when unknown.',
    },
    ownerStakeLovelace: nullableLovelace('ownerStake, exact lovelace; null when unknown.'),
    pledgeMet: {
      type: ['boolean', 'null'],
      description:
        "Whether the owners' live stake covers the pledge; false: the ledger pays the pool and its delegators " +
        'nothing for an epoch whose snapshot has it so. Null when unknown.',
    },
    vrfKeyHash: { type: ['string', 'null'] },
    rewardAccount: { type: ['string', 'null'] },
    owners: { type: 'array', items: { type: 'string' } },
    relays: {
      type: 'array',
      description: 'Relays of the registration certificate, as Ogmios v6 reports them.',
      items: {
        type: 'object',
        required: ['type'],
        properties: {
          type: { type: 'string', enum: ['ipAddress', 'hostname'] },
          ipv4: { type: 'string', description: 'ipAddress relays: dotted IPv4 address.' },
          ipv6: { type: 'string', description: 'ipAddress relays: IPv6 address.' },
          hostname: { type: 'string', description: 'hostname relays: DNS name (A/AAAA or SRV).' },
          port: { type: 'integer', minimum: 0, maximum: 65535 },
        },
      },
    },
    metadata: {
      type: 'object',
      required: ['url', 'hash', 'verified', 'reason', 'ticker', 'name', 'description', 'homepage'],
      properties: {
        url: { type: ['string', 'null'] },
        hash: { type: ['string', 'null'] },
        verified: {
          type: ['boolean', 'null'],
          description:
            'true: fetched and matched the registered hash; false: fetched, did not match; null: not fetched.',
        },
        reason: {
          type: ['string', 'null'],
          description: 'Why the fields are null when not verified (e.g. the hash does not match); null when verified.',
        },
        ticker: { type: ['string', 'null'] },
        name: { type: ['string', 'null'] },
        description: { type: ['string', 'null'] },
        homepage: { type: ['string', 'null'] },
      },
    },
    performance: {
      type: 'object',
      required: ['blocksThisEpoch', 'blocksMinted', 'estimatedRoa', 'realisedRoa'],
      properties: {
        blocksThisEpoch: { type: 'integer', minimum: 0 },
        blocksMinted: { type: 'integer', minimum: 0, description: 'Blocks seen in the indexed range.' },
        estimatedRoa: nullableFraction(ROA),
        realisedRoa: nullableFraction(
          'Yearly return the delegators realised in the last completed epoch, fraction: the reward the ledger ' +
            "rule paid for the pool's apparent performance, per unit of active stake, × epochs per year; null " +
            "when the ledger does not report the epoch's performance.",
        ),
      },
    },
    delegatorsSummary: {
      type: 'object',
      required: [
        'count',
        'delegatedStake',
        'delegatedStakeLovelace',
        'delegatedRewards',
        'delegatedRewardsLovelace',
        'top',
      ],
      properties: {
        count: { type: 'integer', minimum: 0 },
        delegatedStake: {
          ...Ada,
          description:
            "Σ of the delegators' address balances, whole ADA (UTxO stake: every address carrying a delegating " +
            'stake key; unwithdrawn rewards excluded).',
        },
        delegatedStakeLovelace: { ...Lovelace, description: 'delegatedStake, exact lovelace.' },
        delegatedRewards: {
          type: ['number', 'null'],
          description:
            "Σ of the delegators' unwithdrawn rewards, whole ADA; null when the ledger was not asked. Live stake = " +
            'delegatedStake + delegatedRewards.',
        },
        delegatedRewardsLovelace: nullableLovelace(
          'delegatedRewards, exact lovelace (liveStakeLovelace = delegatedStakeLovelace + this).',
        ),
        top: {
          type: 'array',
          description: 'Largest delegators by live stake (address balances + unwithdrawn rewards; at most 20).',
          items: {
            type: 'object',
            required: ['stakeAddress', 'stake', 'stakeLovelace'],
            properties: { stakeAddress: { type: 'string' }, stake: Ada, stakeLovelace: Lovelace },
          },
        },
      },
    },
  },
});
