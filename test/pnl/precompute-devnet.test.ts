/**
 * Wallet PnL precompute on devnet data: devnet DEX activity → Ogmios client → sync with the market extension →
 * token stats → the `pnl` recompute → GET /wallet/{address}/pnl. A user sees the same answer whether it was
 * precomputed or computed on demand, is told which (and when), and gets a fresh computation as soon as the
 * wallet has a trade the stored answer does not cover.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { pino } from 'pino';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import { defaultExtensions } from '../../activities/extensions.js';
import { activeMakers, createPnlActivities, storedCovers } from '../../activities/pnl/precompute.js';
import { createRecomputeActivities } from '../../activities/recompute/index.js';
import { importRegistry } from '../../activities/registry/import.js';
import { createSyncActivities } from '../../activities/sync/index.js';
import { createApp } from '../../api/app.js';
import { walletRoutes } from '../../api/routes/wallet.js';
import { ajv } from '../../api/schema.js';
import { loadConfig } from '../../config/index.js';
import { startDevnet } from '../../devnet/index.js';
import { TRADES, type TradeDoc } from '../../mongo/collections/market.js';
import { WALLET_PNL, type WalletPnlDoc } from '../../mongo/collections/pnl.js';
import { CHECKPOINTS } from '../../mongo/collections/sync-state.js';
import { del, put } from '../../mongo/store.js';
import { tempStore } from '../sync/helpers.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies
const NOW = Date.UTC(2026, 10, 20, 12);
const validPnl = ajv.compile(walletRoutes.pnl.response);
/** The active window, shortened from 24 h so an 8 h backfill has wallets on both sides of it. */
const WINDOW = 4 * 3600;

describe('wallet PnL precompute on the devnet', function () {
  this.timeout(240_000);
  let env: Awaited<ReturnType<typeof tempStore>>;
  let server: Server;
  let base = '';
  let clock = NOW;
  let stored: WalletPnlDoc[] = [];
  let run: { wallets: number; removed: number };
  let close: () => Promise<void>;
  const get = async (path: string): Promise<{ status: number; body: Json }> => {
    const res = await fetch(base + path);
    return { status: res.status, body: (await res.json()) as Json };
  };
  /** The answer without the fields that say how it was produced. */
  const content = (b: Json) => {
    const { computedAt: _c, precomputed: _p, ...rest } = b;
    return rest;
  };

  before(async () => {
    env = await tempStore();
    await importRegistry(env.store, new URL('../../registry', import.meta.url).pathname);
    const devnet = await startDevnet({ seed: 'pnl-test', backfillHours: 8, blockMs: 0, forkRate: 0, now: () => NOW });
    const chain = await connectOgmios(devnet.url);
    const sync = createSyncActivities({
      store: env.store,
      chain,
      k: 2160,
      network: 'mainnet',
      extensions: defaultExtensions(),
    });
    for (;;) {
      const r = await sync.syncSlice({ maxBlocks: 500, waitMs: 0 });
      if (r.atTip && r.blocks === 0) break;
    }
    await chain.close();
    await devnet.close();
    await createRecomputeActivities({ store: env.store, now: () => NOW }).recomputeTokenStats();
    // A stale document of a wallet that is not active: the run removes it.
    await env.store.write([
      put(WALLET_PNL, {
        _id: 'stake1uxgone',
        maker: 'stake1uxgone',
        pnl: {} as WalletPnlDoc['pnl'],
        skipped: { notComplete: 0, noAdaSide: 0, zeroAmount: 0 },
        covers: { lastTradeId: null, lastTradeStatus: null, pendingTrades: [] },
        computedAt: new Date(NOW - 3_600_000).toISOString(),
        slot: 0,
      }),
    ]);
    run = await createPnlActivities({
      store: env.store,
      now: () => NOW,
      activeWindowSeconds: WINDOW,
    }).recomputeWalletPnl();
    stored = [];
    for await (const d of env.store.collection(WALLET_PNL).scan()) stored.push(d);
    const config = loadConfig({ RATE_LIMITS: 'false' });
    server = createServer(
      createApp({ store: env.store, config, log: pino({ level: 'silent' }), now: () => clock }).callback(),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    close = async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await env.cleanup();
    };
  });
  after(async () => close?.());

  it('stores one answer per wallet that traded in the active window of chain time, and only those', async () => {
    const tip = (await env.store.collection(CHECKPOINTS).get('sync'))!.slot;
    const recent = new Set<string>();
    const older = new Set<string>();
    for await (const t of env.store.collection(TRADES).scan())
      if (t.maker) (t.slot >= tip - WINDOW ? recent : older).add(t.maker);
    assert.ok(recent.size >= 5, `${recent.size} active wallets`);
    assert.ok(
      [...older].some((m) => !recent.has(m)),
      'some wallet traded only earlier',
    );
    assert.deepEqual(stored.map((d) => d.maker).sort(), [...recent].sort());
    assert.deepEqual((await activeMakers(env.store, tip, WINDOW)).sort(), [...recent].sort());
    assert.equal(run.wallets, recent.size);
    assert.equal(run.removed, 1, 'the inactive wallet’s old answer is gone');
    for (const d of stored) {
      assert.equal(d.computedAt, new Date(NOW).toISOString());
      const [last] = await env.store.collection(TRADES).find('byMaker', { eq: [d.maker], reverse: true, limit: 1 });
      assert.equal(d.covers.lastTradeId, last!.id);
    }
  });

  it('serves the precomputed answer, equal to the on-demand computation for the same wallet', async () => {
    const withTrades = stored.filter((d) => d.pnl.tradeCount > 0).slice(0, 3);
    assert.ok(withTrades.length > 0);
    clock = NOW + 60_000;
    for (const d of withTrades) {
      const pre = await get(`/wallet/${d.maker}/pnl?logos=url`);
      assert.equal(pre.status, 200);
      assert.ok(validPnl(pre.body), JSON.stringify(validPnl.errors));
      assert.equal(pre.body.precomputed, true);
      assert.equal(pre.body.computedAt, d.computedAt);
      // Without the stored answer the same request is computed on demand.
      await env.store.write([del(WALLET_PNL, d._id)]);
      const onDemand = await get(`/wallet/${d.maker}/pnl?logos=url`);
      await env.store.write([put(WALLET_PNL, d)]);
      assert.equal(onDemand.body.precomputed, false);
      assert.equal(onDemand.body.computedAt, new Date(clock).toISOString());
      assert.deepEqual(content(pre.body), content(onDemand.body));
      assert.ok(pre.body.tradeCount > 0);
    }
  });

  it('computes afresh for a wallet with a newer trade than its stored answer', async () => {
    const d = stored.find((x) => x.pnl.tradeCount > 0 && x.covers.lastTradeStatus === 'complete') as WalletPnlDoc;
    assert.ok(d);
    clock = NOW + 120_000;
    assert.equal((await get(`/wallet/${d.maker}/pnl`)).body.precomputed, true);
    // The wallet trades again: its last trade repeated as a new trade (next id, a later slot).
    const [newest] = await env.store.collection(TRADES).find('_id', { reverse: true, limit: 1 });
    const [last] = await env.store.collection(TRADES).find('byMaker', { eq: [d.maker], reverse: true, limit: 1 });
    const id = newest!.id + 1;
    const next: TradeDoc = { ...last!, _id: String(id).padStart(12, '0'), id, slot: newest!.slot + 20 };
    await env.store.write([put(TRADES, next)]);
    try {
      const r = await get(`/wallet/${d.maker}/pnl`);
      assert.equal(r.status, 200);
      assert.equal(r.body.precomputed, false);
      assert.equal(r.body.computedAt, new Date(clock).toISOString());
      assert.equal(r.body.tradeCount, d.pnl.tradeCount + 1, 'the new trade is counted');
    } finally {
      await env.store.write([del(TRADES, next._id)]);
    }
  });

  it('uses a stored answer only while its newest trade, pending orders and age still hold', () => {
    const doc = {
      computedAt: new Date(NOW).toISOString(),
      covers: { lastTradeId: 9, lastTradeStatus: 'pending', pendingTrades: ['000000000007', '000000000009'] },
    } as WalletPnlDoc;
    const pending = { status: 'pending' } as const;
    assert.equal(storedCovers(doc, { id: 9, status: 'pending' }, [pending, pending], NOW + 60_000), true);
    assert.equal(storedCovers(doc, { id: 10, status: 'complete' }, [pending, pending], NOW), false, 'newer trade');
    assert.equal(storedCovers(doc, { id: 9, status: 'complete' }, [pending, pending], NOW), false, 'order executed');
    assert.equal(storedCovers(doc, { id: 9, status: 'pending' }, [{ status: 'complete' }, pending], NOW), false);
    assert.equal(storedCovers(doc, { id: 9, status: 'pending' }, [null, pending], NOW), false, 'rolled back');
    assert.equal(storedCovers(doc, null, [], NOW), false, 'every trade rolled back');
    assert.equal(storedCovers(doc, { id: 9, status: 'pending' }, [pending, pending], NOW + 21 * 60_000), false);
  });
});
