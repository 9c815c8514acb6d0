/**
 * Governance (Conway): proposals newest first (status filter, text search), one proposal with its votes, DReps
 * by delegated stake, one DRep with its votes. All read the documents of the governance recompute (every
 * 5 minutes; `epoch` and `computedAt` say as of when).
 */
import Router from '@koa/router';
import { parseDRepId, parseGovActionRef, PREDEFINED_DREPS } from '../../cardano/governance-ids.js';
import { type ProposalStatus } from '../../mongo/collections/governance.js';
import type { ApiDeps } from '../deps.js';
import { defineRoute, lowercaseIdHint, register, type AnyRouteSpec, type RestModule } from '../route.js';
import {
  DRepDetailResponse,
  DRepIdParams,
  DRepListResponse,
  DRepsQuery,
  ProposalDetailResponse,
  ProposalIdParams,
  ProposalListResponse,
  ProposalsQuery,
} from '../schemas/governance.js';
import { listGovernanceProposals, getGovernanceProposal, listDReps, getDRep, type Paged } from '../read/governance.js';

const TAGS = ['Governance'];

export const governanceRoutes = {
  proposals: defineRoute<Record<string, never>, Paged & { status?: ProposalStatus; q?: string }>({
    operationId: 'listGovernanceProposals',
    path: '/governance/proposals',
    summary: 'Governance proposals, newest first: type, status, epochs, requested ADA, DRep and SPO vote shares',
    tags: TAGS,
    query: ProposalsQuery,
    response: ProposalListResponse,
  }),
  proposal: defineRoute<{ id: string }>({
    operationId: 'getGovernanceProposal',
    path: '/governance/proposals/{id}',
    summary: 'One governance proposal with its votes',
    tags: TAGS,
    params: ProposalIdParams,
    response: ProposalDetailResponse,
    paramHints: { id: proposalIdHint },
  }),
  dreps: defineRoute<Record<string, never>, Paged>({
    operationId: 'listDReps',
    path: '/governance/dreps',
    summary: 'Delegated representatives by delegated stake, largest first',
    tags: TAGS,
    query: DRepsQuery,
    response: DRepListResponse,
  }),
  drep: defineRoute<{ id: string }>({
    operationId: 'getDRep',
    path: '/governance/dreps/{id}',
    summary: 'One delegated representative with its votes',
    tags: TAGS,
    params: DRepIdParams,
    response: DRepDetailResponse,
    paramHints: { id: drepIdHint },
  }),
} satisfies Record<string, AnyRouteSpec>;

export function proposalIdHint(raw: string): string | null {
  return lowercaseIdHint(raw, (lower) => lower.startsWith('gov_action1') && parseGovActionRef(lower) !== null);
}

export function drepIdHint(raw: string): string | null {
  const predefined: readonly string[] = Object.values(PREDEFINED_DREPS);
  return lowercaseIdHint(
    raw,
    (lower) => predefined.includes(lower) || (/^drep(_script)?1/.test(lower) && parseDRepId(lower) !== null),
  );
}

export function governanceRouter(deps: ApiDeps): Router {
  const router = new Router();

  register(router, governanceRoutes.proposals, (_ctx, { params, query }) =>
    listGovernanceProposals(deps, { ...params, ...query }),
  );

  register(router, governanceRoutes.proposal, (_ctx, { params, query }) =>
    getGovernanceProposal(deps, { ...params, ...query }),
  );

  register(router, governanceRoutes.dreps, (_ctx, { params, query }) => listDReps(deps, { ...params, ...query }));

  register(router, governanceRoutes.drep, (_ctx, { params, query }) => getDRep(deps, { ...params, ...query }));

  return router;
}

export const governanceModule: RestModule = { routes: Object.values(governanceRoutes), router: governanceRouter };
