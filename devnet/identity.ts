/**
 * The devnet's identity: its seed and system start (the wall-clock time of slot 0). Persisted in
 * `${dataDir}/devnet.json` so a restart regenerates the same chain and continues it from wall-clock now,
 * instead of starting a new chain the stored index would not recognise. A different seed starts a new identity.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DevnetIdentity {
  seed: string;
  /** Unix ms of slot 0, a whole second. */
  systemStartMs: number;
}

export function resolveIdentity(opts: {
  seed: string;
  backfillHours: number;
  nowMs: number;
  dataDir?: string;
}): DevnetIdentity {
  const fresh: DevnetIdentity = {
    seed: opts.seed,
    systemStartMs: Math.round((opts.nowMs - opts.backfillHours * 3_600_000) / 1000) * 1000,
  };
  if (!opts.dataDir) return fresh;
  const file = join(opts.dataDir, 'devnet.json');
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { seed?: unknown; systemStart?: unknown };
    const start = typeof saved.systemStart === 'string' ? Date.parse(saved.systemStart) : NaN;
    if (saved.seed === opts.seed && Number.isFinite(start) && start <= opts.nowMs)
      return { seed: opts.seed, systemStartMs: start };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  mkdirSync(opts.dataDir, { recursive: true });
  const body = JSON.stringify({ seed: fresh.seed, systemStart: new Date(fresh.systemStartMs).toISOString() }, null, 2);
  writeFileSync(`${file}.tmp`, body + '\n');
  renameSync(`${file}.tmp`, file);
  return fresh;
}
