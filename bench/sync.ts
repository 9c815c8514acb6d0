/**
 * Sync throughput with the chain source in its own process, as in production (Ogmios beside a node): the devnet
 * runs as `npm run devnet` would, and this process only follows it and writes the store (embedded lmdb, or MongoDB
 * when given one). Afterwards every scheduled recompute can be run once over the synced store, so the API alone
 * (bench/api-server.ts) answers every route from it as the service would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { connectOgmios } from '../activities/chain/ogmios-client.js';
import { defaultExtensions } from '../activities/extensions.js';
import { createSyncActivities } from '../activities/sync/index.js';
import { loadConfig } from '../config/index.js';
import { ALL_COLLECTIONS } from '../mongo/collections/index.js';
import type { Store } from '../mongo/store.js';
import { buildActivities } from '../temporal/activities.js';
import { recomputeWorkflowId } from '../temporal/constants.js';
import { createRunner, type Runner } from '../temporal/runner.js';
import { SCHEDULES } from '../temporal/schedules.js';
import { embeddedTriggers } from '../temporal/triggers.js';
import { firstLine, freePort } from './http.js';

export interface Devnet {
  url: string;
  /** Wall-clock time the devnet took to generate its history and listen (ms). */
  genMs: number;
  /** Its process id (its CPU time competes with the sync's for the same cores). */
  pid: number;
  stop(): Promise<void>;
}

/** The devnet as `npm run devnet` runs it, with `hours` of history and no live blocks during the bench. */
export async function startDevnetProcess(dataDir: string, hours: number): Promise<Devnet> {
  const port = await freePort();
  const t0 = performance.now();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'scripts/devnet.ts'], {
    env: {
      ...process.env,
      DEVNET_SEED: 'bench',
      DEVNET_BACKFILL_HOURS: String(hours),
      DEVNET_BLOCK_MS: '3600000',
      DEVNET_PORT: String(port),
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await firstLine(child);
  return {
    url: `ws://127.0.0.1:${port}`,
    genMs: performance.now() - t0,
    pid: child.pid ?? 0,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface SyncResult {
  blocks: number;
  rollbacks: number;
  syncMs: number;
  blocksPerSecond: number;
  /** True when `maxSeconds` ended the run before the tip. */
  stoppedEarly: boolean;
}

/**
 * Follows the devnet at `url` into `store` from its checkpoint to the tip, in slices of `sliceBlocks` (the
 * SYNC_SLICE_BLOCKS default), or until `maxSeconds` have passed at the end of a slice.
 */
export async function syncToTip(
  store: Store,
  url: string,
  opts: { maxSeconds?: number; sliceBlocks?: number } = {},
): Promise<SyncResult> {
  await store.ensureIndexes(ALL_COLLECTIONS);
  const chain = await connectOgmios(url);
  const acts = createSyncActivities({ store, chain, k: 2160, network: 'mainnet', extensions: defaultExtensions() });
  let blocks = 0;
  let rollbacks = 0;
  let stoppedEarly = false;
  const sliceBlocks = opts.sliceBlocks ?? loadConfig({}).SYNC_SLICE_BLOCKS;
  const t1 = performance.now();
  try {
    for (;;) {
      const r = await acts.syncSlice({ maxBlocks: sliceBlocks, waitMs: 200 });
      blocks += r.blocks;
      rollbacks += r.rollbacks;
      // A slice that found nothing waiting within waitMs is at the tip (a slice may end early, atTip, on a
      // momentarily empty read-ahead buffer while blocks are still coming).
      if (r.atTip && r.blocks === 0) break;
      if (opts.maxSeconds && performance.now() - t1 > opts.maxSeconds * 1000) {
        stoppedEarly = true;
        break;
      }
    }
  } finally {
    await chain.close();
  }
  const syncMs = performance.now() - t1;
  return { blocks, rollbacks, syncMs, blocksPerSecond: blocks / (syncMs / 1000), stoppedEarly };
}

/**
 * Runs every scheduled job once, in the schedule's order (market first: the others read its token stats), the way
 * `npm start` fires them all when the sync reaches the tip; news is left out (no feeds are configured). Returns
 * each job's wall-clock time, so a recompute whose cost grows with the store shows in the growth table.
 */
export async function recomputeOnce(store: Store, devnetUrl: string): Promise<{ job: string; ms: number }[]> {
  const log = pino({ level: 'silent' });
  const chain = await connectOgmios(devnetUrl);
  const config = loadConfig({});
  let runner: Runner | null = null;
  const activities = buildActivities(config, { store, chain, devnetUrl });
  runner = createRunner({ store, activities: { ...activities, ...embeddedTriggers(() => runner, log) }, log });
  const out: { job: string; ms: number }[] = [];
  try {
    for (const s of SCHEDULES) {
      if (s.id === 'news') continue;
      const t = performance.now();
      const { done } = await runner.start(s.workflow, {
        workflowId: recomputeWorkflowId(s.id),
        input: s.input,
        requestedBy: 'operator',
      });
      const run = await done;
      if (run.status !== 'completed') throw new Error(`recompute ${s.id} ${run.status}: ${run.error ?? ''}`);
      out.push({ job: s.id, ms: performance.now() - t });
    }
  } finally {
    await runner.stop();
    await chain.close();
  }
  return out;
}

/** Bytes of the files under `path` (the lmdb data file and its lock file), as the file system reports their size. */
export function storeBytes(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((n, f) => n + storeBytes(join(path, f)), 0);
}
