/**
 * `npm run bench`: throughput and memory against baselines measured in the same run.
 *  1. sync: devnet history (BENCH_HOURS of chain time) into a fresh embedded store, blocks/s;
 *  2. the service as `npm start` runs it (devnet + sync + API, rate limits off): RSS at the default devnet scale;
 *  3. REST endpoints under load beside a bare node:http server returning the same bytes: req/s, p99, ratio.
 * Budgets (ARCHITECTURE.md): sync ≥ 1,000 blocks/s; REST ≥ 0.5 × bare and p99 ≤ 10 ms; RSS ≤ 300 MB.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectOgmios } from '../activities/chain/ogmios-client.js';
import { defaultExtensions } from '../activities/extensions.js';
import { createSyncActivities } from '../activities/sync/index.js';
import { openEmbeddedStore } from '../mongo/adapters/embedded.js';
import { ALL_COLLECTIONS } from '../mongo/collections/index.js';
import { pino } from 'pino';
import { accessCostPerRequest } from '../api/access/bench.js';
import { loadConfig } from '../config/index.js';
import { firstLine, load, rssMb, startBareServer, type LoadResult } from './http.js';

const HOURS = Number(process.env.BENCH_HOURS ?? 48);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

/**
 * Sync throughput with the chain source in its own process, as in production (Ogmios beside a node): the devnet
 * runs as `npm run devnet` would, and this process only follows it and writes the store.
 */
async function benchSync(dir: string) {
  const port = await freePort();
  const t0 = performance.now();
  const devnet = spawn(process.execPath, ['--import', 'tsx', 'scripts/devnet.ts'], {
    env: {
      ...process.env,
      DEVNET_SEED: 'bench',
      DEVNET_BACKFILL_HOURS: String(HOURS),
      DEVNET_BLOCK_MS: '3600000',
      DEVNET_PORT: String(port),
      DATA_DIR: join(dir, 'devnet'),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await firstLine(devnet);
  const genMs = performance.now() - t0;
  const store = await openEmbeddedStore({ path: join(dir, 'sync-store') });
  await store.ensureIndexes(ALL_COLLECTIONS);
  const chain = await connectOgmios(`ws://127.0.0.1:${port}`);
  const acts = createSyncActivities({ store, chain, k: 2160, network: 'mainnet', extensions: defaultExtensions() });
  let blocks = 0;
  let rollbacks = 0;
  const t1 = performance.now();
  for (;;) {
    const r = await acts.syncSlice({ maxBlocks: 500, waitMs: 200 });
    blocks += r.blocks;
    rollbacks += r.rollbacks;
    if (r.atTip && r.blocks === 0) break;
  }
  const syncMs = performance.now() - t1;
  await chain.close();
  devnet.kill('SIGTERM');
  await store.close();
  return { blocks, rollbacks, genMs, syncMs, blocksPerSecond: blocks / (syncMs / 1000) };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function startService(dir: string) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    env: {
      ...process.env,
      DATA_DIR: join(dir, 'service'),
      PORT: String(port),
      RATE_LIMITS: 'false',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const height = await new Promise<number>((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        try {
          const msg = JSON.parse(line) as { msg?: string; height?: number };
          if (msg.msg?.startsWith('sync reached the chain tip')) resolve(msg.height ?? 0);
        } catch {
          /* progress lines */
        }
      }
    });
    child.on('exit', (code) => reject(new Error(`service exited with ${code}`)));
  });
  return { url, height, pid: child.pid as number, stop: () => child.kill('SIGTERM') };
}

/**
 * The access layer's cost: the API alone over the synced store with rate limits off, anonymous (per-IP limiter,
 * allowance raised so nothing is refused) and keyed (key lookup, per-key limiter, daily quota), beside the bare
 * baseline serving the same bytes; plus the middleware's CPU time per request measured in process.
 */
async function benchAccessModes(storePath: string) {
  console.log(
    '\n| access mode: GET /explorer/tx/{hash} | req/s | p50 ms | p99 ms | non-2xx | ratio to bare |\n|---|---|---|---|---|---|',
  );
  let bareResult: LoadResult | null = null;
  for (const mode of ['off', 'anonymous', 'keyed'] as const) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/api-server.ts', storePath, mode], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const info = JSON.parse(await firstLine(child)) as {
        port: number;
        headers: Record<string, string>;
        txHash: string;
      };
      const url = `http://127.0.0.1:${info.port}/api/v1/explorer/tx/${info.txHash}`;
      if (!bareResult) {
        const body = Buffer.from(await (await fetch(url, { headers: info.headers })).arrayBuffer());
        const bare = await startBareServer(storePath, body);
        try {
          bareResult = await load(bare.url, { seconds: SECONDS });
        } finally {
          bare.stop();
        }
        console.log(row(`bare node:http (${body.length} B)`, bareResult));
      }
      console.log(row(`limits ${mode}`, await load(url, { seconds: SECONDS, headers: info.headers }), bareResult));
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }
  const store = await openEmbeddedStore({ path: storePath });
  try {
    const deps = { store, config: loadConfig({}), log: pino({ level: 'silent' }) };
    const costs = [];
    for (const mode of ['off', 'anonymous', 'keyed'] as const)
      costs.push(await accessCostPerRequest(mode, deps, 20_000));
    console.log(
      `access middleware CPU per request: ${costs.map((c) => `${c.mode} ${c.cpuMicros.toFixed(1)} µs`).join(', ')}`,
    );
  } finally {
    await store.close();
  }
}

function row(name: string, r: LoadResult, base?: LoadResult) {
  const ratio = base ? (r.rps / base.rps).toFixed(2) : '';
  return `| ${name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.non2xx + r.errors} | ${ratio} |`;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'cds-bench-'));
  try {
    console.log(
      `# bench (${HOURS} h of devnet chain time, ${SECONDS} s per load run, 32 connections, ` +
        `API_CACHE_MS=${process.env.API_CACHE_MS ?? 'default 1000'})\n`,
    );
    const s = await benchSync(dir);
    console.log(
      `sync: ${s.blocks} blocks (${s.rollbacks} rollbacks) in ${(s.syncMs / 1000).toFixed(1)} s = ${Math.round(s.blocksPerSecond)} blocks/s ` +
        `(budget ≥ 1000; ratio ${(s.blocksPerSecond / 1000).toFixed(2)}); devnet start (generating its history) ${(s.genMs / 1000).toFixed(1)} s`,
    );

    const svc = await startService(dir);
    try {
      const mem = rssMb(svc.pid);
      console.log(
        `service: at tip (height ${svc.height}); RSS ${mem.total.toFixed(0)} MB = ${mem.anon.toFixed(0)} MB own (anonymous; budget ≤ 300) ` +
          `+ ${mem.file.toFixed(0)} MB file-backed (lmdb's memory-mapped store pages and code, reclaimable page cache)`,
      );
      const block = (await (await fetch(`${svc.url}/api/v1/explorer/blocks/${svc.height}`)).json()) as {
        txIds?: string[];
      };
      let txHash = block.txIds?.[0];
      for (let h = svc.height - 1; !txHash && h > 0; h--)
        txHash = ((await (await fetch(`${svc.url}/api/v1/explorer/blocks/${h}`)).json()) as { txIds?: string[] })
          .txIds?.[0];
      // A liquid token, its largest holder and a stake pool, from the service's own answers.
      const top = (await (await fetch(`${svc.url}/api/v1/tokens?sort=liquidity&pageSize=1&logos=url`)).json()) as {
        items: { asset: { unit: string } }[];
      };
      const unit = top.items[0]?.asset.unit ?? 'none';
      const holders = (await (await fetch(`${svc.url}/api/v1/tokens/${unit}/holders`)).json()) as {
        items: { address: string }[];
      };
      const wallet = holders.items[0]?.address ?? 'none';
      const nft = (await (await fetch(`${svc.url}/api/v1/nft/collections?pageSize=1`)).json()) as {
        items: { policyId: string }[];
      };
      const policy = nft.items[0]?.policyId ?? 'none';
      const endpoints: { name: string; path: string }[] = [
        { name: 'GET /explorer/tx/{hash}', path: `/api/v1/explorer/tx/${txHash}` },
        { name: 'GET /tokens?sort=volume&pageSize=50', path: '/api/v1/tokens?sort=volume&pageSize=50&logos=url' },
        { name: 'GET /tokens/{unit}', path: `/api/v1/tokens/${unit}?logos=url` },
        { name: 'GET /tokens/{unit}/candles', path: `/api/v1/tokens/${unit}/candles?interval=1h` },
        { name: 'GET /swap/quote', path: `/api/v1/swap/quote?in=lovelace&out=${unit}&amount=100&logos=url` },
        { name: 'GET /market/overview', path: '/api/v1/market/overview?logos=url' },
        { name: 'GET /tokens/{unit}/holders', path: `/api/v1/tokens/${unit}/holders` },
        { name: 'GET /wallet/{address}', path: `/api/v1/wallet/${wallet}?logos=url` },
        { name: 'GET /staking/pools', path: '/api/v1/staking/pools' },
        { name: 'GET /wallet/{address}/pnl', path: `/api/v1/wallet/${wallet}/pnl` },
        { name: 'GET /nft/collections', path: '/api/v1/nft/collections' },
        { name: 'GET /nft/collections/{policy}/listings', path: `/api/v1/nft/collections/${policy}/listings` },
        { name: 'GET /governance/proposals', path: '/api/v1/governance/proposals' },
        { name: 'GET /storage-network/overview', path: '/api/v1/storage-network/overview' },
        // Markdown views (budget ≥ 5,000 req/s and ≥ 0.5 × bare): a detail view and the whole-market view.
        { name: 'GET /api/md/token/{unit} (Markdown)', path: `/api/md/token/${unit}` },
        { name: 'GET /api/md/market (Markdown)', path: '/api/md/market' },
      ];
      console.log('\n| endpoint | req/s | p50 ms | p99 ms | non-2xx | ratio to bare |\n|---|---|---|---|---|---|');
      for (const e of endpoints) {
        const res = await fetch(svc.url + e.path);
        const body = Buffer.from(await res.arrayBuffer());
        const bare = await startBareServer(dir, body, res.headers.get('content-type') ?? undefined);
        try {
          const b = await load(bare.url, { seconds: SECONDS });
          const r = await load(svc.url + e.path, { seconds: SECONDS });
          console.log(row(`bare node:http (${body.length} B)`, b));
          console.log(row(e.name, r, b));
        } finally {
          bare.stop();
        }
      }
      const after = rssMb(svc.pid);
      console.log(
        `\nservice RSS after load: ${after.total.toFixed(0)} MB (${after.anon.toFixed(0)} MB anonymous, ${after.file.toFixed(0)} MB file-backed)`,
      );
    } finally {
      svc.stop();
    }
    await benchAccessModes(join(dir, 'sync-store'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
