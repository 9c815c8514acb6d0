/**
 * `npm start` as a user runs it on a fresh checkout: a fresh DATA_DIR, and a fresh TMPDIR so tsx transpiles every
 * source file again (its cache lives under the temporary folder); the process runs what `npm start` runs
 * (`node --import tsx scripts/start.ts`, without npm's own ~0.3 s wrapper). `npm ci` is not timed. Measured: the time
 * from spawn to the API listening, to the first `200` of `GET /api/v1/tokens` with at least one item, and to the
 * sync reaching the devnet's tip.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, sampleTree } from './http.js';
import { API_HEAP_FLAG } from '../config/node-flags.js';

export interface Service {
  url: string;
  pid: number;
  dataDir: string;
  /** ms from spawn: `API listening` logged, first token served, sync at the tip. */
  listeningMs: number;
  firstTokenMs: Promise<number>;
  tipMs: number;
  tipHeight: number;
  /** Memory of the process and each child it started, sampled from spawn until the sync reached the tip. */
  catchUpMemory: ReturnType<ReturnType<typeof sampleTree>['stop']>;
  stop(): Promise<void>;
}

export async function startService(dir: string, hours: number | undefined): Promise<Service> {
  const port = await freePort();
  const dataDir = join(dir, 'service');
  const tmp = join(dir, 'service-tmp');
  mkdirSync(tmp, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    TMPDIR: tmp,
    PORT: String(port),
    HOST: '127.0.0.1',
    RATE_LIMITS: 'false',
    LOG_LEVEL: 'info',
  };
  delete env.API_CACHE_MS; // npm start's default micro-cache
  delete env.MONGODB_URI;
  delete env.TEMPORAL_ADDRESS;
  if (hours !== undefined) env.DEVNET_BACKFILL_HOURS = String(hours);
  const t0 = performance.now();
  const child = spawn(process.execPath, [API_HEAP_FLAG, '--import', 'tsx', 'scripts/start.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const tree = sampleTree(child.pid as number);
  const exited = new Promise<number | null>((r) => child.once('exit', r));
  // Polled from spawn on, beside the wait for the tip: the first token is served long before the backfill ends.
  const firstTokenMs = pollUntil(
    `${url}/api/v1/tokens`,
    (status, body) => status === 200 && ((body as { items?: unknown[] }).items?.length ?? 0) > 0,
    t0,
    600_000,
  );
  firstTokenMs.catch(() => {}); // awaited by the caller; a service that exits first fails the tip wait below
  let listeningMs = 0;
  let catchUpMemory: Service['catchUpMemory'] = [];
  const tip = await new Promise<{ height: number; ms: number }>((resolve, reject) => {
    let buf = '';
    const onData = (d: Buffer) => {
      buf += d.toString();
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        try {
          const msg = JSON.parse(line) as { msg?: string; height?: number };
          if (msg.msg?.startsWith('API listening') && !listeningMs) listeningMs = performance.now() - t0;
          if (msg.msg?.startsWith('sync reached the chain tip')) {
            // From here the output (an access log line per request) is drained unread: parsed line by line, it
            // cost this process, which also runs the load generator, CPU on every request of the load rows.
            child.stdout.off('data', onData);
            child.stdout.resume();
            resolve({ height: msg.height ?? 0, ms: performance.now() - t0 });
            return;
          }
        } catch {
          /* progress lines */
        }
      }
    };
    child.stdout.on('data', onData);
    void exited.then((code) => reject(new Error(`service exited with ${code}`)));
  }).finally(() => (catchUpMemory = tree.stop()));
  return {
    url,
    pid: child.pid as number,
    dataDir,
    listeningMs,
    firstTokenMs,
    tipMs: tip.ms,
    tipHeight: tip.height,
    catchUpMemory,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Polls `url` every 100 ms from now until `ok` holds for an answer; resolves with the ms since `t0`. */
export async function pollUntil(
  url: string,
  ok: (status: number, body: unknown) => boolean,
  t0: number,
  timeoutMs: number,
): Promise<number> {
  for (;;) {
    try {
      const res = await fetch(url);
      const body: unknown = res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text();
      if (ok(res.status, body)) return performance.now() - t0;
    } catch {
      /* not listening yet */
    }
    if (performance.now() - t0 > timeoutMs) throw new Error(`${url}: not ready after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
