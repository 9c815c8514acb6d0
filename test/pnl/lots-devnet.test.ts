/**
 * Wallet PnL kept by the sync, on the devnet: the devnet's DEX activity (with forks) → Ogmios client → sync with the
 * market extension, which keeps each wallet's FIFO lots as its trades land → GET /wallet/{address}/pnl, one
 * document read valued at the current prices. Checked against a FIFO computed here by hand from the wallet's
 * trades (not the service's FIFO code), and against a second sync of the same chain without its forks.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { pino } from 'pino';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import type { ChainSource } from '../../activities/chain/source.js';
import { defaultExtensions } from '../../activities/extensions.js';
import { createMarketExtension } from '../../activities/market/index.js';
import { createRecomputeActivities } from '../../activities/recompute/index.js';
import { importRegistry } from '../../activities/registry/import.js';
import { createSyncActivities } from '../../activities/sync/index.js';
import { createApp } from '../../api/app.js';
import type { ChainEvent } from '../../cardano/chain/types.js';
import { stakeAddressOf } from '../../cardano/address.js';
import { loadConfig } from '../../config/index.js';
import { startDevnet, type Devnet } from '../../devnet/index.js';
import { TRADES, type TradeDoc } from '../../mongo/collections/market.js';
import { WALLET_LOTS, WALLET_PNL_POINTS, walletPnlPoints, type WalletLotsDoc } from '../../mongo/collections/pnl.js';
import { storeDigest } from '../../mongo/digest.js';
import { put, type Store, type WriteOp } from '../../mongo/store.js';
import { canonicalBlocks } from '../governance/chain-expected.js';
import { memoryChain } from '../sync/memory-chain.js';
import { tempStore } from '../sync/helpers.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies
const NOW = Date.UTC(2026, 10, 20, 12);
type LedgerValue = Record<string, Record<string, bigint | number>>;
const LOVELACE = 'lovelace';

/**
 * FIFO by hand: buys open lots (token raw, lovelace cost), sells take the oldest lots first; realised = proceeds
 * of the matched part − the cost of what it took (a partly taken lot pro rata); the part of a sell beyond the
 * lots is left out with its share of the proceeds. Exact rationals are not needed: a lovelace either way is fine.
 */
function handFifo(trades: readonly TradeDoc[], timeOfSlot: (slot: number) => number) {
  const lots = new Map<string, { raw: number; cost: number }[]>();
  let realised = 0;
  /** Cumulative realised ADA after each second with a close (the trade's block time). */
  const series: { time: number; value: number }[] = [];
  for (const t of trades) {
    if (t.status !== 'complete' || t.amountOutRaw === null) continue;
    const buy = t.tokenIn === LOVELACE;
    const sell = t.tokenOut === LOVELACE;
    if (buy === sell) continue; // token/token
    const token = Number(buy ? t.amountOutRaw : t.amountInRaw);
    // The batcher's fee is part of a buy's cost and comes off a sell's proceeds.
    const fee = Number(t.batcherFeeLovelace ?? 0);
    const ada = Number(buy ? t.amountInRaw : t.amountOutRaw) + (buy ? fee : -fee);
    if (token <= 0) continue;
    const queue = lots.get(t.token) ?? [];
    lots.set(t.token, queue);
    if (buy) {
      queue.push({ raw: token, cost: ada });
      continue;
    }
    let left = token;
    let cost = 0;
    while (left > 0 && queue.length) {
      const lot = queue[0]!;
      const take = Math.min(left, lot.raw);
      const part = (lot.cost * take) / lot.raw;
      cost += part;
      lot.cost -= part;
      lot.raw -= take;
      left -= take;
      if (lot.raw === 0) queue.shift();
    }
    const matched = token - left;
    if (matched === 0) continue;
    realised += (ada * matched) / token - cost;
    const point = { time: timeOfSlot(t.slot), value: realised / 1e6 };
    if (series.at(-1)?.time === point.time) series[series.length - 1] = point;
    else series.push(point);
  }
  return { realisedLovelace: realised, lots, series };
}

describe('wallet PnL kept by the sync, on the devnet', function () {
  this.timeout(300_000);
  let devnet: Devnet;
  let chain: ChainSource;
  let store: Store;
  let server: Server;
  let base = '';
  let rollbacks = 0;
  let cleanup: () => Promise<void>;
  const get = async (path: string): Promise<Json> => {
    const res = await fetch(base + path);
    assert.equal(res.status, 200, path);
    return (await res.json()) as Json;
  };

  /**
   * The devnet's final chain up to and including `blocks[count - 1]` (all of it by default), without its forks, as
   * forward events whose tip is the last of them, synced into `into` with the market extension alone.
   */
  const syncFinalChain = async (into: Store, count?: number) => {
    const blocks = canonicalBlocks(devnet).slice(0, count);
    const last = blocks[blocks.length - 1]!;
    const tip = { slot: last.slot!, id: last.id, height: last.height };
    const events: ChainEvent[] = blocks.map((block) => ({ direction: 'forward', block, tip }));
    const source = { ...memoryChain(events), networkTime: () => chain.networkTime() };
    const sync = createSyncActivities({
      store: into,
      chain: source,
      k: 2160,
      network: 'mainnet',
      extensions: [createMarketExtension()],
    });
    for (;;) {
      const r = await sync.syncSlice({ maxBlocks: 200, waitMs: 0 });
      if (r.atTip && r.blocks === 0) break;
    }
  };

  before(async () => {
    const t = await tempStore();
    store = t.store;
    await importRegistry(store, new URL('../../registry', import.meta.url).pathname);
    devnet = await startDevnet({ seed: 'pnl-lots', backfillHours: 6, blockMs: 0, forkRate: 0.08, now: () => NOW });
    chain = await connectOgmios(devnet.url);
    const sync = createSyncActivities({ store, chain, k: 2160, network: 'mainnet', extensions: defaultExtensions() });
    for (;;) {
      const r = await sync.syncSlice({ maxBlocks: 50, waitMs: 0 });
      rollbacks += r.rollbacks;
      if (r.atTip && r.blocks === 0) break;
    }
    await createRecomputeActivities({ store, now: () => NOW }).recomputeTokenStats();
    const config = loadConfig({ RATE_LIMITS: 'false', API_CACHE_MS: '0' });
    server = createServer(createApp({ store, config, log: pino({ level: 'silent' }), now: () => NOW }).callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    cleanup = async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await chain.close();
      await devnet.close();
      await t.cleanup();
    };
  });
  after(async () => cleanup?.());

  /**
   * What each wallet holds now per token (raw units), from the devnet's ledger: its unspent outputs summed by the key
   * trades are recorded under (the stake address, else the address).
   */
  const ledgerHoldings = async () => {
    const utxos = await chain.query<{ address: string; value: LedgerValue }[]>('queryLedgerState/utxo', {});
    const held = new Map<string, Map<string, bigint>>();
    for (const u of utxos) {
      const key = stakeAddressOf(u.address) ?? u.address;
      const m = held.get(key) ?? new Map<string, bigint>();
      held.set(key, m);
      for (const [policy, names] of Object.entries(u.value))
        if (policy !== 'ada')
          for (const [name, q] of Object.entries(names)) m.set(policy + name, (m.get(policy + name) ?? 0n) + BigInt(q));
    }
    return (maker: string, unit: string) => held.get(maker)?.get(unit) ?? 0n;
  };

  it('realised and unrealised PnL equal a FIFO computed by hand from the wallet’s trades', async () => {
    const heldOf = await ledgerHoldings();
    const trades: TradeDoc[] = [];
    for await (const d of store.collection(TRADES).scan()) trades.push(d);
    const byMaker = new Map<string, TradeDoc[]>();
    for (const d of trades) if (d.maker) byMaker.set(d.maker, [...(byMaker.get(d.maker) ?? []), d]);
    // Wallets that bought and sold: realised and open lots both.
    const wallets = [...byMaker]
      .filter(([, ts]) => ts.some((x) => x.status === 'complete' && x.tokenOut === LOVELACE))
      .sort((a, b) => b[1].length - a[1].length)
      .slice(0, 4);
    assert.ok(wallets.length >= 2, 'wallets with sells');
    let withOpenLots = 0;
    let realisedSeen = 0;
    for (const [maker, mine] of wallets) {
      mine.sort((a, b) => a.seq - b.seq); // chain order
      const hand = handFifo(mine, (slot) => Math.floor((devnet.systemStartMs + slot * 1000) / 1000));
      const p = await get(`/wallet/${maker}/pnl`);
      // The series: one point per second with a close, the cumulative realised ADA after it.
      assert.deepEqual(
        p.series.map((x: Json) => x.time),
        hand.series.map((x) => x.time),
        `${maker}: series times`,
      );
      p.series.forEach((x: Json, i: number) =>
        assert.ok(Math.abs(x.value - hand.series[i]!.value) < 1e-5, `${maker}: point ${i} ${x.value}`),
      );
      assert.ok(
        Math.abs(p.realisedAda - hand.realisedLovelace / 1e6) < 1e-5,
        `${maker}: realised ${p.realisedAda} vs ${hand.realisedLovelace / 1e6}`,
      );
      if (hand.realisedLovelace !== 0) realisedSeen++;
      let unrealised = 0;
      for (const [unit, lots] of hand.lots) {
        // Open lots beyond what the ledger says the wallet holds left it without a sale: the oldest go first.
        let gone = lots.reduce((s, l) => s + l.raw, 0) - Number(heldOf(maker, unit));
        while (gone > 0 && lots.length) {
          const lot = lots[0]!;
          const take = Math.min(gone, lot.raw);
          lot.cost -= (lot.cost * take) / lot.raw;
          lot.raw -= take;
          gone -= take;
          if (lot.raw === 0) lots.shift();
        }
        const raw = lots.reduce((s, l) => s + l.raw, 0);
        if (raw === 0) continue;
        const cost = lots.reduce((s, l) => s + l.cost, 0) / 1e6;
        const token = await get(`/tokens/${unit}`);
        const decimals = token.asset.decimals as number;
        const price = token.stats.priceAda as number;
        unrealised += (raw / 10 ** decimals) * price - cost;
        withOpenLots++;
      }
      assert.ok(
        Math.abs(p.unrealisedAda - unrealised) < 1e-5 * Math.max(1, Math.abs(unrealised)),
        `${maker}: unrealised ${p.unrealisedAda} vs ${unrealised}`,
      );
      assert.equal(
        p.tradeCount,
        mine.filter((x) => x.status === 'complete' && (x.tokenIn === LOVELACE) !== (x.tokenOut === LOVELACE)).length,
      );
      assert.equal(p.precomputed, true);
    }
    assert.ok(
      withOpenLots >= 1 && realisedSeen >= 1,
      `${withOpenLots} open lots valued, ${realisedSeen} wallets realised`,
    );
  });

  it('open lots are at most what the ledger says the wallet holds; the rest is reported as not held', async () => {
    const heldOf = await ledgerHoldings();
    const makers = new Set<string>();
    for await (const d of store.collection(WALLET_LOTS).scan()) makers.add(d._id);
    let capped = 0;
    let kept = 0;
    for (const maker of makers) {
      const p = await get(`/wallet/${maker}/pnl?logos=url`);
      let notHeldCost = 0;
      for (const t of p.tokens as Json[]) {
        const open = BigInt(t.remainingRaw) + BigInt(t.notHeldRaw);
        const held = heldOf(maker, t.asset.unit as string);
        const where = `${maker} ${t.asset.unit}`;
        assert.equal(BigInt(t.remainingRaw), open < held ? open : held, `${where}: open lots held`);
        assert.equal(BigInt(t.notHeldRaw), open > held ? open - held : 0n, `${where}: not held`);
        if (open > held) capped++;
        else if (open > 0n) kept++;
        notHeldCost += t.notHeldCostAda as number;
      }
      assert.ok(Math.abs(p.notHeldCostAda - notHeldCost) < 1e-6, `${maker}: not-held cost total`);
    }
    // The devnet's wallets send tokens away and swap token for token, and keep some of what they bought.
    assert.ok(capped >= 3 && kept >= 3, `${capped} positions capped at the balance, ${kept} held in full`);
  });

  it('is the same after the forked run as after a sync of the final chain alone', async () => {
    assert.ok(rollbacks > 0, 'the devnet forked and the sync rolled back');
    const clean = await tempStore();
    try {
      await syncFinalChain(clean.store);
      const lots = await storeDigest(clean.store, [WALLET_LOTS, WALLET_PNL_POINTS, TRADES]);
      assert.ok((await clean.store.collection(WALLET_LOTS).count('_id', {})) >= 5, 'wallets with PnL state');
      assert.ok((await clean.store.collection(WALLET_PNL_POINTS).count('_id', {})) >= 5, 'series points');
      assert.deepEqual(await storeDigest(store, [WALLET_LOTS, WALLET_PNL_POINTS, TRADES]), lots);
    } finally {
      await clean.cleanup();
    }
  });

  it('a wallet’s document stays the size of its open positions; a store with the series inside it is read and moved', async () => {
    // Every point is a document of its own: no wallet document carries the series, however many closes it had.
    const docs: WalletLotsDoc[] = [];
    for await (const d of store.collection(WALLET_LOTS).scan()) docs.push(d);
    assert.ok(docs.every((d) => d.series === undefined));

    // An older store kept the series in the wallet's document. Sync the first half of the final chain, turn its
    // points into that form, then sync the rest: every answer must equal the one from the store synced as it is.
    const legacy = await tempStore();
    try {
      await syncFinalChain(legacy.store, Math.floor(canonicalBlocks(devnet).length / 2));
      const points = legacy.store.collection(WALLET_PNL_POINTS);
      const ops: WriteOp[] = [];
      const moved = new Set<string>();
      for await (const d of legacy.store.collection(WALLET_LOTS).scan()) {
        const series = await walletPnlPoints(legacy.store, d._id);
        if (series.length === 0) continue;
        moved.add(d._id);
        ops.push(put(WALLET_LOTS, { ...d, series }));
      }
      for await (const p of points.scan()) {
        assert.ok(moved.has(p.maker), `${p._id}: a point of a wallet whose series was read`);
        ops.push({ coll: WALLET_PNL_POINTS.name, del: p._id });
      }
      assert.ok(moved.size >= 2, `${moved.size} wallets with points at half the chain`);
      await legacy.store.write(ops);
      assert.equal(await points.count('_id', {}), 0);
      await syncFinalChain(legacy.store);

      const again: WalletLotsDoc[] = [];
      for await (const d of legacy.store.collection(WALLET_LOTS).scan()) again.push(d);
      const migrated = again.filter((d) => moved.has(d._id) && d.series === undefined);
      assert.ok(migrated.length >= 1, 'a wallet that traded again had its points moved out of its document');
      const app = createApp({
        store: legacy.store,
        config: loadConfig({ RATE_LIMITS: 'false', API_CACHE_MS: '0' }),
        log: pino({ level: 'silent' }),
        now: () => NOW,
      });
      const other = createServer(app.callback());
      await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
      try {
        const otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}/api/v1`;
        for (const maker of moved) {
          const want = await get(`/wallet/${maker}/pnl`);
          const res = await fetch(`${otherBase}/wallet/${maker}/pnl`);
          const got = (await res.json()) as Json;
          assert.deepEqual(got.series, want.series, `${maker}: series`);
          assert.equal(got.realisedAda, want.realisedAda, `${maker}: realised`);
          assert.equal(got.tradeCount, want.tradeCount, `${maker}: trades`);
        }
      } finally {
        other.closeAllConnections();
        await new Promise<void>((r) => other.close(() => r()));
      }
    } finally {
      await legacy.cleanup();
    }
  });
});
