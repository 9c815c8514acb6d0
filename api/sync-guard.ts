/**
 * Answers built from a chain the source no longer has are not served (REST /api/v1 and Markdown /api/md):
 *
 * - The sync stalled on a rollback it could not undo (SYNC_K too small, the source moved to another chain): the
 *   indexed blocks above the fork point are an abandoned chain (SyncStall.abandonedAbove). Every chain-derived
 *   answer is 503 with the stall's reason and the operator's next step, until a resync; an orphan block is never
 *   served as the chain.
 * - A rollback deeper than a few blocks is under way (SyncHealthDoc.rollingBack; on a server store it is undone in
 *   many writes, minutes for hundreds of blocks on FerretDB): the store is at a block of the abandoned chain, so every
 *   chain-derived answer is 503 until it completes.
 * - After a rollback deeper than a few blocks (a new sync generation), each recompute's answers are 503 until the
 *   recompute ran on the new chain (DERIVED_RUNS; the sync triggers them at once, so this lasts seconds).
 *
 * Markdown views are withheld with the REST answers they show, and say so in Markdown.
 *
 * Chain-independent answers (the API's and the views' indexes, openapi.json, news, logos, the account area) are
 * always served. One store read per `ttlMs` (default 250 ms) whatever the traffic.
 */
import type Koa from 'koa';
import {
  DERIVED_RUNS,
  readSyncHealth,
  type DerivedRunDoc,
  type SyncHealthDoc,
} from '../mongo/collections/sync-state.js';
import type { Store } from '../mongo/store.js';
import { approxTokens, errorView } from '../views/md/format.js';
import { AppError, storeDownError } from './errors.js';
import { wantsMarkdown } from './md/respond.js';

/** Which recompute's documents each answer is built from (workflows/registry.ts names), by path after the prefix. */
export const DERIVED_PATHS: readonly { path: RegExp; workflows: readonly string[] }[] = [
  { path: /^\/staking\//, workflows: ['recomputeStaking'] },
  { path: /^\/governance\//, workflows: ['recomputeGovernance'] },
  { path: /^\/nft\//, workflows: ['recomputeNft'] },
  { path: /^\/storage-network\//, workflows: ['recomputeStorage'] },
  // The PnL lots are kept by the sync (exact under rollbacks); their prices come from the market recompute.
  { path: /^\/wallet\/[^/]+\/pnl\/?$/, workflows: ['recomputeMarket'] },
  // The portfolio likewise: balances from the sync, each position valued at its token's token_stats price and an LP
  // position at its pool's pool_stats TVL (both the market recompute's), an NFT at its collection's floor (the NFT
  // recompute's nft_collection_stats). Its trades list is the sync's alone.
  { path: /^\/wallet\/[^/]+\/?$/, workflows: ['recomputeMarket', 'recomputeNft'] },
  { path: /^\/tokens\/[^/]+\/series\//, workflows: ['recomputeHolders', 'recomputeMarket'] },
  { path: /^\/(tokens|market|pools)(\/|$)/, workflows: ['recomputeMarket'] },
  // A swap quote's amounts come from the pools' reserves (the sync's), but its routes are ranked by the output
  // token's token_stats price less each DEX's typical batcher fee (pool_stats), both the market recompute's.
  { path: /^\/swap\//, workflows: ['recomputeMarket'] },
  // Tool-server answers with no REST path: the search index, and token answers carrying the safety assessment.
  { path: /^\/mcp\/search$/, workflows: ['recomputeSearch'] },
  // get_nft_listings: the listings beside their rarity ranks, which the search recompute computes (nft_rarity).
  { path: /^\/mcp\/nft-listings$/, workflows: ['recomputeNft', 'recomputeSearch'] },
  { path: /^\/mcp\/tokens$/, workflows: ['recomputeSafety', 'recomputeMarket'] },
];

/**
 * The Markdown views' paths (after /api/md) that show the same documents as a REST path: a view is withheld
 * whenever its REST answer would be. The dashboard shows the market, NFT and governance snapshots.
 */
const MD_AS_REST: readonly { path: RegExp; rest: readonly string[] }[] = [
  { path: /^\/token\/([^/]+)/, rest: ['/tokens/$1'] },
  { path: /^\/pool\/([^/]+)/, rest: ['/pools/$1'] },
  { path: /^\/stake-pool\/([^/]+)/, rest: ['/staking/pools/$1'] },
  // The wallet view under the name of an address shows the wallet's portfolio (and trades).
  { path: /^\/address\/([^/]+)/, rest: ['/wallet/$1'] },
  { path: /^\/dashboard\/?$/, rest: ['/market/overview', '/nft/collections', '/governance/proposals'] },
];

/** The REST paths whose documents the answer at `path` (after /api/v1 or /api/md) is built from. */
function restPathsOf(surface: string, path: string): readonly string[] {
  if (surface !== 'md') return [path];
  const m = MD_AS_REST.find((v) => v.path.test(path));
  return m ? m.rest.map((r) => path.replace(m.path, r)) : [path];
}

const PREFIX = /^\/api\/(v1|md)(?=\/|$)/;
/** Answers that do not come from the chain (`/`: the indexes of /api/v1 and /api/md). */
const CHAIN_FREE = /^\/(?:(?:openapi\.json|news|assets\/[^/]+\/logo)(?:\/|$)|$)/;

interface GuardState {
  health: SyncHealthDoc | null;
  derived: Map<string, DerivedRunDoc>;
}

export interface Withheld {
  reason: string;
  retryAfterSeconds: number;
}

export interface SyncGate {
  /**
   * Why the answer at `path` (after /api/v1 or /api/md, e.g. `/staking/pools`) must not be served now, or null.
   * The MCP tools call it with the REST path of the data they read.
   */
  withheld(path: string): Promise<Withheld | null>;
  /** The same for a whole request path (`/api/v1/…` or `/api/md/…`, any case; a view by the REST answers it shows). */
  withheldAt(requestPath: string): Promise<Withheld | null>;
  /** REST and Markdown: 503 `{ error }` with Retry-After while withheld. */
  middleware: Koa.Middleware;
}

export function syncGate(deps: { store: Store; ttlMs?: number; siteUrl?: string }): SyncGate {
  const siteUrl = (deps.siteUrl ?? '').replace(/\/+$/, '');
  // Real time, not a test's pinned clock: it only paces the store reads.
  const now = () => performance.now();
  const ttl = deps.ttlMs ?? 250;
  let cached: { at: number; state: Promise<GuardState> } | null = null;
  /**
   * When the last state read (at that time) found nothing to withhold anywhere: no abandoned chain, and every
   * recompute ran in the current sync generation. Until that read is `ttl` old, no path needs checking.
   */
  let calmSince: number | null = null;
  const calm = (g: GuardState) =>
    !(g.health?.stall && g.health.stall.abandonedAbove !== null) &&
    !g.health?.rollingBack &&
    (!g.health ||
      g.health.generation === 0 ||
      DERIVED_PATHS.every((d) =>
        d.workflows.every((w) => (g.derived.get(w)?.generation ?? -1) >= g.health!.generation),
      ));
  const state = (): Promise<GuardState> => {
    const t = now();
    if (cached && t - cached.at < ttl) return cached.state;
    const read = (async () => {
      const health = await readSyncHealth(deps.store);
      const derived = new Map<string, DerivedRunDoc>();
      if (health && health.generation > 0)
        for await (const d of deps.store.collection(DERIVED_RUNS).scan()) derived.set(d._id, d);
      return { health, derived };
    })();
    cached = { at: t, state: read };
    read.then(
      (g) => (calmSince = calm(g) ? t : null),
      () => (cached = null),
    );
    return read;
  };

  async function withheld(path: string): Promise<Withheld | null> {
    if (CHAIN_FREE.test(path)) return null;
    const { health, derived } = await state();
    const stall = health?.stall;
    if (stall && stall.abandonedAbove !== null)
      return {
        reason:
          `${stall.reason}: the indexed blocks above height ${stall.abandonedAbove} belong to a chain the source no ` +
          `longer has, so chain answers are withheld until a resync (${stall.action})`,
        retryAfterSeconds: 60,
      };
    const rb = health?.rollingBack;
    if (rb)
      return {
        reason:
          `sync rolling back ${rb.fromHeight - rb.toHeight} blocks to height ${rb.toHeight} (${rb.undone} undone): ` +
          'the indexed blocks above it belong to a chain the source no longer has, so chain answers are withheld ' +
          'until the rollback completes',
        retryAfterSeconds: 10,
      };
    if (health && health.generation > 0) {
      const stale = DERIVED_PATHS.filter((d) => d.path.test(path))
        .flatMap((d) => d.workflows)
        .filter((w) => (derived.get(w)?.generation ?? -1) < health.generation);
      if (stale.length) {
        const rb = health.lastDeepRollback;
        const what = rb && rb.depth > 0 ? `a rollback of ${rb.depth} blocks` : 'a resync';
        return {
          reason:
            `recomputing after ${what}: answers built from the abandoned chain are withheld until ` +
            `${stale.join(', ')} ran on the new chain (seconds; it was started at once)`,
          retryAfterSeconds: 5,
        };
      }
    }
    return null;
  }

  async function withheldAt(requestPath: string): Promise<Withheld | null> {
    if (calmSince !== null && now() - calmSince < ttl) return null;
    // In any case, as the routers match paths: the replay fast path passes the URL as the client wrote it.
    const lower = requestPath.toLowerCase();
    const prefix = PREFIX.exec(lower);
    if (!prefix) return null;
    for (const path of restPathsOf(prefix[1] as string, lower.slice(prefix[0].length) || '/')) {
      const w = await withheld(path);
      if (w) return w;
    }
    return null;
  }

  return {
    withheld,
    withheldAt,
    middleware: async (ctx, next) => {
      // In any case, as the routers match paths: /api/v1/Market/overview is the market overview.
      const path = ctx.path.toLowerCase();
      const markdown = () => path.startsWith('/api/md') && wantsMarkdown(ctx);
      let refusal: AppError;
      try {
        const w = await withheldAt(path);
        if (!w) return next();
        refusal = new AppError(503, w.reason, { 'Retry-After': String(w.retryAfterSeconds) });
      } catch (thrown) {
        // The store does not answer this gate's read (every request once the last calm read is `ttl` old): its 503,
        // which a Markdown client gets in Markdown like the views' own errors; anything else for the error answers.
        const down = storeDownError(thrown);
        if (!down) throw thrown;
        refusal = down;
      }
      if (!markdown()) throw refusal;
      // A Markdown client gets the error in Markdown (views/md/format.ts), with the same status and headers.
      const text = errorView(siteUrl, refusal.status, refusal.message);
      ctx.status = refusal.status;
      ctx.type = 'text/markdown; charset=utf-8';
      for (const [h, v] of Object.entries(refusal.headers)) ctx.set(h, v);
      ctx.set('x-markdown-tokens', String(approxTokens(text)));
      ctx.body = text;
    },
  };
}
