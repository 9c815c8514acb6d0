/**
 * The devnet in a child process (`scripts/devnet.ts`), as `npm start` runs it: the chain source keeps its own heap
 * and core, like Ogmios beside a node in production, so the service's process holds only the sync and the API.
 * The child reports its address over the IPC channel and exits when that channel closes, so it never outlives the
 * service, even one killed with SIGKILL.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface DevnetOptions {
  seed: string;
  backfillHours: number;
  blockMs: number;
  forkRate: number;
  dataDir: string;
}

/** What the devnet child reports once it serves (scripts/devnet.ts). */
export interface DevnetReady {
  type: 'devnet-ready';
  url: string;
  tip: { slot: number; id: string; height: number };
  blocks: number;
  generatedMs: number;
}

export interface DevnetChild extends Omit<DevnetReady, 'type'> {
  pid: number;
  close(): Promise<void>;
}

const SCRIPT = fileURLToPath(new URL('../scripts/devnet.ts', import.meta.url));

export function spawnDevnet(opts: DevnetOptions): Promise<DevnetChild> {
  const child = fork(SCRIPT, [], {
    // The parent's loader flags (tsx) so the child runs the same TypeScript sources.
    execArgv: process.execArgv,
    env: {
      ...process.env,
      DEVNET_SEED: opts.seed,
      DEVNET_BACKFILL_HOURS: String(opts.backfillHours),
      DEVNET_BLOCK_MS: String(opts.blockMs),
      DEVNET_FORK_RATE: String(opts.forkRate),
      DEVNET_PORT: '0',
      DATA_DIR: opts.dataDir,
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    void exited.then((code) => reject(new Error(`the devnet process exited (code ${code}) before it served`)));
    child.on('message', (m: DevnetReady) => {
      if (m?.type !== 'devnet-ready') return;
      resolve({
        url: m.url,
        tip: m.tip,
        blocks: m.blocks,
        generatedMs: m.generatedMs,
        pid: child.pid as number,
        async close() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
}
