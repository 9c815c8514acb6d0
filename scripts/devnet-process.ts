/**
 * The devnet beside `npm start`, in a process of its own, as a cardano-node with Ogmios runs beside the service in
 * production: generating its history and producing blocks uses the other core instead of the sync's, and the
 * service's memory is the service's own. The child is `scripts/devnet.ts` on an ephemeral port with the same
 * configuration (DATA_DIR keeps its identity, so a restart continues the same chain). It reports its URL over the
 * IPC channel once it listens, and exits when that channel closes, so it never outlives this process (a SIGKILL
 * included).
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { pino } from 'pino';

/** What scripts/devnet.ts sends its parent once it listens. */
export interface DevnetReady {
  url: string;
  tip: { height: number; slot: number };
}

export interface DevnetProcess extends DevnetReady {
  pid: number;
  close(): Promise<void>;
}

export const isDevnetReady = (m: unknown): m is DevnetReady =>
  typeof m === 'object' && m !== null && typeof (m as DevnetReady).url === 'string';

/** How long a stopping devnet may take before it is killed. */
const STOP_GRACE_MS = 5_000;

export function startDevnetProcess(log: pino.Logger): Promise<DevnetProcess> {
  const script = join(dirname(fileURLToPath(import.meta.url)), 'devnet.ts');
  // The same Node flags as this process (`--import tsx`), an ephemeral port, everything else as configured.
  const child = spawn(process.execPath, [...process.execArgv, script], {
    env: { ...process.env, DEVNET_PORT: '0' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let closing = false;
  const close = async () => {
    closing = true;
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    void exited.then((code) => reject(new Error(`the devnet process exited (code ${code}) before it was ready`)));
    child.on('message', (m: unknown) => {
      if (!isDevnetReady(m)) return;
      void exited.then((code) => {
        if (!closing) log.error({ code }, 'the devnet process exited; the sync keeps retrying its chain source');
      });
      resolve({ ...m, pid: child.pid as number, close });
    });
  });
}
