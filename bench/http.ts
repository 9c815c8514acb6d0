/**
 * HTTP load measurement: autocannon against a URL, and a bare `node:http` server (in its own process) that
 * returns the same bytes with the same content headers, so every figure is a ratio against a baseline measured in
 * the same run. Also the memory sampler: a process's resident memory read from /proc while the load runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';
import autocannon from 'autocannon';

/*
 * autocannon 9 appends every response body chunk to a string (`req.body += chunk`, for its body hooks, which the
 * bench does not use): a UTF-8 decode per byte received in the load generator's process, slow on binary bytes (br
 * and gzip answers: 600 KB of them took the same bare server from ~500 to ~45 req/s) and costly on multi-MB JSON.
 * The client then competes with the server for the same 2 cores and caps both runs, so the bodies are dropped:
 * every run of this process (REST, compressed, MCP) counts bytes and latency only.
 */
const Queue = createRequire(import.meta.url)('autocannon/lib/pipelinedRequestsQueue.js') as {
  prototype: { addBody(data: Buffer): void };
};
Queue.prototype.addBody = () => {};

export interface LoadResult {
  rps: number;
  p99: number;
  p50: number;
  errors: number;
  non2xx: number;
}

/** Concurrent connections of every load run. */
export const CONNECTIONS = 32;

export async function load(
  url: string,
  opts: {
    seconds: number;
    connections?: number;
    headers?: Record<string, string>;
    /** Paths cycled through in order by each connection (a mixed load); `url` gives the origin. */
    paths?: string[];
  },
): Promise<LoadResult> {
  const r = await autocannon({
    url,
    duration: opts.seconds,
    connections: opts.connections ?? CONNECTIONS,
    pipelining: 1,
    headers: opts.headers ?? {},
    ...(opts.paths ? { requests: opts.paths.map((path) => ({ method: 'GET' as const, path })) } : {}),
  });
  return { rps: r.requests.average, p99: r.latency.p99, p50: r.latency.p50, errors: r.errors, non2xx: r.non2xx };
}

/**
 * A short unmeasured run before a measured one: the first requests of a route compile its code and fault in the
 * store pages it reads, which a steady-state figure should not include.
 */
export async function warm(url: string, headers: Record<string, string> = {}): Promise<void> {
  await autocannon({ url, amount: 200, connections: 8, pipelining: 1, headers });
}

/**
 * Start a bare node:http server in a child process answering every request with `body` and `headers` (the
 * content type, and the content encoding of compressed bytes), the way the service sends them.
 */
/**
 * CPU ms a process or thread has used: utime + stime of its `/proc` stat file (`/proc/<pid>/stat`, or
 * `/proc/self/task/<tid>/stat` for one thread), in clock ticks of 10 ms; NaN where there is no /proc (not Linux).
 * The fields follow the parenthesised command name, which may contain spaces.
 */
export function procCpuMs(statFile: string): number {
  let stat: string;
  try {
    stat = readFileSync(statFile, 'utf8');
  } catch {
    return NaN;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export async function startBareServer(
  dir: string,
  body: Buffer,
  headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' },
): Promise<{ url: string; pid: number; stop: () => void }> {
  const file = join(dir, 'bare-body.bin');
  writeFileSync(file, body);
  const src = `
    const http = require('node:http');
    const body = require('node:fs').readFileSync(${JSON.stringify(file)});
    const headers = { ...${JSON.stringify(headers)}, 'content-length': body.length };
    const s = http.createServer((req, res) => { res.writeHead(200, headers); res.end(body); });
    s.listen(0, '127.0.0.1', () => process.stdout.write(String(s.address().port) + '\\n'));`;
  const child = spawn(process.execPath, ['-e', src], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await firstLine(child);
  return { url: `http://127.0.0.1:${port}`, pid: child.pid as number, stop: () => child.kill('SIGKILL') };
}

/** Bare baseline and the service's run of one URL: the baseline is measured first, then the service. */
export async function withBare<T>(
  dir: string,
  body: Buffer,
  headers: Record<string, string> | undefined,
  f: (bareUrl: string) => Promise<T>,
): Promise<T> {
  const bare = await startBareServer(dir, body, headers);
  try {
    return await f(bare.url);
  } finally {
    bare.stop();
  }
}

/** One answer as sent: its bytes (still encoded when `encoding` is asked for) and headers. */
export async function getBytes(
  url: string,
  encoding = 'identity',
): Promise<{ status: number; body: Buffer; headers: Record<string, string> }> {
  const http = await import('node:http');
  return new Promise((resolve, reject) => {
    // node:http, not fetch: fetch decodes the body, and the bytes on the wire are what is measured.
    http
      .get(url, { headers: { 'accept-encoding': encoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers[k] = v;
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers });
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

export function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout?.on('data', (d: Buffer) => {
      buf += d.toString();
      const i = buf.indexOf('\n');
      if (i >= 0) resolve(buf.slice(0, i).trim());
    });
    child.on('exit', (code) => reject(new Error(`child exited with ${code}`)));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface Memory {
  /** VmRSS, MB. */
  total: number;
  /** RssAnon: heap, stacks, buffers — the process's own memory (MB). */
  anon: number;
  /** RssFile: lmdb's memory-mapped store pages and code, reclaimable page cache (MB). */
  file: number;
}

/** Resident memory of a process in MB, from /proc/<pid>/status. */
export function rssMb(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) / 1024;
  return { total: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile') };
}

/** The child processes of `pid` (from /proc/<pid>/task/<tid>/children). */
export function childPids(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
    readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
}

/**
 * What a process runs, for a label: `scripts/devnet.ts` (the devnet child of `npm start`),
 * `scripts/embedded-worker.ts` (its worker child), esbuild (tsx's).
 */
export function commandOf(pid: number): string {
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  const script = argv.find((a) => /\.(ts|js)$/.test(a) && !a.includes('node_modules'));
  if (script?.endsWith('scripts/devnet.ts')) return 'the devnet, the chain source: scripts/devnet.ts';
  if (script?.endsWith('scripts/embedded-worker.ts'))
    return 'the embedded worker: sync + recomputes + news ingest, scripts/embedded-worker.ts';
  return script ?? argv[0]?.split('/').pop() ?? 'unknown';
}

/**
 * Samples a process's memory every `everyMs` while a load runs: the peak RssAnon (the budget's figure), the
 * file-backed RSS at that moment and the peak of it, and the first and last samples.
 */
export function sampleMemory(pid: number, everyMs = 100) {
  const first = rssMb(pid);
  let last = first;
  let peak = first;
  let peakFile = first.file;
  let samples = 1;
  const timer = setInterval(() => {
    try {
      last = rssMb(pid);
    } catch {
      return; // the process ended
    }
    samples++;
    if (last.anon > peak.anon) peak = last;
    peakFile = Math.max(peakFile, last.file);
  }, everyMs);
  return {
    stop(): { first: Memory; peak: Memory; peakFile: number; last: Memory; samples: number } {
      clearInterval(timer);
      return { first, peak, peakFile, last, samples };
    },
  };
}

/**
 * Samples a process and every child it starts (looked for at each sample) until stopped: per process, the same
 * figures as sampleMemory. For `npm start` from spawn to the tip: the catch-up's high-water marks.
 */
export function sampleTree(pid: number, everyMs = 250) {
  const procs = new Map<number, { command: string; mem: ReturnType<typeof sampleMemory> }>();
  const look = () => {
    for (const p of [pid, ...safe(() => childPids(pid), [])])
      if (!procs.has(p))
        try {
          procs.set(p, { command: p === pid ? 'root' : commandOf(p), mem: sampleMemory(p, everyMs) });
        } catch {
          /* it ended already */
        }
  };
  look();
  const timer = setInterval(look, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return [...procs].map(([p, { command, mem }]) => ({ pid: p, command, mem: mem.stop() }));
    },
  };
}

function safe<T>(f: () => T, fallback: T): T {
  try {
    return f();
  } catch {
    return fallback;
  }
}
