/**
 * `npm run bench:growth`: how cost grows with the history. At each size of BENCH_GROWTH_HOURS (default 24,96,384
 * hours of devnet chain time): the devnet in its own process, the sync into a fresh embedded store (blocks/s, store
 * bytes per block), every scheduled recompute once (their times), then the API alone over that store with the
 * response cache off (every request does its reads), the heaviest routes beside the bare server sending the same
 * bytes, and the API's memory under that load. Written to bench/results/growth.md (BENCH_GROWTH_RESULTS).
 *
 * A read whose per-request cost grows with the store while its answer does not (a scan, not an index) is flagged:
 * cost = 1 / uncached req/s, compared between the smallest and the largest size against the answer's bytes, and
 * against the bare server measured beside it at each size (its ratio to bare): the sizes are measured minutes
 * apart, and on a shared machine the bare server's own rate can halve between them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importRegistry } from '../activities/registry/import.js';
import { loadConfig } from '../config/index.js';
import { openEmbeddedStore } from '../mongo/adapters/embedded.js';
import { CONNECTIONS, getBytes, load, procCpuMs, sampleMemory, warm, withBare, type LoadResult } from './http.js';
import { fmt, replayProjection, Report } from './report.js';
import { findSamples, heavyEndpoints, memoryLine, routeFilter, startApiServer, type Samples } from './rest.js';
import { storeTxSample, type TxSample } from './mainnet-weight.js';
import { recomputeOnce, startDevnetProcess, storeBytes, syncToTip, type SyncResult } from './sync.js';

const SIZES = (process.env.BENCH_GROWTH_HOURS ?? '24,96,384').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const RESULTS = process.env.BENCH_GROWTH_RESULTS ?? 'bench/results/growth.md';

interface SizeResult {
  hours: number;
  /** The token and wallet the routes asked about (the smallest size's, where the larger store has them too). */
  samples: Samples;
  sync: SyncResult;
  /** Blocks and transactions the sync indexed (weights the replay projection). */
  txs: TxSample;
  bytes: number;
  /** CPU µs per block of the sync and of the devnet serving the blocks. */
  syncCpuUs: number;
  devnetCpuUs: number;
  genMs: number;
  jobs: { job: string; ms: number }[];
  routes: Map<string, { bytes: number; bare: LoadResult; off: LoadResult }>;
  anonPeak: number;
  filePeak: number;
}

/**
 * The smallest size's token and wallet, where this store answers them too: every size then prices the same
 * entities (the devnet's seed makes the same tokens and wallets), so a route's cost growth is its read's growth with
 * the history, not the difference between the latest traders of two runs.
 */
async function sameSamples(url: string, own: Samples, carry: Samples | undefined): Promise<Samples> {
  if (!carry) return own;
  const ok = async (path: string) => (await fetch(`${url}/api/v1${path}?logos=url`)).status === 200;
  return {
    ...own,
    unit: (await ok(`/tokens/${carry.unit}`)) ? carry.unit : own.unit,
    wallet: (await ok(`/wallet/${carry.wallet}`)) ? carry.wallet : own.wallet,
  };
}

async function size(report: Report, dir: string, hours: number, carry?: Samples): Promise<SizeResult> {
  report.line();
  report.line(`## ${hours} h of devnet history`);
  const devnet = await startDevnetProcess(join(dir, `devnet-${hours}`), hours);
  const storePath = join(dir, `store-${hours}`);
  let sync: SyncResult;
  let txs: TxSample;
  let jobs: { job: string; ms: number }[];
  // CPU µs per block of this process (the sync: nothing else runs here meanwhile) and of the devnet serving the
  // blocks (NaN off Linux): on 2 cores the chain source takes from what the sync can use.
  let syncCpuUs: number;
  let devnetCpuUs: number;
  try {
    const store = await openEmbeddedStore({ path: storePath });
    try {
      // As `npm start` does before it syncs: token names, tickers, decimals and logos (not timed).
      await importRegistry(store, loadConfig({}).TOKEN_REGISTRY_DIR);
      const cpu0 = process.cpuUsage();
      const devnet0 = procCpuMs(`/proc/${devnet.pid}/stat`);
      sync = await syncToTip(store, devnet.url);
      const cpu = process.cpuUsage(cpu0);
      syncCpuUs = (cpu.user + cpu.system) / sync.blocks;
      devnetCpuUs = ((procCpuMs(`/proc/${devnet.pid}/stat`) - devnet0) * 1000) / sync.blocks;
      txs = await storeTxSample(store);
      jobs = await recomputeOnce(store, devnet.url);
    } finally {
      await store.close();
    }
  } finally {
    await devnet.stop();
  }
  const bytes = storeBytes(storePath);
  report.line();
  report.line(
    `sync: ${sync.blocks} blocks (${sync.rollbacks} rollbacks) in ${(sync.syncMs / 1000).toFixed(1)} s = **${Math.round(sync.blocksPerSecond)} blocks/s**; ` +
      `store ${fmt.kb(bytes)} = **${fmt.kb(bytes / sync.blocks)} per block**; blocks of ${fmt.kb(txs.bytes / txs.blocks)} on ` +
      `average (their own size); CPU per block: the sync ${Math.round(syncCpuUs)} µs ` +
      `(${Math.round(syncCpuUs / (txs.bytes / txs.blocks / 1024))} µs per KB of block), the devnet serving them ` +
      `${Math.round(devnetCpuUs)} µs; devnet start ${(devnet.genMs / 1000).toFixed(1)} s; ` +
      `recomputes once: ${jobs.map((j) => `${j.job} ${(j.ms / 1000).toFixed(1)} s`).join(', ')}`,
  );
  const api = await startApiServer(storePath, 0);
  const mem = sampleMemory(api.pid);
  const routes = new Map<string, { bytes: number; bare: LoadResult; off: LoadResult }>();
  let m: ReturnType<ReturnType<typeof sampleMemory>['stop']>;
  let s: Samples;
  try {
    s = await sameSamples(api.url, await findSamples(api.url, api.txHash), carry);
    report.line();
    report.line(`token ${s.unit}, wallet ${s.wallet}`);
    report.line();
    report.header('route (cache off)', 'answer bytes', 'bare req/s', 'req/s', 'ratio', 'p50 ms', 'p99 ms', 'non-2xx');
    for (const e of routeFilter(heavyEndpoints(s))) {
      const first = await getBytes(api.url + e.path);
      if (first.status !== 200) {
        report.row(e.name, `status ${first.status}`, '', '', '', '', '', '');
        continue;
      }
      const type = { 'content-type': first.headers['content-type'] ?? 'application/json' };
      await warm(api.url + e.path);
      const r = await withBare(dir, first.body, type, async (bareUrl) => {
        await warm(bareUrl);
        return {
          bytes: first.body.length,
          bare: await load(bareUrl, { seconds: SECONDS }),
          off: await load(api.url + e.path, { seconds: SECONDS }),
        };
      });
      routes.set(e.name, r);
      report.row(
        e.name,
        fmt.kb(r.bytes),
        fmt.rps(r.bare),
        fmt.rps(r.off),
        fmt.ratio(r.off.rps, r.bare.rps),
        r.off.p50,
        r.off.p99,
        fmt.errors(r.off),
      );
    }
  } finally {
    m = mem.stop();
    await api.stop();
    rmSync(storePath, { recursive: true, force: true });
    rmSync(join(dir, `devnet-${hours}`), { recursive: true, force: true });
  }
  report.line();
  report.line(memoryLine('API alone, cache off', m));
  return {
    hours,
    samples: s,
    sync,
    txs,
    bytes,
    syncCpuUs,
    devnetCpuUs,
    genMs: devnet.genMs,
    jobs,
    routes,
    anonPeak: m.peak.anon,
    filePeak: m.peakFile,
  };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'cds-bench-growth-'));
  const report = new Report('npm run bench:growth', {
    BENCH_GROWTH_HOURS: SIZES.join(','),
    BENCH_SECONDS: SECONDS,
    connections: CONNECTIONS,
    'API_CACHE_MS (API alone)': 0,
  });
  const results: SizeResult[] = [];
  try {
    for (const h of SIZES) results.push(await size(report, dir, h, results[0]?.samples));
    summarise(report, results);
  } finally {
    console.log(`\nresults written to ${report.write(RESULTS)}`);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Chain bytes the sync indexed per second (KB/s): blocks/s × the indexed blocks' average size. */
const chainKbps = (r: SizeResult) => (r.sync.blocksPerSecond * r.txs.bytes) / r.txs.blocks / 1024;

function summarise(report: Report, results: SizeResult[]) {
  report.line();
  report.line('## Across sizes');
  report.header(
    'history',
    'blocks',
    'blocks/s',
    'block bytes (chain)',
    'chain KB/s',
    'sync CPU µs/block',
    'devnet CPU µs/block',
    'store bytes/block',
    'API RssAnon peak MB',
    'API file-backed peak MB',
    ...(results[0]?.jobs.map((j) => `${j.job} s`) ?? []),
  );
  for (const r of results)
    report.row(
      `${r.hours} h`,
      r.sync.blocks,
      Math.round(r.sync.blocksPerSecond),
      fmt.kb(r.txs.bytes / r.txs.blocks),
      Math.round(chainKbps(r)),
      Math.round(r.syncCpuUs),
      Math.round(r.devnetCpuUs),
      fmt.kb(r.bytes / r.sync.blocks),
      fmt.mb(r.anonPeak),
      fmt.mb(r.filePeak),
      ...r.jobs.map((j) => (j.ms / 1000).toFixed(1)),
    );
  const first = results[0];
  const last = results[results.length - 1];
  if (!first || !last || first === last) return;
  report.line();
  report.line(
    `The devnet's blocks grow with its history (see their average size above), so blocks/s at two sizes compares ` +
      `different work; chain KB/s (blocks/s × the blocks' average size) and the sync's CPU per KB of block do not. ` +
      `Chain KB/s ${Math.round(chainKbps(last))} at ${last.hours} h against ${Math.round(chainKbps(first))} at ` +
      `${first.hours} h (${(chainKbps(last) / chainKbps(first)).toFixed(2)} ×), blocks/s ` +
      `${(last.sync.blocksPerSecond / first.sync.blocksPerSecond).toFixed(2)} ×.`,
  );
  report.line();
  report.line(
    `Per route, uncached req/s and p99 at each size; **cost growth** = (1 / req/s at ${last.hours} h) ÷ (1 / req/s at ` +
      `${first.hours} h) with the answer's byte growth beside it; **against bare** = the same growth of the ratio to ` +
      `the bare server sending that size's answer, measured beside it (the machine's drift between sizes and the ` +
      `answer's bytes cancel out). Flagged: cost × ≥ 1.5, ≥ 1.5 × the byte growth, and ≥ 1.5 × against bare (the ` +
      `read does more work per request as the store grows: a scan, not an index).`,
  );
  report.header(
    'route',
    ...results.map((r) => `${r.hours} h req/s (p99 ms)`),
    'cost growth',
    'bytes growth',
    'against bare',
    'verdict',
  );
  for (const [name, a] of first.routes) {
    const b = last.routes.get(name);
    const cells = results.map((r) => {
      const x = r.routes.get(name);
      return x ? `${fmt.rps(x.off)} (${x.off.p99})` : '—';
    });
    if (!b) {
      report.row(name, ...cells, '—', '—', '—', '—');
      continue;
    }
    const cost = a.off.rps / b.off.rps;
    const grew = b.bytes / a.bytes;
    const againstBare = a.off.rps / a.bare.rps / (b.off.rps / b.bare.rps);
    const bytesBound = cost >= 1.5 && cost >= 1.5 * grew;
    const verdict = !bytesBound
      ? 'flat'
      : againstBare >= 1.5
        ? '**grows with the store**'
        : `flat against bare (bare ${(a.bare.rps / b.bare.rps).toFixed(2)} × slower)`;
    report.row(name, ...cells, `${cost.toFixed(2)} ×`, `${grew.toFixed(2)} ×`, `${againstBare.toFixed(2)} ×`, verdict);
  }
  report.line();
  report.line(replayProjection(last.sync.blocksPerSecond, last.txs));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
