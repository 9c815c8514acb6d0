/**
 * `npm start`: the sync and the API in one process, the devnet (the chain source) in a child process of its own.
 * Embedded defaults: the devnet (no OGMIOS_URL), lmdb under DATA_DIR (no MONGODB_URI), the in-process runner
 * (no TEMPORAL_ADDRESS). With TEMPORAL_ADDRESS set, workflows run on the Temporal worker (`npm run worker`)
 * and this process serves the API only.
 */
import { mkdirSync } from 'node:fs';
import { pino } from 'pino';
import { connectOgmios } from '../activities/chain/ogmios-client.js';
import { importRegistry } from '../activities/registry/import.js';
import type { SliceResult } from '../activities/sync/index.js';
import { createAccess } from '../api/access/index.js';
import { loggerOptions } from '../api/log.js';
import { tokenDecimalsLookup } from '../api/present/market.js';
import { startApi } from '../api/server.js';
import { runWithConfig, type Config } from '../config/index.js';
import { spawnDevnet, type DevnetChild } from '../devnet/child.js';
import { ALL_COLLECTIONS } from '../mongo/collections/index.js';
import { openStore } from '../mongo/open.js';
import { SYNC_WORKFLOW_ID } from '../temporal/constants.js';
import { buildActivities } from '../temporal/activities.js';
import { createRunner, type Runner } from '../temporal/runner.js';
import { embeddedTriggers } from '../temporal/triggers.js';
import { runsWithStatus } from '../temporal/run-docs.js';
import { createMetrics } from '../api/metrics/index.js';
import { timedStore } from '../mongo/timed-store.js';
import { SCHEDULES } from '../temporal/schedules.js';

/** While the sync catches up, recomputes rerun at least this often (ms). */
const WARM_FIRE_MS = 15_000;
/**
 * The first firing comes sooner: a fresh start serves its first token list, market overview and stake pools from
 * the blocks of the first seconds instead of waiting a full interval.
 */
const FIRST_WARM_FIRE_MS = 3_000;

function progressPrinter(log: pino.Logger, sourceComplete: () => boolean) {
  let lastLine = 0;
  let caughtUp = false;
  return (r: SliceResult & { blocksPerSecond: number }) => {
    const behind = Math.max(0, r.tipHeight - r.height);
    const line = `sync: block ${r.height}/${r.tipHeight} slot ${r.slot}/${r.tipSlot} ${behind ? `(${behind} behind) ` : ''}${Math.round(r.blocksPerSecond)} blocks/s${r.rollbacks ? `, ${r.rollbacks} rollback(s)` : ''}`;
    if (!caughtUp && r.atTip && sourceComplete()) {
      caughtUp = true;
      log.info({ height: r.height, slot: r.slot }, 'sync reached the chain tip; following live blocks');
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
          blocksPerSecond: Math.round(r.blocksPerSecond),
          rollbacks: r.rollbacks,
        },
        line,
      );
    }
  };
}

async function main(config: Config) {
  const log = pino(loggerOptions(config.LOG_LEVEL));
  mkdirSync(config.DATA_DIR, { recursive: true });
  const metrics = createMetrics();
  // Every store operation is timed for cardano_store_operation_duration_seconds.
  const store = timedStore(await openStore(config), (op, coll, s, ok) => metrics.storeOp(op, coll, s, ok));
  await store.ensureIndexes(ALL_COLLECTIONS);
  log.info({ store: store.kind, dataDir: store.kind === 'embedded' ? config.DATA_DIR : undefined }, 'store open');
  const registry = await importRegistry(store, config.TOKEN_REGISTRY_DIR);
  log.info({ dir: config.TOKEN_REGISTRY_DIR, ...registry }, 'token registry imported');

  let devnet: DevnetChild | null = null;
  // The devnet publishes its history while the sync follows it: the tip is only "reached" once that is complete.
  let sourceComplete = false;
  let ogmiosUrl = config.OGMIOS_URL;
  if (!ogmiosUrl) {
    devnet = await spawnDevnet({
      seed: config.DEVNET_SEED,
      backfillHours: config.DEVNET_BACKFILL_HOURS,
      blockMs: config.DEVNET_BLOCK_MS,
      forkRate: config.DEVNET_FORK_RATE,
      dataDir: config.DATA_DIR,
    });
    ogmiosUrl = devnet.url;
    log.info(
      { url: devnet.url, pid: devnet.pid },
      'devnet running (Ogmios JSON-RPC, its own process); generating its history',
    );
    void devnet.backfilled.then(
      (b) => {
        sourceComplete = true;
        log.info(
          { tipHeight: b.tip.height, tipSlot: b.tip.slot, blocks: b.blocks, generatedMs: b.generatedMs },
          'devnet history generated',
        );
      },
      (e: unknown) => log.error({ err: e }, 'devnet failed'),
    );
  } else sourceComplete = true;

  const stops: (() => Promise<void>)[] = [];
  if (!config.TEMPORAL_ADDRESS) {
    const chain = await connectOgmios(ogmiosUrl);
    stops.push(() => chain.close());
    const printProgress = progressPrinter(log, () => sourceComplete);
    let caughtUp = false;
    let lastWarmFire = Date.now() - WARM_FIRE_MS + FIRST_WARM_FIRE_MS;
    const activities = buildActivities(config, {
      store,
      chain,
      devnetUrl: devnet?.url ?? null,
      onProgress: (p) => {
        printProgress(p);
        // While catching up, every recompute reruns at least every WARM_FIRE_MS (overlapping firings are skipped),
        // so derived answers grow with the backfill instead of waiting a full interval (5 min for stake pools);
        // the first slice that ends at the tip reruns them all over the whole backfill.
        if (caughtUp) return;
        if (p.atTip || Date.now() - lastWarmFire >= WARM_FIRE_MS) {
          caughtUp = p.atTip && sourceComplete;
          lastWarmFire = Date.now();
          runner.fireSchedules();
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
      onRunEnd: (run, ms) => metrics.runDone(run.workflow, run.status, ms / 1000),
    });
    runnerRef = runner;
    stops.unshift(() => runner.stop());
    // A sync run an operator queued while the service was down (`ops resync`, `ops sync restart`) runs instead of
    // a fresh one; the runner's queue poll starts it within a second.
    const queuedSync = (await runsWithStatus(store, 'queued')).some((r) => r.workflowId === SYNC_WORKFLOW_ID);
    if (queuedSync) log.info('starting the sync run queued by an operator');
    else
      await runner.start('syncChain', {
        workflowId: SYNC_WORKFLOW_ID,
        input: { slicesPerRun: 1000, sliceBlocks: config.SYNC_SLICE_BLOCKS, tipWaitMs: 5_000 },
        requestedBy: 'start',
      });
    runner.schedule(SCHEDULES);
  } else {
    log.info(
      { temporal: config.TEMPORAL_ADDRESS },
      'workflows run on Temporal: start `npm run worker` and `npm run schedules:apply`',
    );
  }

  const access = await createAccess({ store, config, log });
  const api = await startApi(
    {
      store,
      config,
      log,
      access,
      tokenDecimals: tokenDecimalsLookup(store),
      cacheMs: config.API_CACHE_MS,
      metrics,
    },
    { port: config.PORT, host: config.HOST },
  );
  log.info({ url: api.url, site: config.SITE_URL }, `API listening on ${api.url} (REST ${config.SITE_URL}/api/v1)`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await api.close();
    await access.close(); // flushes the last second of daily-quota counts
    for (const stop of stops) await stop().catch((e: unknown) => log.warn({ err: e }, 'stop failed'));
    await devnet?.close();
    await store.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

runWithConfig(main);
