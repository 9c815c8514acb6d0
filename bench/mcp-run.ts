/**
 * `npm run bench:mcp`: the tool server's bench row alone (bench/mcp.ts) against `npm start` on a devnet of
 * BENCH_HOURS (default 6) hours, rate limits off; the full `npm run bench` includes the same row.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, procCpuMs, type LoadResult } from './http.js';
import { benchMcpFloor } from './mcp-floor.js';
import { benchMcp } from './mcp.js';
import { findSamples } from './rest.js';
import { startService } from './service.js';

const HOURS = Number(process.env.BENCH_HOURS ?? 6);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

const row = (name: string, r: LoadResult, base?: LoadResult) =>
  `| ${name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.non2xx + r.errors} | ${base ? (r.rps / base.rps).toFixed(2) : ''} |`;

const dir = mkdtempSync(join(tmpdir(), 'cds-bench-mcp-'));
// As the full bench starts it (bench/service.ts): rate limits off, the default cache window, resolved at the tip.
const service = await startService(dir, HOURS);
try {
  const { url } = service;
  // The recomputes fired at the tip (search index, safety, market) finish within seconds on this scale.
  await new Promise((r) => setTimeout(r, 15_000));
  // The same samples as the REST rows; on a history too short to list a token they are 'none', so the rows show
  // the tools' not-found answers (non-2xx column) instead of stopping the bench.
  const samples = await findSamples(url);
  console.log(`# MCP bench (${HOURS} h of devnet chain time, ${SECONDS} s per load run, 32 connections)`);
  if (samples.unit === 'none') console.log('(no token listed yet at this history: use a larger BENCH_HOURS)');
  const { modernAnswer } = await benchMcp(url, samples, {
    seconds: SECONDS,
    load: (u) => load(u, { seconds: SECONDS }),
    row,
    // Linux only (/proc); elsewhere the CPU line is left out.
    cpuMs: !existsSync('/proc/self/stat') ? undefined : () => procCpuMs(`/proc/${service.pid}/stat`),
  });
  console.log(
    `\n| floor of the design (bare node:http, this run's get_token answer) | req/s | p99 ms | non-2xx | server CPU ms/req |\n|---|---|---|---|---|`,
  );
  for (const r of await benchMcpFloor(modernAnswer, dir, SECONDS))
    console.log(`| ${r.name} | ${Math.round(r.rps)} | ${r.p99} | ${r.non2xx} | ${r.cpuMsPerRequest.toFixed(3)} |`);
} finally {
  await service.stop();
  rmSync(dir, { recursive: true, force: true });
}
