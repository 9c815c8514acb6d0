/**
 * `npm run bench`: throughput and memory against baselines measured in the same run, printed as Markdown and
 * written to bench/results/latest.md (BENCH_RESULTS overrides the path).
 *  1. sync: BENCH_HOURS (48, the devnet default) of devnet history, the devnet in its own process, into a fresh
 *     embedded store: blocks/s, store bytes per block, and the projected mainnet replay time;
 *  2. sync into MongoDB when MONGODB_URI is set, or into FerretDB started by scripts/servers.sh with BENCH_FERRETDB=1;
 *  3. `npm start` on a fresh DATA_DIR (and a cold tsx cache): time to the first served token; the memory of its API
 *     process and of each child (the embedded worker, the devnet) from spawn to the tip and under a mixed REST load
 *     and the tool server's rows; `BENCH_ONLY=service` runs this part alone (results: bench/results/service.md);
 *  4. the API alone over that store, response cache off and on, every route beside a bare node:http server sending
 *     the same bytes; bytes on the wire and compressed answers; the API process's memory under that load;
 *  5. the access layer's cost (limits off, anonymous, keyed).
 * Budgets (issue 16): sync ≥ 1,000 blocks/s; REST ≥ 0.5 × bare with p99 ≤ 10 ms uncached, ≥ 0.8 × cached;
 * RssAnon ≤ 300 MB; first token ≤ 30 s.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { importRegistry } from '../activities/registry/import.js';
import { accessCostPerRequest } from '../api/access/bench.js';
import { loadConfig } from '../config/index.js';
import { openEmbeddedStore } from '../mongo/adapters/embedded.js';
import {
  childPids,
  commandOf,
  CONNECTIONS,
  load,
  sampleMemory,
  warm,
  withBare,
  getBytes,
  type LoadResult,
} from './http.js';
import { benchMcp } from './mcp.js';
import { mongoSync, type MongoSyncResult } from './mongo-sync.js';
import { storeTxSample, type TxSample } from './mainnet-weight.js';
import { fmt, replayProjection, Report } from './report.js';
import {
  benchHeaderCost,
  benchRoutes,
  benchWire,
  findSamples,
  memoryLine,
  restEndpoints,
  routeFilter,
  startApiPair,
  startApiServer,
  wireEndpoints,
  type RestRow,
  type Samples,
} from './rest.js';
import { startService } from './service.js';
import { startDevnetProcess, storeBytes, syncToTip } from './sync.js';

const HOURS = Number(process.env.BENCH_HOURS ?? 48);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const SERVICE_HOURS = process.env.BENCH_SERVICE_HOURS ? Number(process.env.BENCH_SERVICE_HOURS) : undefined;
const SERVICE_ONLY = process.env.BENCH_ONLY === 'service';
/** BENCH_STORE=path: only the API-alone tables (4, 5) over an existing store (for development runs). */
const STORE = process.env.BENCH_STORE;
const RESULTS = process.env.BENCH_RESULTS ?? (SERVICE_ONLY ? 'bench/results/service.md' : 'bench/results/latest.md');
const row = (name: string, r: LoadResult, base?: LoadResult) =>
  `| ${name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.non2xx + r.errors} | ${base ? (r.rps / base.rps).toFixed(2) : ''} |`;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'cds-bench-'));
  const report = new Report('npm run bench', {
    BENCH_HOURS: HOURS,
    BENCH_SECONDS: SECONDS,
    'npm start history (h)': SERVICE_HOURS ?? 'default 48',
    connections: CONNECTIONS,
    ...(process.env.BENCH_ROUTES ? { BENCH_ROUTES: process.env.BENCH_ROUTES } : {}),
  });
  const summary: [string, string, string, string][] = [];
  try {
    // BENCH_ONLY=service: only `npm start` (3): first token, its processes' memory, the tool server's rows.
    let s: Awaited<ReturnType<typeof syncToTip>> | null = null;
    let txSample: TxSample | undefined;
    if (!SERVICE_ONLY && !STORE) {
      // 1. Sync into the embedded store.
      report.line('## Sync (devnet in its own process → embedded lmdb store, every extension on)');
      report.line();
      const devnet = await startDevnetProcess(join(dir, 'devnet'), HOURS);
      const storePath = join(dir, 'sync-store');
      const store = await openEmbeddedStore({ path: storePath });
      await importRegistry(store, loadConfig({}).TOKEN_REGISTRY_DIR); // as `npm start` does first (not timed)
      s = await syncToTip(store, devnet.url);
      txSample = await storeTxSample(store);
      await store.close();
      await devnet.stop();
      const bytes = storeBytes(storePath);
      report.header('figure', 'measured', 'budget', 'ratio');
      report.row('blocks/s', Math.round(s.blocksPerSecond), '≥ 1000', fmt.ratio(s.blocksPerSecond, 1000));
      report.row('blocks (rollbacks)', `${s.blocks} (${s.rollbacks})`, '', '');
      report.row('sync time', `${(s.syncMs / 1000).toFixed(1)} s`, '', '');
      report.row('store bytes per block', fmt.kb(bytes / s.blocks), '', '');
      report.row('store file size', fmt.kb(bytes), '', '');
      report.row('devnet start (generating its history)', `${(devnet.genMs / 1000).toFixed(1)} s`, '', '');
      report.line();
      report.line(replayProjection(s.blocksPerSecond, txSample));
      rmSync(storePath, { recursive: true, force: true });
      summary.push([
        'sync blocks/s (embedded lmdb)',
        String(Math.round(s.blocksPerSecond)),
        '≥ 1000',
        fmt.budget(s.blocksPerSecond >= 1000, `${fmt.ratio(s.blocksPerSecond, 1000)} of budget`),
      ]);

      // 2. Sync into MongoDB / FerretDB.
      const mongo = await benchMongo();
      if (mongo) {
        report.line();
        report.line(`## Sync into ${mongo.server} (MongoDB adapter, MONGODB_WRITE_BATCH=${mongo.writeBatch})`);
        report.line();
        report.line(
          `${mongo.server}: ${mongo.blocks} blocks in ${(mongo.syncMs / 1000).toFixed(1)} s = **${mongo.blocksPerSecond.toFixed(1)} blocks/s** ` +
            `(${mongo.hours} h devnet history${mongo.stoppedEarly ? ', stopped before the tip at the time limit' : ''}); ` +
            `${fmt.ratio(mongo.blocksPerSecond, s.blocksPerSecond)} × the embedded store. ${replayProjection(mongo.blocksPerSecond, txSample)}`,
        );
        summary.push([`sync blocks/s (${mongo.server})`, mongo.blocksPerSecond.toFixed(1), '—', 'reported']);
      }
    }

    let servicePath = STORE ?? '';
    let samples: Samples | undefined;
    if (!STORE) {
      // 3. npm start on a fresh DATA_DIR.
      report.line();
      report.line('## `npm start` on a fresh checkout');
      report.line();
      const svc = await startService(dir, SERVICE_HOURS);
      const firstTokenMs = await svc.firstTokenMs;
      report.line(
        `Fresh DATA_DIR and a cold tsx transform cache (fresh TMPDIR); not timed: \`npm ci\` (~15-35 s here), npm's own ` +
          `wrapper (the bench runs \`node --import tsx scripts/start.ts\`, what \`npm start\` runs). History: ${SERVICE_HOURS ?? 48} h.`,
      );
      report.header('from spawn to', 'seconds', 'budget');
      report.row('API listening', (svc.listeningMs / 1000).toFixed(1), '');
      report.row(
        'first `200` of GET /api/v1/tokens with ≥ 1 item',
        `**${(firstTokenMs / 1000).toFixed(1)}**`,
        `≤ 30: ${fmt.budget(firstTokenMs <= 30_000, `${((firstTokenMs - 30_000) / 1000).toFixed(1)} s over`)}`,
      );
      report.row(`sync at the devnet tip (height ${svc.tipHeight})`, (svc.tipMs / 1000).toFixed(1), '');
      summary.push([
        '`npm start` → first token',
        `${(firstTokenMs / 1000).toFixed(1)} s`,
        '≤ 30 s',
        fmt.budget(firstTokenMs <= 30_000),
      ]);
      try {
        // The recomputes fired at the tip (market, search, safety…) write what the routes read.
        await waitFor(`${svc.url}/api/v1/market/overview?logos=url`, 120_000);
        await waitFor(`${svc.url}/api/v1/staking/pools`, 120_000);
        samples = await findSamples(svc.url);
        const paths = routeFilter(restEndpoints(samples)).map((e) => e.path);
        const mem = sampleMemory(svc.pid);
        // Since `npm start` runs the devnet in a child process, its memory is the chain source's, sampled beside.
        const kids = childPids(svc.pid).map((pid) => ({ pid, command: commandOf(pid), mem: sampleMemory(pid) }));
        const mixed = await load(svc.url, { seconds: SECONDS * 2, paths });
        report.line();
        report.line(
          `Mixed REST load on \`npm start\` (every route of the REST table in turn, cache on): ${fmt.rps(mixed)} req/s, ` +
            `p99 ${mixed.p99} ms, ${fmt.errors(mixed)} non-2xx; then the tool server's rows below.`,
        );
        const mcpSamples = {
          unit: samples.unit,
          wallet: samples.wallet,
          policy: samples.policy,
          txHash: samples.txHash,
        };
        report.line();
        report.line('### Tool server (MCP) on `npm start`');
        await report.capture(() =>
          benchMcp(svc.url, mcpSamples, { seconds: SECONDS, load: (u) => load(u, { seconds: SECONDS }), row }),
        );
        const m = mem.stop();
        report.line();
        report.line(
          'Memory under that load (the REST and tool-server rows above), at the tip, live blocks every 20 s. The API ' +
            'process serves requests only; the sync and the scheduled jobs run in its embedded worker child:',
        );
        report.line();
        report.line(`- ${memoryLine('`npm start` API process', m)}`);
        const kidMems = kids.map((k) => ({ ...k, m: k.mem.stop() }));
        for (const k of kidMems)
          report.line(`- ${memoryLine(`its child ${k.pid} (${k.command})`, k.m, { budgeted: false })}`);
        report.line();
        report.line('From spawn until the sync reached the tip (the catch-up), sampled every 250 ms:');
        report.line();
        for (const p of svc.catchUpMemory)
          report.line(
            `- ${memoryLine(p.command === 'root' ? '`npm start` API process' : `child ${p.pid} (${p.command})`, p.mem, { budgeted: p.command === 'root', underLoad: false, everyMs: 250 })}`,
          );
        summary.push([
          'RssAnon peak, `npm start` API process',
          `${fmt.mb(m.peak.anon)} MB`,
          '≤ 300 MB',
          fmt.budget(m.peak.anon <= 300),
        ]);
        const worker = kidMems.find((k) => k.command.includes('embedded-worker'));
        const workerCatchUp = svc.catchUpMemory.find((p) => p.command.includes('embedded-worker'));
        if (worker)
          summary.push([
            'RssAnon peak, `npm start` embedded worker child (sync + recomputes)',
            `${fmt.mb(worker.m.peak.anon)} MB under the load${workerCatchUp ? `, ${fmt.mb(workerCatchUp.mem.peak.anon)} MB during the catch-up` : ''}`,
            '—',
            'reported',
          ]);
        servicePath = join(svc.dataDir, 'store');
      } finally {
        await svc.stop();
      }
    }
    const summarize = () => {
      report.line();
      report.line('## Summary against the budgets');
      report.header('budget', 'measured', 'target', 'verdict');
      for (const r of summary) report.row(...r);
      report.line();
      if (s) report.line(replayProjection(s.blocksPerSecond, txSample));
    };
    if (SERVICE_ONLY) return summarize();

    // 4. The API alone over the service's store.
    report.line();
    report.line(
      '## REST: the API alone over the `npm start` store (bench/api-server.ts: no devnet, no sync), rate limits off',
    );
    report.line();
    report.line(
      `Each route: the bare node:http server sending the uncached answer's bytes and content headers, then the API ` +
        `with API_CACHE_MS=0 (every request reads and presents) and with the default window (1000 ms); ` +
        `${SECONDS} s each, ${CONNECTIONS} connections, identity encoding.`,
    );
    const pair = await startApiPair(servicePath);
    let rows: RestRow[];
    try {
      const again = await findSamples(pair.on.url, samples?.txHash);
      samples = again;
      rows = await benchRoutes(report, dir, routeFilter(restEndpoints(again)), pair, SECONDS);
      const wire = await benchWire(report, dir, routeFilter(wireEndpoints(again)), pair, SECONDS);
      const worstWire = [...wire].sort((a, b) => a.ratio - b.ratio)[0];
      summary.push([
        'REST compressed (br), cached ≥ 0.8 × bare sending the same br bytes',
        `${wire.filter((w) => w.ratio >= 0.8).length}/${wire.length} routes meet it; lowest ${worstWire?.ratio.toFixed(2)} (${worstWire?.name})`,
        '0.8 ×',
        fmt.budget(wire.every((w) => w.ratio >= 0.8)),
      ]);
    } finally {
      const mOff = pair.memOff.stop();
      const mOn = pair.memOn.stop();
      await pair.stop();
      report.line();
      report.line('### API process memory (the API alone, sampled during its load above)');
      report.line();
      report.line(`- ${memoryLine('cache off', mOff)}`);
      report.line(`- ${memoryLine('cache on', mOn)}`);
      summary.push([
        'RssAnon peak, API alone (cache off / on)',
        `${fmt.mb(mOff.peak.anon)} / ${fmt.mb(mOn.peak.anon)} MB`,
        '≤ 300 MB',
        fmt.budget(Math.max(mOff.peak.anon, mOn.peak.anon) <= 300),
      ]);
    }
    const off = rows.map((r) => ({ name: r.name, ratio: r.off.rps / r.bare.rps, p99: r.off.p99 }));
    const okOff = off.filter((r) => r.ratio >= 0.5 && r.p99 <= 10);
    const worstOff = [...off].sort((a, b) => a.ratio - b.ratio)[0];
    const worstP99 = [...off].sort((a, b) => b.p99 - a.p99)[0];
    summary.push([
      'REST uncached ≥ 0.5 × bare, p99 ≤ 10 ms',
      `${okOff.length}/${off.length} routes meet it; lowest ratio ${worstOff?.ratio.toFixed(2)} (${worstOff?.name}); ` +
        `highest p99 ${worstP99?.p99} ms (${worstP99?.name})`,
      '0.5 ×, 10 ms',
      fmt.budget(okOff.length === off.length),
    ]);
    const on = rows.filter((r) => r.on).map((r) => ({ name: r.name, ratio: (r.on as LoadResult).rps / r.bare.rps }));
    const worstOn = [...on].sort((a, b) => a.ratio - b.ratio)[0];
    summary.push([
      'REST cached ≥ 0.8 × bare',
      `${on.filter((r) => r.ratio >= 0.8).length}/${on.length} routes meet it; lowest ${worstOn?.ratio.toFixed(2)} (${worstOn?.name})`,
      '0.8 ×',
      fmt.budget(on.every((r) => r.ratio >= 0.8)),
    ]);

    // Markdown views (issue 12's budget): at least 5,000 req/s and 0.5 × the bare server, served as a reader gets them
    // (cache window on).
    const views = rows
      .filter((r) => r.on && r.name.includes('(Markdown)'))
      .map((r) => ({ name: r.name, rps: (r.on as LoadResult).rps, ratio: (r.on as LoadResult).rps / r.bare.rps }));
    if (views.length)
      summary.push([
        'Markdown views ≥ 5,000 req/s and ≥ 0.5 × bare',
        views.map((v) => `${v.name}: ${Math.round(v.rps)} req/s, ${v.ratio.toFixed(2)} ×`).join('; '),
        '5,000 req/s, 0.5 ×',
        fmt.budget(views.every((v) => v.rps >= 5_000 && v.ratio >= 0.5)),
      ]);

    // 5. The access layer, and what the answer's headers alone cost (the ceiling of a small cached answer).
    if (!samples) throw new Error('bench: no sample answers were found');
    await benchAccessModes(report, dir, servicePath, samples.txHash);
    await benchHeaderCost(
      report,
      dir,
      servicePath,
      SECONDS,
      'GET /api/md/token/{unit} (Markdown)',
      `/api/md/token/${samples.unit}`,
    );

    summarize();
  } finally {
    const path = report.write(RESULTS);
    console.log(`\nresults written to ${path}`);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const t0 = performance.now();
  while (
    (await fetch(url).then(
      (r) => r.status,
      () => 0,
    )) !== 200
  ) {
    if (performance.now() - t0 > timeoutMs) throw new Error(`${url}: no 200 after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** MONGODB_URI set: that server; BENCH_FERRETDB=1: FerretDB started by scripts/servers.sh for this row. */
async function benchMongo(): Promise<MongoSyncResult | null> {
  const hours = Number(process.env.BENCH_MONGO_HOURS ?? 1);
  const maxSeconds = Number(process.env.BENCH_MONGO_SECONDS ?? 60);
  if (process.env.MONGODB_URI) return mongoSync(process.env.MONGODB_URI, hours, maxSeconds);
  if (process.env.BENCH_FERRETDB !== '1') return null;
  const child = spawn(
    'scripts/servers.sh',
    ['--', process.execPath, '--import', 'tsx', 'bench/mongo-sync.ts', String(hours), String(maxSeconds)],
    {
      env: { ...process.env, MONGODB_WRITE_BATCH: process.env.MONGODB_WRITE_BATCH ?? '50' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise((r) => child.once('exit', r));
  const line = out.split('\n').find((l) => l.startsWith('BENCH_RESULT '));
  if (!line)
    throw new Error(`scripts/servers.sh -- bench/mongo-sync.ts exited ${String(code)} without a result:\n${out}`);
  const r = JSON.parse(line.slice('BENCH_RESULT '.length)) as MongoSyncResult;
  // servers.sh names what it started, e.g. `(FerretDB 1.24.2, SQLite)`; the server itself does not stamp a version.
  const named = /\((FerretDB [^,)]+), ([^)]+)\)/.exec(out);
  return r.server === 'FerretDB' && named ? { ...r, server: `${named[1]} (${named[2]} backend)` } : r;
}

/**
 * The access layer's cost: the API alone with rate limits off, anonymous (per-IP limiter, allowance raised so
 * nothing is refused) and keyed (key lookup, per-key limiter, daily quota), beside the bare baseline serving the
 * same bytes; plus the middleware's CPU time per request measured in process.
 */
async function benchAccessModes(report: Report, dir: string, storePath: string, txHash: string) {
  report.line();
  report.line('## Access layer: GET /explorer/tx/{hash} by access mode (API alone, cache off)');
  report.header('mode', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'ratio to bare');
  let bare: LoadResult | null = null;
  let body: Buffer | null = null;
  for (const mode of ['off', 'anonymous', 'keyed'] as const) {
    const api = await startApiServer(storePath, 0, mode);
    try {
      const url = `${api.url}/api/v1/explorer/tx/${txHash}`;
      if (!body) body = (await getBytes(url)).body;
      await warm(url, api.headers);
      if (!bare) {
        bare = await withBare(dir, body, undefined, async (u) => {
          await warm(u);
          return load(u, { seconds: SECONDS });
        });
        report.line(row(`bare node:http (${body.length} B)`, bare));
      }
      report.line(row(`limits ${mode}`, await load(url, { seconds: SECONDS, headers: api.headers }), bare));
    } finally {
      await api.stop();
    }
  }
  const store = await openEmbeddedStore({ path: storePath });
  try {
    const deps = { store, config: loadConfig({}), log: pino({ level: 'silent' }) };
    const costs = [];
    for (const mode of ['off', 'anonymous', 'keyed'] as const)
      costs.push(await accessCostPerRequest(mode, deps, 20_000));
    report.line();
    report.line(
      `access middleware CPU per request: ${costs.map((c) => `${c.mode} ${c.cpuMicros.toFixed(1)} µs`).join(', ')}`,
    );
  } finally {
    await store.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
