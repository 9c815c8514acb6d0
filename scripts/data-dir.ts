/**
 * DATA_DIR as the processes that keep files there need it: created if absent, and writable. Checked once at start, so
 * a folder that cannot be written (a read-only mount, a path under a file, no permission) stops the process with one
 * line naming DATA_DIR and the reason, before any child process starts and prints its own stack trace.
 */
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { StartupError } from '../config/index.js';

/**
 * Creates `dir` and its missing parents one at a time. Not `mkdirSync(dir, { recursive: true })`: where mkdir of a
 * folder answers ENOENT under a parent that exists (procfs, sysfs: DATA_DIR=/proc/…), Node's recursive mkdir takes
 * the ENOENT for a missing parent, creates the parent (EEXIST: fine) and tries again without end, spinning a core,
 * and `npm start` hung with no output. Here each mkdir is tried once and its error is the answer.
 */
function makeDir(dir: string): void {
  const missing: string[] = [];
  for (let p = resolve(dir); !existsSync(p); p = dirname(p)) {
    missing.unshift(p);
    if (dirname(p) === p) break;
  }
  for (const d of missing)
    try {
      mkdirSync(d);
    } catch (e) {
      // Created meanwhile by another process (npm start's children start at once): that is what was asked.
      if ((e as NodeJS.ErrnoException).code === 'EEXIST' && statSync(d, { throwIfNoEntry: false })?.isDirectory())
        continue;
      throw e;
    }
}

export function writableDataDir(dir: string): void {
  try {
    makeDir(dir);
    // A regular file passes the access check: the store, the devnet and the worker each failed on it with a stack.
    if (!statSync(dir).isDirectory()) throw new Error(`ENOTDIR: it is a file, not a folder`);
    accessSync(dir, constants.W_OK);
  } catch (e) {
    throw new StartupError(`DATA_DIR=${dir}: cannot write there: ${e instanceof Error ? e.message : String(e)}`);
  }
}
