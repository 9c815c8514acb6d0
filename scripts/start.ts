/**
 * `npm start`: the API in this process; the embedded worker (the sync and every scheduled job, temporal/embedded.ts)
 * and the devnet (the chain source) each in a child process of their own (temporal/worker-child.ts,
 * devnet/child.ts), so this process only serves requests, as an API replica does in production beside a separate
 * Temporal worker. Embedded defaults: the devnet (no OGMIOS_URL), lmdb under DATA_DIR (no MONGODB_URI), the
 * in-process runner in the worker child (no TEMPORAL_ADDRESS). With TEMPORAL_ADDRESS set, workflows run on the
 * Temporal worker (`npm run worker`) and this process serves the API only.
 *
 * The children end with this process (SIGINT, SIGTERM: in order, worker first; SIGKILL: their IPC channel closes).
 * A worker that crashes is restarted (temporal/worker-child.ts); while it is down /readyz answers 503 saying so;
 * one that keeps crashing stops the service with exit code 1. A devnet that dies is restarted the same way, on the
 * same port (the worker's client reconnects to the same URL and the sync resumes where it was).
 */
import { pino } from 'pino';
import { loggerOptions } from '../api/log.js';
import { defaultSiteUrl, runWithConfig, StartupError, type Config } from '../config/index.js';
import { spawnDevnet, type DevnetChild } from '../devnet/child.js';
import { crashBackoff, superviseWorker, type WorkerSupervisor } from '../temporal/worker-child.js';
import { liveEmbeddedWorker } from '../temporal/worker-pid.js';
import { checkListen, freePort, listenError } from './api-port.js';
import { writableDataDir } from './data-dir.js';
import { exitNow } from './exit-now.js';

/**
 * The API's modules, loaded after the children are started: with a cold tsx cache (a fresh checkout) loading them
 * takes seconds, which the worker and the devnet spend loading their own modules instead of waiting (the first
 * served token depends on the worker's first slices and recomputes).
 */
async function loadApi() {
  const [access, market, server, collections, open, metrics, timed] = await Promise.all([
    import('../api/access/index.js'),
    import('../api/present/market.js'),
    import('../api/server.js'),
    import('../mongo/collections/index.js'),
    import('../mongo/open.js'),
    import('../api/metrics/index.js'),
    import('../mongo/timed-store.js'),
  ]);
  return {
    createAccess: access.createAccess,
    tokenDecimalsLookup: market.tokenDecimalsLookup,
    startApi: server.startApi,
    ALL_COLLECTIONS: collections.ALL_COLLECTIONS,
    openStore: open.openStore,
    createMetrics: metrics.createMetrics,
    timedStore: timed.timedStore,
  };
}

async function main(config: Config) {
  const log = pino(loggerOptions(config.LOG_LEVEL));
  // An exception that escapes may come while a store write (an API key, the quota counts) is part-way, where
  // process.exit() would hang with the port still bound (scripts/exit-now.ts); the children see this process gone.
  process.on('uncaughtException', (e) => {
    log.fatal({ err: e }, 'uncaught exception; exiting');
    exitNow();
  });
  // DATA_DIR is needed by what keeps files there (the embedded store, the embedded worker's pid file, the devnet's
  // identity): an API replica on MongoDB and Temporal has none and may run where it cannot write (deploy/Dockerfile).
  if (!config.MONGODB_URI || !config.TEMPORAL_ADDRESS || !config.OGMIOS_URL) writableDataDir(config.DATA_DIR);
  // Before the children start: a port taken is one line, not a stack trace and two child processes stopping.
  if (config.PORT !== 0) await checkListen(config.PORT, config.HOST);
  else {
    // PORT=0: any free port. Every absolute link the API writes (logo URLs, swap links, the sitemap, llms.txt, the
    // tool server's card, the API index) comes from SITE_URL, whose default named port 0: the port is chosen now,
    // before the API is built, and an unset SITE_URL names it.
    const port = await freePort(config.HOST);
    const siteUrl = config.SITE_URL === defaultSiteUrl(0) ? defaultSiteUrl(port) : config.SITE_URL;
    config = { ...config, PORT: port, SITE_URL: siteUrl };
  }
  // A second `npm start` on this DATA_DIR (on another PORT): its worker would refuse the folder, and be restarted
  // for about 80 s before the crash loop stopped the service. One line now instead.
  const holder = config.TEMPORAL_ADDRESS ? null : liveEmbeddedWorker(config.DATA_DIR);
  if (holder !== null)
    throw new StartupError(
      `DATA_DIR=${config.DATA_DIR} is in use: its embedded worker (pid ${holder}) belongs to another npm start; stop that one, or give this one its own DATA_DIR`,
    );

  let shutdown: (signal: string, code?: number) => Promise<void> = async () => {};
  let stopping = false;
  // The children first. The worker loads its modules, opens the store and imports the token registry while the
  // devnet starts and this process loads the API; it follows the devnet as soon as the devnet reports its address.
  let worker: WorkerSupervisor | null = null;
  if (!config.TEMPORAL_ADDRESS) worker = superviseWorker({ log, onGiveUp: (reason) => void shutdown(reason, 1) });
  else
    log.info(
      { temporal: config.TEMPORAL_ADDRESS },
      'workflows run on Temporal: start `npm run worker` and `npm run schedules:apply`',
    );
  const devnetOptions = {
    seed: config.DEVNET_SEED,
    backfillHours: config.DEVNET_BACKFILL_HOURS,
    blockMs: config.DEVNET_BLOCK_MS,
    forkRate: config.DEVNET_FORK_RATE,
    forkDepth: config.DEVNET_FORK_DEPTH,
    dataDir: config.DATA_DIR,
  };
  const devnetStarting = config.OGMIOS_URL ? null : spawnDevnet(devnetOptions);
  // The worker follows the devnet as soon as it serves (a failure is awaited and thrown below).
  devnetStarting?.then(
    (d) => {
      worker?.setSource(d.url, true);
      void d.backfilled.then(
        () => worker?.sourceComplete(),
        () => undefined,
      );
    },
    () => undefined,
  );

  const { createAccess, tokenDecimalsLookup, startApi, ALL_COLLECTIONS, openStore, createMetrics, timedStore } =
    await loadApi();
  // On Temporal the sync and the jobs run in `npm run worker`: no work figures here (they would only say 0).
  const metrics = createMetrics({ work: !config.TEMPORAL_ADDRESS });
  // Every store operation is timed for cardano_store_operation_duration_seconds.
  const store = timedStore(await openStore(config), (op, coll, s, ok) => metrics.storeOp(op, coll, s, ok));
  await store.ensureIndexes(ALL_COLLECTIONS);
  log.info({ store: store.kind, dataDir: store.kind === 'embedded' ? config.DATA_DIR : undefined }, 'store open');

  let devnet: DevnetChild | null = null;
  if (devnetStarting) {
    devnet = await devnetStarting;
    log.info(
      { url: devnet.url, pid: devnet.pid },
      'devnet running (Ogmios JSON-RPC, its own process); generating its history',
    );
    // The devnet publishes its history while the sync follows it: the tip is only "reached" once that is complete.
    void devnet.backfilled.then(
      (b) =>
        log.info(
          { tipHeight: b.tip.height, tipSlot: b.tip.slot, blocks: b.blocks, generatedMs: b.generatedMs },
          'devnet history generated',
        ),
      (e: unknown) => log.error({ err: e }, 'devnet failed'),
    );
    // A devnet that dies (a crash, an out-of-memory kill) is the chain source gone: restarted on its port with the
    // worker's policy (crashBackoff: after 1, 2, 4, 8, 16 s; 5 deaths within 5 minutes stop the service, exit 1).
    const backoff = crashBackoff();
    const watch = (d: DevnetChild) =>
      void d.exited.then((how) => {
        if (stopping) return;
        // The next devnet publishes its history from origin again: until it is complete, the tip the sync meets
        // there is not the chain's (a catch-up would report reaching it and end its warm-up firings half-way).
        worker?.sourceIncomplete();
        const { crashes: deaths, delayMs } = backoff(Date.now());
        if (delayMs === null) {
          log.fatal(
            { how, deaths },
            `the devnet (the chain source) exited (${how}) ${deaths} times in 5 minutes; stopping`,
          );
          void shutdown('devnet crash loop', 1);
          return;
        }
        const port = Number(new URL(d.url).port);
        log.error(
          { how, pid: d.pid, restartInMs: delayMs },
          `the devnet (the chain source) exited (${how}); restarting it on port ${port} in ${delayMs / 1000} s`,
        );
        setTimeout(() => {
          if (stopping) return;
          spawnDevnet({ ...devnetOptions, port }).then(
            (next) => {
              devnet = next;
              log.info({ url: next.url, pid: next.pid }, 'devnet running again (Ogmios JSON-RPC, its own process)');
              void next.backfilled.then(
                () => worker?.sourceComplete(),
                () => undefined,
              );
              watch(next);
            },
            (e: unknown) => {
              log.fatal({ err: e }, 'the devnet (the chain source) could not be restarted; stopping');
              void shutdown('devnet restart failed', 1);
            },
          );
        }, delayMs);
      });
    watch(devnet);
  }
  if (worker) {
    const w = worker;
    metrics.addSource(() => w.metrics());
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
      ...(worker ? { workerDown: worker.down } : {}),
    },
    { port: config.PORT, host: config.HOST },
  ).catch((e: unknown) => {
    throw listenError(e, config.PORT, config.HOST);
  });
  log.info({ url: api.url, site: config.SITE_URL }, `API listening on ${api.url} (REST ${config.SITE_URL}/api/v1)`);

  shutdown = async (signal: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await api.close();
    await access.close(); // flushes the last second of daily-quota counts
    // The worker before its chain source, so its last slice ends cleanly.
    await worker?.stop().catch((e: unknown) => log.warn({ err: e }, 'worker stop failed'));
    await devnet?.close();
    await store.close();
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

runWithConfig(main);
