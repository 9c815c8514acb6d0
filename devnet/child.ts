/**
 * The devnet in a child process (`scripts/devnet.ts`), as `npm start` runs it: the chain source keeps its own heap
 * and core, like Ogmios beside a node in production, so the service's process holds only the sync and the API.
 * The child reports its address over the IPC channel and exits when that channel closes, so it never outlives the
 * service, even one killed with SIGKILL.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { childExecArgv } from '../config/node-flags.js';

export interface DevnetOptions {
  seed: string;
  backfillHours: number;
  blockMs: number;
  forkRate: number;
  /** Deepest fork (DEVNET_FORK_DEPTH). */
  forkDepth: number;
  dataDir: string;
  /** The port to serve on (a restart keeps its predecessor's, so followers reconnect to the same URL); 0: any. */
  port?: number;
}

/**
 * What the devnet child reports (scripts/devnet.ts): `devnet-ready` once it serves (its history still growing),
 * `devnet-backfilled` when the history reaches the start time.
 */
export interface DevnetMessage {
  type: 'devnet-ready' | 'devnet-backfilled';
  url: string;
  tip: { slot: number; id: string; height: number };
  /** Canonical blocks published so far. */
  blocks: number;
  /** Since the child started. */
  generatedMs: number;
}

type Report = Omit<DevnetMessage, 'type'>;

export interface DevnetChild {
  url: string;
  pid: number;
  /** The backfilled history (its tip, blocks and generation time). */
  backfilled: Promise<Report>;
  /** Resolves when the process exited, for whatever reason (`close` included), saying how: "code 1", "signal SIGKILL". */
  exited: Promise<string>;
  close(): Promise<void>;
}

/** How long `close` waits for the devnet to exit after SIGTERM before it kills it (SIGKILL). */
export const CLOSE_GRACE_MS = 10_000;

const SCRIPT = fileURLToPath(new URL('../scripts/devnet.ts', import.meta.url));

export function spawnDevnet(opts: DevnetOptions): Promise<DevnetChild> {
  const child = fork(SCRIPT, [], {
    // The parent's loader flags (tsx) so the child runs the same TypeScript sources; not the API's heap cap.
    execArgv: childExecArgv(),
    env: {
      ...process.env,
      DEVNET_SEED: opts.seed,
      DEVNET_BACKFILL_HOURS: String(opts.backfillHours),
      DEVNET_BLOCK_MS: String(opts.blockMs),
      DEVNET_FORK_RATE: String(opts.forkRate),
      DEVNET_FORK_DEPTH: String(opts.forkDepth),
      DEVNET_PORT: String(opts.port ?? 0),
      DATA_DIR: opts.dataDir,
      DEVNET_STREAM_BACKFILL: 'true',
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `code ${code}`)),
  );
  const gone = exited.then((how) => {
    throw new Error(`the devnet process exited (${how}) before it finished its history`);
  });
  gone.catch(() => undefined);
  const message = (type: DevnetMessage['type']) =>
    Promise.race([
      gone,
      new Promise<Report>((resolve) => {
        const on = (m: DevnetMessage) => {
          if (m?.type !== type) return;
          child.off('message', on);
          const { type: _type, ...report } = m;
          resolve(report);
        };
        child.on('message', on);
      }),
    ]);
  const backfilled = message('devnet-backfilled');
  backfilled.catch(() => undefined);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    message('devnet-ready').then(
      (ready) =>
        resolve({
          url: ready.url,
          pid: child.pid as number,
          backfilled,
          exited,
          async close() {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            // A devnet that cannot act on SIGTERM (stopped by SIGSTOP or a debugger, its event loop blocked) held
            // npm start's shutdown for good after its API and worker had stopped; its own stop exits within 2 s.
            const timer = setTimeout(() => child.kill('SIGKILL'), CLOSE_GRACE_MS);
            await exited;
            clearTimeout(timer);
          },
        }),
      reject,
    );
  });
}
