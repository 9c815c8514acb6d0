/**
 * Storage-network overview schema (spec: Storage network and market — "network-wide totals and recent activity").
 * Every figure is `{ value, description }`: the number (IAG decimal-adjusted, ADA whole, counts) and one line saying
 * what it is and where it comes from.
 */
import { component, type JsonSchema } from '../schema.js';

const Figure = component('StorageFigure', {
  type: 'object',
  required: ['value', 'description'],
  properties: {
    value: { type: ['number', 'null'], description: 'null when not derivable (not configured, not yet seen).' },
    description: { type: 'string', description: 'What the figure is.' },
  },
});

const figures = (names: readonly string[], description: string): JsonSchema => ({
  type: 'object',
  description,
  required: [...names],
  properties: Object.fromEntries(names.map((n) => [n, Figure])),
});

export const STORAGE_MARKET_FIGURES = [
  'priceAda',
  'priceUsd',
  'change24h',
  'volume24hAda',
  'liquidityAda',
  'liquidityUsd',
] as const;
export const STORAGE_SUPPLY_FIGURES = ['totalSupply', 'onChainQuantity', 'circulatingSupply', 'holders'] as const;
export const STORAGE_STAKING_FIGURES = [
  'totalStaked',
  'stakeOutputs',
  'providers',
  'activeProviders',
  'activePositions',
  'activeStake',
  'retiringProviders',
  'retiringPositions',
  'retiringStake',
  'unrecognisedOutputs',
  'rewardPool',
  'rewardsClaimed24h',
  'rewardClaims24h',
  'rewardsClaimed7d',
  'rewardClaims7d',
] as const;

const kinds = ['stake', 'resize', 'retire', 'withdraw', 'reward-claim', 'reward-reclaim', 'reward-fund'];

const Activity = component('StorageActivity', {
  type: 'object',
  required: ['kind', 'time', 'txHash', 'provider', 'providerAddress', 'amount', 'amountRaw', 'state'],
  properties: {
    kind: {
      type: 'string',
      enum: kinds,
      description:
        'stake: IAG locked at a staking script; resize: an Active stake re-locked (larger); retire: re-locked as ' +
        'Retiring (withdrawal requested); withdraw: a stake output spent back to the provider; reward-claim: IAG ' +
        'a provider took from a reward script with a certificate; reward-reclaim: taken by the owner without one; ' +
        'reward-fund: IAG added to a reward script.',
    },
    time: { type: 'string', format: 'date-time' },
    txHash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    provider: { type: ['string', 'null'], description: 'Provider payment key hash (hex) from the datum/certificate.' },
    providerAddress: { type: ['string', 'null'], description: 'The stake datum’s providerAddr, when it has one.' },
    amount: { type: 'number', description: 'IAG, decimal-adjusted.' },
    amountRaw: { type: 'string', pattern: '^[0-9]+$', description: 'Exact raw IAG (6 decimals).' },
    state: { type: ['string', 'null'], enum: ['active', 'retiring', null], description: 'Stake state after it.' },
  },
});

export const StorageOverviewResponse = component('StorageNetworkOverview', {
  type: 'object',
  required: ['network', 'token', 'market', 'supply', 'staking', 'recentActivity', 'computedAt', 'coverageFrom'],
  properties: {
    network: { type: 'string', enum: ['iagon'], description: 'The storage network: Iagon.' },
    token: {
      type: 'object',
      required: ['unit', 'ticker', 'decimals'],
      properties: { unit: { type: 'string' }, ticker: { type: 'string' }, decimals: { type: 'integer' } },
    },
    market: figures(STORAGE_MARKET_FIGURES, 'IAG market figures from its on-chain DEX pools.'),
    supply: figures(STORAGE_SUPPLY_FIGURES, 'IAG supply and holders as seen on chain.'),
    staking: {
      type: 'object',
      required: ['available', 'reason', 'stakeScripts', 'rewardScripts', 'figures'],
      properties: {
        available: {
          type: 'boolean',
          description: 'false when no staking script is configured (or not yet computed).',
        },
        reason: { type: ['string', 'null'], description: 'Why the staking figures are unavailable; null otherwise.' },
        stakeScripts: { type: 'array', items: { type: 'string' }, description: 'Staking validator script hashes.' },
        rewardScripts: { type: 'array', items: { type: 'string' }, description: 'Reward validator script hashes.' },
        figures: figures(STORAGE_STAKING_FIGURES, 'Storage-provider staking and rewards (null when unavailable).'),
      },
    },
    recentActivity: { type: 'array', items: Activity, description: 'Latest staking and reward events, newest first.' },
    computedAt: { type: ['string', 'null'], format: 'date-time', description: 'When the figures were computed.' },
    coverageFrom: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'Time of the first indexed block: events and claims before it are not counted.',
    },
    slot: { type: ['integer', 'null'], description: 'Slot of the indexed tip the figures reflect.' },
  },
});
