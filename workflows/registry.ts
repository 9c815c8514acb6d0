/**
 * Every workflow both engines can run: its body (workflows/*.ts) and the activity options it is run with. Pure data,
 * sandbox-safe: `workflows/index.ts` (Temporal) and `temporal/runner.ts` (embedded) both read this table, so a
 * workflow's retry policy is written once.
 *
 * Adding a recompute (holders, stake pools, governance, PnL, NFT collections, market overview, rankings):
 *   1. write its activity factory in activities/<area>/ (`createXActivities(deps)`, `type XActivities`), and merge
 *      it into the activities the worker (temporal/worker.ts) and `npm start` (scripts/start.ts) pass on;
 *   2. write its body in workflows/<job>.ts as `async function xBody(ctx: WorkflowContext<Pick<XActivities, …>>,
 *      input)` (no I/O, no clock but `ctx.now()`);
 *   3. add `x: { body: xBody, activityOptions: RECOMPUTE_ACTIVITY }` below;
 *   4. add `export const x = temporalWorkflow(WORKFLOWS.x)` to workflows/index.ts (Temporal finds workflows by their
 *      export name; a test fails when an entry here has no export there);
 *   5. add its schedule to temporal/schedules.ts (`{ id: '<job>', workflow: 'x', everyMs, input, overlap: 'skip' }`).
 */
import type { ActivityOptions, WorkflowBody } from './context.js';
import { RECOMPUTE_ACTIVITY, SYNC_ACTIVITY } from './policies.js';
import { recomputeHoldersBody } from './recompute-holders.js';
import { recomputeMarketBody } from './recompute-market.js';
import { recomputeNftBody } from './recompute-nft.js';
import { recomputeStakingBody } from './recompute-staking.js';
import { recomputeGovernanceBody } from './recompute-governance.js';
import { syncChainBody } from './sync-chain.js';
import { recomputeStorageBody } from './recompute-storage.js';
import { ingestNewsBody } from './ingest-news.js';
import { recomputeSearchBody } from './recompute-search.js';
import { recomputeSafetyBody } from './recompute-safety.js';
import { derived, recorded } from './derived.js';

export interface WorkflowEntry<A = never, I = never, R = unknown> {
  body: WorkflowBody<A, I, R>;
  /** Options of every activity the body calls (timeouts, retry policy). */
  activityOptions: ActivityOptions;
  /**
   * At most one execution at a time under its fixed workflow id (the chain follower). Operator retries reuse the
   * id instead of starting a second copy next to a running one.
   */
  singleton?: boolean;
  /** Collections the workflow's activities read (names as in mongo/collections/), shown by `ops -- jobs`. */
  reads: readonly string[];
  /** Collections they write. Two jobs writing one collection must not race: the schedule keeps each job single. */
  writes: readonly string[];
}

export const WORKFLOWS = {
  syncChain: {
    body: syncChainBody,
    activityOptions: SYNC_ACTIVITY,
    singleton: true,
    reads: ['checkpoints', 'undo', 'sync_health'],
    // The chain documents plus every sync extension's documents (activities/extensions.ts), one batch per slice.
    writes: [
      'blocks',
      'transactions',
      'utxos',
      'addresses',
      'address_txs',
      'stake_accounts',
      'stake_pool_regs',
      'stake_summaries',
      'checkpoints',
      'undo',
      'pools',
      'pool_states',
      'trades',
      'order_trades',
      'candles',
      'tokens',
      'counters',
      'pool_keys',
      'wallet_lots',
      'wallet_pnl_points',
      'ada_usd_now',
      'holders',
      'holder_counts',
      'holder_series',
      'storage_events',
      'storage_script_addresses',
      'handles',
      'nft_collections',
      'nft_assets',
      'nft_owners',
      'nft_listings',
      'nft_sales',
      'governance_chain_proposals',
      'governance_chain_votes',
      'policy_scripts',
      'sync_health',
    ],
  },
  recomputeMarket: {
    body: recompute('recomputeMarket', recomputeMarketBody),
    activityOptions: RECOMPUTE_ACTIVITY,
    reads: [
      'checkpoints',
      'pools',
      'pool_states',
      'trades',
      'candles',
      'tokens',
      'token_meta',
      'holder_counts',
      'holders',
    ],
    writes: [
      'token_stats',
      'pool_stats',
      'rankings',
      'ranking_entries',
      'ranked_token_stats',
      'ranked_pools',
      'market_overview',
    ],
  },
  recomputeGovernance: {
    body: recompute('recomputeGovernance', recomputeGovernanceBody),
    activityOptions: RECOMPUTE_ACTIVITY,
    reads: [
      'checkpoints',
      'transactions',
      'governance_proposals',
      'governance_votes',
      'dreps',
      'governance_chain_proposals',
      'governance_chain_votes',
      'sync_health',
      'derived_runs',
      'ledger: tip, governanceProposals, delegateRepresentatives, stakePools, epoch, protocolParameters',
    ],
    writes: ['governance_proposals', 'governance_votes', 'dreps'],
  },
  recomputeStaking: {
    body: recompute('recomputeStaking', recomputeStakingBody),
    activityOptions: RECOMPUTE_ACTIVITY,
    reads: [
      'checkpoints',
      'blocks',
      'addresses',
      'stake_accounts',
      'stake_pool_regs',
      'stake_pools',
      'stake_rewards',
      'ledger: tip, epoch, stakePools, protocolParameters, stakePoolsPerformances, treasuryAndReserves, genesisConfiguration, rewardAccountSummaries',
    ],
    writes: ['stake_pools', 'stake_rewards'],
  },
  recomputeHolders: {
    body: recompute('recomputeHolders', recomputeHoldersBody),
    activityOptions: RECOMPUTE_ACTIVITY,
    reads: ['checkpoints', 'blocks', 'holder_counts', 'holder_series'],
    writes: ['holder_series'],
  },
  recomputeNft: {
    body: recompute('recomputeNft', recomputeNftBody),
    activityOptions: RECOMPUTE_ACTIVITY,
    reads: ['checkpoints', 'blocks', 'nft_collections', 'nft_listings', 'nft_sales', 'market_overview', 'pools'],
    writes: ['nft_collection_stats'],
  },
  recomputeStorage: {
    body: recompute('recomputeStorage', recomputeStorageBody),
    activityOptions: RECOMPUTE_ACTIVITY,
    reads: [
      'checkpoints',
      'blocks',
      'storage_script_addresses',
      'utxos',
      'storage_events',
      'token_stats',
      'tokens',
      'holder_counts',
    ],
    writes: ['storage_overview'],
  },
  ingestNews: {
    body: recorded('ingestNews', ingestNewsBody),
    activityOptions: RECOMPUTE_ACTIVITY,
    reads: ['http: NEWS_FEEDS', 'news', 'news_feeds'],
    writes: ['news', 'news_feeds'],
  },
  recomputeSearch: {
    body: recompute('recomputeSearch', recomputeSearchBody),
    activityOptions: RECOMPUTE_ACTIVITY,
    reads: [
      'tokens',
      'token_meta',
      'token_stats',
      'pools',
      'pool_stats',
      'nft_collections',
      'nft_collection_stats',
      'nft_assets',
      'stake_pools',
      'handles',
      'search_terms',
      'nft_rarity',
    ],
    writes: ['search_terms', 'nft_rarity'],
  },
  recomputeSafety: {
    body: recompute('recomputeSafety', recomputeSafetyBody),
    activityOptions: RECOMPUTE_ACTIVITY,
    reads: [
      'checkpoints',
      'blocks',
      'tokens',
      'pools',
      'token_stats',
      'holders',
      'holder_counts',
      'policy_scripts',
      'token_safety',
    ],
    writes: ['token_safety'],
  },
} satisfies Record<string, WorkflowEntry<never, never, unknown>>;

export type WorkflowName = keyof typeof WORKFLOWS;

/** The table as the engines see it: bodies over any activities and any input (checked at the edges). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type WorkflowTable = Record<string, WorkflowEntry<any, any, unknown>>;

/**
 * The recomputes a change of the indexed chain invalidates: every workflow (but the sync) that reads a collection the
 * sync writes. Run at once after a deep rollback (workflows/sync-chain.ts) and after a resync reaches the tip.
 */
export function recomputesReadingChain(table: WorkflowTable = WORKFLOWS): string[] {
  const sync = table.syncChain;
  return Object.entries(table)
    .filter(([name, w]) => name !== 'syncChain' && sync !== undefined && readsWritesOf(w, sync))
    .map(([name]) => name);
}

/**
 * The recomputes whose documents `workflow` reads (another job's `writes` among its `reads`): recomputeSafety reads
 * the token stats recomputeMarket writes. Each run waits while they run and until they have run in its sync
 * generation (workflows/derived.ts).
 */
export function upstreamOf(workflow: string, table: WorkflowTable = WORKFLOWS): string[] {
  const reader = table[workflow];
  return Object.entries(table)
    .filter(
      ([name, w]) => name !== workflow && name !== 'syncChain' && reader !== undefined && readsWritesOf(reader, w),
    )
    .map(([name]) => name);
}

/** Whether `reader` reads a collection `writer` writes. */
function readsWritesOf(reader: WorkflowEntry<never, never, unknown>, writer: WorkflowEntry<never, never, unknown>) {
  return reader.reads.some((c) => writer.writes.includes(c));
}

/** A recompute job: its documents carry their sync generation, and it waits for the jobs it reads (`upstreamOf`). */
function recompute<A, I, R>(workflow: string, body: WorkflowBody<A, I, R>) {
  return derived(workflow, body, () => upstreamOf(workflow));
}

export function isWorkflowName(name: string): name is WorkflowName {
  return Object.hasOwn(WORKFLOWS, name);
}
