/**
 * The token safety assessment (pure). Five factors, each measured from chain data and rated low / medium / high
 * risk (or unknown when the index cannot measure it):
 *
 * | factor | measured | high | medium |
 * |---|---|---|---|
 * | mintPolicy | can the policy still mint? (native script clauses against the indexed tip slot) | — | can mint, with or without a time lock; Plutus policy |
 * | holderConcentration | share of the supply held by the 10 largest holders, DEX pools excluded | > 50 % | > 25 % |
 * | liquidityDepth | ADA liquidity over all the token's pools | < 10,000 ADA | < 100,000 ADA |
 * | poolAge | time since the token's first pool was created | < 24 h | < 7 days |
 * | topHolderLpShare | share of the primary pool's LP tokens held by its largest LP holder | > 90 % | > 50 % |
 *
 * A policy that can mint is medium, never high: stablecoins and wrapped assets mint by design; a policy locked
 * (its `before` slot passed) is low. Overall: **high** when two or more factors are high (e.g. a thin pool whose
 * liquidity one holder controls); **medium** when one factor is high or two are medium; **low** otherwise. Unknown
 * factors count as neither.
 *
 * A pool age whose creation the index did not see (the pool predates the indexed range, e.g. from SYNC_START_POINT:
 * the token's `firstPoolExact` is false) is only a lower bound: it is rated low once that bound passes 7 days, else
 * unknown, never high or medium (a years-old pool first seen an hour ago is not a new pool).
 */
import type { RiskLevel, SafetyFactor } from '../../mongo/collections/search.js';

/** Ogmios JSON of a native script. */
export type NativeScript =
  | { clause: 'signature'; from: string }
  | { clause: 'all' | 'any'; from: NativeScript[] }
  | { clause: 'some'; atLeast: number; from: NativeScript[] }
  | { clause: 'before' | 'after'; slot: number };

/**
 * The last slot before which the script can still be satisfied (exclusive), Infinity when never time-bound.
 * `signature` and `after` can be satisfied in the future; `before S` only before S; `all` until its earliest
 * child deadline; `any` until its latest; `some n` until the n-th latest.
 */
export function mintDeadline(s: NativeScript): number {
  switch (s.clause) {
    case 'signature':
    case 'after':
      return Infinity;
    case 'before':
      return s.slot;
    case 'all':
      return Math.min(Infinity, ...s.from.map(mintDeadline));
    case 'any':
      return s.from.length ? Math.max(...s.from.map(mintDeadline)) : -Infinity;
    case 'some': {
      const d = s.from.map(mintDeadline).sort((a, b) => b - a);
      return s.atLeast <= 0 ? Infinity : (d[s.atLeast - 1] ?? -Infinity);
    }
  }
}

export interface SafetyInputs {
  tipSlot: number;
  /** Policy script as indexed: null when no mint under the policy was seen. */
  policy: { language: string; script: string | null } | null;
  /** Share (0..1) of the supply held by the 10 largest non-pool holders; null when unknown. */
  top10Share: number | null;
  liquidityAda: number | null;
  /** Hours since the first pool; null without a pool. */
  poolAgeHours: number | null;
  /**
   * Whether poolAgeHours counts from the first pool's creation (the token's firstPoolExact); false: from when the
   * index first saw a pool that already existed, so the age is a lower bound. Absent = exact.
   */
  poolAgeExact?: boolean;
  /** Share (0..1) of the primary pool's LP tokens held by the largest LP holder; null when unknown. */
  topLpShare: number | null;
}

const pct = (x: number) => Math.round(x * 10000) / 100;

export function mintFactor(tipSlot: number, policy: SafetyInputs['policy']): SafetyFactor {
  const base = { name: 'mintPolicy' as const, unit: null };
  if (!policy)
    return {
      ...base,
      value: null,
      risk: 'unknown',
      detail: 'No mint under this policy was indexed, so its script is unknown.',
    };
  if (policy.language !== 'native' || !policy.script)
    return {
      ...base,
      value: `${policy.language} script`,
      risk: policy.language === 'unknown' ? 'unknown' : 'medium',
      detail:
        policy.language === 'unknown'
          ? 'The mint’s witnesses did not carry the policy script (e.g. a reference script), so whether it can mint again is unknown.'
          : 'A Plutus policy can mint whenever its validator allows; its rules are not evaluated here.',
    };
  const deadline = mintDeadline(JSON.parse(policy.script) as NativeScript);
  if (deadline <= tipSlot)
    return {
      ...base,
      value: `locked since slot ${deadline}`,
      risk: 'low',
      detail: 'The native policy’s time lock has passed: no more tokens can be minted.',
    };
  if (Number.isFinite(deadline))
    return {
      ...base,
      value: `can mint until slot ${deadline}`,
      risk: 'medium',
      detail: 'Time-locked native policy: its keys can mint more until the lock slot.',
    };
  return {
    ...base,
    value: 'can mint (no time lock)',
    risk: 'medium',
    detail: 'Native policy without a time lock: its key holders can mint more at any time.',
  };
}

function graded(
  name: SafetyFactor['name'],
  value: number | null,
  unit: string,
  high: (v: number) => boolean,
  medium: (v: number) => boolean,
  detail: string,
): SafetyFactor {
  if (value === null) return { name, value: null, unit, risk: 'unknown', detail };
  return { name, value, unit, risk: high(value) ? 'high' : medium(value) ? 'medium' : 'low', detail };
}

/** The pool age factor when the first pool's creation is older than the index: a lower bound, rated only at 7 days. */
function poolAgeBound(hours: number): SafetyFactor {
  const value = Math.round(hours * 10) / 10;
  return {
    name: 'poolAge',
    value,
    unit: 'hours',
    risk: value >= 24 * 7 ? 'low' : 'unknown',
    detail:
      'At least this many hours: the token’s first DEX pool predates the indexed chain (first seen there, not created), so its age is only a lower bound, rated low once it passes 7 days and unknown before.',
  };
}

export function assessSafety(i: SafetyInputs): { level: RiskLevel; factors: SafetyFactor[] } {
  const factors: SafetyFactor[] = [
    mintFactor(i.tipSlot, i.policy),
    graded(
      'holderConcentration',
      i.top10Share === null ? null : pct(i.top10Share),
      'percent',
      (v) => v > 50,
      (v) => v > 25,
      'Share of the supply held by the 10 largest holders (stake keys or addresses), DEX pools excluded.',
    ),
    graded(
      'liquidityDepth',
      i.liquidityAda === null ? null : Math.round(i.liquidityAda),
      'ADA',
      (v) => v < 10_000,
      (v) => v < 100_000,
      'ADA liquidity over all the token’s DEX pools: thin liquidity means large price impact and easy manipulation.',
    ),
    i.poolAgeHours !== null && i.poolAgeExact === false
      ? poolAgeBound(i.poolAgeHours)
      : graded(
          'poolAge',
          i.poolAgeHours === null ? null : Math.round(i.poolAgeHours * 10) / 10,
          'hours',
          (v) => v < 24,
          (v) => v < 24 * 7,
          'Hours since the token’s first DEX pool was created.',
        ),
    graded(
      'topHolderLpShare',
      i.topLpShare === null ? null : pct(i.topLpShare),
      'percent',
      (v) => v > 90,
      (v) => v > 50,
      'Share of the primary pool’s LP tokens held by the largest LP holder, who can withdraw that share of the liquidity.',
    ),
  ];
  const highs = factors.filter((f) => f.risk === 'high');
  const mediums = factors.filter((f) => f.risk === 'medium');
  const level: RiskLevel = highs.length >= 2 ? 'high' : highs.length >= 1 || mediums.length >= 2 ? 'medium' : 'low';
  return { level, factors };
}
