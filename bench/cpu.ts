/**
 * CPU time per request of the API process (user + sys from /proc/<pid>/stat, so the load generator's own CPU is not
 * counted), the figure that moves least with a shared machine's load. For development:
 *
 *   BENCH_STORE=data/store [BENCH_ROUTES=a,b] [BENCH_SECONDS=2] npm run bench:cpu
 *     per REST route (bench/rest.ts's list), the API alone with the cache off (API_CACHE_MS=0) beside a bare
 *     node:http server sending the same bytes: µs of CPU per request and req/s, each the median of BENCH_REPEAT (3)
 *   BENCH_COMPARE=/tmp/other-tree … npm run bench:cpu
 *     also the API of another tree (a `git archive` of a commit with node_modules linked) over the same store, the
 *     two measured in turn per route (bare, before, after, BENCH_REPEAT times) so both see the same machine load
 *   BENCH_CACHE_MS=1000 … npm run bench:cpu
 *     the same with the API's micro-cache on (its default window): the replayed answers' cost
 *   npm run bench:cpu -- floor
 *     the same figures for one fixed small JSON answer from node:http, Koa + @koa/router, and the service's whole
 *     middleware stack (bench/floor-server.ts; over BENCH_STORE when given, else an empty store of its own)
 *
 * Every run: 32 connections for BENCH_SECONDS, after one unmeasured second.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { firstLine, getBytes, procCpuMs, startBareServer } from './http.js';
import { API_HEAP_FLAG } from '../config/node-flags.js';
import { findSamples, restEndpoints, routeFilter } from './rest.js';

const STORE = process.env.BENCH_STORE;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
/** A copy of another tree (e.g. `git archive <commit>` with node_modules linked): before/after in one run. */
const COMPARE = process.env.BENCH_COMPARE;
const cpuMs = (pid: number) => procCpuMs(`/proc/${pid}/stat`);

async function run(url: string, seconds: number, headers: Record<string, string> = {}) {
  const r = await autocannon({ url, duration: seconds, connections: 32, pipelining: 1, headers });
  return { n: r.requests.total, rps: r.requests.average, non2xx: r.non2xx + r.errors };
}

interface Run {
  us: number;
  rps: number;
  bad: number;
}

/** One measured run: CPU µs per request of the process `pid` serving `url`, and req/s. */
async function once(pid: number, url: string): Promise<Run> {
  const t0 = cpuMs(pid);
  const r = await run(url, SECONDS);
  return { us: ((cpuMs(pid) - t0) * 1000) / r.n, rps: r.rps, bad: r.non2xx };
}

const median = (a: number[]) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)] as number;
const summary = (runs: Run[]): Run => ({
  us: median(runs.map((r) => r.us)),
  rps: median(runs.map((r) => r.rps)),
  bad: runs.reduce((n, r) => n + r.bad, 0),
});

/** The median of REPEAT runs after an unmeasured second. */
async function measure(pid: number, url: string): Promise<Run> {
  await run(url, 1);
  const runs: Run[] = [];
  for (let i = 0; i < REPEAT; i++) runs.push(await once(pid, url));
  return summary(runs);
}

async function child(args: string[], cwd?: string): Promise<{ proc: ChildProcess; info: Record<string, unknown> }> {
  // BENCH_CACHE_MS: the micro-cache window of the API under test (default 0: every request reads and presents).
  const env = { ...process.env, API_CACHE_MS: process.env.BENCH_CACHE_MS ?? '0' };
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env, ...(cwd ? { cwd } : {}) });
  const info = JSON.parse(await firstLine(proc)) as Record<string, unknown>;
  return { proc, info };
}

const line = (
  name: string,
  bytes: number,
  bare: { us: number; rps: number },
  api: { us: number; rps: number; bad: number },
) =>
  console.log(
    `| ${name} | ${(bytes / 1024).toFixed(1)} KB | ${bare.us.toFixed(0)} | ${api.us.toFixed(0)} | ${Math.round(bare.rps)} | ${Math.round(api.rps)} | ${(api.rps / bare.rps).toFixed(2)} | ${api.bad} |`,
  );

async function floor() {
  // The fixed answer reads no store; the stack opens one for its access layer (limits off): without BENCH_STORE, an
  // empty one of its own (it died on `mkdir ''`).
  const own = STORE ? null : mkdtempSync(join(tmpdir(), 'cds-bench-floor-'));
  const store = STORE ?? join(own as string, 'store');
  console.log('| server | µs CPU/request | req/s |\n|---|---|---|');
  try {
    for (const mode of ['bare', 'koa', 'stack']) {
      const { proc, info } = await child(['--import', 'tsx', 'bench/floor-server.ts', mode, store]);
      try {
        const r = await measure(proc.pid as number, `http://127.0.0.1:${String(info.port)}${String(info.path)}`);
        console.log(`| ${mode} | ${r.us.toFixed(1)} | ${Math.round(r.rps)} |${r.bad ? ` ${r.bad} non-2xx` : ''}`);
      } finally {
        proc.kill('SIGTERM');
      }
    }
  } finally {
    if (own) rmSync(own, { recursive: true, force: true });
  }
}

/** The API alone over STORE with the cache off, run from `dir` (this tree, or BENCH_COMPARE's copy of another). */
async function apiFrom(dir: string, flags: string[] = []) {
  const { proc, info } = await child(
    [API_HEAP_FLAG, ...flags, '--import', 'tsx', join(dir, 'bench/api-server.ts'), STORE ?? '', 'off'],
    dir,
  );
  return {
    pid: proc.pid as number,
    url: `http://127.0.0.1:${String(info.port)}`,
    txHash: info.txHash as string | undefined,
    stop: () => proc.kill('SIGTERM'),
  };
}

async function routes() {
  if (!STORE) throw new Error('BENCH_STORE=path of a synced store');
  // BENCH_AFTER_FLAGS: V8 flags for this tree's API only (e.g. a GC setting against the same code).
  const api = await apiFrom(process.cwd(), (process.env.BENCH_AFTER_FLAGS ?? '').split(' ').filter(Boolean));
  const base = COMPARE ? await apiFrom(COMPARE) : null;
  try {
    const samples = await findSamples(api.url, api.txHash);
    console.log(
      base
        ? `| route | bytes | bare µs/req | before µs/req | after µs/req | after/before | bare req/s | before req/s | after req/s | ratio before | ratio after |\n|${'---|'.repeat(11)}`
        : '| route | bytes | bare µs/req | API µs/req | bare req/s | API req/s | ratio | non-2xx |\n|---|---|---|---|---|---|---|---|',
    );
    for (const e of routeFilter(restEndpoints(samples))) {
      const first = await getBytes(api.url + e.path);
      if (first.status !== 200) {
        console.log(`| ${e.name} | status ${first.status} |`);
        continue;
      }
      if (base) {
        const other = await getBytes(base.url + e.path);
        if (!other.body.equals(first.body) || other.headers.etag !== first.headers.etag)
          console.log(`| ${e.name} | the two trees answer different bytes or ETags |`);
      }
      const headers: Record<string, string> = {};
      for (const k of ['content-type', 'vary']) if (first.headers[k]) headers[k] = first.headers[k];
      const bare = await startBareServer(mkdtempSync(join(tmpdir(), 'cds-cpu-')), first.body, headers);
      try {
        const bareUrl = `${bare.url}/`;
        if (!base) {
          const b = await measure(bare.pid, bareUrl);
          line(e.name, first.body.length, b, await measure(api.pid, api.url + e.path));
          continue;
        }
        // Interleaved, so both trees see the same machine load: bare, then before and after, REPEAT times.
        const runs = { bare: [] as Run[], before: [] as Run[], after: [] as Run[] };
        for (const url of [bareUrl, base.url + e.path, api.url + e.path]) await run(url, 1);
        for (let i = 0; i < REPEAT; i++) {
          runs.bare.push(await once(bare.pid, bareUrl));
          // Alternating which tree goes first, so neither always follows the bare run.
          const pair = [
            async () => runs.before.push(await once(base.pid, base.url + e.path)),
            async () => runs.after.push(await once(api.pid, api.url + e.path)),
          ];
          if (i % 2) pair.reverse();
          for (const f of pair) await f();
        }
        const [b, x, y] = [summary(runs.bare), summary(runs.before), summary(runs.after)];
        console.log(
          `| ${e.name} | ${(first.body.length / 1024).toFixed(1)} KB | ${b.us.toFixed(0)} | ${x.us.toFixed(0)} | ${y.us.toFixed(0)} | ${(y.us / x.us).toFixed(2)} | ${Math.round(b.rps)} | ${Math.round(x.rps)} | ${Math.round(y.rps)} | ${(x.rps / b.rps).toFixed(2)} | ${(y.rps / b.rps).toFixed(2)} |`,
        );
      } finally {
        bare.stop();
      }
    }
  } finally {
    api.stop();
    base?.stop();
  }
}

await (process.argv[2] === 'floor' ? floor() : routes());
