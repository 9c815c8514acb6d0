/**
 * `npm run ops -- <command>`: operator view of the workflows in either mode. With TEMPORAL_ADDRESS set it talks to
 * Temporal; otherwise it reads and queues runs in the store (DATA_DIR or MONGODB_URI) that the service's embedded
 * runner executes. Mistakes (unknown command, run id or job) exit with code 2 and a one-line reason.
 */
import { ServiceError } from '@temporalio/client';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { KeysCommandError, KEYS_USAGE, parseKeysArgs, runKeysCommand } from '../api/access/ops-keys.js';
import { StoreTimeoutError, withinMs } from '../api/store-budget.js';
import { ConfigError, loadConfig, redactUri, StartupError, type Config } from '../config/index.js';
import { StoreDiskFullError } from '../mongo/adapters/embedded.js';
import { ACCESS_COLLECTIONS } from '../mongo/collections/access.js';
import { openStore } from '../mongo/open.js';
import type { Store } from '../mongo/store.js';
import { connectTemporal } from '../temporal/client.js';
import { taskQueue } from '../temporal/constants.js';
import {
  OpsError,
  USAGE,
  diskFullLine,
  embeddedRetry,
  embeddedRuns,
  embeddedStatus,
  embeddedSyncRun,
  embeddedTrigger,
  jobsTable,
  parseOpsArgs,
  queuedMessage,
  temporalRetry,
  temporalRuns,
  temporalRunStatus,
  temporalStoreStatus,
  temporalSyncRun,
  temporalTrigger,
  type OpsCommand,
} from '../temporal/ops.js';
import { recordInterrupted } from '../temporal/run-docs.js';
import { SCHEDULES } from '../temporal/schedules.js';
import { liveEmbeddedWorker, restartingService } from '../temporal/worker-pid.js';

/**
 * Opens the store the service uses. The embedded store must exist already, for every command: ops never creates one
 * (a mistyped DATA_DIR would otherwise get a new, empty store, and a queued run or a key no service ever sees).
 * Reads open it read-only beside the running service; the other commands write to it.
 */
async function openOpsStore(config: Config, opts: { readOnly: boolean }): Promise<Store> {
  const missing = () =>
    new OpsError(`no store under DATA_DIR=${config.DATA_DIR} yet (the service creates it when it starts)`);
  if (!config.MONGODB_URI && !existsSync(join(config.DATA_DIR, 'store', 'data.mdb'))) throw missing();
  return openStore(config, opts).catch((e: unknown) => {
    if (!config.MONGODB_URI && e instanceof Error && /No such file/i.test(e.message)) throw missing();
    // lmdb says only 'Permission denied: Attempting to setup locks' when the operator's user may not open the
    // store (its lock file is written even by readers): name the folder and whose it is.
    if (!config.MONGODB_URI && e instanceof Error && /permission denied/i.test(e.message))
      throw new StartupError(
        `cannot open the store under DATA_DIR=${config.DATA_DIR}: ${e.message} (run ops as the user that runs the service)`,
      );
    throw e;
  });
}

/**
 * How long `status` and `runs` wait for the store's answers once it is open (the open itself is bounded by the
 * driver's connect and server-selection timeouts). A store that answers at all answers their few indexed reads in
 * milliseconds; a MongoDB server that stopped answering without closing its connections (a frozen process, a stalled
 * disk) is waited for without end by the driver (it sets no socket timeout), and so was the operator.
 */
const OPS_READ_MS = 15_000;

/**
 * Closes the store after a command; its writes were acknowledged already. The driver's close waits on operations a
 * frozen server never answers (measured: 25 s and more after `status` gave up on it), so it is given 2 s.
 */
function closeOpsStore(store: Store): Promise<void> {
  return withinMs(store.close(), 2_000).catch(() => undefined);
}

/** `read`'s answer, or a StartupError naming the store (exit 1, one line) once OPS_READ_MS passed first. */
async function readBounded<T>(config: Config, read: Promise<T>): Promise<T> {
  try {
    return await withinMs(read, OPS_READ_MS);
  } catch (e) {
    if (!(e instanceof StoreTimeoutError)) throw e;
    const where = config.MONGODB_URI ? `MONGODB_URI=${redactUri(config.MONGODB_URI)}` : `DATA_DIR=${config.DATA_DIR}`;
    throw new StartupError(`the store (${where}) did not answer within ${OPS_READ_MS / 1000} s`);
  }
}

/**
 * Over the embedded store, runs left `running` while no embedded worker runs on DATA_DIR (npm start killed, the
 * machine gone down) are recorded interrupted before a command queues a run, as the service records them at its next
 * start: they can never finish, and `sync restart`, `resync`, `retry` and `trigger` refused beside them ('stop the
 * service, run this again') with the service stopped already. (On MongoDB the worker may run on another host.)
 */
async function recordGoneWorkerRuns(store: Store, config: Config): Promise<string[]> {
  if (store.kind !== 'embedded') return [];
  const checkedAt = new Date().toISOString();
  if (liveEmbeddedWorker(config.DATA_DIR) !== null) return [];
  return (await recordInterrupted(store, checkedAt, checkedAt)).map(
    (r) =>
      `run ${r._id} (${r.workflow}) was left running by a service that stopped without ending it: recorded as failed (interrupted)`,
  );
}

async function embedded(
  cmd: Exclude<OpsCommand, { cmd: 'help' | 'jobs' }>,
  store: Store,
  config: Config,
): Promise<string[]> {
  if (cmd.cmd === 'status')
    return readBounded(
      config,
      embeddedStatus(
        store,
        Date.now(),
        // The pid file is on this host: over MongoDB the worker may run on another.
        store.kind === 'embedded'
          ? {
              pid: liveEmbeddedWorker(config.DATA_DIR),
              dataDir: config.DATA_DIR,
              restartingService: restartingService(config.DATA_DIR),
            }
          : undefined,
      ),
    );
  if (cmd.cmd === 'runs') return readBounded(config, embeddedRuns(store, cmd));
  const gone = await recordGoneWorkerRuns(store, config);
  switch (cmd.cmd) {
    case 'retry':
      return [...gone, queuedMessage(await embeddedRetry(store, cmd.runId))];
    case 'trigger':
      return [...gone, queuedMessage(await embeddedTrigger(store, cmd.job, SCHEDULES))];
    case 'resync':
    case 'sync-restart': {
      const run = await embeddedSyncRun(store, { resync: cmd.cmd === 'resync', sliceBlocks: config.SYNC_SLICE_BLOCKS });
      return [
        ...gone,
        queuedMessage(run),
        cmd.cmd === 'resync'
          ? 'it drops the indexed chain and what is derived from it, then syncs from origin; /healthz/sync answers 200 again once it runs'
          : 'it resumes from the checkpoint; /healthz/sync answers 200 again after its first slice',
      ];
    }
  }
}

/**
 * Temporal not answering, as one line naming the address and the reason (exit 1, no stack): at connect, or a call
 * failing with the client's ServiceError ("Failed to list workflows"), whose gRPC cause says why (UNAVAILABLE…).
 */
function temporalDown(address: string, e: unknown): unknown {
  if (e instanceof ServiceError) {
    const cause = e.cause instanceof Error ? `: ${e.cause.message.split('\n')[0]}` : '';
    // gRPC UNAVAILABLE, DEADLINE_EXCEEDED, or UNIMPLEMENTED (something else listens there): no Temporal answered.
    const code = (e.cause as { code?: unknown } | undefined)?.code;
    const down = code === 14 || code === 4 || code === 12;
    return new StartupError(`Temporal at ${address}${down ? ' did not answer' : ''}: ${e.message}${cause}`);
  }
  // connectTemporal's "Temporal at … is unreachable: …"
  if (e instanceof Error && /is unreachable/.test(e.message)) return new StartupError(e.message);
  return e;
}

async function temporal(
  cmd: Exclude<OpsCommand, { cmd: 'help' | 'jobs' }>,
  config: Config,
  address: string,
): Promise<string[]> {
  if (cmd.cmd === 'status') {
    // The store's lines first, printed before Temporal is asked: with Temporal down the operator still sees the sync.
    const store = await openOpsStore(config, { readOnly: true });
    try {
      console.log(
        (await readBounded(config, temporalStoreStatus(store, address, config.TEMPORAL_NAMESPACE))).join('\n'),
      );
    } finally {
      await closeOpsStore(store);
    }
  }
  const t = await connectTemporal(config).catch((e: unknown) => {
    throw temporalDown(address, e);
  });
  try {
    switch (cmd.cmd) {
      case 'status':
        return await temporalRunStatus(t.client, taskQueue(config));
      case 'runs':
        return await temporalRuns(t.client, cmd);
      case 'retry':
        return [await temporalRetry(t.client, cmd.runId, taskQueue(config))];
      case 'trigger':
        return [await temporalTrigger(t.client, cmd.job, SCHEDULES, taskQueue(config))];
      case 'resync':
      case 'sync-restart':
        return [
          await temporalSyncRun(t.client, taskQueue(config), {
            resync: cmd.cmd === 'resync',
            sliceBlocks: config.SYNC_SLICE_BLOCKS,
          }),
        ];
    }
  } catch (e) {
    throw temporalDown(address, e);
  } finally {
    await t.close();
  }
}

/** `ops -- keys <create|list|revoke|plan> …`: API keys and account plans, straight in the store (both modes). */
async function keys(args: readonly string[]): Promise<void> {
  if (!args.length || args[0] === 'help' || args[0] === '--help') {
    console.log(KEYS_USAGE);
    return;
  }
  const config = loadConfig();
  const cmd = parseKeysArgs([...args], config.CARDANO_NETWORK);
  const store = await openOpsStore(config, { readOnly: false });
  try {
    await store.ensureIndexes([...ACCESS_COLLECTIONS]);
    console.log((await runKeysCommand(store, cmd)).join('\n'));
  } finally {
    await store.close();
  }
}

async function main(argv: readonly string[]): Promise<void> {
  if (argv[0] === 'keys') return keys(argv.slice(1));
  const cmd = parseOpsArgs(argv);
  if (cmd.cmd === 'help') {
    console.log(USAGE);
    return;
  }
  if (cmd.cmd === 'jobs') {
    console.log(jobsTable(SCHEDULES).join('\n'));
    return;
  }
  const config = loadConfig();
  let lines: string[];
  if (config.TEMPORAL_ADDRESS) lines = await temporal(cmd, config, config.TEMPORAL_ADDRESS);
  else {
    // Reads open the store read-only beside the running service; retry/trigger/sync restart/resync queue one run.
    const store = await openOpsStore(config, { readOnly: cmd.cmd === 'status' || cmd.cmd === 'runs' });
    try {
      lines = await embedded(cmd, store, config);
    } finally {
      await closeOpsStore(store);
    }
  }
  console.log(lines.join('\n'));
}

// `npm run ops -- status | head -3`: a reader that closed the pipe has read what it wanted. Node reports the failed
// write as an unhandled 'error' event (a stack trace and exit 1); like other command-line tools, stop quietly.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

main(process.argv.slice(2)).catch((e: unknown) => {
  if (e instanceof OpsError || e instanceof ConfigError || e instanceof KeysCommandError) {
    console.error(e.message);
    process.exit(2);
  }
  if (e instanceof StoreDiskFullError) {
    // The command's write was refused before lmdb saw it: say what did not happen; nothing retries a command.
    console.error(diskFullLine(process.argv.slice(2), e.detail));
    process.exit(1);
  }
  if (e instanceof StartupError) {
    // The configured store or Temporal does not answer: one line naming MONGODB_URI (password redacted) or the
    // Temporal address, and the reason; no stack.
    console.error(e.message);
    process.exit(1);
  }
  console.error(`ops failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
