/**
 * CPU time per request of the API process (user + sys from /proc/<pid>/stat, so the load generator's own CPU is not
 * counted), the figure that moves least with a shared machine's load. For development:
 *
 *   BENCH_STORE=data/store [BENCH_ROUTES=a,b] [BENCH_SECONDS=2] npm run bench:cpu
 *     per REST route (bench/rest.ts's list), the API alone with the cache off (API_CACHE_MS=0) beside a bare
 *     node:http server sending the same bytes: µs of CPU per request and req/s, each the median of BENCH_REPEAT (3)
 *   BENCH_STORE=data/store npm run bench:cpu -- floor
 *     the same figures for one fixed small JSON answer from node:http, Koa + @koa/router, and the service's whole
 *     middleware stack (bench/floor-server.ts)
 *
 * Every run: 32 connections for BENCH_SECONDS, after one unmeasured second.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { firstLine, getBytes } from './http.js';
import { findSamples, restEndpoints, routeFilter, startApiServer } from './rest.js';

const STORE = process.env.BENCH_STORE;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const TICK_US = 1e6 / 100; // CLK_TCK

function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime, stime
}

async function run(url: string, seconds: number, headers: Record<string, string> = {}) {
  const r = await autocannon({ url, duration: seconds, connections: 32, pipelining: 1, headers });
  return { n: r.requests.total, rps: r.requests.average, non2xx: r.non2xx + r.errors };
}

/** CPU µs per request and req/s of the process `pid` serving `url`: the median of REPEAT runs. */
async function measure(pid: number, url: string) {
  await run(url, 1);
  const cpu: number[] = [];
  const rps: number[] = [];
  let bad = 0;
  for (let i = 0; i < REPEAT; i++) {
    const t0 = cpuTicks(pid);
    const r = await run(url, SECONDS);
    cpu.push(((cpuTicks(pid) - t0) * TICK_US) / r.n);
    rps.push(r.rps);
    bad += r.non2xx;
  }
  const median = (a: number[]) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)] as number;
  return { us: median(cpu), rps: median(rps), bad };
}

async function child(args: string[]): Promise<{ proc: ChildProcess; info: Record<string, unknown> }> {
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const info = JSON.parse(await firstLine(proc)) as Record<string, unknown>;
  return { proc, info };
}

async function bareFor(body: Buffer, headers: Record<string, string>) {
  const file = join(mkdtempSync(join(tmpdir(), 'cds-cpu-')), 'body.bin');
  writeFileSync(file, body);
  const src = `
    const http = require('node:http');
    const body = require('node:fs').readFileSync(${JSON.stringify(file)});
    const headers = { ...${JSON.stringify(headers)}, 'content-length': body.length };
    const s = http.createServer((req, res) => { res.writeHead(200, headers); res.end(body); });
    s.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: s.address().port }) + '\\n'));`;
  return child(['-e', src]);
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
  console.log('| server | µs CPU/request | req/s |\n|---|---|---|');
  for (const mode of ['bare', 'koa', 'stack']) {
    const { proc, info } = await child(['--import', 'tsx', 'bench/floor-server.ts', mode, STORE ?? '']);
    try {
      const r = await measure(proc.pid as number, `http://127.0.0.1:${String(info.port)}${String(info.path)}`);
      console.log(`| ${mode} | ${r.us.toFixed(1)} | ${Math.round(r.rps)} |${r.bad ? ` ${r.bad} non-2xx` : ''}`);
    } finally {
      proc.kill('SIGTERM');
    }
  }
}

async function routes() {
  if (!STORE) throw new Error('BENCH_STORE=path of a synced store');
  const api = await startApiServer(STORE, 0);
  try {
    const samples = await findSamples(api.url, api.txHash);
    console.log(
      '| route | bytes | bare µs/req | API µs/req | bare req/s | API req/s | ratio | non-2xx |\n|---|---|---|---|---|---|---|---|',
    );
    for (const e of routeFilter(restEndpoints(samples))) {
      const first = await getBytes(api.url + e.path);
      if (first.status !== 200) {
        console.log(`| ${e.name} | status ${first.status} |`);
        continue;
      }
      const headers: Record<string, string> = {};
      for (const k of ['content-type', 'vary']) if (first.headers[k]) headers[k] = first.headers[k];
      const bare = await bareFor(first.body, headers);
      let b;
      try {
        b = await measure(bare.proc.pid as number, `http://127.0.0.1:${String(bare.info.port)}/`);
      } finally {
        bare.proc.kill('SIGKILL');
      }
      line(e.name, first.body.length, b, await measure(api.pid, api.url + e.path));
    }
  } finally {
    await api.stop();
  }
}

await (process.argv[2] === 'floor' ? floor() : routes());
