/**
 * Governance (Conway): proposals newest first (status filter, text search), one proposal with its votes, DReps
 * by delegated stake, one DRep with its votes. All read the documents of the governance recompute (every
 * 5 minutes; `epoch` and `computedAt` say as of when).
 */
import Router from '@koa/router';
import { drepBech32, parseDRepId, parseGovActionRef, proposalKey } from '../../cardano/governance-ids.js';
import {
  DREPS,
  GOVERNANCE_PROPOSALS,
  GOVERNANCE_VOTES,
  type GovernanceProposalDoc,
  type ProposalStatus,
} from '../../mongo/collections/governance.js';
import type { ApiDeps } from '../deps.js';
import { BadRequestError, NotFoundError } from '../errors.js';
import { presentDRepRow, presentProposal, presentProposalRow, presentVote } from '../present/governance.js';
import { defineRoute, register, type AnyRouteSpec, type RestModule } from '../route.js';
import {
  DRepDetailResponse,
  DRepIdParams,
  DRepListResponse,
  DRepsQuery,
  MAX_DETAIL_VOTES,
  MAX_DREP_VOTES,
  ProposalDetailResponse,
  ProposalIdParams,
  ProposalListResponse,
  ProposalsQuery,
} from '../schemas/governance.js';

const TAGS = ['Governance'];
type Paged = { page: number; pageSize: number };

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
  }),
} satisfies Record<string, AnyRouteSpec>;

const PREDEFINED = new Set(['drep_always_abstain', 'drep_always_no_confidence']);

function matches(d: GovernanceProposalDoc, q: string): boolean {
  return [d.summary, d.type, d._id, d.govActionId, d.anchor?.url ?? ''].some((s) => s.toLowerCase().includes(q));
}

export function governanceRouter(deps: ApiDeps): Router {
  const proposals = deps.store.collection(GOVERNANCE_PROPOSALS);
  const votes = deps.store.collection(GOVERNANCE_VOTES);
  const dreps = deps.store.collection(DREPS);
  const router = new Router();

  register(router, governanceRoutes.proposals, async (_ctx, { query }) => {
    const offset = (query.page - 1) * query.pageSize;
    // Newest first: submission epoch, then slot, both descending.
    const [index, eq] = query.status ? ['byStatus', [query.status]] : ['byNewest', []];
    let docs: GovernanceProposalDoc[];
    let total: number;
    if (query.q) {
      // Text search: the proposal set is small (hundreds on mainnet), so filter the ordered list in memory.
      const q = query.q.toLowerCase();
      const hits = (await proposals.find(index, { eq, reverse: true })).filter((d) => matches(d, q));
      docs = hits.slice(offset, offset + query.pageSize);
      total = hits.length;
    } else {
      [docs, total] = await Promise.all([
        proposals.find(index, { eq, reverse: true, offset, limit: query.pageSize }),
        proposals.count(index, { eq }),
      ]);
    }
    const asOf = docs[0] ?? (await proposals.find('byNewest', { reverse: true, limit: 1 }))[0];
    return {
      items: docs.map(presentProposalRow),
      page: query.page,
      pageSize: query.pageSize,
      total,
      epoch: asOf?.epoch ?? null,
      computedAt: asOf?.computedAt ?? null,
    };
  });

  register(router, governanceRoutes.proposal, async (_ctx, { params }) => {
    const ref = parseGovActionRef(params.id);
    if (!ref)
      throw new BadRequestError(
        'invalid parameter id: must be txId#index (URL-encoded), txId:index or a CIP-129 gov_action1… id',
      );
    const id = proposalKey(ref);
    const doc = await proposals.get(id);
    if (!doc) throw new NotFoundError(`governance proposal ${id} not found`);
    const [list, votesTotal] = await Promise.all([
      votes.find('byProposal', { eq: [id], reverse: true, limit: MAX_DETAIL_VOTES }),
      votes.count('byProposal', { eq: [id] }),
    ]);
    return presentProposal(doc, list, votesTotal);
  });

  register(router, governanceRoutes.dreps, async (_ctx, { query }) => {
    const [docs, total] = await Promise.all([
      dreps.find('byStake', { reverse: true, offset: (query.page - 1) * query.pageSize, limit: query.pageSize }),
      dreps.count('byStake'),
    ]);
    const asOf = docs[0] ?? (await dreps.find('byStake', { reverse: true, limit: 1 }))[0];
    return {
      items: docs.map(presentDRepRow),
      page: query.page,
      pageSize: query.pageSize,
      total,
      epoch: asOf?.epoch ?? null,
      computedAt: asOf?.computedAt ?? null,
    };
  });

  register(router, governanceRoutes.drep, async (_ctx, { params }) => {
    let id = params.id;
    if (!PREDEFINED.has(id)) {
      const cred = parseDRepId(id);
      if (!cred)
        throw new BadRequestError(
          'invalid parameter id: must be a DRep id (drep1… CIP-129 or CIP-105, drep_script1…) or ' +
            'drep_always_abstain / drep_always_no_confidence',
        );
      id = drepBech32(cred);
    }
    const doc = await dreps.get(id);
    if (!doc) throw new NotFoundError(`DRep ${params.id} not found`);
    const list = await votes.find('byVoter', { eq: [id], reverse: true, limit: MAX_DREP_VOTES });
    return { ...presentDRepRow(doc), votes: list.map(presentVote), epoch: doc.epoch, computedAt: doc.computedAt };
  });

  return router;
}

export const governanceModule: RestModule = { routes: Object.values(governanceRoutes), router: governanceRouter };
