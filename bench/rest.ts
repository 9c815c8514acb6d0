/**
 * REST under load, the API alone over a synced store (bench/api-server.ts: no devnet, no sync, no live blocks, so
 * every run of a route sees the same answer), beside a bare node:http server returning the same bytes:
 *  - per route, the response cache off (API_CACHE_MS=0: every request does its reads and presentation) and on
 *    (the default window), each as req/s, p99 and ratio to the bare server;
 *  - per heavy route, the bytes on the wire (identity, br, gzip, and with logos=url), and the req/s of the
 *    compressed answers against the bare server sending the same compressed bytes with the same Content-Encoding;
 *  - the API process's memory, sampled from /proc while the load runs.
 */
import { spawn } from 'node:child_process';
import {
  CONNECTIONS,
  firstLine,
  getBytes,
  load,
  sampleMemory,
  warm,
  withBare,
  type LoadResult,
  type Memory,
} from './http.js';
import { fmt, type Report } from './report.js';
import { API_HEAP_FLAG } from '../config/node-flags.js';

export interface ApiProcess {
  url: string;
  pid: number;
  headers: Record<string, string>;
  txHash: string | undefined;
  stop(): Promise<void>;
}

/** The API alone over `storePath`, access layer off (rate limits would refuse the load), with the given cache window. */
export async function startApiServer(
  storePath: string,
  cacheMs: number | undefined,
  mode: 'off' | 'anonymous' | 'keyed' = 'off',
): Promise<ApiProcess> {
  const env = { ...process.env };
  if (cacheMs === undefined) delete env.API_CACHE_MS;
  else env.API_CACHE_MS = String(cacheMs);
  // The API process's V8 flags, as `npm start` runs it (config/node-flags.ts).
  const child = spawn(process.execPath, [API_HEAP_FLAG, '--import', 'tsx', 'bench/api-server.ts', storePath, mode], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (!stopping)
      console.error(`bench/api-server.ts (cache ${cacheMs ?? 'default'}) exited: code ${code}, signal ${signal}`);
  });
  const info = JSON.parse(await firstLine(child)) as {
    port: number;
    headers: Record<string, string>;
    txHash?: string;
  };
  return {
    url: `http://127.0.0.1:${info.port}`,
    pid: child.pid as number,
    headers: info.headers,
    txHash: info.txHash,
    stop: async () => {
      if (child.exitCode !== null) return;
      stopping = true;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface Samples {
  unit: string;
  wallet: string;
  policy: string;
  txHash: string;
  poolId: string;
  height: number;
}

/** Identifiers to request, from the service's own answers: a liquid token, a wallet that traded it, a pool… */
export async function findSamples(url: string, txHash?: string): Promise<Samples> {
  const get = async <T>(p: string): Promise<T> => (await (await fetch(url + p)).json()) as T;
  const top = await get<{ items?: { asset: { unit: string } }[] }>(
    '/api/v1/tokens?sort=liquidity&pageSize=1&logos=url',
  );
  const unit = top.items?.[0]?.asset.unit ?? 'none';
  const trades = await get<{ items?: { maker?: string; txHash?: string }[] }>(`/api/v1/tokens/${unit}/trades?limit=20`);
  const wallet = trades.items?.find((t) => t.maker)?.maker ?? 'none';
  const nft = await get<{ items?: { policyId: string }[] }>('/api/v1/nft/collections?pageSize=1');
  const pools = await get<{ items?: { id?: number; poolId?: number }[] }>(
    '/api/v1/pools?sort=tvl&pageSize=1&logos=url',
  );
  const pool = pools.items?.[0];
  const overview = await get<{ sync?: { height?: number } }>('/api/v1/market/overview?logos=url');
  return {
    unit,
    wallet,
    policy: nft.items?.[0]?.policyId ?? 'none',
    txHash: txHash ?? trades.items?.[0]?.txHash ?? 'none',
    poolId: String(pool?.id ?? pool?.poolId ?? 1),
    height: overview.sync?.height ?? 1,
  };
}

export interface Endpoint {
  name: string;
  path: string;
}

/** Every REST route the bench loads, as a client calls it by default (inline logos: the spec's default). */
export function restEndpoints(s: Samples): Endpoint[] {
  const v1 = '/api/v1';
  return [
    { name: 'GET /explorer/tx/{hash}', path: `${v1}/explorer/tx/${s.txHash}` },
    { name: 'GET /explorer/blocks/{height}', path: `${v1}/explorer/blocks/${Math.max(1, s.height - 1)}` },
    { name: 'GET /explorer/address/{addr}', path: `${v1}/explorer/address/${s.wallet}` },
    ...heavyEndpoints(s),
    { name: 'GET /tokens/{unit}/candles?interval=1h', path: `${v1}/tokens/${s.unit}/candles?interval=1h` },
    { name: 'GET /pools/{id}', path: `${v1}/pools/${s.poolId}` },
    { name: 'GET /pools/{id}/trades', path: `${v1}/pools/${s.poolId}/trades` },
    { name: 'GET /swap/quote', path: `${v1}/swap/quote?in=lovelace&out=${s.unit}&amount=100` },
    { name: 'GET /wallet/{address}/trades', path: `${v1}/wallet/${s.wallet}/trades` },
    { name: 'GET /staking/pools', path: `${v1}/staking/pools` },
    { name: 'GET /nft/collections', path: `${v1}/nft/collections` },
    { name: 'GET /nft/collections/{policy}/listings', path: `${v1}/nft/collections/${s.policy}/listings` },
    { name: 'GET /governance/proposals', path: `${v1}/governance/proposals` },
    { name: 'GET /storage-network/overview', path: `${v1}/storage-network/overview` },
    { name: 'GET /api/md/token/{unit} (Markdown)', path: `/api/md/token/${s.unit}` },
    { name: 'GET /api/md/market (Markdown)', path: '/api/md/market' },
  ];
}

/** The heaviest routes: the growth table and the bytes-on-the-wire table. */
export function heavyEndpoints(s: Samples): Endpoint[] {
  const v1 = '/api/v1';
  return [
    { name: 'GET /tokens', path: `${v1}/tokens` },
    { name: 'GET /tokens?sort=mcap', path: `${v1}/tokens?sort=mcap` },
    { name: 'GET /tokens?sort=holders', path: `${v1}/tokens?sort=holders` },
    { name: 'GET /tokens?sort=gainers&period=24h', path: `${v1}/tokens?sort=gainers&period=24h` },
    { name: 'GET /tokens/{unit}', path: `${v1}/tokens/${s.unit}` },
    { name: 'GET /tokens/{unit}/trades', path: `${v1}/tokens/${s.unit}/trades` },
    { name: 'GET /tokens/{unit}/holders', path: `${v1}/tokens/${s.unit}/holders` },
    { name: 'GET /tokens/{unit}/candles?pool=all', path: `${v1}/tokens/${s.unit}/candles?interval=1h&pool=all` },
    { name: 'GET /pools?sort=tvl', path: `${v1}/pools?sort=tvl` },
    { name: 'GET /market/overview', path: `${v1}/market/overview` },
    { name: 'GET /wallet/{address}', path: `${v1}/wallet/${s.wallet}` },
    { name: 'GET /wallet/{address}/pnl', path: `${v1}/wallet/${s.wallet}/pnl` },
  ];
}

/** Routes of the bytes-on-the-wire table (the issue's list). */
export function wireEndpoints(s: Samples): Endpoint[] {
  const names = new Set([
    'GET /tokens',
    'GET /tokens/{unit}',
    'GET /pools?sort=tvl',
    'GET /tokens/{unit}/trades',
    'GET /market/overview',
    'GET /wallet/{address}',
    'GET /wallet/{address}/pnl',
  ]);
  return heavyEndpoints(s).filter((e) => names.has(e.name));
}

export interface RestRow {
  name: string;
  bytes: number;
  bare: LoadResult;
  off: LoadResult;
  on?: LoadResult;
}

/** BENCH_ROUTES=a,b keeps only the routes whose name contains one of the words (for development runs). */
export function routeFilter(list: Endpoint[]): Endpoint[] {
  const words = (process.env.BENCH_ROUTES ?? '').split(',').filter(Boolean);
  return words.length ? list.filter((e) => words.some((w) => e.name.includes(w))) : list;
}

const contentHeaders = (h: Record<string, string>) => {
  const out: Record<string, string> = {};
  for (const k of ['content-type', 'content-encoding', 'vary']) if (h[k]) out[k] = h[k];
  return out;
};

/** Starts the uncached and cached API over the store; returns both and their memory samplers. */
export async function startApiPair(storePath: string) {
  const off = await startApiServer(storePath, 0);
  const on = await startApiServer(storePath, undefined);
  return {
    off,
    on,
    memOff: sampleMemory(off.pid),
    memOn: sampleMemory(on.pid),
    stop: async () => {
      await off.stop();
      await on.stop();
    },
  };
}

/**
 * One row per route: bare baseline, the API with the cache off, and (when `on` is given) with the cache on. The bare
 * server sends the uncached API's bytes; a cached answer of different bytes is reported.
 */
export async function benchRoutes(
  report: Report,
  dir: string,
  endpoints: Endpoint[],
  api: { off: ApiProcess; on?: ApiProcess },
  seconds: number,
): Promise<RestRow[]> {
  const cached = Boolean(api.on);
  report.header(
    'route',
    'answer bytes',
    'bare req/s',
    'uncached req/s',
    'ratio',
    'p99 ms',
    'budget ≥ 0.5 ×, p99 ≤ 10 ms',
    ...(cached ? ['cached req/s', 'ratio', 'p99 ms', 'budget ≥ 0.8 ×'] : []),
    'non-2xx',
  );
  const rows: RestRow[] = [];
  for (const e of endpoints) {
    const first = await getBytes(api.off.url + e.path);
    if (first.status !== 200) {
      report.row(
        e.name,
        `status ${first.status}`,
        '',
        '',
        '',
        '',
        'not measured',
        ...(cached ? ['', '', '', ''] : []),
        '',
      );
      continue;
    }
    await warm(api.off.url + e.path);
    if (api.on) await warm(api.on.url + e.path);
    const row = await withBare(dir, first.body, contentHeaders(first.headers), async (bareUrl) => {
      await warm(bareUrl);
      const bare = await load(bareUrl, { seconds });
      const off = await load(api.off.url + e.path, { seconds });
      const on = api.on ? await load(api.on.url + e.path, { seconds }) : undefined;
      return { name: e.name, bytes: first.body.length, bare, off, ...(on ? { on } : {}) };
    });
    rows.push(row);
    const rOff = row.off.rps / row.bare.rps;
    const cells: (string | number)[] = [
      e.name,
      fmt.kb(row.bytes),
      fmt.rps(row.bare),
      fmt.rps(row.off),
      rOff.toFixed(2),
      row.off.p99,
      fmt.budget(rOff >= 0.5 && row.off.p99 <= 10, missBy(rOff, 0.5, row.off.p99)),
    ];
    if (row.on) {
      const rOn = row.on.rps / row.bare.rps;
      cells.push(
        fmt.rps(row.on),
        rOn.toFixed(2),
        row.on.p99,
        fmt.budget(rOn >= 0.8, rOn < 0.8 ? `${rOn.toFixed(2)} of 0.8` : ''),
      );
    }
    cells.push(fmt.errors(row.off) + (row.on ? fmt.errors(row.on) : 0));
    report.row(...cells);
  }
  return rows;
}

function missBy(ratio: number, budget: number, p99: number): string {
  const parts: string[] = [];
  if (ratio < budget) parts.push(`${ratio.toFixed(2)} of ${budget}`);
  if (p99 > 10) parts.push(`p99 ${p99} ms`);
  return parts.join(', ');
}

/**
 * Bytes on the wire per heavy route (identity, br, gzip; the same with logos=url), then the req/s of the br answers
 * against the bare server sending those br bytes with `Content-Encoding: br`, cache off and on.
 */
export async function benchWire(
  report: Report,
  dir: string,
  endpoints: Endpoint[],
  api: { off: ApiProcess; on: ApiProcess },
  seconds: number,
): Promise<{ name: string; ratio: number }[]> {
  const out: { name: string; ratio: number }[] = [];
  report.line();
  report.line('### Bytes on the wire (default inline logos, and logos=url)');
  report.header('route', 'identity', 'br', 'gzip', 'identity, logos=url', 'br, logos=url', 'Vary');
  for (const e of endpoints) {
    const withUrl = e.path + (e.path.includes('?') ? '&' : '?') + 'logos=url';
    const [id, br, gz, idUrl, brUrl] = await Promise.all([
      getBytes(api.on.url + e.path),
      getBytes(api.on.url + e.path, 'br'),
      getBytes(api.on.url + e.path, 'gzip'),
      getBytes(api.on.url + withUrl),
      getBytes(api.on.url + withUrl, 'br'),
    ]);
    const size = (r: typeof id, coding?: string) =>
      r.status !== 200
        ? `status ${r.status}`
        : `${fmt.kb(r.body.length)}${coding && r.headers['content-encoding'] !== coding ? ' (not encoded)' : ''}`;
    report.row(
      e.name,
      size(id),
      size(br, 'br'),
      size(gz, 'gzip'),
      size(idUrl),
      size(brUrl, 'br'),
      br.headers.vary ?? '—',
    );
  }
  report.line();
  report.line(
    '### Compressed answers under load (`Accept-Encoding: br`), bare server sending the same br bytes with `Content-Encoding: br`',
  );
  report.header(
    'route',
    'br bytes',
    'bare req/s',
    'uncached req/s',
    'ratio',
    'p99 ms',
    'cached req/s',
    'ratio',
    'p99 ms',
    'budget cached ≥ 0.8 ×',
  );
  const headers = { 'accept-encoding': 'br' };
  for (const e of endpoints) {
    const br = await getBytes(api.on.url + e.path, 'br');
    if (br.status !== 200) continue;
    await warm(api.off.url + e.path, headers);
    await warm(api.on.url + e.path, headers);
    await withBare(dir, br.body, contentHeaders(br.headers), async (bareUrl) => {
      await warm(bareUrl, headers);
      const bare = await load(bareUrl, { seconds, headers });
      const off = await load(api.off.url + e.path, { seconds, headers });
      const on = await load(api.on.url + e.path, { seconds, headers });
      const rOn = on.rps / bare.rps;
      out.push({ name: e.name, ratio: rOn });
      report.row(
        e.name,
        fmt.kb(br.body.length),
        fmt.rps(bare),
        fmt.rps(off),
        fmt.ratio(off.rps, bare.rps),
        off.p99,
        fmt.rps(on),
        rOn.toFixed(2),
        on.p99,
        fmt.budget(rOn >= 0.8, rOn < 0.8 ? `${rOn.toFixed(2)} of 0.8` : ''),
      );
    });
  }
  return out;
}

/**
 * One process's memory. `budgeted` false: a process the API budget does not cover (the worker, the devnet);
 * `underLoad` false: sampled without the HTTP load (npm start's catch-up).
 */
export function memoryLine(
  label: string,
  m: { first: Memory; peak: Memory; peakFile: number; last: Memory; samples: number },
  { budgeted = true, underLoad = true, everyMs = 100 } = {},
) {
  const budget = budgeted
    ? `budget ≤ 300: ${fmt.budget(m.peak.anon <= 300, `${fmt.mb(m.peak.anon - 300)} MB over`)}; `
    : '';
  return (
    `${label}: RssAnon peak **${fmt.mb(m.peak.anon)} MB** (${budget}` +
    `before ${fmt.mb(m.first.anon)}, after ${fmt.mb(m.last.anon)}), file-backed RSS ${fmt.mb(m.peak.file)} MB at that moment ` +
    `(peak ${fmt.mb(m.peakFile)} MB: lmdb's memory map and code, reclaimable page cache), VmRSS ${fmt.mb(m.peak.total)} MB; ` +
    `${m.samples} samples every ${everyMs} ms${underLoad ? `, ${CONNECTIONS} connections` : ''}`
  );
}

/** Headers that belong to the connection or the moment, not to the answer: a bare server does not repeat them. */
const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/**
 * What the answer's headers alone cost: the bare server sending the cached answer's bytes with its content headers
 * (the REST tables' baseline), the same bare server sending every header the API sends with it (security headers,
 * CORS, request id, ETag, …), and the API's cached answer. The second row is the ceiling of any server that sends
 * these headers on node:http, framework or not.
 */
export async function benchHeaderCost(
  report: Report,
  dir: string,
  storePath: string,
  seconds: number,
  name: string,
  path: string,
) {
  const api = await startApiServer(storePath, 1000, 'off');
  try {
    const url = api.url + path;
    const answer = await getBytes(url);
    const every = Object.fromEntries(Object.entries(answer.headers).filter(([h]) => !PER_CONNECTION.has(h)));
    await warm(url, api.headers);
    report.line();
    report.line(`## What the headers cost: ${name}, cached (${answer.body.length} B, API alone, rate limits off)`);
    // Header counts include Content-Length, not Date, Connection and Keep-Alive (node adds them to every answer).
    report.header('server', 'headers', 'req/s', 'p99 ms', 'ratio to bare');
    const bare = await withBare(dir, answer.body, contentHeaders(answer.headers), async (u) => {
      await warm(u);
      return load(u, { seconds });
    });
    const line = (name: string, headers: number, r: LoadResult, ratio: boolean) =>
      report.row(
        name,
        String(headers),
        String(Math.round(r.rps)),
        String(r.p99),
        ratio ? fmt.ratio(r.rps, bare.rps) : '',
      );
    line('bare node:http, content headers', Object.keys(contentHeaders(answer.headers)).length + 1, bare, false);
    const full = await withBare(dir, answer.body, every, async (u) => {
      await warm(u);
      return load(u, { seconds });
    });
    const sent = Object.keys(every).length + 1;
    line('bare node:http, every header the API sends', sent, full, true);
    line('the API (replayed from its cache window)', sent, await load(url, { seconds, headers: api.headers }), true);
  } finally {
    await api.stop();
  }
}
