/**
 * Wallet documents → REST answers, pure. Holdings are the UTxO balances the sync keeps per address
 * (ADDRESSES: lovelace and raw token quantities as integer strings); a stake key's holdings are the exact sums
 * over its addresses. Values use the current token price in ADA per whole token (TOKEN_STATS.priceAda) and the
 * current ADA/USD rate; a token without a price has null values and sorts last.
 */
import type { TokenPnl, WalletPnl } from '../../cardano/pnl/fifo.js';
import type { AddressDoc } from '../../mongo/collections/chain.js';
import type { TokenStatsDoc } from '../../mongo/collections/market-read.js';
import { lovelaceToAda, lovelaceToAdaOrNull, scaleInteger } from '../../cardano/units.js';
import type { AssetBook } from './market.js';
import type { Delegation, RewardBalance } from './chain.js';

export interface Holdings {
  lovelace: bigint;
  /** unit → raw quantity, only units with a positive total. */
  assets: Map<string, bigint>;
}

/** Exact sums of the balances of several addresses. */
export function sumHoldings(addresses: readonly Pick<AddressDoc, 'balance'>[]): Holdings {
  let lovelace = 0n;
  const assets = new Map<string, bigint>();
  for (const a of addresses) {
    lovelace += BigInt(a.balance.lovelace);
    for (const [unit, q] of Object.entries(a.balance.assets)) assets.set(unit, (assets.get(unit) ?? 0n) + BigInt(q));
  }
  for (const [unit, q] of assets) if (q <= 0n) assets.delete(unit);
  return { lovelace, assets };
}

/** The pool an LP token is a share of, as a wallet position values it (api/read/wallet.ts). */
export interface LpPool {
  poolId: number;
  dex: string;
  /** LP tokens the DEX counts as issued, raw: the denominator of a holder's share on withdrawal. */
  totalLpRaw: bigint;
  /** Both sides of the pool in lovelace, as pool answers show it (tvlAda); null when not valued in ADA. */
  tvlLovelace: bigint | null;
  /**
   * LP tokens at the pool's own address when the wallet holds it (its not-yet-issued supply, raw): part of the
   * balance, no claim on the pool, so not in the share or the value. 0 for any other wallet.
   */
  unissuedRaw: bigint;
}

/** An NFT a wallet holds, as the NFT index names it and the `nft` recompute prices its collection. */
export interface WalletNft {
  /** Its metadata name ("Dev Punks #12"). */
  name: string;
  /** Image URI as written on chain (ipfs://…, ar://…, data:…), null without one. */
  image: string | null;
  policyId: string;
  /** The collection's name (its first indexed NFT's name without the number); null when not indexed yet. */
  collection: string | null;
  /** The collection's floor: its cheapest active single-NFT listing, lovelace; null without one. */
  floorLovelace: string | null;
}

export interface PortfolioInput {
  /** The path parameter as given (addr… or stake…). */
  address: string;
  stakeAddress: string | null;
  /** Addresses combined (all of the stake key, or 1). */
  addressCount: number;
  /** false when a stake key has more addresses than were summed. */
  complete: boolean;
  holdings: Holdings;
  /** A stake key's unwithdrawn rewards (api/read/wallet.ts walletStake); null for an address or when unknown. */
  rewards: RewardBalance | null;
  /** A registered stake key's pool and DRep (api/read/wallet.ts walletStake); null for an address or another key. */
  delegation: Delegation | null;
  /** unit → stats (absent: the token has no market data). */
  stats: ReadonlyMap<string, TokenStatsDoc>;
  /** LP tokens without a market price of their own → their pool (absent: no LP token of an indexed pool). */
  lp: ReadonlyMap<string, LpPool>;
  /** NFTs among the tokens without a market price → their collection (absent: not an NFT). */
  nfts: ReadonlyMap<string, WalletNft>;
  adaUsd: number | null;
  asOf: string | null;
}

export function presentPortfolio(input: PortfolioInput, assets: AssetBook) {
  const { adaUsd } = input;
  const usd = (ada: number | null) => (ada === null || adaUsd === null ? null : ada * adaUsd);
  const positions = [...input.holdings.assets].map(([unit, raw]) => {
    const s = input.stats.get(unit) ?? null;
    const decimals = assets.decimals(unit);
    const balance = scaleInteger(String(raw), decimals);
    // Only tokens without a market price of their own are in `lp` (api/read/wallet.ts).
    const pool = input.lp.get(unit) ?? null;
    const nft = input.nfts.get(unit) ?? null;
    // An NFT is valued at its collection's floor: what listing it at the cheapest active ask would fetch.
    const floor = lovelaceToAdaOrNull(nft?.floorLovelace);
    const priceAda = pool ? lpPriceAda(pool, decimals) : nft ? floor : (s?.priceAda ?? null);
    // An LP token is worth what a withdrawal pays: only the issued ones the wallet holds claim a share of the pool.
    const unissued = pool ? (pool.unissuedRaw < raw ? pool.unissuedRaw : raw) : 0n;
    const claimed = unissued > 0n ? scaleInteger(String(raw - unissued), decimals) : balance;
    const valueAda = priceAda === null ? null : claimed * priceAda;
    return {
      asset: assets.ref(unit),
      balance,
      balanceRaw: String(raw),
      priceAda,
      valueAda,
      valueUsd: usd(valueAda),
      change24h: pool ? null : (s?.change24h ?? null),
      lp: pool
        ? {
            poolId: pool.poolId,
            dex: pool.dex,
            share: pool.totalLpRaw > 0n ? Number(raw - unissued) / Number(pool.totalLpRaw) : null,
            unissuedRaw: String(unissued),
          }
        : null,
      nft: nft
        ? {
            name: nft.name,
            image: nft.image,
            collection: { policyId: nft.policyId, name: nft.collection },
            floor,
            floorLovelace: nft.floorLovelace,
          }
        : null,
    };
  });
  positions.sort(
    (a, b) =>
      (b.valueAda ?? -Infinity) - (a.valueAda ?? -Infinity) ||
      (a.asset.unit < b.asset.unit ? -1 : a.asset.unit > b.asset.unit ? 1 : 0),
  );
  const adaBalance = lovelaceToAda(String(input.holdings.lovelace));
  const tokensAda = positions.reduce((sum, p) => sum + (p.valueAda ?? 0), 0);
  const nftsAda = positions.reduce((sum, p) => sum + (p.nft ? (p.valueAda ?? 0) : 0), 0);
  // Rewards are ADA the key owns outside the UTxO set (withdrawable at any time): part of the wallet's value.
  const rewardsAda = input.rewards ? lovelaceToAda(input.rewards.lovelace) : null;
  const total = adaBalance + (rewardsAda ?? 0) + tokensAda;
  return {
    address: input.address,
    stakeAddress: input.stakeAddress,
    addresses: input.addressCount,
    complete: input.complete,
    adaBalance,
    adaBalanceLovelace: String(input.holdings.lovelace),
    rewards: rewardsAda,
    rewardsLovelace: input.rewards?.lovelace ?? null,
    rewardsAsOf: input.rewards?.asOf ?? null,
    delegation: input.delegation,
    positions,
    totals: {
      ada: total,
      usd: usd(total),
      tokensAda,
      nftsAda,
      nfts: positions.filter((p) => p.nft).length,
      rewardsAda: rewardsAda ?? 0,
      unpriced: unpriced(positions),
    },
    adaUsd,
    asOf: input.asOf,
  };
}

/**
 * An LP token's value in ADA per whole token: its share of the pool's TVL, what a withdrawal pays out in both tokens
 * (the DEX pays reserve × held / issued of each side) valued as the pool's TVL values them. Null when the pool has no
 * LP tokens issued or no ADA valuation.
 */
const lpPriceAda = (pool: LpPool, decimals: number): number | null =>
  pool.totalLpRaw > 0n && pool.tvlLovelace !== null
    ? ((Number(pool.tvlLovelace) / Number(pool.totalLpRaw)) * 10 ** decimals) / 1e6
    : null;

const unpriced = (positions: readonly { valueAda: number | null }[]) =>
  positions.filter((p) => p.valueAda === null).length;

/** The PnL answer: computePnl's result with an AssetRef on every token and top token, plus what was left out. */
export function presentPnl(
  wallet: { address: string; maker: string },
  pnl: WalletPnl,
  skipped: Record<string, number>,
  assets: AssetBook,
) {
  const withAsset = <T extends { unit: string }>(t: T) => {
    const { unit: _unit, ...rest } = t;
    return { asset: assets.ref(t.unit), ...rest };
  };
  const { tokens, topTokens, ...totals } = pnl;
  return {
    address: wallet.address,
    maker: wallet.maker,
    ...totals,
    skippedTrades: skipped,
    tokens: tokens.map((t: TokenPnl) => withAsset(t)),
    topTokens: topTokens.map((t) => withAsset(t)),
  };
}
