/**
 * Governance recompute, run every 5 minutes (temporal/schedules.ts `governance`):
 * - recomputeGovernance — queries the ledger through the chain source (queryLedgerState/epoch,
 *   governanceProposals, delegateRepresentatives, stakePools with stake), reads the previous governance documents
 *   (proposals the ledger no longer lists are kept with their final status and last tallies) and the proposal
 *   transactions (slot and time of submission), then rewrites governance_proposals, governance_votes and dreps in
 *   one write batch (atomic in the embedded store). Idempotent: a failed run is simply repeated.
 *   It merges what the synced blocks carried (governance_chain_proposals / governance_chain_votes, the governance
 *   sync extension): a proposal submitted and gone while no recompute ran is listed from its block (expired when
 *   the epoch is past submission + `governanceActionLifetime` from queryLedgerState/protocolParameters, otherwise
 *   removed; active when its block is past the ledger tip the run read, i.e. too new for the listing), and votes
 *   cast on proposals the ledger no longer lists are the blocks' last vote of each voter.
 * Without a chain source there is nothing to ask the ledger: the run writes nothing.
 */
import { DERIVED_RUNS, readSyncHealth } from '../../mongo/collections/sync-state.js';
import { TRANSACTIONS } from '../../mongo/collections/chain.js';
import {
  DREPS,
  GOVERNANCE_CHAIN_PROPOSALS,
  GOVERNANCE_CHAIN_VOTES,
  GOVERNANCE_PROPOSALS,
  GOVERNANCE_VOTES,
  type DRepDoc,
  type GovChainProposalDoc,
  type GovChainVoteDoc,
  type GovernanceProposalDoc,
  type GovernanceVoteDoc,
} from '../../mongo/collections/governance.js';
import { del, put, type CollectionSpec, type Store, type WriteOp } from '../../mongo/store.js';
import { isSourceDown, type ChainSource } from '../chain/source.js';
import { assertLedgerCaughtUp, ledgerTip } from '../chain/ledger-caught-up.js';
import { buildGovernance, parseDReps, parsePools, parseProposals } from './compute.js';

export interface GovernanceDeps {
  store: Store;
  /** The ledger-state source (Ogmios or the devnet); absent = nothing to recompute. */
  chain?: ChainSource;
  now?: () => number;
  /** How long a run waits for a ledger behind the index (activities/chain/ledger-caught-up.ts; default 60 s). */
  ledgerWaitMs?: number;
}

export interface GovernanceRunResult {
  epoch: number | null;
  proposals: number;
  active: number;
  votes: number;
  dreps: number;
}

async function all<D extends { _id: string }>(store: Store, spec: CollectionSpec<D>): Promise<D[]> {
  const out: D[] = [];
  for await (const d of store.collection(spec).scan()) out.push(d);
  return out;
}

/** Puts every doc and deletes the collection's other documents, as ops of one batch. */
function replaceOps<D extends { _id: string }>(
  spec: CollectionSpec<D>,
  prev: readonly D[],
  next: readonly D[],
): WriteOp[] {
  const keep = new Set(next.map((d) => d._id));
  return [...next.map((d) => put(spec, d)), ...prev.filter((d) => !keep.has(d._id)).map((d) => del(spec, d._id))];
}

/** `governanceActionLifetime` (epochs) of queryLedgerState/protocolParameters; null when absent. */
export function govActionLifetime(params: unknown): number | null {
  if (typeof params !== 'object' || params === null) return null;
  const v = (params as Record<string, unknown>).governanceActionLifetime;
  const n = typeof v === 'bigint' ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : null;
}

export function createGovernanceActivities(deps: GovernanceDeps) {
  const { store, chain } = deps;
  const now = deps.now ?? Date.now;
  return {
    async recomputeGovernance(): Promise<GovernanceRunResult> {
      if (!chain) return { epoch: null, proposals: 0, active: 0, votes: 0, dreps: 0 };
      await assertLedgerCaughtUp(chain, store, deps.ledgerWaitMs);
      // Asked before the listing, so the listing covers every block up to it; the blocks read below may go further
      // (the sync runs on meanwhile), and a proposal they carry past it is new to the ledger, not gone from it.
      const tip = await ledgerTip(chain);
      const [epoch, rawProposals, rawDReps, rawPools, rawParams] = await Promise.all([
        chain.query<number | bigint>('queryLedgerState/epoch'),
        chain.query<unknown>('queryLedgerState/governanceProposals'),
        chain.query<unknown>('queryLedgerState/delegateRepresentatives'),
        chain.query<unknown>('queryLedgerState/stakePools', { includeStake: true }),
        // Only the proposal lifetime is read; without it the lifetime comes from the listed proposals. A source that
        // cannot be reached fails the run, as the other four queries would.
        chain.query<unknown>('queryLedgerState/protocolParameters').catch((e: unknown) => {
          if (isSourceDown(e)) throw e;
          return null;
        }),
      ]);
      const proposals = parseProposals(rawProposals);
      const [prevProposals, prevVotes, prevDReps, chainProposals, chainVotes] = await Promise.all([
        all<GovernanceProposalDoc>(store, GOVERNANCE_PROPOSALS),
        all<GovernanceVoteDoc>(store, GOVERNANCE_VOTES),
        all<DRepDoc>(store, DREPS),
        all<GovChainProposalDoc>(store, GOVERNANCE_CHAIN_PROPOSALS),
        all<GovChainVoteDoc>(store, GOVERNANCE_CHAIN_VOTES),
      ]);
      // Submission slot and time, looked up once per proposal the blocks did not record (kept afterwards).
      const known = new Map(prevProposals.map((p) => [p._id, p]));
      const recorded = new Set(chainProposals.map((p) => p._id));
      const txIds = [
        ...new Set(
          proposals
            .map((p) => `${p.txId}#${p.index}`)
            .filter((id) => !recorded.has(id) && known.get(id)?.proposedSlot == null)
            .map((id) => id.slice(0, id.indexOf('#'))),
        ),
      ];
      const txs = txIds.length ? await store.collection(TRANSACTIONS).getMany(txIds) : [];
      const txTimes = new Map<string, { slot: number; time: string }>();
      for (const t of txs) if (t) txTimes.set(t._id, { slot: t.slot, time: t.time });

      // After a deep rollback or a resync (a newer sync generation than this recompute's last run), what the last
      // run remembered beyond the ledger may be of the abandoned chain: keep only proposals (and their votes) the
      // blocks still record, and no DRep the ledger no longer lists.
      const [health, lastRun] = await Promise.all([
        readSyncHealth(store),
        store.collection(DERIVED_RUNS).get('recomputeGovernance'),
      ]);
      const abandoned = (health?.generation ?? 0) > (lastRun?.generation ?? 0);
      const previous = abandoned
        ? {
            proposals: prevProposals.filter((p) => recorded.has(p._id)),
            votes: prevVotes.filter((v) => recorded.has(v.proposalId)),
            dreps: [],
          }
        : { proposals: prevProposals, votes: prevVotes, dreps: prevDReps };
      const out = buildGovernance({
        epoch: Number(epoch),
        proposals,
        dreps: parseDReps(rawDReps),
        pools: parsePools(rawPools),
        previous,
        txTimes,
        chain: { proposals: chainProposals, votes: chainVotes },
        govActionLifetime: govActionLifetime(rawParams),
        ledgerSlot: tip === null ? null : tip === 'origin' ? -1 : tip.slot,
        computedAt: new Date(now()).toISOString(),
      });
      await store.write([
        ...replaceOps(GOVERNANCE_PROPOSALS, prevProposals, out.proposals),
        ...replaceOps(GOVERNANCE_VOTES, prevVotes, out.votes),
        ...replaceOps(DREPS, prevDReps, out.dreps),
      ]);
      return {
        epoch: Number(epoch),
        proposals: out.proposals.length,
        active: out.proposals.filter((p) => p.status === 'active').length,
        votes: out.votes.length,
        dreps: out.dreps.length,
      };
    },
  };
}

export type GovernanceActivities = ReturnType<typeof createGovernanceActivities>;
