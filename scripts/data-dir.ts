/**
 * DATA_DIR as the processes that keep files there need it: created if absent, and writable. Checked once at start, so
 * a folder that cannot be written (a read-only mount, a path under a file, no permission) stops the process with one
 * line naming DATA_DIR and the reason, before any child process starts and prints its own stack trace.
 */
import { accessSync, constants, mkdirSync } from 'node:fs';
import { StartupError } from '../config/index.js';

export function writableDataDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (e) {
    throw new StartupError(`DATA_DIR=${dir}: cannot write there: ${e instanceof Error ? e.message : String(e)}`);
  }
}
