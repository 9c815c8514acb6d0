/**
 * The embedded worker's claim on its DATA_DIR: its pid in `DATA_DIR/embedded-worker.pid` (scripts/embedded-worker.ts
 * writes it and waits for a live predecessor; the ops command asks whether a worker still runs there).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const workerPidFile = (dataDir: string): string => join(dataDir, 'embedded-worker.pid');

export function pidOf(file: string): number | null {
  try {
    const n = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

/** Whether `pid` is a live embedded worker (not a later process that reused the number). */
export function workerAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('embedded-worker');
  } catch {
    return process.platform !== 'linux'; // no /proc: the live pid is all we know
  }
}

/** The pid of the embedded worker that runs on `dataDir`, or null when none does (never started, stopped, killed). */
export function liveEmbeddedWorker(dataDir: string): number | null {
  const pid = pidOf(workerPidFile(dataDir));
  return pid !== null && workerAlive(pid) ? pid : null;
}
