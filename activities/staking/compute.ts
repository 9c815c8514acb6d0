/**
 * Pure stake-pool figures: parsing the Ogmios StakePool object, saturation, status and the estimated return.
 *
 * Estimated yearly return (delegators' view, a fraction, an ESTIMATE): the Shelley rewards model without the pledge
 * term and with ideal performance. Per epoch the reward pot is R = reserves·ρ·(1−τ) (fees ignored); a pool with
 * stake share σ (live stake / total live stake) earns R·min(σ, 1/k); the operator takes the fixed cost and the
 * margin of the rest; delegators share (R·min(σ,1/k) − cost)·(1 − margin) pro rata. ROA = that / pool stake ×
 * epochs per year. Without the reserves (a source that does not answer queryLedgerState/treasuryAndReserves, e.g.
 * the devnet) the pot is unknown and the estimate is null.
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

/** Live stake / saturation point, where the saturation point is total stake / nOpt. */
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
  /** Epoch reward pot available to pools, lovelace (null = unknown). */
  pot: bigint | null;
  totalStake: bigint;
  nOpt: number;
  epochsPerYear: number;
}

export function rewardPot(reserves: bigint | null, rho: number | null, tau: number | null): bigint | null {
  if (reserves === null || rho === null || tau === null) return null;
  return BigInt(Math.floor(Number(reserves) * rho * (1 - tau)));
}

export function estimatedRoa(pool: { stake: bigint; cost: bigint; margin: number }, m: RewardModel): number | null {
  if (m.pot === null || m.totalStake <= 0n || pool.stake <= 0n || m.nOpt <= 0) return null;
  const sigma = Math.min(Number(pool.stake) / Number(m.totalStake), 1 / m.nOpt);
  const poolReward = Number(m.pot) * sigma;
  const toDelegators = Math.max(0, poolReward - Number(pool.cost)) * (1 - pool.margin);
  return (toDelegators / Number(pool.stake)) * m.epochsPerYear;
}

export const epochsPerYear = (epochLength: number, slotLengthMs: number): number =>
  (365 * 24 * 3600 * 1000) / (epochLength * slotLengthMs);
