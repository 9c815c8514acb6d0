/**
 * Wallet profit and loss by FIFO over the wallet's ADA-side DEX trades (spec: wallet PnL, tool get_wallet_pnl).
 * Pure: the caller loads the trades (only those since coverageFrom exist in the index) and supplies the marks.
 *
 * Lots. Each buy opens a lot: its token amount and its cost (the lovelace paid plus fees; in USD, that cost at the
 * ADA/USD rate of the buy's time). Each sell consumes the oldest lots first, partially when a lot is larger than
 * what is left to sell. Realised PnL of a sell = its proceeds (lovelace received minus fees) − the FIFO cost of
 * the lots it consumed; in USD = proceeds at the sell's ADA/USD rate − the consumed lots' USD cost (each at its
 * own buy-time rate). Unrealised PnL = remaining lots valued at the current price and ADA/USD − their cost.
 *
 * Lots no longer held. Tokens also leave a wallet without a sale the FIFO sees: sent to another wallet, swapped for
 * another token (a token/token swap has no ADA side), put into a liquidity pool, or into an open order at an order
 * address without the owner's stake key (DEX order addresses usually carry it, and the ledger counts what they hold
 * in the key's stake, as the portfolio does: such tokens stay held). When the caller
 * knows what the wallet holds now, open lots beyond that balance are taken out, oldest first as FIFO takes a sell,
 * and reported apart (amount and cost): they are neither realised (no proceeds are known) nor unrealised (they are
 * not held), so the open position is what the wallet's portfolio shows, at most.
 *
 * Unmatched sells. Tokens sold beyond the lots the index knows of (received before coverageFrom, by transfer,
 * or through a token/token swap) have no known cost. That part of a sell is reported apart (amount and the
 * proceeds attributed to it, pro rata) and is EXCLUDED from realised PnL, trade wins and the series: counting
 * its proceeds as profit would overstate PnL by the whole unknown cost.
 *
 * Win rate. A closed position is one sell event that matched at least one lot (its matched part); it is a win
 * when its realised ADA PnL is strictly positive (break-even is not a win). Sells that matched nothing are not
 * closed positions. winRatePercent = 100 · wins / closed, null with no closed position.
 *
 * Exactness and rounding. Token amounts and ADA sums are bigint (raw units, lovelace). A partially consumed
 * lot is charged floor(cost · consumedSoFar / lotAmount) cumulatively, so the pieces of one lot always add up to
 * its whole cost and each piece is at most 1 lovelace below its pro-rata share; a fully consumed lot is charged
 * exactly. A partly unmatched sell's matched proceeds are floor(proceeds · matched / sold) lovelace, the rest
 * is attributed to the unmatched part. Realised ADA figures are therefore exact to the lovelace and are turned
 * into whole ADA once, at the end. Prices, ADA/USD rates and everything in USD are doubles.
 */
import { lovelaceToAda, scaleInteger } from '../units.js';
import type { PnlTrade } from './trade.js';

export interface PnlMarks {
  /** Current price of a token in ADA per whole token (decimal-adjusted); null when it has no price now. */
  priceAda(unit: string): number | null;
  /** USD per ADA at a unix time in seconds (the trade's time); null when no rate is known then. */
  adaUsdAt(time: number): number | null;
  /** USD per ADA now; null when unknown. */
  adaUsdNow: number | null;
  /** What the wallet holds of a token now, raw units (FifoMarks.heldRaw); without it every open lot is held. */
  heldRaw?: (unit: string) => bigint;
}

export interface PnlOptions {
  /** Earliest trade the index covers (ISO time), passed through to the answer; null when the index has all. */
  coverageFrom: string | null;
  /** How many tokens `topTokens` lists (default 5). */
  topTokens?: number;
}

export interface TokenPnl {
  unit: string;
  decimals: number;
  buys: number;
  sells: number;
  /** ADA side of this token's trades, whole ADA. */
  volumeAda: number;
  boughtAmount: number;
  soldAmount: number;
  /** Amount still held in open lots (decimal-adjusted), and exactly in raw units; at most the wallet's balance. */
  remainingAmount: number;
  remainingRaw: string;
  /** Open lots beyond what the wallet holds now, oldest first (see the module comment), and their cost in ADA. */
  notHeldAmount: number;
  notHeldRaw: string;
  notHeldCostAda: number;
  /** Cost of the open lots: ADA exact to the lovelace; USD at each lot's buy-time rate (null if one is unknown). */
  costBasisAda: number;
  costBasisUsd: number | null;
  /** ADA per whole token of the open lots; null when nothing is left. */
  avgCostAda: number | null;
  realisedAda: number;
  /** null when a rate needed by one of the token's closed positions is unknown. */
  realisedUsd: number | null;
  /** Current price (ADA per whole token) and value of the open lots; null without a price. */
  priceAda: number | null;
  valueAda: number | null;
  /** 0 with no open lots; null when lots remain but the token has no price (or, in USD, no rate). */
  unrealisedAda: number | null;
  unrealisedUsd: number | null;
  /** realisedAda + unrealisedAda (unrealised counted as 0 when unknown): how much the token contributed. */
  pnlAda: number;
  /** Sold beyond known lots: excluded from realisedAda (see the module comment). */
  unmatchedSellAmount: number;
  unmatchedSellRaw: string;
  unmatchedProceedsAda: number;
  closedPositions: number;
  wins: number;
}

export interface PnlPoint {
  /** Unix seconds. */
  time: number;
  /** Cumulative realised PnL in ADA after the last closed position of that second. */
  value: number;
}

export interface WalletPnl {
  coverageFrom: string | null;
  tradeCount: number;
  buyCount: number;
  sellCount: number;
  /** ADA side of all trades, whole ADA. */
  volumeAda: number;
  realisedAda: number;
  /** null when any token's realisedUsd is null. */
  realisedUsd: number | null;
  /** Sum over tokens with a price; the open lots of `unpricedUnits` are left out. */
  unrealisedAda: number;
  /** null without a current ADA/USD rate or when an open priced lot has no buy-time rate. */
  unrealisedUsd: number | null;
  costBasisAda: number;
  costBasisUsd: number | null;
  wins: number;
  closedPositions: number;
  winRatePercent: number | null;
  /** Proceeds of sells beyond known lots, whole ADA (not in realisedAda). */
  unmatchedProceedsAda: number;
  /** Cost of the open lots the wallet no longer holds, whole ADA (not in costBasisAda or unrealisedAda). */
  notHeldCostAda: number;
  /** Sell events with an unmatched part. */
  unmatchedSells: number;
  /** Tokens with open lots but no current price. */
  unpricedUnits: string[];
  adaUsd: number | null;
  /** Every traded token, by |pnlAda| descending, then unit. */
  tokens: TokenPnl[];
  /** The first `topTokens` of `tokens` with a non-zero contribution. */
  topTokens: { unit: string; pnlAda: number; realisedAda: number; unrealisedAda: number | null }[];
  /** Cumulative realised ADA PnL, one point per second with a closed position, in time order. */
  series: PnlPoint[];
}

export interface Lot {
  tokenRaw: bigint;
  costLovelace: bigint;
  /** null when the buy-time ADA/USD rate is unknown. */
  costUsd: number | null;
  consumedRaw: bigint;
  chargedLovelace: bigint;
}

export interface TokenState {
  unit: string;
  decimals: number;
  lots: Lot[];
  buys: number;
  sells: number;
  volumeLovelace: bigint;
  boughtRaw: bigint;
  soldRaw: bigint;
  realisedLovelace: bigint;
  realisedUsd: number;
  usdKnown: boolean;
  unmatchedRaw: bigint;
  unmatchedLovelace: bigint;
  closed: number;
  wins: number;
}

const byTimeThenSeq = (a: PnlTrade, b: PnlTrade) => a.time - b.time || a.seq - b.seq;

/** Takes `want` raw units from the oldest lots; returns what was matched and the lovelace/USD cost charged. */
function consume(lots: Lot[], want: bigint): { matched: bigint; costLovelace: bigint; costUsd: number | null } {
  let matched = 0n;
  let costLovelace = 0n;
  let costUsd: number | null = 0;
  while (matched < want && lots.length > 0) {
    const lot = lots[0] as Lot;
    const take = bigMin(want - matched, lot.tokenRaw - lot.consumedRaw);
    lot.consumedRaw += take;
    const charged =
      lot.consumedRaw === lot.tokenRaw ? lot.costLovelace : (lot.costLovelace * lot.consumedRaw) / lot.tokenRaw;
    costLovelace += charged - lot.chargedLovelace;
    lot.chargedLovelace = charged;
    costUsd =
      costUsd === null || lot.costUsd === null ? null : costUsd + (lot.costUsd * Number(take)) / Number(lot.tokenRaw);
    matched += take;
    if (lot.consumedRaw === lot.tokenRaw) lots.shift();
  }
  return { matched, costLovelace, costUsd };
}

const bigMin = (a: bigint, b: bigint) => (a < b ? a : b);

function newState(t: PnlTrade): TokenState {
  return {
    unit: t.unit,
    decimals: t.decimals,
    lots: [],
    buys: 0,
    sells: 0,
    volumeLovelace: 0n,
    boughtRaw: 0n,
    soldRaw: 0n,
    realisedLovelace: 0n,
    realisedUsd: 0,
    usdKnown: true,
    unmatchedRaw: 0n,
    unmatchedLovelace: 0n,
    closed: 0,
    wins: 0,
  };
}

/**
 * A wallet's FIFO state: its open lots and running totals per token, built trade by trade in chain order
 * (`applyFifoTrade`) and valued at current prices on read (`valueFifo`). Kept up to date by the market sync
 * (one document per wallet), so an answer never replays the wallet's history.
 */
export interface FifoState {
  tokens: TokenState[];
  buyCount: number;
  sellCount: number;
  unmatchedSells: number;
  realisedLovelace: bigint;
  series: PnlPoint[];
}

export const emptyFifo = (): FifoState => ({
  tokens: [],
  buyCount: 0,
  sellCount: 0,
  unmatchedSells: 0,
  realisedLovelace: 0n,
  series: [],
});

/**
 * Applies one trade (the next in chain order) to the state, in place. `rate` is USD per ADA at the trade's time
 * (null when unknown). A trade with a token amount ≤ 0 is a caller error (thrown).
 */
export function applyFifoTrade(state: FifoState, t: PnlTrade, rate: number | null): void {
  if (t.tokenRaw <= 0n) throw new RangeError(`trade ${t.seq}: token amount must be positive`);
  let s = state.tokens.find((x) => x.unit === t.unit);
  if (!s) state.tokens.push((s = newState(t)));
  s.volumeLovelace += t.lovelace;
  if (t.side === 'buy') {
    state.buyCount += 1;
    s.buys += 1;
    s.boughtRaw += t.tokenRaw;
    const cost = t.lovelace + t.feeLovelace;
    s.lots.push({
      tokenRaw: t.tokenRaw,
      costLovelace: cost,
      costUsd: rate === null ? null : lovelaceToAda(cost) * rate,
      consumedRaw: 0n,
      chargedLovelace: 0n,
    });
    return;
  }
  state.sellCount += 1;
  s.sells += 1;
  s.soldRaw += t.tokenRaw;
  const proceeds = t.lovelace - t.feeLovelace;
  const { matched, costLovelace, costUsd } = consume(s.lots, t.tokenRaw);
  const matchedProceeds = matched === t.tokenRaw ? proceeds : (proceeds * matched) / t.tokenRaw;
  if (matched < t.tokenRaw) {
    state.unmatchedSells += 1;
    s.unmatchedRaw += t.tokenRaw - matched;
    s.unmatchedLovelace += proceeds - matchedProceeds;
  }
  if (matched === 0n) return;
  const realised = matchedProceeds - costLovelace;
  s.realisedLovelace += realised;
  s.closed += 1;
  if (realised > 0n) s.wins += 1;
  if (rate === null || costUsd === null) s.usdKnown = false;
  else s.realisedUsd += lovelaceToAda(matchedProceeds) * rate - costUsd;
  state.realisedLovelace += realised;
  const point = { time: t.time, value: lovelaceToAda(state.realisedLovelace) };
  const series = state.series;
  if (series.at(-1)?.time === t.time) series[series.length - 1] = point;
  else series.push(point);
}

/** What valuing a state needs besides it: current prices and ADA/USD, and each token's decimals. */
export interface FifoMarks {
  priceAda(unit: string): number | null;
  adaUsdNow: number | null;
  /** Decimals of a token (metadata may arrive after its trades); default: those the state was built with. */
  decimals?: (unit: string) => number;
  /**
   * Raw units of a token the wallet holds now (its unspent outputs); open lots beyond it are reported as not held.
   * Without it every open lot is taken as held.
   */
  heldRaw?: (unit: string) => bigint;
}

/** A token's state with the open lots beyond `held` taken out (oldest first), and what was taken. Pure. */
function heldPart(
  s: TokenState,
  held: bigint | undefined,
): { s: TokenState; notHeldRaw: bigint; notHeldLovelace: bigint } {
  const remaining = openRaw(s);
  if (held === undefined || remaining <= held) return { s, notHeldRaw: 0n, notHeldLovelace: 0n };
  const lots = s.lots.map((l) => ({ ...l }));
  const gone = consume(lots, remaining - held);
  return { s: { ...s, lots }, notHeldRaw: gone.matched, notHeldLovelace: gone.costLovelace };
}

/** The wallet's PnL answer from its FIFO state: open lots valued at the current prices. Pure. */
export function valueFifo(state: FifoState, marks: FifoMarks, opts: PnlOptions): WalletPnl {
  const parts = state.tokens.map((s) => heldPart(s, marks.heldRaw?.(s.unit)));
  const held = parts.map((p) => p.s);
  const tokens = parts.map(({ s, notHeldRaw, notHeldLovelace }) =>
    tokenPnl(marks.decimals ? { ...s, decimals: marks.decimals(s.unit) } : s, marks, notHeldRaw, notHeldLovelace),
  );
  tokens.sort((a, b) => Math.abs(b.pnlAda) - Math.abs(a.pnlAda) || (a.unit < b.unit ? -1 : a.unit > b.unit ? 1 : 0));

  const sumLovelace = (f: (s: TokenState) => bigint) => held.reduce((acc, s) => acc + f(s), 0n);
  const sumOrNull = (xs: (number | null)[]) =>
    xs.reduce<number | null>((acc, x) => (acc === null || x === null ? null : acc + x), 0);
  const priced = tokens.filter((t) => t.remainingRaw === '0' || t.priceAda !== null);
  const wins = tokens.reduce((a, t) => a + t.wins, 0);
  const closedPositions = tokens.reduce((a, t) => a + t.closedPositions, 0);

  return {
    coverageFrom: opts.coverageFrom,
    tradeCount: state.buyCount + state.sellCount,
    buyCount: state.buyCount,
    sellCount: state.sellCount,
    volumeAda: lovelaceToAda(sumLovelace((s) => s.volumeLovelace)),
    realisedAda: lovelaceToAda(state.realisedLovelace),
    realisedUsd: sumOrNull(tokens.map((t) => t.realisedUsd)),
    unrealisedAda: priced.reduce((a, t) => a + (t.unrealisedAda ?? 0), 0),
    unrealisedUsd: marks.adaUsdNow === null ? null : sumOrNull(priced.map((t) => t.unrealisedUsd)),
    costBasisAda: lovelaceToAda(sumLovelace(remainingCost)),
    costBasisUsd: sumOrNull(tokens.map((t) => t.costBasisUsd)),
    wins,
    closedPositions,
    winRatePercent: closedPositions === 0 ? null : (100 * wins) / closedPositions,
    unmatchedProceedsAda: lovelaceToAda(sumLovelace((s) => s.unmatchedLovelace)),
    unmatchedSells: state.unmatchedSells,
    notHeldCostAda: lovelaceToAda(parts.reduce((acc, p) => acc + p.notHeldLovelace, 0n)),
    unpricedUnits: tokens
      .filter((t) => t.remainingRaw !== '0' && t.priceAda === null)
      .map((t) => t.unit)
      .sort(),
    adaUsd: marks.adaUsdNow,
    tokens,
    topTokens: tokens
      .filter((t) => t.pnlAda !== 0)
      .slice(0, opts.topTokens ?? 5)
      .map((t) => ({ unit: t.unit, pnlAda: t.pnlAda, realisedAda: t.realisedAda, unrealisedAda: t.unrealisedAda })),
    series: state.series,
  };
}

/**
 * FIFO PnL of one wallet from its whole trade list. Trades are taken in (time, seq) order whatever order they come
 * in; a token's decimals are those of its first trade. A trade with a token amount ≤ 0 is a caller error (thrown).
 */
export function computePnl(trades: readonly PnlTrade[], marks: PnlMarks, opts: PnlOptions): WalletPnl {
  const state = emptyFifo();
  for (const t of [...trades].sort(byTimeThenSeq)) applyFifoTrade(state, t, marks.adaUsdAt(t.time));
  return valueFifo(state, marks, opts);
}

/** Raw token units of the open lots not yet sold. */
const openRaw = (s: TokenState) => s.lots.reduce((a, l) => a + l.tokenRaw - l.consumedRaw, 0n);

/** Lovelace cost of the open lots not yet charged to a sell. */
const remainingCost = (s: TokenState) => s.lots.reduce((a, l) => a + l.costLovelace - l.chargedLovelace, 0n);

function tokenPnl(
  s: TokenState,
  marks: Pick<PnlMarks, 'priceAda' | 'adaUsdNow'>,
  notHeldRaw: bigint,
  notHeldLovelace: bigint,
): TokenPnl {
  const remainingRaw = openRaw(s);
  const remainingAmount = scaleInteger(remainingRaw, s.decimals);
  const costLovelace = remainingCost(s);
  const costBasisAda = lovelaceToAda(costLovelace);
  const costBasisUsd = s.lots.reduce<number | null>(
    (a, l) =>
      a === null || l.costUsd === null
        ? null
        : a + (l.costUsd * Number(l.tokenRaw - l.consumedRaw)) / Number(l.tokenRaw),
    0,
  );
  const price = marks.priceAda(s.unit);
  const valueAda = price === null ? null : remainingAmount * price;
  const open = remainingRaw > 0n;
  const unrealisedAda = !open ? 0 : valueAda === null ? null : valueAda - costBasisAda;
  const unrealisedUsd = !open
    ? 0
    : valueAda === null || marks.adaUsdNow === null || costBasisUsd === null
      ? null
      : valueAda * marks.adaUsdNow - costBasisUsd;
  const realisedAda = lovelaceToAda(s.realisedLovelace);
  return {
    unit: s.unit,
    decimals: s.decimals,
    buys: s.buys,
    sells: s.sells,
    volumeAda: lovelaceToAda(s.volumeLovelace),
    boughtAmount: scaleInteger(s.boughtRaw, s.decimals),
    soldAmount: scaleInteger(s.soldRaw, s.decimals),
    remainingAmount,
    remainingRaw: String(remainingRaw),
    notHeldAmount: scaleInteger(notHeldRaw, s.decimals),
    notHeldRaw: String(notHeldRaw),
    notHeldCostAda: lovelaceToAda(notHeldLovelace),
    costBasisAda,
    costBasisUsd,
    avgCostAda: open ? costBasisAda / remainingAmount : null,
    realisedAda,
    realisedUsd: s.usdKnown ? s.realisedUsd : null,
    priceAda: price,
    valueAda,
    unrealisedAda,
    unrealisedUsd,
    pnlAda: realisedAda + (unrealisedAda ?? 0),
    unmatchedSellAmount: scaleInteger(s.unmatchedRaw, s.decimals),
    unmatchedSellRaw: String(s.unmatchedRaw),
    unmatchedProceedsAda: lovelaceToAda(s.unmatchedLovelace),
    closedPositions: s.closed,
    wins: s.wins,
  };
}
