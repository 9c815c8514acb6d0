/**
 * The standalone devnet (`npm run devnet`) and the service (`npm start`) as child processes a test starts, kills
 * and restarts, and `npm run ops` as an operator runs it: what an operator sees, from outside the processes.
 */
import { freePort } from '../free-port.js';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const BASE_ENV = {
  MONGODB_URI: '',
  TEMPORAL_ADDRESS: '',
  NEWS_FEEDS: '',
  REDIS_URL: '',
  LOG_LEVEL: 'info',
};

export interface Proc {
  child: ChildProcess;
  log(): string;
  /** SIGKILL (a crash, a pulled plug); resolves once it exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

function run(script: string, env: Record<string, string>, ready: RegExp, what: string): Promise<Proc> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, ...BASE_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const proc: Proc = {
    child,
    log: () => out,
    kill: (signal = 'SIGKILL') =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start in 90 s:\n${out.slice(-3000)}`)), 90_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      if (ready.test(out)) {
        clearTimeout(timer);
        resolve(proc);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}) before it was ready:\n${out.slice(-3000)}`));
    });
  });
}

export interface DevnetOpts {
  port: number;
  dir: string;
  seed: string;
  backfillHours: number;
  forkRate?: number;
  blockMs?: number;
}

/** `npm run devnet` on `port`; its identity lives in `dir`, so a restart with the same dir continues the chain. */
export function startDevnetProcess(o: DevnetOpts): Promise<Proc> {
  return run(
    'scripts/devnet.ts',
    {
      DATA_DIR: o.dir,
      DEVNET_PORT: String(o.port),
      DEVNET_SEED: o.seed,
      DEVNET_BACKFILL_HOURS: String(o.backfillHours),
      DEVNET_FORK_RATE: String(o.forkRate ?? 0),
      DEVNET_BLOCK_MS: String(o.blockMs ?? 3_600_000),
    },
    /devnet \(Ogmios v6 JSON-RPC\) at/,
    'devnet',
  );
}

export interface ServiceOpts {
  port: number;
  dir: string;
  ogmiosUrl: string;
  env?: Record<string, string>;
}

/** `npm start` against the chain source at `ogmiosUrl`, its store in `dir`. */
export function startService(o: ServiceOpts): Promise<Proc> {
  return run(
    'scripts/start.ts',
    {
      DATA_DIR: o.dir,
      PORT: String(o.port),
      HOST: '127.0.0.1',
      OGMIOS_URL: o.ogmiosUrl,
      RATE_LIMITS: 'false',
      API_CACHE_MS: '0',
      ...o.env,
    },
    /API listening on/,
    'service',
  );
}

/**
 * A standalone devnet and `npm start` following it, with a store in `dataDir`, returned once the service has indexed
 * up to the devnet's tip (`/healthz/sync` 200 at the tip height). `log` names what to print if it never gets there.
 */
export async function startSyncedPair(
  devnetOpts: Omit<DevnetOpts, 'port'>,
  dataDir: string,
  log: () => string,
): Promise<{ devnet: Proc; service: Proc; devPort: number; api: ReturnType<typeof client> }> {
  const devPort = await freePort();
  const port = await freePort();
  const devnet = await startDevnetProcess({ ...devnetOpts, port: devPort });
  const service = await startService({ port, dir: dataDir, ogmiosUrl: `ws://127.0.0.1:${devPort}` });
  const api = client(`http://127.0.0.1:${port}`);
  await api.until(
    '/healthz/sync',
    (r) => r.status === 200 && r.body.height > 0 && r.body.height === r.body.tipHeight,
    90_000,
    log,
  );
  return { devnet, service, devPort, api };
}

/** `npm run ops -- …` over the service's DATA_DIR: exit code and output as the operator reads them. */
export function ops(dir: string, ...args: string[]): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/ops.ts', ...args], {
    env: { ...process.env, ...BASE_ENV, DATA_DIR: dir },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function client(base: string) {
  const get = async (path: string): Promise<{ status: number; body: Json; text: string }> => {
    // A GET is idempotent: one that went out on a kept-alive socket the server had already closed (its keepAliveTimeout
    // is 5 s, and `ops` above runs with spawnSync, which blocks this process so it never sees the close) is sent again
    // once on a new socket, as browsers and HTTP clients do. Seen in CI on a loaded machine: "fetch failed".
    const res = await fetch(base + path).catch((e: unknown) => {
      const code = (e as { cause?: { code?: string } }).cause?.code;
      if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET') return fetch(base + path);
      throw e;
    });
    const text = await res.text();
    let body: Json = {};
    try {
      body = JSON.parse(text) as Json;
    } catch {
      // /metrics is text
    }
    return { status: res.status, body, text };
  };
  /** Polls `path` until `ok` holds for its answer; fails with the last answer after `ms`. */
  const until = async (
    path: string,
    ok: (r: { status: number; body: Json; text: string }) => boolean,
    ms = 90_000,
    log: () => string = () => '',
  ) => {
    const deadline = Date.now() + ms;
    let last: Awaited<ReturnType<typeof get>> | null;
    for (;;) {
      last = await get(path).catch(() => null);
      if (last && ok(last)) return last;
      if (Date.now() > deadline)
        throw new Error(`${path} never answered as expected; last: ${JSON.stringify(last)}\n${log().slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  return { get, until };
}

/** The value of one Prometheus sample (`name{labels}` exactly as exposed, or a bare name), or null. */
export function metric(text: string, sample: string): number | null {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const i = line.lastIndexOf(' ');
    if (line.slice(0, i) === sample) return Number(line.slice(i + 1));
  }
  return null;
}
