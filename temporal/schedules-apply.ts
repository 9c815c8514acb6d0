/**
 * `npm run schedules:apply`: creates or updates every Temporal Schedule of temporal/schedules.ts and starts the
 * chain follower (`sync-chain`) if it is not running. Safe to run again after every deploy.
 */
import { ConfigError, loadConfig } from '../config/index.js';
import { connectTemporal } from './client.js';
import { taskQueue } from './constants.js';
import { SCHEDULES } from './schedules.js';
import { applySchedules, startSyncChain, syncChainStartInput } from './temporal-admin.js';

async function main() {
  const config = loadConfig();
  if (!config.TEMPORAL_ADDRESS)
    throw new ConfigError('TEMPORAL_ADDRESS is not set: there is no Temporal cluster to apply schedules to');
  const t = await connectTemporal(config);
  try {
    const queue = taskQueue(config);
    for (const r of await applySchedules(t.client, SCHEDULES, queue)) console.log(`schedule ${r.id}: ${r.action}`);
    if (SCHEDULES.length === 0) console.log('no schedules defined (temporal/schedules.ts)');
    const sync = await startSyncChain(t.client, queue, syncChainStartInput(config.SYNC_SLICE_BLOCKS));
    console.log(`workflow sync-chain: ${sync === 'started' ? 'started' : 'already running'}`);
  } finally {
    await t.close();
  }
}

main().catch((e: unknown) => {
  console.error(
    e instanceof ConfigError ? e.message : `schedules:apply failed: ${e instanceof Error ? e.message : String(e)}`,
  );
  process.exit(e instanceof ConfigError ? 2 : 1);
});
