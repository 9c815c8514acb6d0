/**
 * `npm run worker`: the Temporal worker (used when TEMPORAL_ADDRESS is set). Opens the store, creates its indexes
 * (the mongo:indexes step), connects the chain source, and runs the workflows of workflows/index.ts and the
 * activities on TEMPORAL_TASK_QUEUE until SIGINT/SIGTERM (the Temporal runtime's shutdown signals drain the worker
 * first). `npm run schedules:apply` starts the sync and the schedules.
 */
import { Context } from '@temporalio/activity';
import { NativeConnection, Worker } from '@temporalio/worker';
import { pino } from 'pino';
import { createOgmiosClient } from '../activities/chain/ogmios-client.js';
import { importRegistry, logRegistryImport } from '../activities/registry/import.js';
import { recordSyncStarted, recordSyncStopped } from '../activities/sync/health.js';
import { ConfigError, runWithConfig, StartupError, type Config } from '../config/index.js';
import { ALL_COLLECTIONS } from '../mongo/collections/index.js';
import { openStore } from '../mongo/open.js';
import { buildActivities } from './activities.js';
import { bundleWorkflows } from './bundle.js';
import { connectTemporal } from './client.js';
import { withHeartbeat } from './heartbeat.js';
import { progressPrinter } from './embedded.js';
import { taskQueue } from './constants.js';
import { ACTIVITY_HEARTBEAT_EVERY_MS } from '../workflows/policies.js';
import { SCHEDULES } from './schedules.js';
import { temporalTriggers } from './triggers.js';

async function main(config: Config) {
  const log = pino({ level: config.LOG_LEVEL, base: undefined });
  if (!config.TEMPORAL_ADDRESS)
    throw new ConfigError('TEMPORAL_ADDRESS is not set: without it `npm start` runs the workflows in-process');
  if (!config.OGMIOS_URL)
    throw new ConfigError(
      'OGMIOS_URL is not set: the worker needs a reachable chain source (`npm run devnet` serves one on DEVNET_PORT)',
    );

  const store = await openStore(config);
  await store.ensureIndexes(ALL_COLLECTIONS);
  // Connected on first use: a node not up yet is the sync's outage to retry, not a crash of the worker.
  const chain = createOgmiosClient(config.OGMIOS_URL);
  logRegistryImport(log, config.TOKEN_REGISTRY_DIR, await importRegistry(store, config.TOKEN_REGISTRY_DIR));
  const activities = buildActivities(config, {
    store,
    chain,
    // The standalone devnet (`npm run devnet`) as OGMIOS_URL serves its pools' `.devnet` metadata itself.
    devnetUrl: config.OGMIOS_IS_DEVNET ? config.OGMIOS_URL : null,
    // Tell Temporal the slice is alive (see SyncDeps.heartbeat); syncSlice runs only as an activity here.
    heartbeat: () => Context.current().heartbeat(),
    // The progress lines and `sync reached the chain tip` of npm start's embedded worker (a node's chain is whole).
    onProgress: progressPrinter(log, () => true),
  });
  const address = config.TEMPORAL_ADDRESS;
  // One line naming the setting, as for an unreachable store (config/index.ts StartupError), not a Rust stack.
  const connection = await NativeConnection.connect({ address }).catch((e: unknown) => {
    throw new StartupError(`TEMPORAL_ADDRESS=${address}: Temporal is unreachable: ${firstLine(e)}`);
  });
  // The sync's triggerRecomputes activity starts the recompute Schedules after a deep rollback.
  const temporal = await connectTemporal(config);
  try {
    const worker = await Worker.create({
      connection,
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueue: taskQueue(config),
      workflowBundle: await bundleWorkflows(),
      activities: withHeartbeat(
        { ...activities, ...temporalTriggers(temporal.client, SCHEDULES, log) },
        () => {
          const ctx = Context.current();
          return () => ctx.heartbeat();
        },
        ACTIVITY_HEARTBEAT_EVERY_MS,
      ),
    }).catch((e: unknown) => {
      if (/namespace .*not (be )?found/i.test(firstLine(e)))
        throw new StartupError(`TEMPORAL_NAMESPACE=${config.TEMPORAL_NAMESPACE}: ${firstLine(e)}`);
      throw e;
    });
    // The previous worker's stop ("not running: its worker stopped at …") or its silence after a kill is over: until
    // this worker's first sync slice ends (on FerretDB a minute or more), monitors say "starting", not "not running".
    // As npm start's embedded worker does; nothing is written for a store never synced.
    await recordSyncStarted(store, new Date().toISOString());
    log.info(
      {
        address: config.TEMPORAL_ADDRESS,
        namespace: config.TEMPORAL_NAMESPACE,
        taskQueue: taskQueue(config),
        store: store.kind,
      },
      'worker running',
    );
    await worker.run();
    log.info('worker stopped');
    // Its sync activities have ended (the run drains them): monitors say "not running" until a worker runs it again.
    await recordSyncStopped(store, new Date().toISOString()).catch((e: unknown) =>
      log.warn({ err: e }, 'recording the stop failed'),
    );
  } finally {
    await connection.close();
    await temporal.close();
    await chain.close();
    await store.close();
  }
}

/** An error's first line (the Temporal core's errors go on with the gRPC status details). */
function firstLine(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return (m.split('\n')[0] ?? m).replace(/: Status \{.*$/, '');
}

runWithConfig(main);
