/**
 * A devnet-synced store with every derived collection the tools read: the devnet's chain through the Ogmios client
 * and the sync with every extension, then each recompute once (market, holders series, stake pools with their
 * hosted metadata, governance, NFT stats, PnL, storage, news from the recorded feed fixtures, search index, token
 * safety). Shared by the MCP tests (one build per mocha run: ~a minute of work on two cores).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import { createActivities } from '../../activities/index.js';
import { importRegistry } from '../../activities/registry/import.js';
import { httpMetadataFetcher } from '../../activities/staking/metadata.js';
import { devnetIagonScripts } from '../../cardano/iagon.js';
import type { ApiDeps } from '../../api/deps.js';
import { loadConfig } from '../../config/index.js';
import { startDevnet, type Devnet } from '../../devnet/index.js';
import { devnetHostResolver } from '../../devnet/pool-metadata.js';
import type { Store } from '../../mongo/store.js';
import { tempStore } from '../sync/helpers.js';

export interface World {
  store: Store;
  devnet: Devnet;
  deps: ApiDeps;
  close(): Promise<void>;
}

const SEED = 'mcp-tools';
const FEEDS = new URL('../fixtures/news/', import.meta.url);

let shared: Promise<World> | null = null;
let users = 0;

/** The shared world; call `release()` in `after` (the last user closes it). */
export function acquireWorld(): Promise<World> {
  users++;
  shared ??= buildWorld();
  return shared;
}

export async function releaseWorld(): Promise<void> {
  users--;
  if (users > 0 || !shared) return;
  const w = await shared;
  shared = null;
  await w.close();
}

async function buildWorld(): Promise<World> {
  const t = await tempStore();
  await importRegistry(t.store, new URL('../../registry', import.meta.url).pathname);
  const feeds = await serveFeeds();
  const devnet = await startDevnet({ seed: SEED, backfillHours: 6, blockMs: 3_600_000, forkRate: 0.02 });
  const chain = await connectOgmios(devnet.url);
  const iagon = devnetIagonScripts(SEED);
  const newsFeeds = [`${feeds.base}/cf/feed`, `${feeds.base}/iog/feed.atom`];
  const acts = createActivities({
    store: t.store,
    chain,
    k: 2160,
    network: 'mainnet',
    iagon,
    fetchMetadata: httpMetadataFetcher({ resolve: devnetHostResolver(devnet.url), timeoutMs: 5000 }),
    newsFeeds,
  });
  for (;;) {
    const r = await acts.syncSlice({ maxBlocks: 500, waitMs: 100 });
    if (r.atTip && r.blocks === 0) break;
  }
  await acts.recomputeTokenStats();
  await acts.recomputeRankings();
  await acts.recomputeMarketOverview();
  await acts.snapshotHolderSeries();
  await acts.recomputeStakePools();
  await acts.recomputeGovernance();
  await acts.recomputeNftStats();
  await acts.recomputeStorageOverview();
  await acts.ingestNewsFeeds();
  await acts.recomputeSearchIndex();
  await acts.recomputeNftRarity();
  await acts.recomputeTokenSafety();
  // As the schedules interleave them: the next ranking run carries the safety ratings (list_tokens hideHighRisk).
  await acts.recomputeRankings();
  const config = loadConfig({
    RATE_LIMITS: 'false',
    SITE_URL: 'https://cds.example',
    NEWS_FEEDS: newsFeeds.join(','),
  });
  const deps: ApiDeps = { store: t.store, config, log: pino({ level: 'silent' }) };
  return {
    store: t.store,
    devnet,
    deps,
    async close() {
      await chain.close();
      await devnet.close();
      feeds.server.closeAllConnections();
      feeds.server.close();
      await t.cleanup();
    },
  };
}

async function serveFeeds(): Promise<{ server: Server; base: string }> {
  const rss = readFileSync(new URL('cardano-foundation.rss.xml', FEEDS), 'utf8');
  const atom = readFileSync(new URL('iog-blog.atom.xml', FEEDS), 'utf8');
  const server = createServer((req, res) => {
    if (req.url === '/cf/feed') res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss);
    else if (req.url === '/iog/feed.atom') res.writeHead(200, { 'content-type': 'application/atom+xml' }).end(atom);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** The official TypeScript client connected to `url`: the 2026-07-28 era (version negotiation) or the legacy one. */
export async function connect(url: string, era: 'modern' | 'legacy'): Promise<Client> {
  const client = new Client(
    { name: 'cds-test', version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tool results

/**
 * Every token list_tokens lists, by liquidity, page by page (a call answers at most 40: the tool's limit keeps each
 * result under the 25,000-token budget). `call` returns a tool's structuredContent and fails on an error result.
 */
export async function allListedTokens(call: (name: string, args: Json) => Promise<Json>): Promise<Json[]> {
  const items: Json[] = [];
  for (let page = 1; ; page++) {
    const p = await call('list_tokens', { sort: 'liquidity', limit: 40, page });
    items.push(...(p.items as Json[]));
    if (items.length >= p.total || p.items.length === 0) return items;
  }
}
