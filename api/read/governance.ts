/**
 * Read functions of governance (REST, MCP and Markdown present their results).
 */
import {
  drepBech32,
  parseDRepId,
  parseGovActionRef,
  PREDEFINED_DREPS,
  proposalKey,
} from '../../cardano/governance-ids.js';
import { type GovernanceProposalDoc } from '../../mongo/collections/governance.js';
import { BadRequestError, NotFoundError } from '../errors.js';
import { presentDRepRow, presentProposal, presentProposalRow, presentVote } from '../present/governance.js';
import { MAX_DETAIL_VOTES, MAX_DREP_VOTES } from '../schemas/governance.js';
import {
  countDReps,
  countProposals,
  countVotesOnProposal,
  drepsByStake,
  proposalsNewestFirst,
  votesOfVoter,
  votesOnProposal,
  DREPS,
  GOVERNANCE_PROPOSALS,
} from '../../mongo/collections/governance.js';
import { jobLastSuccessAt } from '../../mongo/collections/sync-state.js';
import type { governanceRoutes } from '../routes/governance.js';
import type { ReadDeps, RouteInput } from './deps.js';
import { withAsOf } from './freshness.js';
export type Paged = { page: number; pageSize: number };

const PREDEFINED = new Set<string>(Object.values(PREDEFINED_DREPS));

/**
 * Which proposals answer the search text `q` (lowercased). Text that is a whole proposal id in any form the
 * detail route takes (txId#index, txId:index, gov_action1…) finds that one proposal only — `…#1` is no prefix of
 * `…#10`; any other text is looked for in the summary, type, ids and anchor URL.
 */
function matcher(q: string): (d: GovernanceProposalDoc) => boolean {
  const ref = parseGovActionRef(q);
  if (ref) return (d) => d._id === proposalKey(ref);
  return (d) => [d.summary, d.type, d._id, d.govActionId, d.anchor?.url ?? ''].some((s) => s.toLowerCase().includes(q));
}

/**
 * Every governance run rewrites all its documents with its time, so the newest document names the last run; a run
 * over a ledger listing no proposal (or no DRep) writes none, and its time is the job's last success instead (null
 * only before the recompute's first run).
 */
const governanceRunAt = (deps: ReadDeps) => jobLastSuccessAt(deps.store, 'recomputeGovernance');

/**
 * What a list's as-of (epoch, computedAt) is read from when it has no document to show: its collection's newest,
 * else the other one's. Each run rewrites both collections in one batch, every document with the ledger epoch it
 * read, so a run over a ledger listing no proposal still names that epoch through the DReps it wrote (and one
 * listing no DRep through its proposals): the epoch is known, not null. Null only before a run wrote either.
 */
async function governanceAsOf(
  deps: ReadDeps,
  first: 'proposals' | 'dreps',
): Promise<{ epoch: number; computedAt: string } | undefined> {
  const proposal = async () => (await proposalsNewestFirst(deps.store, undefined, { offset: 0, limit: 1 }))[0];
  const drep = async () => (await drepsByStake(deps.store, { offset: 0, limit: 1 }))[0];
  return first === 'proposals' ? ((await proposal()) ?? (await drep())) : ((await drep()) ?? (await proposal()));
}

/**
 * Why a proposal or DRep id is not answered. They are the governance recompute's documents (every 5 minutes), not
 * the chain itself: before its first run none is kept, and "not found" alone read as "no such proposal" (or DRep)
 * for every one on the ledger in a fresh deployment's first minutes. After a run the answer names it (`newest`: any
 * document of the collection asked, all written by the last run): one submitted or registered since is listed by the
 * next run.
 */
async function governanceNotFound(
  deps: ReadDeps,
  what: string,
  newest: { epoch: number; computedAt: string } | undefined,
  since: string,
): Promise<string> {
  const next = `${since} is listed by the next run, every 5 minutes`;
  if (newest)
    return `${what} not found in the governance figures of epoch ${newest.epoch} (computed at ${newest.computedAt}; ${next})`;
  const ran = await governanceRunAt(deps);
  if (ran === null)
    return `${what} not found: the governance figures are not computed yet (the governance recompute runs every 5 minutes); retry in a few minutes`;
  return `${what} not found (the governance run at ${ran} found none on the ledger; ${next})`;
}

async function listGovernanceProposalsAnswer(deps: ReadDeps, input: RouteInput<typeof governanceRoutes.proposals>) {
  const offset = (input.page - 1) * input.pageSize;
  let docs: GovernanceProposalDoc[];
  let total: number;
  if (input.q) {
    // Text search: the proposal set is small (hundreds on mainnet), so filter the ordered list in memory.
    const q = input.q.trim().toLowerCase();
    const hits = (await proposalsNewestFirst(deps.store, input.status)).filter(matcher(q));
    docs = hits.slice(offset, offset + input.pageSize);
    total = hits.length;
  } else {
    [docs, total] = await Promise.all([
      proposalsNewestFirst(deps.store, input.status, { offset, limit: input.pageSize }),
      countProposals(deps.store, input.status),
    ]);
  }
  const asOf = docs[0] ?? (await governanceAsOf(deps, 'proposals'));
  return {
    items: docs.map(presentProposalRow),
    page: input.page,
    pageSize: input.pageSize,
    total,
    epoch: asOf?.epoch ?? null,
    computedAt: asOf?.computedAt ?? (await governanceRunAt(deps)),
  };
}

async function getGovernanceProposalAnswer(deps: ReadDeps, input: RouteInput<typeof governanceRoutes.proposal>) {
  const proposals = deps.store.collection(GOVERNANCE_PROPOSALS);
  const ref = parseGovActionRef(input.id);
  if (!ref)
    throw new BadRequestError(
      'invalid parameter id: must be txId#index (URL-encoded), txId:index or a CIP-129 gov_action1… id',
    );
  const id = proposalKey(ref);
  const doc = await proposals.get(id);
  if (!doc) {
    const [newest] = await proposalsNewestFirst(deps.store, undefined, { offset: 0, limit: 1 });
    throw new NotFoundError(
      await governanceNotFound(deps, `governance proposal ${id}`, newest, 'a proposal submitted since'),
    );
  }
  const [list, votesTotal] = await Promise.all([
    votesOnProposal(deps.store, id, MAX_DETAIL_VOTES),
    countVotesOnProposal(deps.store, id),
  ]);
  return presentProposal(doc, list, votesTotal);
}

async function listDRepsAnswer(deps: ReadDeps, input: RouteInput<typeof governanceRoutes.dreps>) {
  const [docs, total] = await Promise.all([
    drepsByStake(deps.store, { offset: (input.page - 1) * input.pageSize, limit: input.pageSize }),
    countDReps(deps.store),
  ]);
  const asOf = docs[0] ?? (await governanceAsOf(deps, 'dreps'));
  return {
    items: docs.map(presentDRepRow),
    page: input.page,
    pageSize: input.pageSize,
    total,
    epoch: asOf?.epoch ?? null,
    computedAt: asOf?.computedAt ?? (await governanceRunAt(deps)),
  };
}

async function getDRepAnswer(deps: ReadDeps, input: RouteInput<typeof governanceRoutes.drep>) {
  const dreps = deps.store.collection(DREPS);
  let id = input.id;
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
  if (!doc) {
    const [newest] = await drepsByStake(deps.store, { offset: 0, limit: 1 });
    throw new NotFoundError(await governanceNotFound(deps, `DRep ${input.id}`, newest, 'a DRep registered since'));
  }
  const list = await votesOfVoter(deps.store, id, MAX_DREP_VOTES);
  return { ...presentDRepRow(doc), votes: list.map(presentVote), epoch: doc.epoch, computedAt: doc.computedAt };
}

export const listGovernanceProposals = withAsOf(listGovernanceProposalsAnswer);
export const getGovernanceProposal = withAsOf(getGovernanceProposalAnswer);
export const listDReps = withAsOf(listDRepsAnswer);
export const getDRep = withAsOf(getDRepAnswer);
