/**
 * A devnet-synced service for the Markdown, discovery and swap tests: devnet → Ogmios client → sync with every
 * extension → every recompute → the Koa app on a loopback port whose SITE_URL is its own address (so links in
 * answers resolve against it). `syncToTip()` follows the devnet after a `devnet.step()`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import { createActivities } from '../../activities/index.js';
import { importRegistry } from '../../activities/registry/import.js';
import { createApp } from '../../api/app.js';
import { tokenDecimalsLookup } from '../../api/present/market.js';
import type { AccessLayer } from '../../api/deps.js';
import { loadConfig, type Config } from '../../config/index.js';
import { startDevnet, type Devnet } from '../../devnet/index.js';
import type { Store } from '../../mongo/store.js';
import { tempStore } from '../sync/helpers.js';

export interface Stack {
  devnet: Devnet;
  store: Store;
  config: Config;
  /** http://127.0.0.1:port — the site root. */
  url: string;
  syncToTip(): Promise<void>;
  recompute(): Promise<void>;
  close(): Promise<void>;
}

export async function startStack(opts: {
  seed: string;
  hours: number;
  env?: Record<string, string>;
  /** The API's cache window (ms); absent: every request reads the store. */
  cacheMs?: number;
  access?: (config: Config, store: Store) => Promise<AccessLayer & { close?: () => Promise<void> }>;
}): Promise<Stack> {
  const t = await tempStore();
  await importRegistry(t.store, new URL('../../registry', import.meta.url).pathname);
  const devnet = await startDevnet({ seed: opts.seed, backfillHours: opts.hours, blockMs: 0, forkRate: 0 });
  const chain = await connectOgmios(devnet.url);
  const activities = createActivities({ store: t.store, chain, k: 2160, network: 'mainnet' });
  const syncToTip = async () => {
    for (;;) {
      const r = await activities.syncSlice({ maxBlocks: 500, waitMs: 50 });
      if (r.atTip && r.height === devnet.tip().height) break;
    }
  };
  const recompute = async () => {
    await activities.recomputeTokenStats();
    await activities.recomputeRankings();
    await activities.recomputeMarketOverview();
    await activities.recomputeNftStats();
    await activities.recomputeStakePools();
    await activities.recomputeGovernance();
    await activities.recomputeStorageOverview();
  };
  await syncToTip();
  await recompute();

  const server: Server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = loadConfig({ RATE_LIMITS: 'false', SITE_URL: url, ...opts.env });
  const access = opts.access ? await opts.access(config, t.store) : undefined;
  const app = createApp({
    store: t.store,
    config,
    log: pino({ level: 'silent' }),
    tokenDecimals: tokenDecimalsLookup(t.store),
    ...(access ? { access } : {}),
    ...(opts.cacheMs ? { cacheMs: opts.cacheMs } : {}),
  });
  server.on('request', app.callback());
  return {
    devnet,
    store: t.store,
    config,
    url,
    syncToTip,
    recompute,
    close: async () => {
      await new Promise<void>((r) => server.close(() => r()));
      await access?.close?.();
      await chain.close();
      await devnet.close();
      await t.cleanup();
    },
  };
}
