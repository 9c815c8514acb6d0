/**
 * Read functions of wallet (REST, MCP and Markdown present their results).
 */
import { valueFifo } from '../../cardano/pnl/fifo.js';
import { fifoOfDoc } from '../../cardano/pnl/stored.js';
import { firstIndexedBlock } from '../../mongo/collections/chain.js';
import { walletLots, walletPnlPoints } from '../../mongo/collections/pnl.js';
import { storeClock } from '../../mongo/collections/clock.js';
import { stakeAddressOf } from '../../cardano/address.js';
import { ADDRESSES, STAKE_ACCOUNTS, STAKE_SUMMARIES, addressesOfStake } from '../../mongo/collections/chain.js';
import { stakeAccountOf } from './stake-account.js';
import { delegationOf, type Delegation, type RewardBalance } from '../present/chain.js';
import { POOL_STATS, TOKEN_STATS, type TokenStatsDoc } from '../../mongo/collections/market-read.js';
import { NFT_ASSETS, NFT_COLLECTION_STATS, NFT_COLLECTIONS, type NftAssetDoc } from '../../mongo/collections/nft.js';
import { poolsByLpToken, tradesNewestFirst, type TradeDoc } from '../../mongo/collections/market.js';
import { shownTvlLovelace } from '../../cardano/market.js';
import type { Store } from '../../mongo/store.js';
import { AppError, NotFoundError } from '../errors.js';
import { loadAssets } from '../present/market.js';
import {
  presentPnl,
  presentPortfolio,
  sumHoldings,
  type Holdings,
  type LpPool,
  type WalletNft,
} from '../present/wallet.js';
import { handlesHeldBy, handlesHeldCount } from '../../mongo/collections/handles-read.js';
import { addressParam, withHandle, type HandleRefBody } from './handles.js';
import { parseForNetwork } from './explorer.js';
import { currentAdaUsd } from '../../mongo/collections/ada-usd.js';
import { logoMode, tradesPage } from './tokens.js';
import type { walletRoutes } from '../routes/wallet.js';
import type { ReadDeps, RouteInput } from './deps.js';
import { notIndexedYet, withAsOf } from './freshness.js';

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

/**
 * What the wallet holds in unspent outputs and over how many addresses: a stake key's totals are the one aggregate
 * the sync keeps for it (STAKE_SUMMARIES), an address's its own summary.
 */
async function walletHoldings(store: Store, w: WalletKey): Promise<{ holdings: Holdings; count: number }> {
  if (!w.isStake) {
    const doc = await store.collection(ADDRESSES).get(w.address);
    return { holdings: sumHoldings(doc ? [doc] : []), count: doc ? 1 : 0 };
  }
  const summary = await store.collection(STAKE_SUMMARIES).get(w.address);
  if (summary) return { holdings: sumHoldings([summary]), count: summary.addressCount };
  // Every address the sync creates writes its key's summary: addresses without one come from an older build.
  if ((await addressesOfStake(store, w.address, 1)).length > 0)
    throw new AppError(
      503,
      'stake key totals are missing: this store was synced before stake_summaries existed; resync it (npm run ops -- resync --from origin)',
    );
  return { holdings: sumHoldings([]), count: 0 };
}

/**
 * The unwithdrawn rewards and the delegations of a stake-key wallet (stakeAccountOf), as the ledger holds them.
 * null for a payment address: they belong to the key, which `stakeAddress` names, and summing the portfolios of a
 * key's addresses must not count the rewards once per address.
 */
async function walletStake(
  store: Store,
  w: WalletKey,
): Promise<{ rewards: RewardBalance | null; delegation: Delegation | null; registered: boolean }> {
  if (!w.isStake) return { rewards: null, delegation: null, registered: false };
  const { account, rewards } = await stakeAccountOf(store, w.address);
  // A key with an account (a registration certificate indexed) exists on chain even when no payment address carries
  // it: a stake pool's reward account often is one, holding nothing but its rewards.
  return { rewards, delegation: delegationOf(account), registered: account !== null };
}

async function lastTradeOf(store: Store, maker: string): Promise<TradeDoc | null> {
  const [last] = await tradesNewestFirst(store, { maker }, 1);
  return last ?? null;
}

/**
 * The 404 of a wallet without indexed activity. While the index catches up with the chain (a first sync, a resync)
 * its activity may lie above the indexed height, and on a store started after origin before the indexed history:
 * the message says so (notIndexedYet), as the explorer's answer for the same address does; at the tip of a chain
 * indexed from origin it is a plain "no activity".
 */
async function walletNotFound(deps: Pick<ReadDeps, 'store' | 'now'>, w: WalletKey): Promise<NotFoundError> {
  const what = `wallet ${w.address}`;
  const hedged = await notIndexedYet(deps, what);
  return new NotFoundError(
    hedged === `${what} not found` ? `${what} not found (no activity in the indexed range)` : hedged,
  );
}

/** 404 unless the wallet holds or held something in the index, traded, or is a stake key with an account. */
async function assertSeen(deps: Pick<ReadDeps, 'store' | 'now'>, w: WalletKey): Promise<void> {
  const { store } = deps;
  const coll = store.collection(ADDRESSES);
  const seen = w.isStake
    ? (await addressesOfStake(store, w.address, 1)).length > 0 ||
      (await store.collection(STAKE_ACCOUNTS).get(w.address)) !== null
    : (await coll.get(w.address)) !== null;
  if (!seen && !(await lastTradeOf(store, w.maker))) throw await walletNotFound(deps, w);
}

/**
 * The pools of the LP tokens among `units` (tokens without a market price), with what values a share of each. A pool
 * output of Minswap V2, WingRiders V2 or Splash holds its own LP tokens not issued yet (minted once, up to 2^63 − 1,
 * and paid out on deposits): when the wallet holds the pool's output (its address, or the stake key the DEX's pool
 * addresses carry), what its address holds of the LP token is that supply, no claim on the pool.
 */
async function lpPoolsOf(store: Store, units: readonly string[], w: WalletKey): Promise<Map<string, LpPool>> {
  const pools = [...(await poolsByLpToken(store, units))];
  const own = (address: string) => (w.isStake ? stakeAddressOf(address) === w.address : address === w.address);
  const poolAddresses = [...new Set(pools.map(([, p]) => p.address).filter(own))];
  const [stats, addresses] = await Promise.all([
    store.collection(POOL_STATS).getMany(pools.map(([, p]) => String(p.id))),
    store.collection(ADDRESSES).getMany(poolAddresses),
  ]);
  const atPool = new Map(poolAddresses.map((a, i) => [a, addresses[i]?.balance.assets ?? {}]));
  return new Map(
    pools.map(([unit, p], i) => [
      unit,
      {
        poolId: p.id,
        dex: p.dex,
        totalLpRaw: BigInt(p.totalLpRaw ?? 0),
        tvlLovelace: shownTvlLovelace(p, stats[i] ?? null),
        unissuedRaw: BigInt(atPool.get(p.address)?.[unit] ?? 0),
      },
    ]),
  );
}

/**
 * The NFTs among `units` (tokens without a market price or pool) with their collection and its floor: the NFT index
 * names them (mint metadata) and the `nft` recompute keeps each collection's floor (cheapest active single-NFT
 * listing). A unit once minted beyond quantity 1 is a fungible token, not an NFT.
 */
async function nftsOf(store: Store, units: readonly string[]): Promise<Map<string, WalletNft>> {
  const docs = (await store.collection(NFT_ASSETS).getMany(units)).filter(
    (d): d is NftAssetDoc => d !== null && !d.fungible,
  );
  const policies = [...new Set(docs.map((d) => d.policyId))];
  const [collections, stats] = await Promise.all([
    store.collection(NFT_COLLECTIONS).getMany(policies),
    store.collection(NFT_COLLECTION_STATS).getMany(policies),
  ]);
  const names = new Map(policies.map((p, i) => [p, collections[i]?.name ?? stats[i]?.name ?? null]));
  const floors = new Map(policies.map((p, i) => [p, stats[i]?.floorLovelace ?? null]));
  return new Map(
    docs.map((d) => [
      d.unit,
      {
        name: d.name,
        image: d.image,
        policyId: d.policyId,
        collection: names.get(d.policyId) ?? null,
        floorLovelace: floors.get(d.policyId) ?? null,
      },
    ]),
  );
}

async function getWalletAnswer(deps: ReadDeps, input: RouteInput<typeof walletRoutes.portfolio>) {
  const { store } = deps;
  const site = deps.config.SITE_URL;
  const network = deps.config.CARDANO_NETWORK;
  const w = await walletParam(store, input.address, network);
  const [{ holdings, count }, adaUsd, { clock, checkpoint }, handles, handlesTotal] = await Promise.all([
    walletHoldings(store, w),
    currentAdaUsd(store),
    storeClock(store),
    handlesHeldBy(store, w.address),
    handlesHeldCount(store, w.address),
  ]);
  const { rewards, delegation, registered } = await walletStake(store, w);
  if (count === 0 && !registered) throw await walletNotFound(deps, w);
  const units = [...holdings.assets.keys()];
  const [assets, stats] = await Promise.all([
    loadAssets(store, units, site, logoMode(input)),
    store.collection(TOKEN_STATS).getMany(units),
  ]);
  const unpriced = units.filter((_, i) => stats[i]?.priceAda == null);
  const [lp, nfts] = await Promise.all([lpPoolsOf(store, unpriced, w), nftsOf(store, unpriced)]);
  const body = presentPortfolio(
    {
      address: w.address,
      stakeAddress: w.stakeAddress,
      addressCount: count,
      complete: true,
      holdings,
      rewards,
      delegation,
      stats: new Map(stats.filter((s): s is TokenStatsDoc => s !== null).map((s) => [s._id, s])),
      lp,
      nfts,
      adaUsd,
      asOf: checkpoint ? clock.iso(checkpoint.slot) : null,
    },
    assets,
  );
  const names = handles.map((h) => `$${h.handle}`).sort();
  return withHandle({ ...body, handles: names, handlesTotal }, w.handle);
}

async function getWalletTradesAnswer(deps: ReadDeps, input: RouteInput<typeof walletRoutes.trades>) {
  const { store } = deps;
  const site = deps.config.SITE_URL;
  const network = deps.config.CARDANO_NETWORK;
  const w = await walletParam(store, input.address, network);
  const page = await tradesPage(store, { maker: w.maker }, input.limit, input.cursor, site, logoMode(input));
  // An empty page of a wallet never seen is its 404, on any page (a cursor names a trade, not a wallet).
  if (page.items.length === 0) await assertSeen(deps, w);
  return withHandle(page, w.handle);
}

/**
 * The wallet's FIFO state and its series points, kept by the market sync as its trades land
 * (mongo/collections/pnl.ts), valued at the current prices of its tokens (token_stats) and ADA/USD
 * (cardano/pnl/fifo.ts valueFifo).
 */
async function getWalletPnlAnswer(deps: ReadDeps, input: RouteInput<typeof walletRoutes.pnl>) {
  const { store } = deps;
  const site = deps.config.SITE_URL;
  const now = deps.now ?? Date.now;
  const network = deps.config.CARDANO_NETWORK;
  const w = await walletParam(store, input.address, network);
  const [doc, points, adaUsdNow, first, { clock, checkpoint }, { holdings }] = await Promise.all([
    walletLots(store, w.maker),
    walletPnlPoints(store, w.maker),
    currentAdaUsd(store),
    firstIndexedBlock(store),
    storeClock(store),
    // What the maker holds now: its trades are recorded under its stake key when it has one, so a payment
    // address's lots are those of its whole key and are measured against the key's balance.
    walletHoldings(store, w.stakeAddress ? walletKey(w.stakeAddress, network) : w),
  ]);
  if (!doc) await assertSeen(deps, w);
  // An older store's points still in the wallet's document come first (mongo/collections/pnl.ts).
  const fifo = { ...fifoOfDoc(doc), series: [...(doc?.series ?? []), ...points] };
  const units = fifo.tokens.map((t) => t.unit);
  const [assets, stats] = await Promise.all([
    loadAssets(store, units, site, logoMode(input)),
    store.collection(TOKEN_STATS).getMany(units),
  ]);
  const prices = new Map(units.map((u, i) => [u, stats[i]?.priceAda ?? null]));
  const pnl = valueFifo(
    fifo,
    {
      priceAda: (u) => prices.get(u) ?? null,
      adaUsdNow,
      decimals: (u) => assets.decimals(u),
      heldRaw: (u) => holdings.assets.get(u) ?? 0n,
    },
    { coverageFrom: first?.time ?? null },
  );
  const skipped = doc?.skipped ?? { notComplete: 0, noAdaSide: 0, zeroAmount: 0 };
  const body = presentPnl({ address: w.address, maker: w.maker }, pnl, skipped, assets);
  // Kept by the sync at every block: the lots are those of the indexed tip, valued at the prices read now.
  const computedAt = checkpoint ? clock.iso(checkpoint.slot) : new Date(now()).toISOString();
  return withHandle({ ...body, computedAt, precomputed: true }, w.handle);
}

export const getWallet = withAsOf(getWalletAnswer);
export const getWalletTrades = withAsOf(getWalletTradesAnswer);
export const getWalletPnl = withAsOf(getWalletPnlAnswer);
