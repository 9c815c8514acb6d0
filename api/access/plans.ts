/**
 * Plans as data. The spec's table (Free 120/min + 10,000/day, Plus 300/min + 50,000/day, Pro 600/min +
 * 200,000/day) is the default of `PLAN_LIMITS`; `PLANS_ENFORCED=false` (the spec's current rule) gives every key
 * the Free limits whatever its account's plan says.
 */
import type { Config } from '../../config/index.js';
import type { PlanName } from '../../mongo/collections/access.js';

export interface PlanLimits {
  perMinute: number;
  perDay: number;
}

export const PLAN_NAMES: readonly PlanName[] = ['free', 'plus', 'pro'];

export const isPlanName = (v: string): v is PlanName => (PLAN_NAMES as readonly string[]).includes(v);

/** The plan whose limits a key of an account on `accountPlan` actually gets. */
export function effectivePlan(config: Pick<Config, 'PLANS_ENFORCED'>, accountPlan: PlanName): PlanName {
  return config.PLANS_ENFORCED ? accountPlan : 'free';
}

export function planLimits(config: Pick<Config, 'PLAN_LIMITS'>, plan: PlanName): PlanLimits {
  return config.PLAN_LIMITS[plan];
}
