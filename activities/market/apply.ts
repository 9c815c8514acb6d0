/**
 * Applies one scanned block to the market documents through the SliceState: every read is prefetched first (in
 * three rounds, because some ids are only known from documents: pool keys → pools, order refs → trades, trades
 * → candles), then each transaction is applied in chain order. Every write is a new document object, so the
 * core's undo journal restores the exact prior on a RollBackward; nothing here reads the clock or randomness.
 *
 * Per transaction, in this order (a batch may re-create a pool and pay orders in one transaction; a pool may be
 * created in the transaction that mints its token):
 *  1. mints → token supply (documents created for fungible-looking mints);
 *  2. CIP-68 (100) reference datums → the (333) token's `cip68`;
 *  3. pool outputs → pool, pool state, pool key (new integer id), tokens' pools/primary pool, adausd point;
 *  4. executed swaps → trades complete (the pending trade of the order, else a new trade), candle points;
 *  5. spent order outputs without a swap → their pending trades cancelled (cancel or refund);
 *  6. order outputs → pending trades.
 */
import {
  COUNTERS,
  ORDER_TRADES,
  POOL_KEYS,
  POOL_STATES,
  POOLS,
  TOKENS,
  TRADES,
  CANDLES,
  type PoolDoc,
  type TokenDoc,
  type TradeDoc,
} from '../../mongo/collections/market.js';
import { canonicalJson } from '../../mongo/digest.js';
import { USD_STABLECOINS, adaUsdFromPools } from '../../mongo/collections/ada-usd.js';
import {
  ADA_USD_NOW,
  ADA_USD_NOW_ID,
  WALLET_LOTS,
  WALLET_PNL_POINTS,
  pnlPointDocs,
  type WalletLotsDoc,
} from '../../mongo/collections/pnl.js';
import { docSpotReserves } from '../../cardano/market.js';
import { applyFifoTrade } from '../../cardano/pnl/fifo.js';
import { docOfFifo, fifoOfDoc } from '../../cardano/pnl/stored.js';
import { pnlTradeFromDoc } from '../../cardano/pnl/trade.js';
import type { Transaction } from '../../cardano/chain/types.js';
import { LOVELACE } from '../../cardano/dex/plutus-data.js';
import type { ExecutedSwap } from '../../cardano/dex/types.js';
import type { SliceState } from '../sync/slice-state.js';
import { decodeCip68Metadata, isFungibleMint } from './cip68.js';
import { addPoint, candleIdsOf, INTERVALS, type CandlePoint } from './candles.js';
import { ADA_USD_SERIES, POOL_COUNTER, TRADE_COUNTER, TRADE_SEQ_COUNTER } from './constants.js';
import { poolKeyId, poolSeries, poolStateId, tokenSeries, tradeId } from './ids.js';
import { nonAdaUnits, primaryPool, spotPriceOf, tvlOf } from './pools.js';
import type { OrderSeen, PoolSeen, TxScan } from './scan.js';
import { adaLeg, makerOf, priceOfLeg, sideOf, tradeToken } from '../../cardano/trades.js';

/** Order kinds that are trades (deposits, withdrawals and zaps move liquidity, not price). */
const TRADE_KINDS = new Set(['swap', 'limit']);

const unique = (xs: Iterable<string>) => [...new Set(xs)];

export async function applyMarketBlock(
  state: SliceState,
  scans: readonly TxScan[],
  slot: number,
  timeMs: number,
): Promise<void> {
  if (
    scans.every(
      (s) => !s.mints.length && !s.references.length && !s.pools.length && !s.spentOrders.length && !s.orders.length,
    )
  )
    return;
  await prefetchFor(state, scans);
  const block = new MarketBlock(state, slot, Math.floor(timeMs / 1000));
  for (const s of scans) block.applyTx(s);
  await block.applyCandles();
}

async function prefetchFor(state: SliceState, scans: readonly TxScan[]): Promise<void> {
  const keys: string[] = [];
  const orderRefs: string[] = [];
  const units: string[] = [];
  let stablePool = false;
  for (const s of scans) {
    for (const [u] of s.mints) units.push(u);
    for (const r of s.references) units.push(r.unit);
    for (const p of s.pools) {
      keys.push(p.key);
      units.push(...nonAdaUnits(p.view));
      if (isUsdPool(p.view)) stablePool = true;
    }
    for (const o of s.orders) {
      if (o.poolKey) keys.push(o.poolKey);
      // Orders that name only a pair are resolved to a pool of the pair (and valued) through their tokens' pools.
      for (const u of [o.order.tokenIn, o.order.tokenOut]) if (u && u !== LOVELACE) units.push(u);
    }
    for (const w of s.swaps) {
      if (w.poolId) keys.push(poolKeyId(w.dex, w.poolId));
      orderRefs.push(w.orderRef);
      for (const u of [w.tokenIn, w.tokenOut]) if (u !== LOVELACE) units.push(u);
    }
    orderRefs.push(...s.spentOrders);
  }
  if (stablePool) units.push(...USD_STABLECOINS.keys());
  await Promise.all([
    state.prefetch(COUNTERS, [POOL_COUNTER, TRADE_COUNTER, TRADE_SEQ_COUNTER]),
    state.prefetch(POOL_KEYS, unique(keys)),
    state.prefetch(ORDER_TRADES, unique(orderRefs)),
    state.prefetch(TOKENS, unique(units)),
    state.prefetch(ADA_USD_NOW, [ADA_USD_NOW_ID]),
  ]);
  // Round 2: the pools behind the keys and behind every token whose primary pool may change; the trades of orders.
  const poolIds: string[] = [];
  for (const k of keys) {
    const d = state.get(POOL_KEYS, k);
    if (d) poolIds.push(String(d.poolId));
  }
  for (const u of units) for (const id of state.get(TOKENS, u)?.poolIds ?? []) poolIds.push(String(id));
  const tradeIds: string[] = [];
  for (const r of orderRefs) {
    const d = state.get(ORDER_TRADES, r);
    if (d) tradeIds.push(tradeId(d.tradeId));
  }
  await Promise.all([state.prefetch(POOLS, unique(poolIds)), state.prefetch(TRADES, unique(tradeIds))]);
  // Round 3: the PnL state of every wallet whose trade may change (the order's maker, else the swap's trader).
  const makers: string[] = [];
  for (const id of tradeIds) {
    const m = state.get(TRADES, id)?.maker;
    if (m) makers.push(m);
  }
  for (const s of scans) {
    for (const w of s.swaps) makers.push(makerOf(w.trader) ?? '');
    for (const o of s.orders) makers.push(makerOf(o.order.owner) ?? '');
  }
  await state.prefetch(WALLET_LOTS, unique(makers.filter(Boolean)));
}

/** A pool that moves ADA/USD: an ADA/USD-stablecoin pool the rate reads. */
const isUsdPool = (v: { tokenA: string; tokenB: string }) => v.tokenA === LOVELACE && USD_STABLECOINS.has(v.tokenB);

class MarketBlock {
  private readonly points: CandlePoint[] = [];

  constructor(
    private readonly state: SliceState,
    private readonly slot: number,
    private readonly timeSec: number,
  ) {}

  applyTx(s: TxScan): void {
    for (const [unit, q] of s.mints) this.mint(unit, q);
    for (const r of s.references) this.reference(r.unit, r.datum);
    let creation: boolean | null = null;
    for (const p of s.pools) this.pool(p, s.tx, () => (creation ??= p.adapter.isPoolCreation(s.tx)));
    const executed = new Set<string>();
    for (const w of s.swaps) {
      executed.add(w.orderRef);
      this.swap(w, s.tx);
    }
    for (const ref of s.spentOrders) if (!executed.has(ref)) this.cancel(ref, s.tx);
    for (const o of s.orders) this.place(o, s.tx);
  }

  /** Candle points are applied last: their ids depend on pool ids assigned while applying the transactions. */
  async applyCandles(): Promise<void> {
    if (this.points.length === 0) return;
    await this.state.prefetch(CANDLES, unique(this.points.flatMap(candleIdsOf)));
    for (const p of this.points) {
      const ids = candleIdsOf(p);
      INTERVALS.forEach((iv, i) => this.state.put(CANDLES, addPoint(this.state.get(CANDLES, ids[i] as string), p, iv)));
    }
  }

  private nextId(counter: string): number {
    const value = (this.state.get(COUNTERS, counter)?.value ?? 0) + 1;
    this.state.put(COUNTERS, { _id: counter, value });
    return value;
  }

  private newToken(unit: string, supplyFromMint: boolean): TokenDoc {
    return {
      _id: unit,
      policyId: unit.slice(0, 56),
      nameHex: unit.slice(56),
      cip68: null,
      totalSupplyRaw: '0',
      supplyFromMint,
      poolIds: [],
      primaryPoolId: null,
      firstPoolSlot: null,
      firstPoolExact: false,
      slot: this.slot,
    };
  }

  private mint(unit: string, q: bigint): void {
    let doc = this.state.get(TOKENS, unit);
    if (!doc) {
      if (q <= 0n || !isFungibleMint(unit, q)) return;
      doc = this.newToken(unit, true);
    }
    this.state.put(TOKENS, { ...doc, totalSupplyRaw: String(BigInt(doc.totalSupplyRaw) + q), slot: this.slot });
  }

  /** Metadata updates only tokens that have a document: CIP-68 NFTs use the same reference mechanism. */
  private reference(unit: string, datum: string): void {
    const doc = this.state.get(TOKENS, unit);
    const cip68 = doc ? decodeCip68Metadata(datum) : null;
    if (!doc || !cip68 || canonicalJson(cip68) === canonicalJson(doc.cip68)) return;
    this.state.put(TOKENS, { ...doc, cip68, slot: this.slot });
  }

  private pool(p: PoolSeen, tx: Transaction, isCreation: () => boolean): void {
    const { state, slot } = this;
    const key = state.get(POOL_KEYS, p.key);
    let id: number;
    let prev: PoolDoc | null = null;
    if (key) {
      id = key.poolId;
      prev = state.get(POOLS, String(id));
    } else {
      id = this.nextId(POOL_COUNTER);
      state.put(POOL_KEYS, { _id: p.key, poolId: id });
    }
    const v = p.view;
    const priceRaw = spotPriceOf(v);
    const tvlLovelace = tvlOf(v);
    const doc: PoolDoc = {
      _id: String(id),
      id,
      dex: p.state.dex,
      identifier: p.state.poolId,
      address: p.address,
      tokenA: v.tokenA,
      tokenB: v.tokenB,
      reserveARaw: String(v.reserveA),
      reserveBRaw: String(v.reserveB),
      lpToken: p.state.lpToken,
      totalLpRaw: p.state.totalLp === null ? null : String(p.state.totalLp),
      feeAToB: v.feeAToB,
      feeBToA: v.feeBToA,
      ...(v.weightA !== undefined && v.weightB !== undefined ? { weightA: v.weightA, weightB: v.weightB } : {}),
      utxo: `${tx.id}#${p.outIndex}`,
      createdSlot: prev?.createdSlot ?? slot,
      createdExact: prev ? prev.createdExact : isCreation(),
      lastStateSlot: slot,
      priceRaw,
      tvlLovelace,
      poolOutput: p.output,
      slot,
    };
    // A pool seen for the first time gets a new id from the counter (putNew: the store holds nothing under it, so its
    // write needs no read); one state per pool, slot and transaction.
    if (key) state.put(POOLS, doc);
    else state.putNew(POOLS, doc);
    state.putNew(POOL_STATES, {
      _id: poolStateId(id, slot, tx.id),
      poolId: id,
      slot,
      txId: tx.id,
      reserveARaw: doc.reserveARaw,
      reserveBRaw: doc.reserveBRaw,
      priceRaw,
      tvlLovelace,
    });
    for (const unit of nonAdaUnits(v)) this.tokenPool(unit, doc);
    if (isUsdPool(v)) this.adaUsdPoint(this.adaUsdNow());
  }

  /** Adds the pool to the token's pools and re-elects the primary pool (the deepest ADA pool). */
  private tokenPool(unit: string, pool: PoolDoc): void {
    const existing = this.state.get(TOKENS, unit);
    const prev = existing ?? this.newToken(unit, false);
    const known = prev.poolIds.includes(pool.id);
    const poolIds = known ? prev.poolIds : [...prev.poolIds, pool.id].sort((a, b) => a - b);
    const pools = poolIds
      .map((id) => (id === pool.id ? pool : this.state.get(POOLS, String(id))))
      .filter((p): p is PoolDoc => p !== null);
    const first = prev.firstPoolSlot === null;
    const next: TokenDoc = {
      ...prev,
      poolIds,
      primaryPoolId: primaryPool(pools),
      firstPoolSlot: first ? this.slot : prev.firstPoolSlot,
      // A pool first seen without its creation (older than the indexed chain, e.g. from SYNC_START_POINT) joining
      // later says the token had a pool before the one seen created: its first pool time is then only a bound.
      firstPoolExact: first ? pool.createdExact : prev.firstPoolExact && (known || pool.createdExact),
    };
    if (!existing || !known || next.primaryPoolId !== prev.primaryPoolId)
      this.state.put(TOKENS, { ...next, slot: this.slot });
  }

  /**
   * The adausd series point: the rate `adaUsdNow` just computed (the estimator of the rate now, over the
   * ADA/stablecoin pools known at this point of the chain), USD per ADA (each coin's decimals already applied), which
   * the read side takes as base units of a 6-decimal coin per lovelace (adaUsdOfRaw); none while no pool gives a
   * rate. The series converts candles to USD and prices pending and cancelled trades; one estimator for the rate now
   * and its history keeps a chart's USD price the one the token's stats show (a liquidity-weighted mean of the USDM,
   * DJED and iUSD pools put USDM's own USD chart at 1.028 beside its priceUsd of 1 on the devnet).
   */
  private adaUsdPoint(price: number | null): void {
    if (price === null) return;
    this.points.push({ series: ADA_USD_SERIES, timeSec: this.timeSec, price, lovelace: 0n, tokenRaw: 0n });
  }

  /**
   * The rate a trade later in the chain is costed at in USD (wallet PnL): the estimator of the rate now that values
   * the open lots (`adaUsdFromPools`: ADA-weighted median of the deep fiat-backed pools) over the ADA/stablecoin
   * pools known at this point of the chain (the adausd series point, adaUsdPoint, is this rate too). Any other
   * estimator, such as a liquidity-weighted mean, differs from it by the pools' spread, so a cost at it valued at the
   * median would show a USD gain or loss on a position that never moved.
   */
  private adaUsdNow(): number | null {
    // Every pool of a stablecoin; adaUsdFromPools keeps the ADA/stablecoin ones, as it does for the rate now.
    const pools: PoolDoc[] = [];
    for (const unit of USD_STABLECOINS.keys())
      for (const id of this.state.get(TOKENS, unit)?.poolIds ?? []) {
        const p = this.state.get(POOLS, String(id));
        if (p) pools.push(p);
      }
    const rate = adaUsdFromPools(pools);
    if (rate !== null) this.state.put(ADA_USD_NOW, { _id: ADA_USD_NOW_ID, rate, slot: this.slot });
    return rate;
  }

  /** USD per ADA at this point of the chain (`adaUsdNow`), null before any ADA/stablecoin pool. */
  private adaUsdRate(): number | null {
    return this.state.get(ADA_USD_NOW, ADA_USD_NOW_ID)?.rate ?? null;
  }

  private pendingTrade(orderRef: string): TradeDoc | null {
    const link = this.state.get(ORDER_TRADES, orderRef);
    const t = link ? this.state.get(TRADES, tradeId(link.tradeId)) : null;
    return t?.status === 'pending' ? t : null;
  }

  private swap(w: ExecutedSwap, tx: Transaction): void {
    const key = w.poolId ? this.state.get(POOL_KEYS, poolKeyId(w.dex, w.poolId)) : null;
    const pending = this.pendingTrade(w.orderRef);
    const poolId = key?.poolId ?? this.pairPool(w.dex, w.tokenIn, w.tokenOut)?.id ?? pending?.poolId ?? null;
    // Trade.poolId is an integer (spec): as for an order (place), a swap through a pool this index does not know and
    // whose DEX has no known pool of the pair is not listed (a pending trade always names its pool).
    if (poolId === null) return;
    const token = tradeToken(w.tokenIn, w.tokenOut);
    // The ADA side; a token/token swap is valued through a side's ADA price at this moment instead (volume, candles).
    const leg = adaLeg(w.tokenIn, w.tokenOut, w.amountIn, w.amountOut) ?? this.valuedLeg(w, token);
    const priceRaw = priceOfLeg(leg);
    const id = pending?.id ?? this.nextId(TRADE_COUNTER);
    const trade: TradeDoc = {
      _id: tradeId(id),
      id,
      poolId,
      dex: w.dex,
      txHash: tx.id,
      orderRef: w.orderRef,
      slot: this.slot,
      status: 'complete',
      side: sideOf(w.tokenIn, w.tokenOut),
      tokenIn: w.tokenIn,
      tokenOut: w.tokenOut,
      amountInRaw: String(w.amountIn),
      amountOutRaw: String(w.amountOut),
      token,
      priceRaw,
      valueLovelace: leg ? String(leg.lovelace) : null,
      batcherFeeLovelace: w.feeLovelace === null ? null : String(w.feeLovelace),
      adaUsd: this.adaUsdRate(),
      maker: pending?.maker ?? makerOf(w.trader),
      makerAddress: pending?.makerAddress ?? w.trader,
      seq: this.nextId(TRADE_SEQ_COUNTER),
    };
    // Without a pending trade, the id is new from the counter: the store holds nothing under it.
    if (pending) this.state.put(TRADES, trade);
    else this.state.putNew(TRADES, trade);
    if (!pending) this.state.put(ORDER_TRADES, { _id: w.orderRef, tradeId: id });
    this.walletTrade(trade, pending !== null);
    if (priceRaw === null || !leg) return;
    const point = { timeSec: this.timeSec, lovelace: leg.lovelace };
    const pp = this.poolPoint(poolId, w, priceRaw, leg.tokenRaw);
    if (pp) this.points.push({ series: poolSeries(poolId), ...point, ...pp });
    this.points.push({ series: tokenSeries(token), poolId, ...point, price: priceRaw, tokenRaw: leg.tokenRaw });
    // A token/token trade is the sold token's trade too (its list and stats read it through `byTokenIn`): its series
    // gets the point at the price the trade implies for it, the same ADA value over the amount sold.
    const tokenToken = w.tokenIn !== LOVELACE && w.tokenOut !== LOVELACE;
    const sold = tokenToken ? priceOfLeg({ ...leg, tokenRaw: w.amountIn }) : null;
    if (sold !== null)
      this.points.push({ series: tokenSeries(w.tokenIn), poolId, ...point, price: sold, tokenRaw: w.amountIn });
  }

  /**
   * A token/token swap valued in lovelace through the ADA price of one of its sides at this point of the chain (the
   * reserves of that token's primary ADA pool, as applied so far): the side given, else the side received. The
   * returned `tokenRaw` is the listed token's side, so `priceOfLeg` is that token's implied ADA price. null when
   * neither side has an ADA pool.
   */
  private valuedLeg(w: ExecutedSwap, token: string): { lovelace: bigint; tokenRaw: bigint } | null {
    const tokenRaw = token === w.tokenOut ? w.amountOut : w.amountIn;
    for (const [unit, amount] of [
      [w.tokenIn, w.amountIn],
      [w.tokenOut, w.amountOut],
    ] as const) {
      const r = this.adaReserves(unit);
      if (r) return { lovelace: (amount * r.ada) / r.token, tokenRaw };
    }
    return null;
  }

  /**
   * The reserves of a token's primary (deepest ADA) pool now, at its spot price (a weighted pool's scaled by the
   * weights: cardano/market.ts spotReserves), or null without one.
   */
  private adaReserves(unit: string): { ada: bigint; token: bigint } | null {
    const primary = this.state.get(TOKENS, unit)?.primaryPoolId;
    const p = primary === null || primary === undefined ? null : this.state.get(POOLS, String(primary));
    if (!p || p.tokenA !== LOVELACE || p.tokenB !== unit) return null;
    const { a: ada, b: token } = docSpotReserves(p);
    return ada > 0n && token > 0n ? { ada, token } : null;
  }

  /**
   * A pool candle point in the pool's own orientation (tokenA base units per tokenB base unit; `tokenRaw` the tokenB
   * side): for ADA pools the trade price; for token/token pools the swap's own exchange rate.
   */
  private poolPoint(
    poolId: number,
    w: ExecutedSwap,
    priceRaw: number,
    tokenRaw: bigint,
  ): { price: number; tokenRaw: bigint } | null {
    const pool = this.state.get(POOLS, String(poolId));
    if (!pool || pool.tokenA === LOVELACE) return { price: priceRaw, tokenRaw };
    const [a, b] = pool.tokenA === w.tokenIn ? [w.amountIn, w.amountOut] : [w.amountOut, w.amountIn];
    return b > 0n ? { price: Number(a) / Number(b), tokenRaw: b } : null;
  }

  /**
   * The pool an order that names no pool will trade in: the deepest pool of its pair on its own DEX (ADA reserve for
   * ADA pairs, else the first token's reserve; ties: the lower id). Splash spot orders and WingRiders V2 requests
   * name only the pair — any pool of the pair may execute them — so this is the pool listed until execution says
   * which one did. null when the DEX has no pool of the pair.
   */
  private pairPool(dex: string, x: string, y: string): PoolDoc | null {
    const [first] = [x, y].filter((u) => u !== LOVELACE);
    if (first === undefined || x === y) return null;
    let best: { pool: PoolDoc; depth: bigint } | null = null;
    for (const id of this.state.get(TOKENS, first)?.poolIds ?? []) {
      const p = this.state.get(POOLS, String(id));
      if (!p || p.dex !== dex || !((p.tokenA === x && p.tokenB === y) || (p.tokenA === y && p.tokenB === x))) continue;
      const depth = BigInt(p.tokenA === LOVELACE || p.tokenA === first ? p.reserveARaw : p.reserveBRaw);
      if (!best || depth > best.depth || (depth === best.depth && p.id < best.pool.id)) best = { pool: p, depth };
    }
    return best?.pool ?? null;
  }

  private cancel(orderRef: string, tx: Transaction): void {
    const t = this.pendingTrade(orderRef);
    if (t)
      this.state.put(TRADES, {
        ...t,
        status: 'cancelled',
        txHash: tx.id,
        slot: this.slot,
        seq: this.nextId(TRADE_SEQ_COUNTER),
      });
  }

  private place(o: OrderSeen, tx: Transaction): void {
    const { order } = o;
    if (!TRADE_KINDS.has(order.kind) || order.amountIn === null || order.amountIn <= 0n) return;
    const key = o.poolKey ? this.state.get(POOL_KEYS, o.poolKey) : null;
    const named = key ? this.state.get(POOLS, String(key.poolId)) : null;
    const tokenIn = order.tokenIn;
    let tokenOut = order.tokenOut;
    // Orders that name only a pool and a direction (Minswap V2) get their output asset from the pool.
    if (tokenOut === null && tokenIn !== null && named)
      tokenOut = tokenIn === named.tokenA ? named.tokenB : tokenIn === named.tokenB ? named.tokenA : null;
    if (tokenIn === null || tokenOut === null || tokenIn === tokenOut) return;
    // Trade.poolId is an integer (spec): an order that names no pool is listed under its DEX's pool of the pair; an
    // order for a pair its DEX has no pool of cannot trade yet and is not listed (its execution, if a pool appears,
    // is recorded as a trade then).
    const pool = named ?? this.pairPool(order.dex, tokenIn, tokenOut);
    if (!pool) return;
    const id = this.nextId(TRADE_COUNTER);
    const orderRef = `${tx.id}#${o.outIndex}`;
    this.state.putNew(TRADES, {
      _id: tradeId(id),
      id,
      poolId: pool.id,
      dex: order.dex,
      txHash: tx.id,
      orderRef,
      slot: this.slot,
      status: 'pending',
      side: sideOf(tokenIn, tokenOut),
      tokenIn,
      tokenOut,
      amountInRaw: String(order.amountIn),
      amountOutRaw: null,
      token: tradeToken(tokenIn, tokenOut),
      priceRaw: null,
      // Known before execution only when ADA is what the order offers.
      valueLovelace: tokenIn === LOVELACE ? String(order.amountIn) : null,
      maker: makerOf(order.owner),
      makerAddress: order.owner,
      seq: this.nextId(TRADE_SEQ_COUNTER),
    });
    this.state.put(ORDER_TRADES, { _id: orderRef, tradeId: id });
    this.walletPlaced(makerOf(order.owner));
  }

  /**
   * The wallet's FIFO state after a trade completed (chain order): an ADA-side trade opens a lot or sells from
   * the oldest lots, costed in USD at the ADA/USD rate of this point of the chain; any other trade is counted as
   * skipped. A completed pending order no longer counts as not complete.
   */
  private walletTrade(trade: TradeDoc, wasPending: boolean): void {
    if (!trade.maker) return;
    const prev = this.walletLots(trade.maker);
    const fifo = fifoOfDoc(prev);
    const skipped = { ...(prev?.skipped ?? NO_SKIPS) };
    if (wasPending) skipped.notComplete = Math.max(0, skipped.notComplete - 1);
    const t = pnlTradeFromDoc(trade, 0, () => this.timeSec);
    if (typeof t === 'string') skipped[t] += 1;
    else applyFifoTrade(fifo, t, this.adaUsdRate());
    // The close's point (none for a buy): new in this block, or the one an earlier close of this block put.
    for (const p of pnlPointDocs(trade.maker, fifo.series)) this.state.putNew(WALLET_PNL_POINTS, p);
    this.state.put(WALLET_LOTS, docOfFifo(trade.maker, fifo, skipped, this.slot));
  }

  /** A placed order counts as not complete for its wallet until it executes (a cancelled one stays so). */
  private walletPlaced(maker: string | null): void {
    if (!maker) return;
    const prev = this.walletLots(maker);
    const skipped = { ...(prev?.skipped ?? NO_SKIPS), notComplete: (prev?.skipped.notComplete ?? 0) + 1 };
    this.state.put(WALLET_LOTS, { ...docOfFifo(maker, fifoOfDoc(prev), skipped, this.slot) });
  }

  /**
   * The wallet's stored state, about to be replaced. A store synced before the series had documents of its own
   * keeps it in the wallet's document: its points move out now, in this block's batch (the replaced document's
   * prior keeps them for a rollback). Their times are earlier blocks', so their ids are new.
   */
  private walletLots(maker: string): WalletLotsDoc | null {
    const prev = this.state.get(WALLET_LOTS, maker);
    if (prev?.series?.length) for (const p of pnlPointDocs(maker, prev.series)) this.state.putNew(WALLET_PNL_POINTS, p);
    return prev;
  }
}

const NO_SKIPS = { notComplete: 0, noAdaSide: 0, zeroAmount: 0 } as const;
