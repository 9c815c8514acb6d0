/**
 * The embedded worker process (temporal/embedded.ts: the sync and every scheduled job on the in-process runner),
 * started by `npm start` (temporal/worker-child.ts) when TEMPORAL_ADDRESS is unset. It opens the same store as the
 * API process, imports the token registry, follows the chain source `npm start` names over IPC (its devnet) or
 * OGMIOS_URL, and answers the API's metrics requests. SIGTERM stops it cleanly (runs recorded `cancelled`); when
 * its parent goes away (the IPC channel closes, even after a SIGKILL) or an exception escapes, it kills itself at
 * once (scripts/exit-now.ts): every store write is one atomic transaction, so this is the kill -9 the sync already
 * survives.
 *
 * One worker per DATA_DIR: it records its pid in DATA_DIR/embedded-worker.pid and waits (up to 10 s) for a live
 * predecessor to exit, so a restarted service never has two workers writing the same store.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { pino } from 'pino';
import { createOgmiosClient } from '../activities/chain/ogmios-client.js';
import { importRegistry, logRegistryImport } from '../activities/registry/import.js';
import { recordSyncStarted, recordSyncStopped } from '../activities/sync/health.js';
import { exitNow } from './exit-now.js';
import { onParentGone } from './parent-gone.js';
import { loggerOptions } from '../api/log.js';
import { createMetrics } from '../api/metrics/index.js';
import { runWithConfig, StartupError, type Config } from '../config/index.js';
import { ALL_COLLECTIONS } from '../mongo/collections/index.js';
import { openStore } from '../mongo/open.js';
import { timedStore } from '../mongo/timed-store.js';
import { startEmbeddedWorker } from '../temporal/embedded.js';
import {
  DATA_DIR_TAKEN_EXIT,
  otherServiceHolding,
  pidFileText,
  pidOf,
  workerAlive,
  workerPidFile,
} from '../temporal/worker-pid.js';
import type { FromWorker, ToWorker } from '../temporal/worker-child.js';

const PREDECESSOR_WAIT_MS = 10_000;

// Messages are handled from the first moment; the parent sends what it knows once it hears `hello`.
let announceSource: (s: { url: string; devnet: boolean }) => void = () => {};
const sourceFromParent = new Promise<{ url: string; devnet: boolean }>((resolve) => (announceSource = resolve));
let sourceComplete = false;
let answerMetrics: (id: number) => void = (id) => tell({ type: 'metrics', id, metrics: [] });
/** Before the worker runs, a stop is an exit (nothing started); then main() replaces it with the orderly stop. */
let onSigterm: () => void = () => process.exit(0);
let release: () => void = () => {};
const tell = (m: FromWorker) => {
  // A parent that exited meanwhile (a port it could not listen on) fails the write with EPIPE; without a callback
  // that is an uncaught 'error' and a fatal stack trace here. Its going is handled by onParentGone.
  if (process.connected) process.send?.(m, undefined, undefined, () => undefined);
};
process.on('message', (m: ToWorker) => {
  if (m?.type === 'source') announceSource({ url: m.url, devnet: m.devnet });
  else if (m?.type === 'source-complete') sourceComplete = true;
  else if (m?.type === 'source-incomplete') sourceComplete = false;
  else if (m?.type === 'metrics') answerMetrics(m.id);
  else if (m?.type === 'ping') tell({ type: 'pong' });
});
// Both ends come while a store write may be part-way, where process.exit() would hang (scripts/exit-now.ts).
process.on('uncaughtException', (e) => {
  console.error('embedded worker: fatal:', e instanceof Error ? (e.stack ?? e.message) : e);
  release();
  exitNow();
});
if (process.send) {
  onParentGone(() => {
    console.error('embedded worker: npm start is gone; exiting');
    release();
    exitNow();
  });
  // Ctrl-C reaches the whole process group: npm start stops this worker itself, in order.
  process.on('SIGINT', () => {});
  tell({ type: 'hello' });
}
process.on('SIGTERM', () => onSigterm());

/** Takes DATA_DIR for this worker; returns the release. */
async function claimDataDir(dir: string, log: pino.Logger): Promise<() => void> {
  const file = workerPidFile(dir);
  const deadline = Date.now() + PREDECESSOR_WAIT_MS;
  let warned = false;
  for (;;) {
    try {
      writeFileSync(file, pidFileText(), { flag: 'wx' });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const other = pidOf(file);
    if (other === null || other === process.pid || !workerAlive(other)) {
      rmSync(file, { force: true });
      continue;
    }
    // Another npm start's worker (two started on this folder at once): waiting and being restarted cannot help.
    const service = otherServiceHolding(dir, process.ppid);
    if (service !== null) {
      console.error(
        `DATA_DIR=${dir} is in use: its embedded worker (pid ${other}) belongs to another npm start (pid ${service}); stop that one, or give this one its own DATA_DIR`,
      );
      process.exit(DATA_DIR_TAKEN_EXIT);
    }
    if (Date.now() > deadline)
      // One line, no stack (runWithConfig): an operator who started a second service on this DATA_DIR.
      throw new StartupError(`another embedded worker (pid ${other}) still writes to ${dir}; stop it first`);
    if (!warned) log.warn({ pid: other }, 'waiting for the previous embedded worker to exit');
    warned = true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return () => {
    if (pidOf(file) === process.pid) rmSync(file, { force: true });
  };
}

async function main(config: Config) {
  const log = pino({ ...loggerOptions(config.LOG_LEVEL), base: { proc: 'worker' } });
  mkdirSync(config.DATA_DIR, { recursive: true });
  release = await claimDataDir(config.DATA_DIR, log);
  // Only the work figures leave this process (the API process serves /metrics and its own process metrics).
  const metrics = createMetrics({ defaultMetrics: false });
  answerMetrics = (id) =>
    void metrics.workSnapshot().then(
      (snapshot) => tell({ type: 'metrics', id, metrics: snapshot }),
      () => tell({ type: 'metrics', id, metrics: [] }),
    );
  const store = timedStore(await openStore(config), (op, coll, s, ok) => metrics.storeOp(op, coll, s, ok));
  await store.ensureIndexes(ALL_COLLECTIONS);
  logRegistryImport(log, config.TOKEN_REGISTRY_DIR, await importRegistry(store, config.TOKEN_REGISTRY_DIR));

  // A configured node is complete; the devnet of `npm start` says when its backfill is done. A configured source
  // that is the standalone devnet (OGMIOS_IS_DEVNET) serves its pools' `.devnet` metadata, as for `npm run worker`.
  const source = config.OGMIOS_URL
    ? { url: config.OGMIOS_URL, devnet: config.OGMIOS_IS_DEVNET }
    : await sourceFromParent;
  if (config.OGMIOS_URL) sourceComplete = true;
  // Connected on first use: a source not up yet is the sync's outage to retry, not a crash of the worker.
  const chain = createOgmiosClient(source.url);
  // The previous worker's stop (or last failure) is over: until the first slice ends, monitors say "starting" (a
  // restarted devnet regenerates its history first, and held it at "not running: its worker stopped at …").
  await recordSyncStarted(store, new Date().toISOString());
  const worker = await startEmbeddedWorker(config, {
    store,
    chain,
    devnetUrl: source.devnet ? source.url : null,
    log,
    metrics,
    sourceComplete: () => sourceComplete,
  });
  tell({ type: 'ready' });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'embedded worker stopping');
    await worker.stop().catch((e: unknown) => log.warn({ err: e }, 'runner stop failed'));
    await recordSyncStopped(store, new Date().toISOString()).catch((e: unknown) =>
      log.warn({ err: e }, 'recording the stop failed'),
    );
    await chain.close().catch((e: unknown) => log.warn({ err: e }, 'chain source close failed'));
    await store.close();
    release();
    process.exit(0);
  };
  onSigterm = () => void stop('SIGTERM');
  if (!process.send) process.on('SIGINT', () => void stop('SIGINT'));
}

runWithConfig(main);
