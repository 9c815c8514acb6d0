/**
 * The service's schedules as data, read by both engines: `npm run schedules:apply` turns each entry into a Temporal
 * Schedule (interval `everyMs`, overlap SKIP), and the embedded runner fires it in-process at the same interval.
 * Recompute jobs add their entry here (see workflows/registry.ts for the whole recipe); the runs' workflow id is
 * `recompute:<id>` (temporal/constants.ts).
 */

export interface ScheduleSpec {
  /** Job name: the Temporal schedule id and the `<job>` of `npm run ops -- trigger <job>`. */
  id: string;
  /** A key of WORKFLOWS (workflows/registry.ts). */
  workflow: string;
  /** Interval between runs, in milliseconds (Temporal rounds to whole seconds). */
  everyMs: number;
  /** The workflow's one input (serialisable). */
  input: unknown;
  /** A run still in progress when the next one is due makes that one be skipped. */
  overlap: 'skip';
}

export const SCHEDULES: readonly ScheduleSpec[] = [
  // Market read side (workflows/recompute-market.ts): token stats, rankings, market overview, in that order.
  { id: 'market', workflow: 'recomputeMarket', everyMs: 20_000, input: null, overlap: 'skip' },
  // Stake pools (workflows/recompute-staking.ts): ledger stake, delegators, blocks, metadata.
  { id: 'staking', workflow: 'recomputeStaking', everyMs: 300_000, input: null, overlap: 'skip' },
  // Governance (workflows/recompute-governance.ts): proposals, tallies, DReps and votes from the ledger queries.
  { id: 'governance', workflow: 'recomputeGovernance', everyMs: 300_000, input: null, overlap: 'skip' },
  // Holders series (workflows/recompute-holders.ts): the indexed tip day's point of every token's daily holder count,
  // rewritten hourly so the day's point is the count near its end (the live counts themselves are kept by the sync).
  { id: 'holders-series', workflow: 'recomputeHolders', everyMs: 3_600_000, input: null, overlap: 'skip' },
  // NFT collection stats (workflows/recompute-nft.ts): floor, volumes, sales, listings, owners per collection.
  { id: 'nft', workflow: 'recomputeNft', everyMs: 60_000, input: null, overlap: 'skip' },
  // Storage network (workflows/recompute-storage.ts): Iagon stake totals from the UTxO set, events, IAG market.
  { id: 'storage', workflow: 'recomputeStorage', everyMs: 60_000, input: null, overlap: 'skip' },
  // The tool server's search index and NFT rarity ranks (activities/search/).
  { id: 'search', workflow: 'recomputeSearch', everyMs: 60_000, input: null, overlap: 'skip' },
  // Token safety assessments for get_token and list_tokens hideHighRisk (activities/safety/).
  { id: 'safety', workflow: 'recomputeSafety', everyMs: 300_000, input: null, overlap: 'skip' },
  // News (workflows/ingest-news.ts): the NEWS_FEEDS RSS/Atom feeds into news documents.
  { id: 'news', workflow: 'ingestNews', everyMs: 900_000, input: null, overlap: 'skip' },
];

/**
 * How late a missed firing may still run after a Temporal outage: one interval (a recompute that is due again
 * anyway need not be repeated), at least one minute.
 */
export const catchupWindowMs = (s: ScheduleSpec): number => Math.max(60_000, s.everyMs);
