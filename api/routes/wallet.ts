/**
 * Wallet (spec: Wallet): portfolio, DEX trades and FIFO profit and loss of an address or a stake key.
 *
 * Identity. A stake1… key combines every payment address that carries it (ADDRESSES byStake) for holdings; an
 * addr1… address is that address alone. Trades are attributed to a maker (mongo/collections/market.ts): the stake
 * address when the trading address has one, else the address, so an addr1… with a stake part answers the trades
 * and PnL of its whole stake key, like the market sync records them.
 *
 * PnL is a FIFO over the wallet's complete ADA-side trades (activities/pnl/wallet.ts). The `pnl` recompute stores it
 * every 10 minutes for the wallets that traded in the last 24 h (wallet_pnl); that answer is served while it covers
 * the wallet's trades (activities/pnl/precompute.ts storedWalletPnl), otherwise it is computed on demand and cached
 * in process (activities/pnl/cache.ts: key = wallet, last trade id, checkpoint height / 10; TTL 5 min). Its lower
 * rate limit is applied by the access layer for this path.
 */
import Router from '@koa/router';
import { TtlLru, pnlCacheKey } from '../../activities/pnl/cache.js';
import { storedWalletPnl, type PnlAnswer } from '../../activities/pnl/precompute.js';
import { computeWalletPnl } from '../../activities/pnl/wallet.js';
import { storeClock } from '../../mongo/collections/clock.js';
import { stakeAddressOf } from '../../cardano/address.js';
import { ADDRESSES, type AddressDoc } from '../../mongo/collections/chain.js';
import { TOKEN_STATS, type TokenStatsDoc } from '../../mongo/collections/market-read.js';
import { TRADES, type TradeDoc } from '../../mongo/collections/market.js';
import type { Store } from '../../mongo/store.js';
import type { ApiDeps } from '../deps.js';
import { NotFoundError } from '../errors.js';
import { loadAssets } from '../present/market.js';
import { presentPnl, presentPortfolio, sumHoldings } from '../present/wallet.js';
import { defineRoute, register, type AnyRouteSpec, type CommonQuery, type RestModule } from '../route.js';
import { CursorQuery, TradesResponse } from '../schemas/market.js';
import { handlesHeldBy } from '../../mongo/collections/handles-read.js';
import { addressParam, withHandle, type HandleRefBody } from './handles.js';
import { WalletParams, WalletPnlResponse, WalletResponse } from '../schemas/wallet.js';
import { parseForNetwork } from './explorer.js';
import { currentAdaUsd } from '../../mongo/collections/ada-usd.js';
import { logoMode, tradesPage } from './tokens.js';

const TAGS = ['Wallet'];
/** Addresses of one stake key summed into a portfolio; beyond it the answer says `complete: false`. */
export const WALLET_ADDRESS_LIMIT = 1000;

export const walletRoutes = {
  portfolio: defineRoute<{ address: string }>({
    operationId: 'getWallet',
    path: '/wallet/{address}',
    summary: 'Wallet portfolio: ADA balance and token positions valued in ADA and USD',
    description: `An addr1… address alone, or a stake1… key with all its addresses combined (up to ${WALLET_ADDRESS_LIMIT}). Positions are the token balances of the UTxO set, decimal-adjusted, valued at the current price (ADA per whole token) and ADA/USD; sorted by valueAda descending, unpriced last.`,
    tags: TAGS,
    params: WalletParams,
    response: WalletResponse,
  }),
  trades: defineRoute<{ address: string }, CommonQuery & { limit: number; cursor?: string }>({
    operationId: 'getWalletTrades',
    path: '/wallet/{address}/trades',
    summary: 'DEX trades made by a wallet, newest first',
    description:
      'Trades are attributed to the stake key of the trading address when it has one (so an addr1… with a stake part lists the trades of its whole stake key), else to the address.',
    tags: TAGS,
    params: WalletParams,
    query: CursorQuery,
    response: TradesResponse,
  }),
  pnl: defineRoute<{ address: string }>({
    operationId: 'getWalletPnl',
    path: '/wallet/{address}/pnl',
    summary: 'Realised and unrealised profit and loss of a wallet (FIFO, ADA and USD)',
    description:
      'FIFO over the wallet’s complete trades with ADA on one side, since coverageFrom (the first indexed block). Sells beyond known buys are reported apart (unmatched) and not counted as profit; token/token swaps are skipped. USD uses ADA/USD at each trade’s time (null when unknown). Heavy: a lower rate limit applies. Wallets that traded in the last 24 h are precomputed every 10 minutes; other answers are computed on demand and cached for about ten blocks. `computedAt` says when, `precomputed` which.',
    tags: TAGS,
    params: WalletParams,
    response: WalletPnlResponse,
  }),
} satisfies Record<string, AnyRouteSpec>;

/** A resolved wallet path parameter. */
export interface WalletKey {
  address: string;
  isStake: boolean;
  stakeAddress: string | null;
  /** The key its trades are recorded under (TRADES.maker). */
  maker: string;
}

export function walletKey(address: string, network: 'mainnet' | 'testnet'): WalletKey {
  const parsed = parseForNetwork(address, network);
  const isStake = parsed.kind === 'reward';
  const stakeAddress = isStake ? address : stakeAddressOf(address);
  return { address, isStake, stakeAddress, maker: stakeAddress ?? address };
}

/**
 * The `{address}` path parameter as the wallet to query: an addr1…/stake1… as given, or an ADA Handle ($name,
 * sub@root) resolved to its stake key (its address when that has none; 400 malformed, 404 not held). `handle` is
 * echoed in the answer.
 */
export async function walletParam(
  store: Store,
  param: string,
  network: 'mainnet' | 'testnet',
): Promise<WalletKey & { handle: HandleRefBody | null }> {
  const { address, handle } = await addressParam(store, param);
  return { ...walletKey(address, network), handle };
}

/** The wallet's address documents: all of a stake key (bounded), or the one address. */
async function walletAddresses(store: Store, w: WalletKey): Promise<{ docs: AddressDoc[]; count: number }> {
  const coll = store.collection(ADDRESSES);
  if (!w.isStake) {
    const doc = await coll.get(w.address);
    return { docs: doc ? [doc] : [], count: doc ? 1 : 0 };
  }
  const q = { eq: [w.address] };
  const [docs, count] = await Promise.all([
    coll.find('byStake', { ...q, limit: WALLET_ADDRESS_LIMIT }),
    coll.count('byStake', q),
  ]);
  return { docs, count };
}

async function lastTradeOf(store: Store, maker: string): Promise<TradeDoc | null> {
  const [last] = await store.collection(TRADES).find('byMaker', { eq: [maker], reverse: true, limit: 1 });
  return last ?? null;
}

/** 404 unless the wallet holds or held something in the index or traded. */
async function assertSeen(store: Store, w: WalletKey): Promise<void> {
  const coll = store.collection(ADDRESSES);
  const seen = w.isStake
    ? (await coll.find('byStake', { eq: [w.address], limit: 1 })).length > 0
    : (await coll.get(w.address)) !== null;
  if (!seen && !(await lastTradeOf(store, w.maker)))
    throw new NotFoundError(`wallet ${w.address} not found (no activity in the indexed range)`);
}

export function walletRouter(deps: ApiDeps): Router {
  const { store } = deps;
  const site = deps.config.SITE_URL;
  const network = deps.config.CARDANO_NETWORK;
  const router = new Router();
  const pnlCache = new TtlLru<PnlAnswer>(1000, 5 * 60_000, deps.now ?? Date.now);

  register(router, walletRoutes.portfolio, async (_ctx, { params, query }) => {
    const w = await walletParam(store, params.address, network);
    const [{ docs, count }, adaUsd, { clock, checkpoint }, handles] = await Promise.all([
      walletAddresses(store, w),
      currentAdaUsd(store),
      storeClock(store),
      handlesHeldBy(store, w.address),
    ]);
    if (count === 0) throw new NotFoundError(`wallet ${w.address} not found (no activity in the indexed range)`);
    const holdings = sumHoldings(docs);
    const units = [...holdings.assets.keys()];
    const [assets, stats] = await Promise.all([
      loadAssets(store, units, site, logoMode(query)),
      store.collection(TOKEN_STATS).getMany(units),
    ]);
    const body = presentPortfolio(
      {
        address: w.address,
        stakeAddress: w.stakeAddress,
        addressCount: count,
        complete: docs.length === count,
        holdings,
        stats: new Map(stats.filter((s): s is TokenStatsDoc => s !== null).map((s) => [s._id, s])),
        adaUsd,
        asOf: checkpoint ? clock.iso(checkpoint.slot) : null,
      },
      assets,
    );
    const names = handles.map((h) => `$${h.handle}`).sort();
    return withHandle({ ...body, handles: names }, w.handle);
  });

  register(router, walletRoutes.trades, async (_ctx, { params, query }) => {
    const w = await walletParam(store, params.address, network);
    const page = await tradesPage(
      store,
      { index: 'byMaker', maker: w.maker },
      query.limit,
      query.cursor,
      site,
      logoMode(query),
    );
    // An empty page of a wallet never seen is its 404, on any page (a cursor names a trade, not a wallet).
    if (page.items.length === 0) await assertSeen(store, w);
    return withHandle(page, w.handle);
  });

  register(router, walletRoutes.pnl, async (_ctx, { params, query }) => {
    const w = await walletParam(store, params.address, network);
    const [last, { checkpoint }] = await Promise.all([lastTradeOf(store, w.maker), storeClock(store)]);
    if (!last) await assertSeen(store, w);
    // The `pnl` recompute's answer while it covers the wallet's trades; otherwise on demand, cached.
    const nowMs = (deps.now ?? Date.now)();
    const stored = await storedWalletPnl(store, w.maker, last, nowMs);
    const key = pnlCacheKey(w.maker, last?.id ?? null, checkpoint?.height ?? null);
    let result: PnlAnswer | undefined = stored ? { ...stored, precomputed: true } : pnlCache.get(key);
    if (!result) {
      const computed = await computeWalletPnl(store, w.maker);
      result = { ...computed, computedAt: new Date(nowMs).toISOString(), precomputed: false };
      pnlCache.set(key, result);
    }
    const assets = await loadAssets(
      store,
      result.pnl.tokens.map((t) => t.unit),
      site,
      logoMode(query),
    );
    const body = presentPnl({ address: w.address, maker: w.maker }, result.pnl, result.skipped, assets);
    return withHandle({ ...body, computedAt: result.computedAt, precomputed: result.precomputed }, w.handle);
  });

  return router;
}

export const walletModule: RestModule = { routes: Object.values(walletRoutes), router: walletRouter };
