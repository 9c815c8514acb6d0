/**
 * TokenStats of one token from the sync-maintained documents: price and liquidity from its pools' current
 * reserves, activity windows from its trades, price changes of the displayed price — the primary ADA pool's
 * reserve price now against that pool's reserve price at the window start (its last pool state at or before
 * then) — and the adausd series. The computation is pure (`computeTokenStats`); `loadTokenInputs` reads
 * what it needs with bounded range scans.
 *
 * Units: prices are stored raw (lovelace per token base unit); ADA price = raw × 10^decimals / 10^6.
 */
import {
  STATS_WINDOWS,
  WINDOW_SECONDS,
  type PoolStatsDoc,
  type StatsWindow,
  type TokenStatsDoc,
  type WindowStats,
} from '../../mongo/collections/market-read.js';
import {
  CANDLES,
  mergeNewestFirst,
  POOL_STATES,
  tradeIndexesOf,
  TRADES,
  type PoolDoc,
  type TokenDoc,
  type TradeDoc,
  type TradesOf,
} from '../../mongo/collections/market.js';
import type { Store } from '../../mongo/store.js';
import { assetFingerprint, scaleInteger } from '../../cardano/units.js';
import type { TokenMetadata } from '../../cardano/token-metadata.js';
import type { SlotClock } from '../../mongo/collections/clock.js';
import { foldText } from '../../cardano/text.js';
import {
  adaPrice,
  isAdaPool,
  lovelaceNumber,
  poolSeries,
  poolTvlLovelace,
  primaryAdaPool,
  spotPriceRaw,
  tokenSeries,
} from '../../cardano/market.js';

/** Trades read per token for the windows; beyond it the 7 d volume and count come from hourly candles. */
export const TRADE_SCAN_LIMIT = 50_000;

export { adaPrice, lovelaceNumber, poolSeries, primaryAdaPool, tokenSeries };

export interface MarketContext {
  /**
   * Unix ms the figures describe: every rolling window (5 m … 7 d) ends here, and it is their `updatedAt`. The
   * indexed tip block's time (the wall clock if earlier), so that an index behind the chain (a catch-up, a source
   * outage) answers its windows as of the block it holds, as its `asOf` says, instead of windows that run past its
   * data and read as no trading at all.
   */
  windowEndMs: number;
  clock: SlotClock;
  adaUsd: number | null;
  /**
   * USD per ADA at each window's start, by the estimator of `adaUsd` (mongo/collections/ada-usd.ts adaUsdAtSlot);
   * null where no ADA/stablecoin pool state reaches back that far.
   */
  adaUsdAt: Record<StatsWindow, number | null>;
}

export interface TokenInputs {
  meta: TokenMetadata;
  token: TokenDoc;
  pools: PoolDoc[];
  /** Complete trades of the last 7 days, newest first (at most TRADE_SCAN_LIMIT). */
  trades: TradeDoc[];
  /** The scan stopped at the limit: older trades of the 7 days were not read. */
  truncated: boolean;
  /** Hourly-candle totals of the last 7 days, used when `truncated`. */
  candles7d: { volumeLovelace: bigint; trades: number } | null;
  /**
   * Raw displayed price (lovelace per base unit: the primary ADA pool's reserves) now and at each window start (the
   * same pool's last state at or before it; null when the pool did not exist yet).
   */
  priceNowRaw: number | null;
  priceAtRaw: Record<StatsWindow, number | null>;
}

/**
 * A change fraction to 12 decimals (10^-10 percent), -0 as 0: a price that did not move in USD can come out of the
 * doubles as ±2e-16 (a USD stablecoin whose own pools set ADA/USD: its ADA change times the inverse ADA/USD move),
 * which would rank it above or below the tokens whose change is exactly 0.
 */
const fraction = (x: number): number => Math.round(x * 1e12) / 1e12 || 0;
const change = (now: number | null, then: number | null): number | null =>
  now !== null && then !== null && then > 0 ? fraction(now / then - 1) : null;
const usdChange = (c: number | null, usdNow: number | null, usdThen: number | null): number | null =>
  c !== null && usdNow !== null && usdThen !== null && usdThen > 0 ? fraction((1 + c) * (usdNow / usdThen) - 1) : null;
const times = (a: number | null, b: number | null) => (a !== null && b !== null ? a * b : null);

export function computeTokenStats(input: TokenInputs, ctx: MarketContext): TokenStatsDoc {
  const { meta, token, pools } = input;
  const d = meta.decimals;
  const primary = primaryAdaPool(token, pools);
  const spot = primary ? spotPriceRaw(primary) : null;
  const priceAda = spot === null ? null : adaPrice(spot, d);
  const adaPools = pools.filter(isAdaPool);
  const liquidityAda = adaPools.length
    ? lovelaceNumber(adaPools.reduce((s, p) => s + (poolTvlLovelace(p) ?? 0n), 0n))
    : null;

  const windows = {} as Record<StatsWindow, WindowStats>;
  const makers = new Set<string>();
  for (const w of STATS_WINDOWS) {
    const start = windowStartSlot(ctx, w);
    let volume = 0n;
    let txns = 0;
    let buys = 0;
    let sells = 0;
    for (const t of input.trades) {
      if (t.slot <= start) break;
      txns++;
      if (t.valueLovelace) volume += BigInt(t.valueLovelace);
      // Bought or sold as the token itself: for an ADA pair its side; in a token/token trade, the side it was on.
      if (t.tokenOut === meta.unit) buys++;
      else if (t.tokenIn === meta.unit) sells++;
      if (w === '24h' && t.maker) makers.add(t.maker);
    }
    if (w === '7d' && input.truncated && input.candles7d) {
      volume = input.candles7d.volumeLovelace;
      txns = input.candles7d.trades;
    }
    const c = change(input.priceNowRaw, input.priceAtRaw[w]);
    windows[w] = {
      volume: lovelaceNumber(volume),
      txns,
      buys,
      sells,
      change: c,
      changeUsd: usdChange(c, ctx.adaUsd, ctx.adaUsdAt[w]),
    };
  }

  const totalSupply = scaleInteger(token.totalSupplyRaw, d);
  // Circulating supply comes from the holders index (computeAllTokenStats); until known, mcap uses the total supply.
  const circulatingSupply: number | null = null;
  const mcapAda = times(priceAda, circulatingSupply ?? totalSupply);
  const fdvAda = times(priceAda, totalSupply);
  const w = windows;
  return {
    _id: meta.unit,
    priceAda,
    priceUsd: times(priceAda, ctx.adaUsd),
    liquidityAda,
    liquidityUsd: times(liquidityAda, ctx.adaUsd),
    volume24h: w['24h'].volume,
    volume7d: w['7d'].volume,
    change1h: w['1h'].change,
    change24h: w['24h'].change,
    change7d: w['7d'].change,
    change1hUsd: w['1h'].changeUsd,
    change24hUsd: w['24h'].changeUsd,
    change7dUsd: w['7d'].changeUsd,
    txns24h: w['24h'].txns,
    buys24h: w['24h'].buys,
    sells24h: w['24h'].sells,
    makers24h: makers.size,
    mcapAda,
    mcapUsd: times(mcapAda, ctx.adaUsd),
    fdvUsd: times(fdvAda, ctx.adaUsd),
    // Holder counts come from the ledger index (a later issue); unknown until then.
    holders: null,
    totalSupply,
    circulatingSupply,
    pools: token.poolIds.length,
    firstPoolTime: token.firstPoolSlot === null ? null : ctx.clock.iso(token.firstPoolSlot),
    firstPoolExact: token.firstPoolExact,
    updatedAt: new Date(ctx.windowEndMs).toISOString(),
    windows,
    primaryPoolId: primary?.id ?? token.primaryPoolId,
    fdvAda,
    holdersCapped: false,
    // Folded as the query is (cardano/rankings.ts readRanking): a name written in full-width or ligature forms is found.
    search: foldText([meta.unit, meta.ticker, meta.name].filter(Boolean).join(' ')),
    // Matched whole, not as a substring of `search`: any short name query would hit some token's random bech32 text.
    fingerprint: assetFingerprint(meta.unit),
  };
}

/**
 * The slot a rolling window starts at (the indexed tip's time less its length). The window holds the trades after it,
 * up to the tip: (start, end]. Its price change is measured from the price as of that slot (poolPriceAt: the state
 * after its trades), so a trade in the block exactly at the start is the window before's, in volume as in change;
 * counted in both windows, a token whose only trade of the 24 h sat exactly 24 h before the tip showed that trade in
 * txns24h and volume24h beside a change24h of 0, and two successive hours held it twice.
 */
export const windowStartSlot = (ctx: Pick<MarketContext, 'clock' | 'windowEndMs'>, w: StatsWindow): number =>
  ctx.clock.msToSlot(ctx.windowEndMs - WINDOW_SECONDS[w] * 1000);

/**
 * The pool's raw spot price as of `slot`: its last state at or before it, with the pool's weights (constant over
 * its life); null before the pool existed.
 */
export async function poolPriceAt(store: Store, pool: PoolDoc, slot: number): Promise<number | null> {
  const [s] = await store.collection(POOL_STATES).find('byPool', { eq: [pool.id], lte: slot, reverse: true, limit: 1 });
  return s ? spotPriceRaw({ ...s, weightA: pool.weightA, weightB: pool.weightB }) : null;
}

/** Complete trades newer than `fromSlot`, newest first, at most `limit`, over the indexes of `of` (tradeIndexesOf). */
export async function recentTrades(
  store: Store,
  of: TradesOf,
  fromSlot: number,
  limit: number,
): Promise<{ trades: TradeDoc[]; truncated: boolean }> {
  const scans = await Promise.all(
    tradeIndexesOf(of).map(({ index, key }) => recentTradesOfIndex(store, index, key, fromSlot, limit)),
  );
  if (scans.length === 1 && scans[0]) return scans[0];
  const merged = mergeNewestFirst(
    scans.map((s) => s.trades),
    limit + 1,
  );
  return { trades: merged.slice(0, limit), truncated: merged.length > limit || scans.some((s) => s.truncated) };
}

async function recentTradesOfIndex(
  store: Store,
  index: string,
  key: string | number,
  fromSlot: number,
  limit: number,
): Promise<{ trades: TradeDoc[]; truncated: boolean }> {
  const coll = store.collection(TRADES);
  const out: TradeDoc[] = [];
  const PAGE = 1000;
  let after: TradeDoc | undefined;
  for (;;) {
    const page = await coll.find(index, { eq: [key], reverse: true, limit: PAGE, ...(after ? { after } : {}) });
    for (const t of page) {
      if (t.slot < fromSlot) return { trades: out, truncated: false };
      if (t.status === 'complete') out.push(t);
      if (out.length >= limit) return { trades: out, truncated: true };
    }
    if (page.length < PAGE) return { trades: out, truncated: false };
    after = page[page.length - 1];
  }
}

export async function loadTokenInputs(
  store: Store,
  meta: TokenMetadata,
  token: TokenDoc,
  pools: PoolDoc[],
  ctx: MarketContext,
): Promise<TokenInputs> {
  const endSec = Math.floor(ctx.windowEndMs / 1000);
  const from7d = ctx.clock.msToSlot(ctx.windowEndMs - WINDOW_SECONDS['7d'] * 1000);
  const series = tokenSeries(meta.unit);
  const primary = primaryAdaPool(token, pools);
  const priceNowRaw = primary ? spotPriceRaw(primary) : null;
  const [{ trades, truncated }, ...starts] = await Promise.all([
    recentTrades(store, { token: meta.unit }, from7d, TRADE_SCAN_LIMIT),
    ...STATS_WINDOWS.map((w) => (primary ? poolPriceAt(store, primary, windowStartSlot(ctx, w)) : null)),
  ]);
  const priceAtRaw = Object.fromEntries(STATS_WINDOWS.map((w, i) => [w, starts[i] ?? null])) as Record<
    StatsWindow,
    number | null
  >;
  let candles7d: TokenInputs['candles7d'] = null;
  if (truncated) {
    const hours = await store
      .collection(CANDLES)
      .find('bySeries', { eq: [series, '1h'], gte: endSec - WINDOW_SECONDS['7d'] });
    candles7d = {
      volumeLovelace: hours.reduce((s, c) => s + BigInt(c.volumeLovelace), 0n),
      trades: hours.reduce((s, c) => s + c.trades, 0),
    };
  }
  return { meta, token, pools, trades, truncated, candles7d, priceNowRaw, priceAtRaw };
}

/**
 * 24 h activity of one pool from its complete trades, and the batcher fees its orders were charged in that window
 * (lovelace, those that could be told) for its DEX's typical fee.
 */
export async function computePoolStats(
  store: Store,
  poolId: number,
  ctx: MarketContext,
): Promise<{ stats: PoolStatsDoc; orderFees: bigint[] }> {
  // The trades after the window's start slot (windowStartSlot), as a token's 24 h figures count them.
  const from = windowStartSlot(ctx, '24h') + 1;
  const { trades } = await recentTrades(store, { poolId }, from, Number.MAX_SAFE_INTEGER);
  const volume = trades.reduce((s, t) => s + (t.valueLovelace ? BigInt(t.valueLovelace) : 0n), 0n);
  const orderFees: bigint[] = [];
  for (const t of trades) if (t.batcherFeeLovelace != null) orderFees.push(BigInt(t.batcherFeeLovelace));
  return {
    stats: {
      _id: String(poolId),
      poolId,
      volume24h: lovelaceNumber(volume),
      txns24h: trades.length,
      updatedAt: new Date(ctx.windowEndMs).toISOString(),
    },
    orderFees,
  };
}
