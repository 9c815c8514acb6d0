/**
 * Market documents → REST answers. Loading is batched (one getMany per collection for all units of an answer);
 * presenting is pure. Raw integers become the spec's units here: whole ADA, decimal-adjusted token amounts, and
 * prices decimal-adjusted from raw (tokenA base units per tokenB base unit × 10^decB / 10^decA).
 */
import {
  ADA_METADATA,
  LOVELACE,
  displayName,
  tokenMetadata,
  type TokenMetadata,
} from '../../cardano/token-metadata.js';
import type { SlotClock } from '../../mongo/collections/clock.js';
import type { PoolStatsDoc, TokenStatsDoc } from '../../mongo/collections/market-read.js';
import { LOGOS, TOKENS, TOKEN_META, logoVersion, type PoolDoc, type TradeDoc } from '../../mongo/collections/market.js';
import type { Store } from '../../mongo/store.js';
import { lovelaceToAda, lovelaceToAdaOrNull, scaleInteger } from '../../cardano/units.js';
import { docSpotReserves, shownTvlLovelace } from '../../cardano/market.js';
import { priceOfLeg } from '../../cardano/trades.js';

/** `data` (default): logo carries the image as a data URI; `url`: logo carries logoUrl (spec: logos=url). */
export type LogoMode = 'data' | 'url';

export interface AssetRef {
  unit: string;
  policyId: string;
  nameHex: string;
  name: string | null;
  ticker: string | null;
  decimals: number;
  logo: string | null;
  logoUrl: string | null;
  displayName: string;
}

export const logoPath = (unit: string) => `/api/v1/assets/${unit}/logo`;

export function presentAsset(m: TokenMetadata, siteUrl: string, mode: LogoMode, dataUri: string | null): AssetRef {
  const served = m.storedLogo || m.inlineLogo !== null;
  const logoUrl = served ? `${siteUrl}${logoPath(m.unit)}` : m.externalLogo;
  const logo = mode === 'url' ? logoUrl : (dataUri ?? m.inlineLogo ?? m.externalLogo ?? logoUrl);
  return {
    unit: m.unit,
    policyId: m.policyId,
    nameHex: m.nameHex,
    name: m.name,
    ticker: m.ticker,
    decimals: m.decimals,
    logo,
    logoUrl,
    displayName: displayName(m),
  };
}

/** Metadata and AssetRefs of a set of units, loaded together. */
export interface AssetBook {
  meta(unit: string): TokenMetadata;
  ref(unit: string): AssetRef;
  decimals(unit: string): number;
}

/**
 * Data URIs of stored logos, by unit, with the logo version they were built from: a page of 100 tokens would
 * otherwise read and decode ~0.7 MB of images per request. Reused only while the token's metadata names the same
 * version (the registry import rewrites both), so a changed logo is read again at once. Bounded in characters.
 */
const dataUriCache = new Map<string, { version: string; uri: string }>();
const DATA_URI_CACHE_CHARS = 16 * 1024 * 1024;
let dataUriChars = 0;
function rememberDataUri(unit: string, version: string, uri: string): void {
  const old = dataUriCache.get(unit);
  if (old) dataUriChars -= old.uri.length;
  dataUriCache.delete(unit);
  dataUriCache.set(unit, { version, uri });
  dataUriChars += uri.length;
  for (const [u, e] of dataUriCache) {
    if (dataUriChars <= DATA_URI_CACHE_CHARS) break;
    dataUriCache.delete(u);
    dataUriChars -= e.uri.length;
  }
}

export async function loadAssets(
  store: Store,
  units: Iterable<string>,
  siteUrl: string,
  mode: LogoMode,
): Promise<AssetBook> {
  const list = [...new Set(units)].filter((u) => u !== LOVELACE);
  const [metas, tokens] = await Promise.all([
    store.collection(TOKEN_META).getMany(list),
    store.collection(TOKENS).getMany(list),
  ]);
  const meta = new Map<string, TokenMetadata>([[LOVELACE, ADA_METADATA]]);
  list.forEach((u, i) => meta.set(u, tokenMetadata(u, metas[i] ?? null, tokens[i] ?? null)));
  const dataUris = new Map<string, string>();
  if (mode === 'data') {
    const versions = new Map(list.map((u, i) => [u, metas[i]?.logoVersion]));
    const unread: string[] = [];
    for (const u of list) {
      if (!meta.get(u)?.storedLogo) continue;
      const known = dataUriCache.get(u);
      if (known && known.version === versions.get(u)) dataUris.set(u, known.uri);
      else unread.push(u);
    }
    const logos = await store.collection(LOGOS).getMany(unread);
    for (const l of logos) {
      if (!l) continue;
      const uri = `data:${l.contentType};base64,${l.base64}`;
      dataUris.set(l._id, uri);
      if (logoVersion(l) === versions.get(l._id)) rememberDataUri(l._id, logoVersion(l), uri);
    }
  }
  const refs = new Map<string, AssetRef>();
  const metaOf = (u: string) => meta.get(u) ?? tokenMetadata(u, null, null);
  return {
    meta: metaOf,
    decimals: (u) => metaOf(u).decimals,
    ref(u) {
      let r = refs.get(u);
      if (!r) {
        r = presentAsset(metaOf(u), siteUrl, mode, dataUris.get(u) ?? null);
        refs.set(u, r);
      }
      return r;
    },
  };
}

/**
 * Decimals of a token for other answers (ApiDeps.tokenDecimals): registry, else CIP-68, else 0. `many` reads the
 * units of one answer together (two batched reads instead of two per unit: a wallet holding 20 tokens).
 */
export function tokenDecimalsLookup(store: Store): DecimalsLookup {
  const one = async (unit: string) => (await many([unit])).get(unit) ?? 0;
  const many = async (units: readonly string[]) => {
    const list = units.filter((u) => u !== LOVELACE);
    const [metas, tokens] = await Promise.all([
      store.collection(TOKEN_META).getMany(list),
      store.collection(TOKENS).getMany(list),
    ]);
    const out = new Map<string, number>(units.includes(LOVELACE) ? [[LOVELACE, 6]] : []);
    list.forEach((u, i) => out.set(u, tokenMetadata(u, metas[i] ?? null, tokens[i] ?? null).decimals));
    return out;
  };
  return Object.assign(one, { many });
}

/** ApiDeps.tokenDecimals, optionally with a batched form. */
export type DecimalsLookup = ((unit: string) => Promise<number>) & {
  many?: (units: readonly string[]) => Promise<Map<string, number>>;
};

/** TokenStats as answered (the ranking helpers stay internal). */
export function presentStats(s: TokenStatsDoc) {
  const {
    _id: _unit,
    primaryPoolId: _primary,
    fdvAda: _fdvAda,
    holdersCapped: _capped,
    search: _search,
    fingerprint: _fingerprint,
    ...stats
  } = s;
  return stats;
}

export function presentTokenRow(s: TokenStatsDoc, assets: AssetBook) {
  return { asset: assets.ref(s._id), stats: presentStats(s), primaryPoolId: s.primaryPoolId };
}

/** Decimal-adjusted spot price of tokenB in tokenA from raw reserves (a weighted pool's: with its weights). */
export function poolPrice(p: PoolDoc, assets: AssetBook): number | null {
  const spot = docSpotReserves(p);
  const a = scaleInteger(String(spot.a), assets.decimals(p.tokenA));
  const b = scaleInteger(String(spot.b), assets.decimals(p.tokenB));
  return a > 0 && b > 0 ? a / b : null;
}

const percent = (fraction: number | null | undefined) =>
  fraction === null || fraction === undefined || !Number.isFinite(fraction) ? null : Math.round(fraction * 1e8) / 1e6;

export function presentPool(p: PoolDoc, assets: AssetBook, stats: PoolStatsDoc | null, clock: SlotClock) {
  // An ADA pool's own; a token/token pool's through its tokens' ADA prices (null when neither has an ADA pool).
  const tvl = shownTvlLovelace(p, stats);
  return {
    id: p.id,
    dex: p.dex,
    identifier: p.identifier,
    address: p.address,
    tokenA: assets.ref(p.tokenA),
    tokenB: assets.ref(p.tokenB),
    reserveA: scaleInteger(p.reserveARaw, assets.decimals(p.tokenA)),
    reserveB: scaleInteger(p.reserveBRaw, assets.decimals(p.tokenB)),
    reserveARaw: p.reserveARaw,
    reserveBRaw: p.reserveBRaw,
    tvlAda: tvl === null ? null : lovelaceToAda(String(tvl)),
    price: poolPrice(p, assets),
    feePercent: percent(p.feeAToB),
    feePercentBToA: percent(p.feeBToA),
    lpToken: p.lpToken,
    lpIssuedRaw: p.totalLpRaw,
    createdTime: clock.iso(p.createdSlot),
    createdExact: p.createdExact,
    lastStateTime: clock.iso(p.lastStateSlot),
    volume24h: stats?.volume24h ?? 0,
    txns24h: stats?.txns24h ?? 0,
    // The 24 h figures are the market recompute's (every 20 s), their window ending at the indexed tip that run saw;
    // null until a run has seen the pool (both figures 0 meanwhile).
    statsUpdatedAt: stats?.updatedAt ?? null,
  };
}

/** ADA price of a raw trade price (lovelace per token base unit). */
export const rawToAdaPrice = (raw: number, decimals: number) => (raw * 10 ** decimals) / 1e6;

/**
 * A trade as a list shows it. `listed`: the token whose list it is. A token/token trade is stored under the token
 * bought (`token`, its price `priceRaw`); in the sold token's list it is that token's sell, at the price the trade
 * implies for it (the same ADA value over the amount sold, as its candle point: activities/market/apply.ts), and in
 * the bought token's list its buy. Pool and wallet lists show the trade as stored (side null: no ADA side).
 */
export function presentTrade(
  t: TradeDoc,
  assets: AssetBook,
  clock: SlotClock,
  adaUsdAt: (timeMs: number) => number | null,
  listed?: string,
) {
  const timeMs = clock.slotToMs(t.slot);
  const valueAda = lovelaceToAdaOrNull(t.valueLovelace);
  // A completed trade carries the rate of its point of the chain, the one its wallet's PnL costs it at.
  const rate = valueAda === null ? null : t.adaUsd !== undefined ? t.adaUsd : adaUsdAt(timeMs);
  const tokenToken = t.side === null && listed !== undefined;
  const sold = tokenToken && listed === t.tokenIn && listed !== t.token;
  const priceRaw = sold
    ? priceOfLeg(
        t.valueLovelace === null ? null : { lovelace: BigInt(t.valueLovelace), tokenRaw: BigInt(t.amountInRaw) },
      )
    : t.priceRaw;
  return {
    id: t.id,
    poolId: t.poolId,
    dex: t.dex,
    txHash: t.txHash,
    time: new Date(timeMs).toISOString(),
    status: t.status,
    side: tokenToken ? (sold ? 'sell' : 'buy') : t.side,
    tokenIn: assets.ref(t.tokenIn),
    tokenOut: assets.ref(t.tokenOut),
    amountIn: scaleInteger(t.amountInRaw, assets.decimals(t.tokenIn)),
    amountOut: t.amountOutRaw === null ? null : scaleInteger(t.amountOutRaw, assets.decimals(t.tokenOut)),
    amountInRaw: t.amountInRaw,
    amountOutRaw: t.amountOutRaw,
    priceAda: priceRaw === null ? null : rawToAdaPrice(priceRaw, assets.decimals(sold ? t.tokenIn : t.token)),
    valueAda,
    valueUsd: valueAda !== null && rate !== null ? valueAda * rate : null,
    batcherFee: lovelaceToAdaOrNull(t.batcherFeeLovelace),
    batcherFeeLovelace: t.batcherFeeLovelace ?? null,
    maker: t.maker,
    makerAddress: t.makerAddress,
  };
}
