/**
 * Read functions of swap (REST, MCP and Markdown present their results).
 */
import type { TxOutput, Value } from '../../cardano/chain/types.js';
import { dexAdapter } from '../../cardano/dex/index.js';
import { MINSWAP_V2 } from '../../cardano/dex/minswap-v2.js';
import type { DexAdapter, DexName, PoolState } from '../../cardano/dex/types.js';
import { LOVELACE } from '../../cardano/token-metadata.js';
import { poolsOfUnit, TOKENS, TOKEN_META, type PoolDoc } from '../../mongo/collections/market.js';
import type { Store } from '../../mongo/store.js';
import { BadRequestError, NotFoundError } from '../errors.js';
import { MAX_ASSET_QUANTITY } from '../schemas/common.js';
import { loadAssets, type AssetBook } from '../present/market.js';
import { decimalText, lovelaceToAdaOrNull, ratioNumber, scaleInteger } from '../../cardano/units.js';
import { currentAdaUsd } from '../../mongo/collections/ada-usd.js';
import { POOL_STATS, TOKEN_STATS } from '../../mongo/collections/market-read.js';
import { logoMode } from './tokens.js';
import type { swapRoutes } from '../routes/swap.js';
import type { ReadDeps, RouteInput } from './deps.js';
import { notFoundWhileBehind, withAsOf } from './freshness.js';
import { asOfMs, storeClock } from '../../mongo/collections/clock.js';
import type { SundaeV3PoolExtra } from '../../cardano/dex/sundaeswap-v3.js';
/**
 * ADA pools per leg combined in two-hop routes: those paying most for the amount quoted (or leaving most once their
 * batcher fee is paid, when the fees are known), so the routes list stays short (at most 3 × 3 two-hop routes) while
 * still holding the best one.
 */
export const TWO_HOP_POOLS_PER_LEG = 3;

// ---- pool math ---------------------------------------------------------------------------------------------------

export interface QuotablePool {
  doc: PoolDoc;
  adapter: DexAdapter;
  state: PoolState;
  /** Decoded from the stored pool output (true) or rebuilt from reserves and fee fractions (false). */
  exact: boolean;
}

function valueOf(raw: Record<string, string>): Value {
  const v: Value = { ada: { lovelace: BigInt(raw[LOVELACE] ?? '0') } };
  for (const [unit, q] of Object.entries(raw)) {
    if (unit === LOVELACE) continue;
    const policy = unit.slice(0, 56);
    (v[policy] ??= {})[unit.slice(56)] = BigInt(q);
  }
  return v;
}

/** Fee fraction → integer numerator over a denominator the adapter's formula accepts. */
const numerator = (f: number, den: bigint) => BigInt(Math.round(f * Number(den)));

/** The adapter and PoolState of a pool document, or null for an unknown DEX or an undecodable output. */
export function quotablePool(doc: PoolDoc): QuotablePool | null {
  const adapter = dexAdapter(doc.dex as DexName);
  if (!adapter) return null;
  if (doc.poolOutput) {
    const output: TxOutput = { address: doc.address, value: valueOf(doc.poolOutput.value) };
    if (doc.poolOutput.datum) output.datum = doc.poolOutput.datum;
    const state = adapter.decodePool(output);
    return state ? { doc, adapter, state, exact: true } : null;
  }
  // Without its output, a weighted pool cannot be priced as constant product (its reserve ratio is not its price).
  if (doc.weightA !== undefined) return null;
  // Fallback: constant product over the stored reserves and fee fractions. Minswap V2's formula fixes its
  // denominator at 10,000; the others take any denominator (the formulas are homogeneous in fee/denominator).
  const den = doc.dex === 'minswap-v2' ? MINSWAP_V2.feeDenominator : 1_000_000n;
  const fee = { aToB: numerator(doc.feeAToB, den), bToA: numerator(doc.feeBToA, den), denominator: den };
  const extra =
    doc.dex === 'wingriders-v2'
      ? {
          swapFeeInBasis: fee.aToB,
          protocolFeeInBasis: 0n,
          projectFeeInBasis: 0n,
          reserveFeeInBasis: 0n,
          feeBasis: den,
          stable: null,
        }
      : {};
  const state: PoolState = {
    dex: adapter.name,
    poolId: doc.identifier,
    curve: 'constant-product',
    tokenA: doc.tokenA,
    tokenB: doc.tokenB,
    reserveA: BigInt(doc.reserveARaw),
    reserveB: BigInt(doc.reserveBRaw),
    lpToken: doc.lpToken,
    totalLp: doc.totalLpRaw === null ? null : BigInt(doc.totalLpRaw),
    fee,
    extra,
    datum: null,
  };
  return { doc, adapter, state, exact: false };
}

export interface HopQuote {
  pool: QuotablePool;
  tokenIn: string;
  tokenOut: string;
  amountIn: bigint;
  amountOut: bigint;
  /** The pool's fee on this direction (fraction). */
  fee: number;
  /** The fee charged on this hop's input, base units of tokenIn: amountIn × numerator / denominator, exact. */
  feeRaw: bigint;
  priceImpact: number;
}

/** One swap through one pool with the adapter's integer formula; null when the pool cannot quote it. */
export function quoteHop(p: QuotablePool, tokenIn: string, amountIn: bigint): HopQuote | null {
  const s = p.state;
  if (tokenIn !== s.tokenA && tokenIn !== s.tokenB) return null;
  const out = p.adapter.amountOut(s, tokenIn, amountIn);
  if (out === null || out <= 0n) return null;
  const aToB = tokenIn === s.tokenA;
  const [rIn, rOut] = aToB ? [s.reserveA, s.reserveB] : [s.reserveB, s.reserveA];
  const fee = aToB ? p.doc.feeAToB : p.doc.feeBToA;
  // The fee in integers from the pool's own fee fraction (the state the adapter priced with), never a float of
  // base units, which loses digits beyond 2^53 and overflows to Infinity for absurd amounts.
  const feeNumerator = aToB ? s.fee.aToB : s.fee.bToA;
  const feeRaw = s.fee.denominator > 0n ? (amountIn * feeNumerator) / s.fee.denominator : 0n;
  // What the input would buy at the spot price after the fee: the shortfall of `out` against it is the impact
  // (a ratio, so floating point is enough; both factors are bounded by what an output can hold).
  const ideal = (Number(amountIn) * (1 - fee) * Number(rOut)) / Number(rIn);
  return {
    pool: p,
    tokenIn,
    tokenOut: aToB ? s.tokenB : s.tokenA,
    amountIn,
    amountOut: out,
    fee,
    feeRaw,
    priceImpact: ideal > 0 ? Math.max(0, 1 - Number(out) / ideal) : 0,
  };
}

export interface RouteQuote {
  hops: HopQuote[];
  amountOut: bigint;
  priceImpact: number;
}

function chain(amountIn: bigint, tokenIn: string, pools: readonly QuotablePool[]): RouteQuote | null {
  const hops: HopQuote[] = [];
  let amount = amountIn;
  let unit = tokenIn;
  for (const p of pools) {
    const h = quoteHop(p, unit, amount);
    if (!h) return null;
    hops.push(h);
    amount = h.amountOut;
    unit = h.tokenOut;
  }
  return { hops, amountOut: amount, priceImpact: 1 - hops.reduce((k, h) => k * (1 - h.priceImpact), 1) };
}

const pairOf = (p: PoolDoc, a: string, b: string) =>
  (p.tokenA === a && p.tokenB === b) || (p.tokenA === b && p.tokenB === a);

const byOutput = (a: HopQuote, b: HopQuote) =>
  a.amountOut === b.amountOut ? a.pool.doc.id - b.pool.doc.id : a.amountOut > b.amountOut ? -1 : 1;

/**
 * The TWO_HOP_POOLS_PER_LEG pools best for `amountIn` of `tokenIn` (ties: more output, then lower pool id), with what
 * each pays. Ranked by output, not by depth: a shallower pool at a better price or a lower fee pays more; or, given
 * `worth` (lovelace a hop leaves the trader: its output valued less its DEX's batcher fee), by that, so a pool paying
 * a little less whose order costs less is not left out of the routes ranked by it (rankByNetOutput).
 */
function bestLegs(
  pools: readonly QuotablePool[],
  tokenIn: string,
  amountIn: bigint,
  worth: ((h: HopQuote) => number) | null,
): HopQuote[] {
  return pools
    .map((p) => quoteHop(p, tokenIn, amountIn))
    .filter((h): h is HopQuote => h !== null)
    .sort(worth ? (a, b) => worth(b) - worth(a) || byOutput(a, b) : byOutput)
    .slice(0, TWO_HOP_POOLS_PER_LEG);
}

/** What a route's orders cost besides the amount, to rank routes (and pick two-hop legs) by what they leave. */
export interface RouteCosts {
  /** A pool's DEX's typical batcher fee, lovelace (PoolStatsDoc.batcherFeeLovelace); null when unknown. */
  feeOfPool: (poolId: number) => bigint | null;
  /** Lovelace per base unit of tokenOut (1 for ADA, its market price else); null when it has no price. */
  lovelacePerOut: number | null;
  /**
   * What an order on a DEX whose fee is unknown is ranked at (lovelace): the highest typical fee among the pools
   * quoted, so a fee nobody measured (MuesliSwap's, which no order bounds; a DEX without orders in the window) never
   * makes its route best, and one such pool does not switch the whole quote back to ranking by output. null when no
   * fee is known.
   */
  unknownFee: bigint | null;
}

/** A pool's fee as ranking counts it: its DEX's typical fee, else the quote's stand-in for an unknown one. */
const rankedFee = (costs: RouteCosts, poolId: number): bigint | null => costs.feeOfPool(poolId) ?? costs.unknownFee;

/**
 * Every route from `tokenIn` to `tokenOut`: each pool of the pair, and for two tokens the combinations of their
 * best ADA pools for this amount. Largest output first; ties: fewer hops, then pool ids (the answer ranks them by
 * output less batcher fees: rankByNetOutput).
 *
 * The best two-hop route by output is among them: a leg's output grows with its input, so the best route takes the
 * first-leg pool paying the most ADA, then the second-leg pool paying the most for that ADA; the second leg's pools
 * are ranked at exactly that amount. With `costs` that know every leg pool's batcher fee and tokenOut's price, the
 * legs are picked by what they leave instead (ADA out less the fee; output valued less the fee, at the ADA the best
 * first leg leaves): one order per hop, so a leg through a DEX charging 0.5 ADA can leave more than one paying a
 * little more at 2 ADA, and the route the answer ranks best must not be dropped here.
 */
export function quoteRoutes(
  tokenIn: string,
  tokenOut: string,
  amountIn: bigint,
  poolsIn: readonly PoolDoc[],
  poolsOut: readonly PoolDoc[],
  costs?: RouteCosts,
): RouteQuote[] {
  const q = (docs: readonly PoolDoc[]) => docs.map(quotablePool).filter((p): p is QuotablePool => p !== null);
  const routes: RouteQuote[] = [];
  const direct = (tokenIn === LOVELACE ? poolsOut : poolsIn).filter((p) => pairOf(p, tokenIn, tokenOut));
  for (const p of q(direct)) {
    const r = chain(amountIn, tokenIn, [p]);
    if (r) routes.push(r);
  }
  if (tokenIn !== LOVELACE && tokenOut !== LOVELACE) {
    const poolsLegIn = q(poolsIn.filter((p) => pairOf(p, LOVELACE, tokenIn)));
    const poolsLegOut = q(poolsOut.filter((p) => pairOf(p, LOVELACE, tokenOut)));
    const perOut = costs?.lovelacePerOut ?? null;
    const known =
      costs !== undefined &&
      perOut !== null &&
      perOut > 0 &&
      [...poolsLegIn, ...poolsLegOut].every((p) => rankedFee(costs, p.doc.id) !== null);
    const worth = (lovelacePerUnit: number) =>
      known ? (h: HopQuote) => Number(h.amountOut) * lovelacePerUnit - Number(rankedFee(costs, h.pool.doc.id)) : null;
    const legIn = bestLegs(poolsLegIn, tokenIn, amountIn, worth(1));
    const ada = legIn[0]?.amountOut;
    const legOut = ada === undefined ? [] : bestLegs(poolsLegOut, LOVELACE, ada, worth(perOut ?? 0));
    for (const a of legIn)
      for (const b of legOut) {
        const r = chain(amountIn, tokenIn, [a.pool, b.pool]);
        if (r) routes.push(r);
      }
  }
  const ids = (r: RouteQuote) => r.hops.map((h) => h.pool.doc.id).join(',');
  return routes.sort(
    (a, b) =>
      (a.amountOut === b.amountOut ? 0 : a.amountOut > b.amountOut ? -1 : 1) ||
      a.hops.length - b.hops.length ||
      (ids(a) < ids(b) ? -1 : ids(a) > ids(b) ? 1 : 0),
  );
}

/** A route with what its orders cost besides the amount: one order per hop, each at its DEX's typical batcher fee. */
export interface PricedRoute {
  route: RouteQuote;
  /** Lovelace; null when a hop's DEX has no typical fee (PoolStatsDoc.batcherFeeLovelace). */
  batcherFeeLovelace: bigint | null;
}

/** A route's batcher fees, one order per hop; null when a hop's fee is null. */
function routeFee(route: RouteQuote, feeOf: (poolId: number) => bigint | null): bigint | null {
  let fee: bigint | null = 0n;
  for (const h of route.hops) {
    const f = feeOf(h.pool.doc.id);
    fee = fee === null || f === null ? null : fee + f;
  }
  return fee;
}

/**
 * Routes ordered by what they leave the trader: the output valued in lovelace at one price for every route
 * (`lovelacePerOut`, lovelace per base unit of tokenOut: 1 for ADA, the token's market price else), less the
 * route's batcher fees (an unknown one at `unknownFee`). A batcher fee is paid in ADA besides the amount (0.5-2 ADA
 * per order on the DEXes indexed), so on a small amount the pool paying most is not the cheapest to use. When the
 * output has no price or no fee is known, as given (largest output first). Ties keep the given order (fewer hops,
 * pool ids). Each route carries its known fees only (null when a hop's is unknown).
 */
export function rankByNetOutput(routes: readonly RouteQuote[], costs: RouteCosts): PricedRoute[] {
  const priced = routes.map((route) => ({ route, batcherFeeLovelace: routeFee(route, costs.feeOfPool) }));
  const perOut = costs.lovelacePerOut;
  const ranked = routes.map((r) => routeFee(r, (id) => rankedFee(costs, id)));
  if (perOut === null || !(perOut > 0) || ranked.some((f) => f === null)) return priced;
  return priced
    .map((p, i) => ({ p, i, net: Number(p.route.amountOut) * perOut - Number(ranked[i]) }))
    .sort((a, b) => b.net - a.net || a.i - b.i)
    .map((x) => x.p);
}

/**
 * A sentence when even the best route's batcher fees are worth more than what it yields (a dust amount: 0.000001 ADA
 * of a token buys a few base units for a 0.5 ADA order), valued at tokenOut's market price; null otherwise or when
 * the fee or the price is unknown.
 */
export function feeNote(best: PricedRoute | null, lovelacePerOut: number | null): string | null {
  if (!best || best.batcherFeeLovelace === null || lovelacePerOut === null || !(lovelacePerOut > 0)) return null;
  const yields = Number(best.route.amountOut) * lovelacePerOut;
  const fee = Number(best.batcherFeeLovelace);
  if (yields >= fee) return null;
  const ada = (lovelace: number) => decimalText(BigInt(Math.round(lovelace)), 6);
  return (
    `The best route's batcher fees (${ada(fee)} ADA) are worth more than what it yields (about ${ada(yields)} ADA ` +
    'at the market price): the swap would cost more than it returns; quote a larger amount.'
  );
}

/** The POSIX ms a pool opens for swaps at, from its datum (SundaeSwap V3 `market_open`); null when it sets none. */
function marketOpenMs(p: QuotablePool): number | null {
  if (p.doc.dex !== 'sundaeswap-v3') return null;
  const open = (p.state.extra as Partial<SundaeV3PoolExtra> | null)?.marketOpen;
  return typeof open === 'bigint' ? Number(open) : null;
}

/**
 * A sentence naming the pools on the routes that do not trade yet at `atMs` (the indexed tip's time), null when
 * every pool does. A SundaeSwap V3 pool's datum sets `market_open` (POSIX ms): its validator scoops no swap before
 * it (a token launch opens its pool at a set time), so an order placed on such a route waits until then, whatever
 * the route's output says it would pay.
 */
export function notOpenNote(routes: readonly RouteQuote[], atMs: number): string | null {
  const closed = new Map<number, { dex: string; openMs: number }>();
  for (const r of routes)
    for (const h of r.hops) {
      const openMs = marketOpenMs(h.pool);
      if (openMs !== null && openMs > atMs) closed.set(h.pool.doc.id, { dex: h.pool.doc.dex, openMs });
    }
  if (!closed.size) return null;
  // A datum may set any integer; past the dates JavaScript can print, the POSIX ms as the datum holds it.
  const when = (ms: number) => (ms <= 8.64e15 ? new Date(ms).toISOString() : `POSIX ms ${ms}`);
  const list = [...closed].map(([id, c]) => `pool ${id} (${c.dex}) opens for trading at ${when(c.openMs)}`);
  return `Not trading yet: ${list.join('; ')}; an order through it waits until then.`;
}

/**
 * A pool with nothing on one side: every liquidity withdrawn, or a closed pool (a SundaeSwap V3 pool UTxO holding only
 * its NFT and the ADA of its protocol fees). No amount buys anything from it.
 */
const drained = (p: PoolDoc): boolean => BigInt(p.reserveARaw) <= 0n || BigInt(p.reserveBRaw) <= 0n;

/**
 * Whether the quote can price a swap of `tokenIn` through `p` at all (a constant-product curve it can rebuild, with
 * something on both sides).
 */
function priceable(p: PoolDoc, tokenIn: string): boolean {
  const q = quotablePool(p);
  return !drained(p) && q !== null && q.adapter.amountOut(q.state, tokenIn, 1n) !== null;
}

/**
 * What a quote's routes leave unsaid, as a sentence (null when nothing is): why there is no route — no indexed pool
 * of the pair (nor ADA pools of both tokens), only pools whose curve is not quoted (stable or weighted: their
 * reserve ratio is not their price) or that hold no liquidity (emptied, closed), or an amount too small to buy one
 * base unit of tokenOut anywhere — and, beside routes, the pools of the pair the quote could not price (their price
 * may be better).
 */
export function quoteNote(
  tokenIn: string,
  tokenOut: string,
  poolsIn: readonly PoolDoc[],
  poolsOut: readonly PoolDoc[],
  routes: number,
  names: { in: string; out: string; amount: string },
): string | null {
  const direct = (tokenIn === LOVELACE ? poolsOut : poolsIn).filter((p) => pairOf(p, tokenIn, tokenOut));
  const empty = direct.filter(drained);
  const unquoted = direct.filter((p) => !drained(p) && !priceable(p, tokenIn));
  /** "pool 3 (dex) of this pair <one>" or "pools 3 (dex), 4 (dex) of this pair <many>". */
  const poolsThat = (ps: readonly PoolDoc[], one: string, many: string) =>
    `${ps.length === 1 ? 'pool' : 'pools'} ${ps.map((p) => `${p.id} (${p.dex})`).join(', ')} of this pair ${ps.length === 1 ? one : many}`;
  const notQuoted = poolsThat(
    unquoted,
    'is not constant-product (a stable or weighted curve) and is not quoted',
    'are not constant-product (stable or weighted curves) and are not quoted',
  );
  if (routes > 0) return unquoted.length ? `Beside these routes: the ${notQuoted}.` : null;
  const tokenPair = tokenIn !== LOVELACE && tokenOut !== LOVELACE;
  const legIn = tokenPair ? poolsIn.filter((p) => pairOf(p, LOVELACE, tokenIn)) : [];
  const legOut = tokenPair ? poolsOut.filter((p) => pairOf(p, LOVELACE, tokenOut)) : [];
  const viaAda = legIn.some((p) => priceable(p, tokenIn)) && legOut.some((p) => priceable(p, LOVELACE));
  if (direct.length === unquoted.length + empty.length && !viaAda) {
    const through = tokenPair ? ' (directly or through ADA)' : '';
    if (!direct.length) return `No route: no indexed pool trades ${names.in} for ${names.out}${through}.`;
    // An emptied pool pays nothing for any amount: "buys less than one base unit; quote a larger amount" sent the
    // trader after an amount that does not exist.
    const why = [
      ...(unquoted.length ? [`the ${notQuoted}`] : []),
      ...(empty.length
        ? [poolsThat(empty, 'holds no liquidity (emptied or closed)', 'hold no liquidity (emptied or closed)')]
        : []),
    ];
    return `No route: ${why.join('; ')}, and no other pool trades ${names.in} for ${names.out}${through}.`;
  }
  return `No route: ${names.amount} ${names.in} buys less than one base unit of ${names.out} on every route; quote a larger amount.`;
}

// ---- presentation ------------------------------------------------------------------------------------------------

const percent = (f: number) => Math.round(f * 1e8) / 1e6;

function presentRoute({ route: r, batcherFeeLovelace }: PricedRoute, assets: AssetBook) {
  const dec = (u: string) => assets.decimals(u);
  const first = r.hops[0] as HopQuote;
  const last = r.hops[r.hops.length - 1] as HopQuote;
  const amountOut = scaleInteger(String(r.amountOut), dec(last.tokenOut));
  return {
    hops: r.hops.map((h) => ({
      poolId: h.pool.doc.id,
      dex: h.pool.doc.dex,
      tokenIn: h.tokenIn,
      tokenOut: h.tokenOut,
      amountIn: scaleInteger(String(h.amountIn), dec(h.tokenIn)),
      amountOut: scaleInteger(String(h.amountOut), dec(h.tokenOut)),
      amountInRaw: String(h.amountIn),
      amountOutRaw: String(h.amountOut),
      priceImpact: h.priceImpact,
      feePercent: percent(h.fee),
      exact: h.pool.exact,
    })),
    amountOut,
    amountOutRaw: String(r.amountOut),
    // What the route pays per unit put in, fees and price impact included (amountIn > 0: a quote refuses less): the
    // exact quotient of the base units scaled by the decimals, not the quotient of the two rounded amounts above.
    effectivePrice: ratioNumber(
      r.amountOut * 10n ** BigInt(dec(first.tokenIn)),
      first.amountIn * 10n ** BigInt(dec(last.tokenOut)),
    ),
    priceImpact: r.priceImpact,
    fees: r.hops.map((h) => ({
      poolId: h.pool.doc.id,
      unit: h.tokenIn,
      amount: scaleInteger(String(h.feeRaw), dec(h.tokenIn)),
      amountRaw: String(h.feeRaw),
      percent: percent(h.fee),
    })),
    batcherFee: lovelaceToAdaOrNull(batcherFeeLovelace),
    batcherFeeLovelace: batcherFeeLovelace === null ? null : String(batcherFeeLovelace),
  };
}

/** Beyond this many digits an amount exceeds any quantity on chain (2^64 − 1 has 20); refused before any BigInt. */
const MAX_AMOUNT_DIGITS = 60;

/**
 * A decimal amount (as sent, or a number's text: `1.5`, `1e3`, `2.5E-3`) → base units, truncated to the token's
 * decimals, in integers only (no digit is lost to a float). Null when the text is not a decimal number or its
 * integer part has more than MAX_AMOUNT_DIGITS digits.
 */
export function toBaseUnits(amount: string, decimals: number): bigint | null {
  const m = /^\+?([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]{1,6}))?$/.exec(amount.trim());
  if (!m || (m[1] === '' && (m[2] ?? '') === '')) return null;
  const digits = (m[1] ?? '') + (m[2] ?? '');
  // Base units = digits × 10^shift: the exponent, the fraction's length and the token's decimals combined.
  const shift = Number(m[3] ?? 0) - (m[2] ?? '').length + decimals;
  const significant = digits.replace(/^0+/, '');
  if (significant.length + shift > MAX_AMOUNT_DIGITS) return null;
  if (shift >= 0) return BigInt(digits || '0') * 10n ** BigInt(shift);
  return -shift >= digits.length ? 0n : BigInt(digits.slice(0, digits.length + shift));
}

/** At most what exists of the input: 45 × 10^15 lovelace, a token's minted supply when the index saw its mint. */
const MAX_LOVELACE = 45_000_000_000_000_000n;

async function supplyBound(store: Store, unit: string): Promise<{ raw: bigint; what: string }> {
  if (unit === LOVELACE) return { raw: MAX_LOVELACE, what: 'the maximum ADA supply (45 billion ADA)' };
  const t = await store.collection(TOKENS).get(unit);
  if (t?.supplyFromMint === true) return { raw: BigInt(t.totalSupplyRaw), what: 'its minted supply' };
  return { raw: MAX_ASSET_QUANTITY, what: 'the largest quantity an output can hold (2^64 − 1 base units)' };
}

async function knownUnit(store: Store, unit: string): Promise<boolean> {
  if (unit === LOVELACE) return true;
  const [t, m] = await Promise.all([store.collection(TOKENS).get(unit), store.collection(TOKEN_META).get(unit)]);
  return t !== null || m !== null;
}

/** `amount` may be the decimal text as sent (REST keeps every digit) or a number (MCP). */
async function getSwapQuoteAnswer(
  deps: ReadDeps,
  input: Omit<RouteInput<typeof swapRoutes.quote>, 'amount'> & { amount: number | string },
) {
  const { store } = deps;
  const site = deps.config.SITE_URL;
  const tokenIn = input.in === LOVELACE ? LOVELACE : input.in.toLowerCase();
  const tokenOut = input.out === LOVELACE ? LOVELACE : input.out.toLowerCase();
  if (tokenIn === tokenOut) throw new BadRequestError('invalid parameters: in and out must differ');
  for (const u of [tokenIn, tokenOut])
    // Not known yet while the index is behind the chain (a first sync, a resync): the 404 says so.
    if (!(await knownUnit(store, u)))
      throw new NotFoundError(await notFoundWhileBehind(deps, `token ${u}`, `token ${u} not found`));
  const assets = await loadAssets(store, [tokenIn, tokenOut], site, logoMode(input));
  // The amount as sent when it is text (REST), so no digit is lost to a float.
  const sent = String(input.amount);
  const amountIn = toBaseUnits(sent, assets.decimals(tokenIn));
  const bound = await supplyBound(store, tokenIn);
  if (amountIn === null || amountIn > bound.raw)
    throw new BadRequestError(
      `invalid parameter amount: more ${assets.ref(tokenIn).displayName} than exists: at most ${decimalText(bound.raw, assets.decimals(tokenIn))}, ${bound.what}`,
    );
  if (amountIn <= 0n)
    throw new BadRequestError(
      `invalid parameter amount: below the smallest unit of ${assets.ref(tokenIn).displayName}`,
    );
  const [poolsIn, poolsOut, adaUsd, outStats, { tipMs }] = await Promise.all([
    tokenIn === LOVELACE ? Promise.resolve([]) : poolsOfUnit(store, tokenIn),
    tokenOut === LOVELACE ? Promise.resolve([]) : poolsOfUnit(store, tokenOut),
    currentAdaUsd(store),
    tokenOut === LOVELACE ? null : store.collection(TOKEN_STATS).get(tokenOut),
    storeClock(store),
  ]);
  // Every pool a route may take (the two tokens' pools), with its DEX's typical batcher fee.
  const poolIds = [...new Set([...poolsIn, ...poolsOut].map((p) => String(p.id)))];
  const poolStats = await store.collection(POOL_STATS).getMany(poolIds);
  const fees = new Map<number, bigint | null>(
    poolIds.map((id, i) => {
      const fee = poolStats[i]?.batcherFeeLovelace;
      return [Number(id), fee == null ? null : BigInt(fee)];
    }),
  );
  const known = [...fees.values()].filter((f): f is bigint => f !== null);
  const costs: RouteCosts = {
    feeOfPool: (id) => fees.get(id) ?? null,
    unknownFee: known.length ? known.reduce((a, b) => (a > b ? a : b)) : null,
    // Lovelace per base unit of tokenOut: its market price is ADA per whole token.
    lovelacePerOut:
      tokenOut === LOVELACE
        ? 1
        : outStats?.priceAda == null
          ? null
          : (outStats.priceAda * 1_000_000) / 10 ** assets.decimals(tokenOut),
  };
  const quoted = quoteRoutes(tokenIn, tokenOut, amountIn, poolsIn, poolsOut, costs);
  const ranked = rankByNetOutput(quoted, costs);
  const routes = ranked.map((r) => presentRoute(r, assets));
  const amount = scaleInteger(String(amountIn), assets.decimals(tokenIn));
  // The link carries the amount quoted as exact decimal text: the number above loses base units past 2^53 (and
  // prints tiny amounts as `1e-8`), so the page would open on a different trade than the one priced here.
  const exact = decimalText(amountIn, assets.decimals(tokenIn));
  const note = [
    quoteNote(tokenIn, tokenOut, poolsIn, poolsOut, routes.length, {
      in: assets.ref(tokenIn).displayName,
      out: assets.ref(tokenOut).displayName,
      amount: exact,
    }),
    feeNote(ranked[0] ?? null, costs.lovelacePerOut),
    notOpenNote(quoted, asOfMs(tipMs, (deps.now ?? Date.now)())),
  ]
    .filter((n): n is string => n !== null)
    .join(' ');
  const link = `${site}/swap?${new URLSearchParams({ in: tokenIn, out: tokenOut, amount: exact }).toString()}`;
  return {
    tokenIn: assets.ref(tokenIn),
    tokenOut: assets.ref(tokenOut),
    amountIn: amount,
    routes,
    best: routes[0] ?? null,
    note: note || null,
    adaUsd,
    link,
  };
}

export const getSwapQuote = withAsOf(getSwapQuoteAnswer);
