/**
 * `npm run worker`: the Temporal worker (used when TEMPORAL_ADDRESS is set). Opens the store, creates its indexes
 * (the mongo:indexes step), connects the chain source, and runs the workflows of workflows/index.ts and the
 * activities on TEMPORAL_TASK_QUEUE until SIGINT/SIGTERM (the Temporal runtime's shutdown signals drain the worker
 * first). `npm run schedules:apply` starts the sync and the schedules.
 */
import { NativeConnection, Worker } from '@temporalio/worker';
import { pino } from 'pino';
import { connectOgmios } from '../activities/chain/ogmios-client.js';
import { importRegistry } from '../activities/registry/import.js';
import { httpMetadataFetcher } from '../activities/staking/metadata.js';
import { createActivities } from '../activities/index.js';
import { ConfigError, runWithConfig, type Config } from '../config/index.js';
import { devnetHostResolver } from '../devnet/pool-metadata.js';
import { ALL_COLLECTIONS } from '../mongo/collections/index.js';
import { openStore } from '../mongo/open.js';
import { bundleWorkflows } from './bundle.js';
import { taskQueue } from './constants.js';
import { resolveIagonScripts } from '../cardano/iagon.js';

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
  const chain = await connectOgmios(config.OGMIOS_URL);
  await importRegistry(store, config.TOKEN_REGISTRY_DIR);
  const activities = createActivities({
    store,
    chain,
    k: config.SYNC_K,
    network: config.CARDANO_NETWORK,
    iagon: resolveIagonScripts(config),
    newsFeeds: config.NEWS_FEEDS ?? [],
    // `.devnet` metadata URLs (a standalone devnet as OGMIOS_URL) are served by the devnet itself.
    fetchMetadata: httpMetadataFetcher({ resolve: devnetHostResolver(config.OGMIOS_URL) }),
  });
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  try {
    const worker = await Worker.create({
      connection,
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueue: taskQueue(config),
      workflowBundle: await bundleWorkflows(),
      activities,
    });
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
  } finally {
    await connection.close();
    await chain.close();
    await store.close();
  }
}

runWithConfig(main);
