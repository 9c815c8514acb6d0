/**
 * The embedded worker: the sync and every scheduled job on the in-process runner (TEMPORAL_ADDRESS unset), over a
 * store and a connected chain source. `npm start` runs it in a child process of its own
 * (scripts/embedded-worker.ts, started by temporal/worker-child.ts), so the API process holds only what serving
 * needs, as in production where the Temporal worker is a separate process; tests may run it in their own process.
 *
 * While the sync catches up, every scheduled job fires at least every WARM_FIRE_MS, so derived answers grow with the
 * backfill instead of waiting a full interval (5 min for stake pools); the first slice that ends at the tip (of a
 * source whose history is complete) fires them all once more over the whole backfill and logs "sync reached the
 * chain tip".
 */
import type { pino } from 'pino';
import type { ChainSource } from '../activities/chain/source.js';
import type { SliceResult } from '../activities/sync/index.js';
import type { Config } from '../config/index.js';
import type { Store } from '../mongo/store.js';
import { buildActivities } from './activities.js';
import { recomputeWorkflowId, SYNC_WORKFLOW_ID } from './constants.js';
import { runsWithStatus } from './run-docs.js';
import { createRunner, type Runner } from './runner.js';
import { SCHEDULES } from './schedules.js';
import { embeddedTriggers } from './triggers.js';

/** While the sync catches up, recomputes rerun at least this often (ms). */
const WARM_FIRE_MS = 15_000;
/**
 * The first firing comes sooner: a fresh start serves its first token list, market overview and stake pools from
 * the blocks of the first seconds instead of waiting a full interval. Until a market recompute has ranked a token
 * (the first DEX trades may come after its first run), it reruns this often: the first served token waits for it.
 */
const FIRST_WARM_FIRE_MS = 3_000;

export interface EmbeddedWorkerParts {
  store: Store;
  chain: ChainSource;
  /** The devnet's Ogmios URL when it is the chain source (its pools' `.devnet` metadata), else null. */
  devnetUrl: string | null;
  log: pino.Logger;
  /** Slice and run figures (api/metrics: the worker process's registry, exported through the API's /metrics). */
  metrics: WorkMetrics;
  /**
   * Whether the source's history is complete: the devnet publishes its backfill while the sync follows it, so the
   * tip is only "reached" once that is done. Always true for a real node.
   */
  sourceComplete: () => boolean;
  /** Called once, when the sync first reaches the tip of a complete source. */
  onTip?: (p: { height: number; slot: number }) => void;
}

/** What the worker counts: the sync's slices and every finished run. */
export interface WorkMetrics {
  sliceDone(r: SliceResult & { blocksPerSecond: number }, seconds: number): void;
  sliceFailed(e: unknown, seconds: number): void;
  runDone(workflow: string, status: string, seconds: number): void;
}

export interface EmbeddedWorker {
  runner: Runner;
  stop(): Promise<void>;
}

/**
 * A slice's blocks per second as the progress line shows it. Whole numbers from 10 up; below, two significant digits:
 * a slice on FerretDB commits 10-20 blocks in a minute or two (0.1-0.3 blocks/s), which rounded to a whole number read
 * "0 blocks/s", as if the sync had stopped while it was progressing.
 */
export function blocksPerSecondShown(blocksPerSecond: number): number {
  if (!(blocksPerSecond > 0)) return 0;
  return blocksPerSecond >= 10 ? Math.round(blocksPerSecond) : Number(blocksPerSecond.toPrecision(2));
}

/** The sync's progress in the log (every 10 s, and each rollback) and the line once it reached the chain tip. */
export function progressPrinter(log: pino.Logger, sourceComplete: () => boolean, onTip?: EmbeddedWorkerParts['onTip']) {
  let lastLine = 0;
  let caughtUp = false;
  return (r: SliceResult & { blocksPerSecond: number }) => {
    const behind = Math.max(0, r.tipHeight - r.height);
    const rate = blocksPerSecondShown(r.blocksPerSecond);
    const line = `sync: block ${r.height}/${r.tipHeight} slot ${r.slot}/${r.tipSlot} ${behind ? `(${behind} behind) ` : ''}${rate} blocks/s${r.rollbacks ? `, ${r.rollbacks} rollback(s)` : ''}`;
    if (!caughtUp && r.atTip && sourceComplete()) {
      caughtUp = true;
      log.info({ height: r.height, slot: r.slot }, 'sync reached the chain tip; following live blocks');
      onTip?.({ height: r.height, slot: r.slot });
    }
    const now = Date.now();
    if (process.stdout.isTTY && !caughtUp) {
      process.stdout.write(`\r${line}\u001b[K`);
      if (r.atTip && sourceComplete()) process.stdout.write('\n');
    } else if (now - lastLine > 10_000 || r.rollbacks) {
      lastLine = now;
      log.info(
        {
          height: r.height,
          tipHeight: r.tipHeight,
          blocksPerSecond: rate,
          rollbacks: r.rollbacks,
        },
        line,
      );
    }
  };
}

/** Starts the sync (or the sync run an operator queued) and the schedules; resolves once the sync run is recorded. */
export async function startEmbeddedWorker(config: Config, parts: EmbeddedWorkerParts): Promise<EmbeddedWorker> {
  const { store, log, metrics } = parts;
  const printProgress = progressPrinter(log, parts.sourceComplete, parts.onTip);
  let caughtUp = false;
  let lastWarmFire = Date.now() - WARM_FIRE_MS + FIRST_WARM_FIRE_MS;
  let tokensRanked = false;
  const activities = buildActivities(config, {
    store,
    chain: parts.chain,
    devnetUrl: parts.devnetUrl,
    onProgress: (p) => {
      printProgress(p);
      // Overlapping firings are skipped by the runner.
      if (caughtUp) return;
      if (p.atTip || Date.now() - lastWarmFire >= WARM_FIRE_MS) {
        caughtUp = p.atTip && parts.sourceComplete();
        lastWarmFire = Date.now();
        // The firing at the tip must cover the whole backfill: a job whose warm-up run is still active (it started
        // on part of the history) runs once more right after it, instead of being skipped until its next interval.
        if (caughtUp) runner.fireWorkflows(SCHEDULES.map((x) => x.workflow));
        else runner.fireSchedules();
      }
    },
  });
  // Slice durations and failures for the metrics (the runner retries; every attempt counts).
  const syncSlice = activities.syncSlice;
  activities.syncSlice = async (input) => {
    const t = performance.now();
    try {
      const r = await syncSlice(input);
      const seconds = (performance.now() - t) / 1000;
      metrics.sliceDone({ ...r, blocksPerSecond: r.blocks / Math.max(seconds, 1e-3) }, seconds);
      return r;
    } catch (e) {
      metrics.sliceFailed(e, (performance.now() - t) / 1000);
      throw e;
    }
  };
  let runnerRef: Runner | null = null;
  const runner = createRunner({
    store,
    activities: { ...activities, ...embeddedTriggers(() => runnerRef, log) },
    log,
    onRunEnd: (run, ms) => {
      metrics.runDone(run.workflow, run.status, ms / 1000);
      const ranked = (run.result as { tokens?: unknown } | null)?.tokens;
      if (run.workflow === 'recomputeMarket' && typeof ranked === 'number' && ranked > 0) tokensRanked = true;
    },
  });
  runnerRef = runner;
  // A sync run an operator queued while the service was down (`ops resync`, `ops sync restart`) runs instead of a
  // fresh one; the runner's queue poll starts it within a second.
  const queuedSync = (await runsWithStatus(store, 'queued')).some((r) => r.workflowId === SYNC_WORKFLOW_ID);
  if (queuedSync) log.info('starting the sync run queued by an operator');
  else
    await runner.start('syncChain', {
      workflowId: SYNC_WORKFLOW_ID,
      input: { slicesPerRun: 1000, sliceBlocks: config.SYNC_SLICE_BLOCKS, tipWaitMs: 5_000 },
      requestedBy: 'start',
    });
  runner.schedule(SCHEDULES);
  // Until a market run ranked a token (FIRST_WARM_FIRE_MS). A slice of a slow catch-up can take many seconds, so
  // this is a timer rather than a firing at slice ends.
  const marketId = recomputeWorkflowId(SCHEDULES.find((x) => x.workflow === 'recomputeMarket')?.id ?? 'market');
  const firstTokens = setInterval(() => {
    // Bounded by the catch-up: a chain without DEX trades gets the market's own interval after it.
    if (tokensRanked || caughtUp) clearInterval(firstTokens);
    else if (!runner.active().has(marketId)) runner.fireWorkflows(['recomputeMarket']);
  }, FIRST_WARM_FIRE_MS);
  return {
    runner,
    stop: () => {
      clearInterval(firstTokens);
      return runner.stop();
    },
  };
}
