/**
 * The governance recompute (every 5 minutes, temporal/schedules.ts `governance`): one activity,
 * recomputeGovernance — queries the ledger (governanceProposals, delegateRepresentatives, stakePools, epoch)
 * through the chain source, reads the previous governance documents and the proposal transactions, and rewrites
 * governance_proposals, governance_votes and dreps (activities/governance/index.ts).
 */
import type { GovernanceActivities, GovernanceRunResult } from '../activities/governance/index.js';
import type { WorkflowContext } from './context.js';

export async function recomputeGovernanceBody(
  ctx: WorkflowContext<GovernanceActivities>,
  _input: null,
): Promise<GovernanceRunResult> {
  return ctx.activities.recomputeGovernance();
}
