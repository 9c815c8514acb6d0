/**
 * ADA/USD from the chain (spec: prices derive from on-chain DEX pools). Now: the ADA/stablecoin pools' reserves,
 * TVL-weighted median over the deep pools of fiat-backed coins when there are any (one thin or off-peg pool cannot
 * move it; reference dex-nft-handles.md §6.1). History: the `adausd` candle series the
 * market sync keeps, the same estimator over the pools as each block left them (USD per ADA; stores synced before
 * it was hold the liquidity-weighted mean of the USDM, DJED and iUSD pools until the market collections are resynced).
 */
import { CANDLES, POOLS, poolStateAt, type CandleInterval, type PoolDoc } from './market.js';
import type { Store } from '../store.js';
import { perTipBlock } from './sync-state.js';
import { LOVELACE } from '../../cardano/token-metadata.js';
import { docSpotReserves } from '../../cardano/market.js';

/** USD stablecoins (reference dex-nft-handles.md §6.1): unit → decimals. */
export const USD_STABLECOINS: ReadonlyMap<string, number> = new Map([
  ['c48cbb3d5e57ed56e276bc45f99ab39abe94e6cd7ac39fb402da47ad0014df105553444d', 6], // USDM
  ['1f3aec8bfe7ea4fe14c5f121e2a92e301afe414147860d557cac7e345553444378', 6], // USDCx
  ['8db269c3ec630e06ae29f74bc39edd1f87c819f1056206e879a1cd61446a65644d6963726f555344', 6], // DJED
  ['f66d78b4a3cb3d37afa0ec36461e51ecbde00f26c8f0a68f94b6988069555344', 6], // iUSD
  ['fe7c786ab321f41c654ef6c1af7b3250a613c24e4213e0425a7ae45655534441', 6], // USDA
  ['92776616f1f32c65a173392e4410a3d8c39dcf6ef768c73af164779c4d79555344', 6], // MyUSD
  ['25c5de5f5b286073c593edfd77b48abc7a48e5a4f3d4cd9d428ff93555534443', 8], // wanUSDC
  ['25c5de5f5b286073c593edfd77b48abc7a48e5a4f3d4cd9d428ff93555534454', 8], // wanUSDT
]);

/**
 * The fiat-backed ones (redeemable 1:1 for dollars held in reserve): USDM, USDCx, wanUSDC, wanUSDT. DJED
 * (algorithmic, ADA collateral), iUSD (synthetic, CDP), USDA and MyUSD can trade off their peg for weeks, so the
 * rate uses them only when no fiat-backed coin has a pool deep enough (reference §6.1).
 */
const FIAT_BACKED_USD: ReadonlySet<string> = new Set([
  'c48cbb3d5e57ed56e276bc45f99ab39abe94e6cd7ac39fb402da47ad0014df105553444d',
  '1f3aec8bfe7ea4fe14c5f121e2a92e301afe414147860d557cac7e345553444378',
  '25c5de5f5b286073c593edfd77b48abc7a48e5a4f3d4cd9d428ff93555534443',
  '25c5de5f5b286073c593edfd77b48abc7a48e5a4f3d4cd9d428ff93555534454',
]);

/**
 * ADA reserve (whole ADA) below which an ADA/stablecoin pool is too thin to set the rate: 25,000 ADA a side, a TVL
 * of 50,000 ADA (reference §6.1), where a swap of a few hundred ADA moves the price by about 1 %. Thin pools count
 * only when no pool is this deep.
 */
export const MIN_ADA_USD_POOL_ADA = 25_000;

export const ADAUSD_SERIES = 'adausd';
/** The adausd series is USD per ADA (adaUsdFromPools), written as stablecoin base units (6) per lovelace. */
const ADAUSD_SERIES_DECIMALS = 6;

interface PoolRate {
  rate: number;
  /** The ADA reserve, whole ADA. */
  weight: number;
  fiatBacked: boolean;
}

/** USD per ADA of one ADA/stablecoin pool, with its weight (the ADA reserve); null for other pools. */
function poolAdaUsd(p: PoolDoc): PoolRate | null {
  const dec = USD_STABLECOINS.get(p.tokenB);
  if (p.tokenA !== LOVELACE || dec === undefined) return null;
  const ada = Number(p.reserveARaw) / 1e6;
  // The rate at the pool's spot price (a weighted pool's reserves scaled by its weights); the weight is its ADA.
  const spot = docSpotReserves(p);
  const rate = Number(spot.b) / 10 ** dec / (Number(spot.a) / 1e6);
  return ada > 0 && rate > 0 ? { rate, weight: ada, fiatBacked: FIAT_BACKED_USD.has(p.tokenB) } : null;
}

/**
 * The rate: the ADA-weighted median over the pools that set it. Those are the pools at least MIN_ADA_USD_POOL_ADA
 * deep (every pool when none is), and among them only the fiat-backed coins' when any is there. Null without any
 * ADA/stablecoin pool.
 */
export function adaUsdFromPools(pools: Iterable<PoolDoc>): number | null {
  const all = [...pools].map(poolAdaUsd).filter((r): r is PoolRate => r !== null);
  const deep = all.filter((r) => r.weight >= MIN_ADA_USD_POOL_ADA);
  const candidates = deep.length ? deep : all;
  const fiat = candidates.filter((r) => r.fiatBacked);
  const rates = fiat.length ? fiat : candidates;
  if (!rates.length) return null;
  rates.sort((a, b) => a.rate - b.rate);
  const half = rates.reduce((s, r) => s + r.weight, 0) / 2;
  let acc = 0;
  for (const r of rates) {
    acc += r.weight;
    if (acc >= half) return r.rate;
  }
  return (rates[rates.length - 1] as { rate: number }).rate;
}

/** USD per ADA of a raw adausd candle price. */
export const adaUsdOfRaw = (raw: number): number => (raw * 10 ** 6) / 10 ** ADAUSD_SERIES_DECIMALS;

/**
 * USD per ADA at `slot` by the estimator of the rate now (`adaUsdFromPools`): the
 * ADA/stablecoin pools among `pools` at their last state at or before `slot` (a pool without one did not exist
 * yet); null when none existed. A USD change must divide two rates of one estimator, read here from the pools' own
 * states at the window start (exact to the slot; the adausd series holds the same estimator per observation).
 */
export async function adaUsdAtSlot(store: Store, pools: readonly PoolDoc[], slot: number): Promise<number | null> {
  const stable = pools.filter((p) => p.tokenA === LOVELACE && USD_STABLECOINS.has(p.tokenB));
  const states = await Promise.all(stable.map((p) => poolStateAt(store, p.id, slot)));
  return adaUsdFromPools(
    stable.flatMap((p, i) => {
      const s = states[i];
      return s ? [{ ...p, reserveARaw: s.reserveARaw, reserveBRaw: s.reserveBRaw }] : [];
    }),
  );
}

/** Close of the newest candle of `series` (its last traded price), raw. */
export async function seriesLatestClose(
  store: Store,
  series: string,
  interval: CandleInterval,
): Promise<number | null> {
  const [c] = await store.collection(CANDLES).find('bySeries', { eq: [series, interval], reverse: true, limit: 1 });
  return c ? c.close : null;
}

/**
 * USD per ADA now, from the ADA/stablecoin pools (a few index reads, once per indexed block: pool reserves change
 * only with a block): the rate the REST answers use.
 */
export const currentAdaUsd = perTipBlock(async (store: Store): Promise<number | null> => {
  const pools = store.collection(POOLS);
  const found = await Promise.all([...USD_STABLECOINS.keys()].map((u) => pools.find('byTokenB', { eq: [u] })));
  return adaUsdFromPools(found.flat());
});

/**
 * ADA/USD at each of `timesMs` (trades' times): the close of the newest 1-minute adausd candle started before the
 * time's minute, i.e. the last rate observed by the end of the previous minute. Never a later rate: the close of a
 * coarser candle holding the time is the rate at the end of that candle (up to an hour after a trade, and moving
 * while that hour goes on). The sync writes every interval of each observation, so the 1-minute series reaches
 * as far back as the hourly one. One index read per distinct minute.
 */
export async function adaUsdHistory(store: Store, timesMs: readonly number[]): Promise<(ms: number) => number | null> {
  const coll = store.collection(CANDLES);
  const minuteOf = (ms: number) => Math.floor(ms / 60_000) * 60;
  const minutes = [...new Set(timesMs.map(minuteOf))];
  const found = await Promise.all(
    minutes.map((m) => coll.find('bySeries', { eq: [ADAUSD_SERIES, '1m'], lt: m, reverse: true, limit: 1 })),
  );
  const rates = new Map(minutes.map((m, i) => [m, found[i]?.[0] ? adaUsdOfRaw(found[i][0].close) : null]));
  return (ms) => rates.get(minuteOf(ms)) ?? null;
}
