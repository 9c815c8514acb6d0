import assert from 'node:assert/strict';
import { stakeAddressOf } from '../../cardano/address.js';
import type { Transaction } from '../../cardano/chain/types.js';
import { minswapV2, type MinswapV2Pool } from '../../cardano/dex/minswap-v2.js';
import { ADA_USD_SERIES, candleId, decodeCip68Metadata, bucketOf } from '../../activities/market/index.js';
import {
  CANDLES,
  COUNTERS,
  POOL_STATES,
  POOLS,
  TOKENS,
  TRADES,
  ORDER_TRADES,
  type PoolDoc,
  type TradeDoc,
} from '../../mongo/collections/market.js';
import { CHAIN_COLLECTIONS } from '../../mongo/collections/chain.js';
import { storeDigest } from '../../mongo/digest.js';
import type { Store } from '../../mongo/store.js';
import { block12069665 } from '../dex/fixtures.js';
import { TEST_TIME } from '../sync/memory-chain.js';
import { ChainBuilder, h, realBlock12069665 } from './chain.js';
import {
  SNEK,
  USDM,
  batch,
  cancel,
  createMinswapPool,
  createSundaePool,
  mintCip68,
  placeOrders,
  realSnekPool,
  valueOf,
  wallet,
  type ExpectedSwap,
} from './dex-txs.js';
import { all, marketDigest, syncMarket } from './sync.js';

const MKT_POLICY = h('mkt-policy').slice(0, 56);
const MKT = `${MKT_POLICY}0014df10${Buffer.from('MKT').toString('hex')}`;
const NFT = `${h('nft-policy').slice(0, 56)}${Buffer.from('Art #1').toString('hex')}`;
const TALOS = '97bbb7db0baef89caefce61b8107ac74c7a7340166b39d906f174bec54616c6f73';
const JELLY = '5c1c91a65bedac56f245b8184b5820ced3d2f1540e521dc1060fa6834a454c4c59';
const META = {
  name: 'Market Token',
  ticker: 'MKT',
  decimals: 6,
  description: 'A CIP-68 fungible token',
  url: 'https://example.org/mkt',
  logo: 'ipfs://bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy',
};
const timeSec = (slot: number) => Math.floor((TEST_TIME.startTimeMs + (slot - TEST_TIME.startSlot) * 1000) / 1000);

/** The scenario: real pools, a CIP-68 token and its pools, orders, a batch per pool, a cancel, a stablecoin pool. */
function scenario(opts: { forks: boolean }) {
  const b = new ChainBuilder();
  const snekPoolId = (minswapV2.decodePool(realSnekPool().out) as MinswapV2Pool).poolId;
  realBlock12069665(b);
  const nftMint: Transaction = {
    id: b.txId(),
    spends: 'inputs',
    inputs: [b.outsideInput()],
    outputs: [
      {
        address: wallet(5),
        value: valueOf([
          ['lovelace', 2_000_000n],
          [NFT, 1n],
        ]),
      },
    ],
    mint: { [NFT.slice(0, 56)]: { [NFT.slice(56)]: 1n } },
  };
  b.block([mintCip68(b, MKT_POLICY, 'MKT', 10n ** 13n, META), nftMint]);
  const mkt = createMinswapPool(b, MKT, 100_000_000_000n, 50_000_000_000_000n);
  const mktBlock = b.block([mkt.tx]);
  const orders = placeOrders(b, [
    { owner: wallet(1), poolId: snekPoolId, token: SNEK, buy: true, amount: 100_000_000n },
    { owner: wallet(2), poolId: snekPoolId, token: SNEK, buy: false, amount: 50_000n },
    { owner: wallet(3), poolId: mkt.pool.poolId, token: MKT, buy: true, amount: 250_000_000n },
    { owner: wallet(4), poolId: snekPoolId, token: SNEK, buy: true, amount: 7_000_000n },
  ]);
  const ordersBlock = b.block([orders]);
  const ref = (i: number) => `${orders.id}#${i}`;
  if (opts.forks)
    b.fork(() => {
      // Another history: only the first order executes, the second is cancelled, a different pool appears.
      const alt = batch(b, realSnekPool().ref, [ref(0)]);
      const other = createMinswapPool(b, `${h('other').slice(0, 56)}4f54484552`, 5_000_000_000n, 9_000_000n);
      b.block([alt.tx, cancel(b, ref(1)), other.tx]);
    });
  const snekBatch = batch(b, realSnekPool().ref, [ref(0), ref(1)]);
  const mktBatch = batch(b, `${mkt.tx.id}#0`, [ref(2)]);
  const batchBlock = b.block([snekBatch.tx, mktBatch.tx], 7);
  const cancelTx = cancel(b, ref(3));
  b.block([cancelTx]);
  if (opts.forks)
    b.fork(() => {
      // Two orphan blocks with swaps of their own: a new order and its batch, and a deeper MKT pool.
      const o = placeOrders(b, [
        { owner: wallet(7), poolId: mkt.pool.poolId, token: MKT, buy: false, amount: 3_000_000_000n },
      ]);
      b.block([o]);
      const x = batch(b, `${mktBatch.tx.id}#1`, [`${o.id}#0`]);
      b.block([x.tx, createSundaePool(b, h('alt-ident').slice(0, 56), MKT, 900_000_000_000n, 1_000_000n).tx]);
    });
  const sundae = createSundaePool(b, h('sundae-ident').slice(0, 56), MKT, 300_000_000_000n, 150_000_000_000_000n);
  const usdm = createMinswapPool(b, USDM, 1_000_000_000_000n, 700_000_000_000n);
  const lastBlock = b.block([sundae.tx, usdm.tx]);
  return { b, snekBatch, mktBatch, cancelTx, mkt, usdm, sundae, mktBlock, ordersBlock, batchBlock, lastBlock, ref };
}

const byId = <D extends { _id: string }>(docs: D[]) => new Map(docs.map((d) => [d._id, d]));

describe('market sync extension over real Minswap V2 pools and synthetic DEX activity', () => {
  const s = scenario({ forks: false });
  let store: Store;
  let pools: PoolDoc[];
  let trades: TradeDoc[];
  before(async () => {
    store = await syncMarket(s.b.clean());
    pools = await all(store, POOLS);
    trades = await all(store, TRADES);
  });
  after(async () => store.close());

  it('indexes the four real pools of block 12069665 (WingRiders V2, 3 × Minswap V2) as first seen', () => {
    const real = block12069665();
    const [wr, talos, jelly, snek] = [1, 2, 3, 4].map((id) => pools.find((p) => p.id === id) as PoolDoc) as [
      PoolDoc,
      PoolDoc,
      PoolDoc,
      PoolDoc,
    ];
    assert.deepEqual(
      [wr.dex, wr.tokenA, wr.tokenB, wr.reserveARaw, wr.createdExact, wr.utxo],
      ['wingriders-v2', 'lovelace', TALOS, '77061400265', false, `${real[1]?.id}#0`],
    );
    assert.deepEqual(
      [talos, jelly].map((p) => [p.tokenA, p.tokenB, p.reserveARaw, p.reserveBRaw, p.createdExact, p.utxo]),
      [
        ['lovelace', TALOS, '185904899504', '25894762', false, `${real[4]?.id}#1`],
        ['lovelace', JELLY, '23976552135', '850205781640', false, `${real[5]?.id}#1`],
      ],
    );
    assert.equal(talos?.dex, 'minswap-v2');
    assert.equal(talos?.feeAToB, 0.03);
    assert.equal(talos?.priceRaw, 185904899504 / 25894762);
    assert.equal(talos?.tvlLovelace, String(2n * 185904899504n));
    assert.equal(snek?.tokenB, SNEK);
    assert.equal(snek?.createdSlot, s.b.canonical[0]?.slot);
  });

  it('creates the MKT pool exactly at its creation transaction and tracks reserves after the batch', () => {
    const mkt = pools.find((p) => p.tokenB === MKT && p.dex === 'minswap-v2') as PoolDoc;
    assert.equal(mkt.id, 5);
    assert.equal(mkt.createdExact, true);
    assert.equal(mkt.createdSlot, s.mktBlock.slot);
    const after = s.mktBatch.after;
    assert.deepEqual([mkt.reserveARaw, mkt.reserveBRaw], [String(after.reserveA), String(after.reserveB)]);
    assert.equal(mkt.priceRaw, Number(after.reserveA) / Number(after.reserveB));
    assert.equal(mkt.utxo, `${s.mktBatch.tx.id}#1`);
    assert.equal(mkt.lastStateSlot, s.batchBlock.slot);
  });

  it('records one pool state per pool output, the latest equal to the pool', async () => {
    const states = (await all(store, POOL_STATES)).filter((p) => p.poolId === 4);
    assert.equal(states.length, 2);
    const last = states[1];
    const snek = pools.find((p) => p.id === 4) as PoolDoc;
    assert.deepEqual(
      [last?.reserveARaw, last?.reserveBRaw, last?.txId],
      [snek.reserveARaw, snek.reserveBRaw, s.snekBatch.tx.id],
    );
    assert.deepEqual(
      [snek.reserveARaw, snek.reserveBRaw],
      [String(s.snekBatch.after.reserveA), String(s.snekBatch.after.reserveB)],
    );
  });

  it('turns orders into pending trades, then complete with the pool math, or cancelled', () => {
    const check = (t: TradeDoc | undefined, e: ExpectedSwap) => {
      assert.ok(t);
      assert.equal(t.status, 'complete');
      assert.equal(t.orderRef, e.orderRef);
      assert.equal(t.txHash, e === s.mktBatch.swaps[0] ? s.mktBatch.tx.id : s.snekBatch.tx.id);
      assert.equal(t.slot, s.batchBlock.slot);
      assert.deepEqual([t.amountInRaw, t.amountOutRaw], [String(e.amountIn), String(e.amountOut)]);
      assert.equal(t.side, e.buy ? 'buy' : 'sell');
      const [ada, tok] = e.buy ? [e.amountIn, e.amountOut] : [e.amountOut, e.amountIn];
      assert.equal(t.valueLovelace, String(ada));
      assert.equal(t.priceRaw, Number(ada) / Number(tok));
      assert.equal(t.maker, stakeAddressOf(e.owner));
      assert.equal(t.makerAddress, e.owner);
    };
    assert.equal(trades.length, 4, 'no extra trades: completions reuse the pending trade');
    for (const e of [...s.snekBatch.swaps, ...s.mktBatch.swaps])
      check(
        trades.find((t) => t.orderRef === e.orderRef),
        e,
      );
    const ids = trades.map((t) => t._id);
    assert.deepEqual(ids, ['000000000001', '000000000002', '000000000003', '000000000004']);
    assert.equal(trades[0]?.token, SNEK);
    assert.equal(trades[2]?.token, MKT);
    assert.equal(trades[2]?.poolId, 5);
    const cancelled = trades[3] as TradeDoc;
    assert.deepEqual(
      [cancelled.status, cancelled.txHash, cancelled.amountInRaw, cancelled.amountOutRaw, cancelled.priceRaw],
      ['cancelled', s.cancelTx.id, '7000000', null, null],
    );
  });

  it('keeps the order → trade links and the id counters', async () => {
    const links = await all(store, ORDER_TRADES);
    assert.deepEqual(
      links.map((l) => [l._id, l.tradeId]),
      [0, 1, 2, 3].map((i) => [s.ref(i), i + 1]).sort(),
    );
    const counters = byId(await all(store, COUNTERS));
    assert.equal(counters.get('pools')?.value, 7);
    assert.equal(counters.get('trades')?.value, 4);
  });

  it('builds pool and token candles whose volume is the sum of their trades’ ADA sides', async () => {
    const candles = byId(await all(store, CANDLES));
    const t = timeSec(s.batchBlock.slot as number);
    const snekTrades = trades.filter((x) => x.poolId === 4 && x.status === 'complete');
    for (const series of ['pool:4', `token:${SNEK}`])
      for (const iv of ['1m', '1h', '1d'] as const) {
        const c = candles.get(candleId(series, iv, bucketOf(t, iv)));
        assert.ok(c, `${series} ${iv}`);
        assert.equal(c.trades, 2);
        assert.equal(c.volumeLovelace, String(snekTrades.reduce((a, x) => a + BigInt(x.valueLovelace as string), 0n)));
        const [first, second] = s.snekBatch.swaps.map(
          (e) => snekTrades.find((x) => x.orderRef === e.orderRef) as TradeDoc,
        );
        assert.deepEqual([c.open, c.close], [first?.priceRaw, second?.priceRaw]);
        assert.equal(c.high, Math.max(first?.priceRaw as number, second?.priceRaw as number));
      }
    assert.equal([...candles.values()].filter((c) => c.series === 'pool:4').length, 6, 'one bucket per interval');
  });

  it('derives the adausd series from the ADA/USDM pool (USDM base units per lovelace)', async () => {
    const c = await store
      .collection(CANDLES)
      .get(candleId(ADA_USD_SERIES, '1h', bucketOf(timeSec(s.lastBlock.slot as number), '1h')));
    assert.ok(c);
    assert.deepEqual([c.open, c.close, c.trades, c.volumeLovelace], [0.7, 0.7, 1, '0']);
  });

  it('keeps token documents: supply from mints, CIP-68 metadata, pools and the deepest ADA pool as primary', async () => {
    const tokens = byId(await all(store, TOKENS));
    const mkt = tokens.get(MKT);
    assert.ok(mkt);
    assert.equal(mkt.totalSupplyRaw, '10000000000000');
    assert.equal(mkt.supplyFromMint, true);
    assert.deepEqual(mkt.cip68, META);
    assert.deepEqual(mkt.poolIds, [5, 6]);
    assert.equal(mkt.primaryPoolId, 6, 'the Sundae pool holds 300k ADA, the Minswap one ~100k');
    assert.deepEqual([mkt.firstPoolSlot, mkt.firstPoolExact], [s.mktBlock.slot, true]);
    const snek = tokens.get(SNEK);
    assert.deepEqual(
      [snek?.poolIds, snek?.primaryPoolId, snek?.firstPoolExact, snek?.supplyFromMint, snek?.cip68],
      [[4], 4, false, false, null],
    );
    // TALOS trades in two real pools: the Minswap V2 one holds the deeper ADA reserve.
    assert.deepEqual([tokens.get(TALOS)?.poolIds, tokens.get(TALOS)?.primaryPoolId], [[1, 2], 2]);
    assert.equal(tokens.has(NFT), false, 'a single-unit mint is an NFT, not a token');
    assert.deepEqual(tokens.get(USDM)?.poolIds, [7]);
  });

  it('elects the primary pool from reserves at each point: Minswap before the deeper Sundae pool', async () => {
    const early = await syncMarket(s.b.clean().slice(0, -1));
    try {
      assert.equal((await early.collection(TOKENS).get(MKT))?.primaryPoolId, 5);
    } finally {
      await early.close();
    }
  });

  it('a token whose older pool is seen after a pool created in range is not new: firstPoolExact turns false', async () => {
    // A history starting mid-chain (SYNC_START_POINT): a SNEK pool is created in range, then the real ADA/SNEK
    // Minswap pool, older than the range, is first seen. SNEK had a pool before the indexed chain.
    const b = new ChainBuilder();
    const created = b.block([createSundaePool(b, h('late-snek').slice(0, 56), SNEK, 50_000_000_000n, 10n ** 12n).tx]);
    realBlock12069665(b);
    const late = await syncMarket(b.clean());
    try {
      const pools = await all(late, POOLS);
      assert.deepEqual(
        pools.filter((p) => p.tokenB === SNEK).map((p) => [p.dex, p.createdExact]),
        [
          ['sundaeswap-v3', true],
          ['minswap-v2', false],
        ],
      );
      const snek = await late.collection(TOKENS).get(SNEK);
      assert.deepEqual([snek?.firstPoolSlot, snek?.firstPoolExact], [created.slot, false]);
    } finally {
      await late.close();
    }
  });
});

describe('market rollbacks', () => {
  it('a forked stream (orphan batches, cancels, pools) indexes exactly like the clean chain', async () => {
    const { b } = scenario({ forks: true });
    const stream = b.stream();
    // The first orphan block alone: its batch executed order 0 only and the cancel took order 1.
    const orphan = await syncMarket(
      stream.slice(
        0,
        stream.findIndex((e) => e.direction === 'backward'),
      ),
    );
    const a = await syncMarket(stream, 3);
    const c = await syncMarket(b.clean(), 5);
    try {
      assert.deepEqual(
        (await all(orphan, TRADES)).map((t) => t.status),
        ['complete', 'cancelled', 'pending', 'pending'],
      );
      assert.equal((await all(orphan, POOLS)).length, 6);
      assert.ok(a.rollbacks >= 2);
      assert.deepEqual(await marketDigest(a), await marketDigest(c));
      assert.deepEqual(await storeDigest(a, CHAIN_COLLECTIONS), await storeDigest(c, CHAIN_COLLECTIONS));
    } finally {
      await orphan.close();
      await a.close();
      await c.close();
    }
  });

  it('rolling back the batch and cancel blocks restores pools, trades, candles and tokens as before them', async () => {
    const s = scenario({ forks: false });
    const upTo = s.b.canonical.indexOf(s.ordersBlock) + 1;
    const before = await syncMarket(s.b.clean().slice(0, upTo));
    const last = s.ordersBlock;
    const events = [
      ...s.b.clean().slice(0, upTo + 3),
      {
        direction: 'backward' as const,
        point: { slot: last.slot as number, id: last.id },
        tip: { slot: last.slot as number, id: last.id, height: last.height },
      },
    ];
    const rolled = await syncMarket(events, 10);
    try {
      assert.equal(rolled.rollbacks, 1);
      const d = await marketDigest(rolled);
      assert.deepEqual(d, await marketDigest(before));
      assert.equal(
        (await all(rolled, TRADES)).every((t) => t.status === 'pending'),
        true,
      );
      assert.equal((await all(rolled, CANDLES)).length, 0);
    } finally {
      await before.close();
      await rolled.close();
    }
  });
});

describe('CIP-68 metadata decoding', () => {
  it('reads name, ticker, decimals, description, url and a chunked logo from the reference datum', () => {
    const b = new ChainBuilder();
    const tx = mintCip68(b, MKT_POLICY, 'MKT', 1n, META);
    assert.deepEqual(decodeCip68Metadata(tx.outputs[0]?.datum as string), META);
  });

  it('rejects datums that are not CIP-68 shaped', () => {
    assert.equal(decodeCip68Metadata('d87980'), null); // C0[]
    assert.equal(decodeCip68Metadata('00'), null); // an integer
    assert.equal(decodeCip68Metadata('zz'), null); // not CBOR
  });
});
