/**
 * Pure stake-pool figures: parsing the Ogmios StakePool object, saturation, status and the estimated return.
 *
 * Returns follow the Shelley rewards model: per epoch the pools share the pot R (queryLedgerState/
 * stakePoolsPerformances `totalRewardsInEpoch`, else reserves·ρ·(1−τ)); a pool earns maxPool(σ, pledge) × its
 * apparent performance, with σ its stake over the ledger's total stake (circulation: max supply − reserves); the
 * operator takes the fixed cost and the margin of the rest; delegators share the remainder pro rata. A yearly
 * figure is the per-epoch return × epochs per year, compounded no further.
 */
import type { StakePoolStatus } from '../../mongo/collections/staking.js';

/** Lovelace of an Ogmios amount: `{ ada: { lovelace } }`, `{ lovelace }`, a bigint, number or integer string. */
export function lovelace(x: unknown): bigint | null {
  if (typeof x === 'bigint') return x;
  if (typeof x === 'number' && Number.isInteger(x)) return BigInt(x);
  if (typeof x === 'string' && /^-?[0-9]+$/.test(x)) return BigInt(x);
  if (x && typeof x === 'object') {
    const o = x as Record<string, unknown>;
    if ('ada' in o) return lovelace((o.ada as Record<string, unknown> | undefined)?.lovelace);
    if ('lovelace' in o) return lovelace(o.lovelace);
  }
  return null;
}

/** "n/d" (Ogmios ratio) as a number; null when malformed or d = 0. */
export function ratio(x: unknown): number | null {
  if (typeof x === 'number') return x;
  if (typeof x !== 'string') return null;
  const m = /^(-?[0-9]+)\/([0-9]+)$/.exec(x);
  if (!m) return /^-?[0-9.]+$/.test(x) ? Number(x) : null;
  const d = Number(m[2]);
  return d === 0 ? null : Number(m[1]) / d;
}

export const adaNumber = (l: bigint): number => Number(l) / 1e6;

/** Live stake / saturation point, where the saturation point is the ledger's total stake (circulation) / nOpt. */
export function saturation(stake: bigint, totalStake: bigint, nOpt: number): number {
  if (totalStake <= 0n || nOpt <= 0) return 0;
  return (Number(stake) * nOpt) / Number(totalStake);
}

/** retired: the retirement epoch has come; retiring: announced for a later epoch. */
export function poolStatus(retiringEpoch: number | null, epoch: number, inLedger: boolean | null): StakePoolStatus {
  if (retiringEpoch !== null && retiringEpoch <= epoch) return 'retired';
  if (inLedger === false) return 'retired';
  return retiringEpoch !== null ? 'retiring' : 'active';
}

export interface RewardModel {
  /** R: the epoch's reward pot shared by the pools (after the treasury's cut), lovelace; null = unknown. */
  pot: bigint | null;
  /** The ledger's total stake: max supply − reserves (circulation), lovelace. */
  totalStake: bigint;
  nOpt: number;
  /** Pledge influence a0. */
  a0: number;
  epochsPerYear: number;
}

/** R when the ledger does not report it: reserves · ρ · (1 − τ) (fees, a small share on mainnet, ignored). */
export function rewardPot(reserves: bigint | null, rho: number | null, tau: number | null): bigint | null {
  if (reserves === null || rho === null || tau === null) return null;
  return BigInt(Math.floor(Number(reserves) * rho * (1 - tau)));
}

/**
 * The Shelley maxPool: the most a pool with `stake` and `pledge` (lovelace) can earn in an epoch, lovelace.
 * σ' = min(σ, z0), s' = min(s, z0), z0 = 1/k; maxPool = R/(1+a0) · (σ' + s'·a0·(σ' − s'(z0 − σ')/z0)/z0).
 */
export function maxPoolReward(stake: bigint, pledge: bigint, m: RewardModel): number | null {
  if (m.pot === null || m.totalStake <= 0n || m.nOpt <= 0) return null;
  const z0 = 1 / m.nOpt;
  const sigma = Math.min(Number(stake) / Number(m.totalStake), z0);
  const s = Math.min(Number(pledge) / Number(m.totalStake), z0);
  const factor = sigma + (s * m.a0 * (sigma - (s * (z0 - sigma)) / z0)) / z0;
  return (Number(m.pot) / (1 + m.a0)) * factor;
}

/** Delegators' yearly return on `stake` when the pool earns `poolReward` per epoch: (reward − cost)(1 − margin). */
function delegatorsYearly(poolReward: number, stake: bigint, cost: bigint, margin: number, m: RewardModel): number {
  const toDelegators = Math.max(0, poolReward - Number(cost)) * (1 - margin);
  return (toDelegators / Number(stake)) * m.epochsPerYear;
}

export interface PoolTerms {
  stake: bigint;
  pledge: bigint;
  cost: bigint;
  margin: number;
}

/**
 * Estimated yearly return for delegators (a fraction, an ESTIMATE): the Shelley rewards model at the pool's live
 * stake with ideal performance, the latest reward pot carried forward. `ownerStake` is the owners' live stake
 * delegated to the pool: below the pledge the ledger's reward rule pays the pool nothing (the estimate is 0, as the
 * realised return of such an epoch is); null = unknown, the pledge is taken as met. Null without a pot.
 */
export function estimatedRoa(pool: PoolTerms & { ownerStake?: bigint | null }, m: RewardModel): number | null {
  if (pool.stake <= 0n) return null;
  if (m.pot !== null && pool.ownerStake != null && pool.ownerStake < pool.pledge) return 0;
  const reward = maxPoolReward(pool.stake, pool.pledge, m);
  return reward === null ? null : delegatorsYearly(reward, pool.stake, pool.cost, pool.margin, m);
}

/**
 * Realised yearly return of the last completed epoch: what the ledger's reward rule paid the delegators per
 * lovelace of the pool's active stake — maxPool × the pool's apparent performance, nothing when the owners'
 * stake fell short of the pledge — annualised. Null when the ledger does not report the epoch's performance.
 */
export function realisedRoa(
  pool: PoolTerms & { performance: number | null; ownerStake: bigint | null },
  m: RewardModel,
): number | null {
  if (pool.performance === null || pool.stake <= 0n) return null;
  if (pool.ownerStake !== null && pool.ownerStake < pool.pledge) return 0;
  const reward = maxPoolReward(pool.stake, pool.pledge, m);
  return reward === null ? null : delegatorsYearly(reward * pool.performance, pool.stake, pool.cost, pool.margin, m);
}

export const epochsPerYear = (epochLength: number, slotLengthMs: number): number =>
  (365 * 24 * 3600 * 1000) / (epochLength * slotLengthMs);
