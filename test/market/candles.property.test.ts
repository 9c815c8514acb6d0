/**
 * Property: over generated order/batch/cancel histories on two Minswap V2 pools (the real ADA/SNEK pool of block
 * 12069665 and a created ADA/MKT pool), with random gaps between blocks and an optional fork, the candles the
 * sync maintains equal candles recomputed from the stored trades, trades carry the pool math, and the forked
 * stream indexes like the clean chain.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CANDLE_INTERVALS, CANDLES, TRADES, type CandleDoc, type TradeDoc } from '../../mongo/collections/market.js';
import type { Block, Transaction } from '../../cardano/chain/types.js';
import { TEST_TIME } from '../sync/memory-chain.js';
import { ChainBuilder, h, realBlock12069665 } from './chain.js';
import {
  SNEK,
  batch,
  cancel,
  createMinswapPool,
  placeOrders,
  realSnekPool,
  wallet,
  type ExpectedSwap,
} from './dex-txs.js';
import { all, marketDigest, syncMarket } from './sync.js';
import { minswapV2, type MinswapV2Pool } from '../../cardano/dex/minswap-v2.js';

const MKT = `${h('prop-mkt').slice(0, 56)}4d4b54`;

type Step =
  | { kind: 'order'; pool: 0 | 1; buy: boolean; size: number; owner: number; gap: number }
  | { kind: 'batch'; pool: 0 | 1; take: number; gap: number }
  | { kind: 'cancel'; pick: number; gap: number };

const gap = fc.oneof(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 60, max: 20_000 }));
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('order' as const),
    pool: fc.constantFrom(0 as const, 1 as const),
    buy: fc.boolean(),
    size: fc.integer({ min: 1, max: 1000 }),
    owner: fc.integer({ min: 0, max: 5 }),
    gap,
  }),
  fc.record({
    kind: fc.constant('batch' as const),
    pool: fc.constantFrom(0 as const, 1 as const),
    take: fc.integer({ min: 1, max: 4 }),
    gap,
  }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat(), gap }),
);

interface History {
  b: ChainBuilder;
  executed: Map<string, ExpectedSwap>;
  cancelled: Set<string>;
  open: Set<string>;
}

function build(steps: Step[], forkAt: number | null): History {
  const b = new ChainBuilder();
  realBlock12069665(b);
  const mkt = createMinswapPool(b, MKT, 80_000_000_000n, 40_000_000_000_000n);
  b.block([mkt.tx]);
  const poolIds = [(minswapV2.decodePool(realSnekPool().out) as MinswapV2Pool).poolId, mkt.pool.poolId];
  const tokens = [SNEK, MKT];
  const poolRef = [realSnekPool().ref, `${mkt.tx.id}#0`];
  const open: [string[], string[]] = [[], []];
  const executed = new Map<string, ExpectedSwap>();
  const cancelled = new Set<string>();

  const apply = (s: Step, commit: boolean): Transaction | null => {
    if (s.kind === 'order') {
      const amount = s.buy ? BigInt(s.size) * 1_000_000n : BigInt(s.size) * (s.pool === 0 ? 100n : 100_000_000n);
      const tx = placeOrders(b, [
        {
          owner: wallet(s.owner),
          poolId: poolIds[s.pool] as string,
          token: tokens[s.pool] as string,
          buy: s.buy,
          amount,
        },
      ]);
      if (commit) open[s.pool].push(`${tx.id}#0`);
      return tx;
    }
    if (s.kind === 'batch') {
      const refs = open[s.pool].slice(0, s.take);
      if (refs.length === 0) return null;
      const r = batch(b, poolRef[s.pool] as string, refs);
      if (commit) {
        open[s.pool] = open[s.pool].slice(refs.length);
        poolRef[s.pool] = `${r.tx.id}#${r.tx.outputs.length - 1}`;
        for (const e of r.swaps) executed.set(e.orderRef, e);
      }
      return r.tx;
    }
    const all = [...open[0], ...open[1]];
    if (all.length === 0) return null;
    const ref = all[s.pick % all.length] as string;
    if (commit) {
      open[0] = open[0].filter((x) => x !== ref);
      open[1] = open[1].filter((x) => x !== ref);
      cancelled.add(ref);
    }
    return cancel(b, ref);
  };

  steps.forEach((s, i) => {
    if (i === forkAt)
      b.fork(() => {
        // An orphan history: every open order of both pools executed, then one more order.
        for (const pool of [0, 1] as const)
          if (open[pool].length) b.block([batch(b, poolRef[pool] as string, open[pool]).tx], 5);
        b.block([apply({ kind: 'order', pool: 0, buy: true, size: 10, owner: 0, gap: 1 }, false) as Transaction], 5);
      });
    const tx = apply(s, true);
    b.block(tx ? [tx] : [], s.gap);
  });
  return { b, executed, cancelled, open: new Set([...open[0], ...open[1]]) };
}

const ledgerOrder = (a: string, b: string) => {
  const [ta, ia] = a.split('#') as [string, string];
  const [tb, ib] = b.split('#') as [string, string];
  return ta === tb ? Number(ia) - Number(ib) : ta < tb ? -1 : 1;
};

/** Candles from scratch: complete ADA trades in execution order (block, tx position, the batch's ledger order). */
function recompute(trades: TradeDoc[], blocks: Block[]): Map<string, CandleDoc> {
  const pos = new Map<string, number>();
  for (const bl of blocks) (bl.transactions ?? []).forEach((tx, i) => pos.set(tx.id, i));
  const done = trades
    .filter((t) => t.status === 'complete' && t.priceRaw !== null)
    .sort(
      (a, b) =>
        a.slot - b.slot ||
        (pos.get(a.txHash) ?? 0) - (pos.get(b.txHash) ?? 0) ||
        ledgerOrder(a.orderRef ?? '', b.orderRef ?? ''),
    );
  const out = new Map<string, CandleDoc>();
  for (const t of done) {
    const time = Math.floor((TEST_TIME.startTimeMs + t.slot * TEST_TIME.slotLengthMs) / 1000);
    const ada = BigInt(t.valueLovelace as string);
    const tok = BigInt((t.side === 'buy' ? t.amountOutRaw : t.amountInRaw) as string);
    const price = t.priceRaw as number;
    for (const series of [`pool:${t.poolId}`, `token:${t.token}`])
      for (const [interval, len] of Object.entries(CANDLE_INTERVALS)) {
        const bucket = Math.floor(time / len) * len;
        const id = `${series}|${interval}|${String(bucket).padStart(12, '0')}`;
        const c = out.get(id);
        out.set(
          id,
          c
            ? {
                ...c,
                high: Math.max(c.high, price),
                low: Math.min(c.low, price),
                close: price,
                volumeLovelace: String(BigInt(c.volumeLovelace) + ada),
                volumeTokenRaw: String(BigInt(c.volumeTokenRaw) + tok),
                trades: c.trades + 1,
              }
            : {
                _id: id,
                series,
                interval: interval as CandleDoc['interval'],
                time: bucket,
                open: price,
                high: price,
                low: price,
                close: price,
                volumeLovelace: String(ada),
                volumeTokenRaw: String(tok),
                trades: 1,
              },
        );
      }
  }
  // Each token here trades in one pool: its aggregate candle is that pool's figures, naming the pool.
  for (const c of out.values())
    if (c.series.startsWith('token:')) c.poolId = done.find((t) => `token:${t.token}` === c.series)?.poolId as number;
  return out;
}

describe('market candles and trades over generated DEX histories (property)', () => {
  it('maintained candles equal candles recomputed from trades; trades follow the pool math; forks change nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 3, maxLength: 14 }),
        fc.option(fc.nat({ max: 13 })),
        async (steps, forkAt) => {
          const hist = build(steps, forkAt === null || forkAt >= steps.length ? null : forkAt);
          const store = await syncMarket(hist.b.stream(), 3);
          try {
            const trades = await all(store, TRADES);
            for (const t of trades) {
              const ref = t.orderRef as string;
              if (t.status === 'complete') {
                const e = hist.executed.get(ref);
                assert.ok(e, `complete trade ${ref} was executed`);
                assert.deepEqual([t.amountInRaw, t.amountOutRaw], [String(e.amountIn), String(e.amountOut)]);
              } else if (t.status === 'cancelled') assert.ok(hist.cancelled.has(ref));
              else assert.ok(hist.open.has(ref));
            }
            assert.equal(trades.length, hist.executed.size + hist.cancelled.size + hist.open.size);
            const stored = (await all(store, CANDLES)).filter((c) => c.series !== 'adausd');
            const expected = recompute(trades, hist.b.canonical);
            assert.deepEqual(new Map(stored.map((c) => [c._id, c])), expected);
            if (hist.b.stream().length !== hist.b.canonical.length) {
              const clean = await syncMarket(hist.b.clean(), 7);
              try {
                assert.deepEqual(await marketDigest(store), await marketDigest(clean));
              } finally {
                await clean.close();
              }
            }
          } finally {
            await store.close();
          }
        },
      ),
      { numRuns: 15, seed: 20260101 },
    );
  });
});
