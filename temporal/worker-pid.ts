/**
 * The embedded worker's claim on its DATA_DIR: its pid in `DATA_DIR/embedded-worker.pid` (scripts/embedded-worker.ts
 * writes it and waits for a live predecessor; the ops command asks whether a worker still runs there).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const workerPidFile = (dataDir: string): string => join(dataDir, 'embedded-worker.pid');

/**
 * The file holds `<worker pid> <npm start's pid>` (the worker's parent, which restarts it when it dies); a file of an
 * older build holds the worker's pid alone.
 */
function pidsIn(file: string): number[] {
  try {
    return readFileSync(file, 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number)
      .map((n) => (Number.isInteger(n) && n > 0 ? n : 0));
  } catch {
    return [];
  }
}

export function pidOf(file: string): number | null {
  return pidsIn(file)[0] || null;
}

/** What the worker writes to its pid file: its pid and its parent's (npm start). */
export const pidFileText = (): string => `${process.pid} ${process.ppid}`;

/** Whether `pid` is a live npm start (scripts/start.ts), not a later process that reused the number. */
function serviceAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('scripts/start.ts');
  } catch {
    return process.platform !== 'linux';
  }
}

/**
 * The pid of the npm start whose embedded worker on `dataDir` is not running but which lives, so restarts it (after
 * 1, 2, 4, 8, 16 s); null when a worker runs, or when no npm start does (stopped, killed).
 */
export function restartingService(dataDir: string): number | null {
  const [worker, parent] = pidsIn(workerPidFile(dataDir));
  if (!worker || !parent || workerAlive(worker)) return null;
  return serviceAlive(parent) ? parent : null;
}

/**
 * Exit code of an embedded worker that found DATA_DIR held by the live worker of another npm start (two started on
 * one DATA_DIR at once, both past npm start's own check before either worker claimed it): no restart of it can
 * succeed while that service runs, so its npm start stops at once with the worker's one line instead of restarting
 * it for about 80 s as a crash.
 */
export const DATA_DIR_TAKEN_EXIT = 3;

/**
 * The npm start (pid) whose live embedded worker holds `dataDir`, when that npm start is not `ownService` (the
 * asking worker's parent) and lives; null when no worker holds it, or it is this service's own (a predecessor that is
 * still exiting), or its npm start is gone (the worker exits at once then: its IPC channel closed).
 */
export function otherServiceHolding(dataDir: string, ownService: number): number | null {
  const [worker, parent] = pidsIn(workerPidFile(dataDir));
  if (!worker || !parent || parent === ownService || !workerAlive(worker)) return null;
  return serviceAlive(parent) ? parent : null;
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
