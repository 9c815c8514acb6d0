/**
 * The shapes the Markdown views read: the REST 200 bodies (api/schemas/*, the read layer's results), reduced to the
 * fields the views show. Structural subsets, so a read function's result is passed as is.
 */
export interface Freshness {
  /** ISO time of the indexed tip block; null before the first block. */
  asOf: string | null;
  /**
   * Seconds the index is behind the chain: max(tip − indexed, now − time of the indexed tip block) (the market
   * overview's sync.lagSeconds, cardano/sync-lag.ts).
   */
  lagSeconds: number | null;
  height: number | null;
  tipHeight: number | null;
}

export interface ViewContext {
  /** `{site_url}` without a trailing slash: views link to `${site}/api/md/…` and `${site}/api/v1/…`. */
  site: string;
  fresh: Freshness;
}

export interface AssetRef {
  unit: string;
  name: string | null;
  ticker: string | null;
  decimals: number;
  displayName: string;
  policyId: string;
}

export interface TokenStats {
  priceAda: number | null;
  priceUsd: number | null;
  liquidityAda: number | null;
  volume24h: number;
  volume7d: number;
  change1h: number | null;
  change24h: number | null;
  change7d: number | null;
  /** The USD price's changes (shown beside USD prices, the change* beside ADA prices). */
  change1hUsd: number | null;
  change24hUsd: number | null;
  change7dUsd: number | null;
  txns24h: number;
  buys24h: number;
  sells24h: number;
  makers24h: number;
  mcapAda: number | null;
  mcapUsd: number | null;
  fdvUsd: number | null;
  holders: number | null;
  totalSupply: number | null;
  circulatingSupply: number | null;
  pools: number;
  firstPoolTime: string | null;
  /**
   * Whether firstPoolTime is the creation of the token's first pool; false: a pool of it was first seen then and
   * predates the indexed history (a sync from a later start point), so the token is older.
   */
  firstPoolExact: boolean;
  /** When the market recompute computed these figures. */
  updatedAt: string | null;
}

export interface TokenRow {
  asset: AssetRef;
  stats: TokenStats;
  primaryPoolId: number | null;
}

export interface TokenList {
  items: TokenRow[];
  total: number;
  sort: string;
  period: string;
  /** Currency the price changes are ranked in (gainers, losers). */
  quote: string;
  /** The floors the list applied: the given ones, else the sort's defaults. */
  filters: { minLiquidity: number | null; minHolders: number | null };
  adaUsd: number | null;
  updatedAt: string | null;
}

export interface Pool {
  id: number;
  dex: string;
  identifier: string;
  address: string;
  tokenA: AssetRef;
  tokenB: AssetRef;
  reserveA: number;
  reserveB: number;
  /** The reserves exact in base units (reserveA/reserveB lose digits past 2^53 base units). */
  reserveARaw: string;
  reserveBRaw: string;
  tvlAda: number | null;
  price: number | null;
  feePercent: number | null;
  feePercentBToA: number | null;
  createdTime: string;
  /** Whether createdTime is the pool's creation; false: the time it was first seen, it was created before the indexed history. */
  createdExact: boolean;
  lastStateTime: string | null;
  volume24h: number;
  txns24h: number;
  /** When the market recompute computed volume24h and txns24h (their 24 h window ends then); null before it ran. */
  statsUpdatedAt: string | null;
}

export interface TokenDetail extends TokenRow {
  description: string | null;
  url: string | null;
  pools: Pool[];
  adaUsd: number | null;
}

export interface Trade {
  poolId: number | null;
  dex: string;
  txHash: string;
  time: string;
  status: string;
  side: string | null;
  tokenIn: AssetRef;
  tokenOut: AssetRef;
  amountIn: number;
  amountOut: number | null;
  /** The amounts exact, in base units (REST's Trade has them; absent in hand-built views). */
  amountInRaw?: string;
  amountOutRaw?: string | null;
  priceAda: number | null;
  valueAda: number | null;
  makerAddress: string | null;
}

export interface TradePage {
  items: Trade[];
  nextCursor: string | null;
}

export interface MarketOverview {
  adaUsd: number | null;
  volume24h: number;
  tvlAda: number;
  txns24h: number;
  dexes: {
    dex: string;
    volume24h: number;
    tvlAda: number;
    pools: number;
    txns24h: number;
    /** The DEX's typical batcher fee per order, whole ADA; null when unknown. */
    batcherFee: number | null;
  }[];
  topGainers: TokenRow[];
  topLosers: TokenRow[];
  trending: TokenRow[];
  sync: { lagSeconds: number | null; height: number | null; tipHeight: number | null };
  updatedAt: string | null;
}

export interface WalletPosition {
  asset: AssetRef;
  balance: number;
  /** The exact on-chain quantity in base units (an integer string): `balance` is it over 10^decimals as a double. */
  balanceRaw: string;
  priceAda: number | null;
  valueAda: number | null;
  valueUsd: number | null;
  change24h: number | null;
  /** The DEX pool this token is the LP token of (valued by pool share); null for other tokens. */
  lp: { poolId: number; dex: string; share: number | null; unissuedRaw: string } | null;
  /** The NFT this token is, valued at its collection's floor (priceAda); null for other tokens. */
  nft?: { name: string; collection: { policyId: string; name: string | null }; floor: number | null } | null;
}

export interface Wallet {
  address: string;
  stakeAddress: string | null;
  addresses: number;
  complete: boolean;
  adaBalance: number;
  /** The stake key's unwithdrawn rewards, whole ADA; null for a payment address or when unknown. */
  rewards: number | null;
  /** When the staking recompute read `rewards` from the ledger (every 5 minutes); null when it has not. */
  rewardsAsOf?: string | null;
  /** A registered stake key's pool (pool1…) and DRep; null for a payment address or an unregistered key. */
  delegation?: { poolId: string | null; drep: string | null } | null;
  positions: WalletPosition[];
  totals: {
    ada: number;
    usd: number | null;
    tokensAda: number;
    /** Of tokensAda, the NFTs at their collections' floors. */
    nftsAda?: number;
    /** Positions that are NFTs. */
    nfts?: number;
    rewardsAda: number;
    unpriced: number;
  };
  adaUsd: number | null;
  /** Handles held, each written with its `$` as REST answers them (`$nova.eth`). */
  handles: string[];
  /** How many handles the wallet holds: `handles` is the first 100 by name. */
  handlesTotal: number;
  /** The handle the wallet was asked for (REST's HandleRef), absent when it was asked for by address. */
  handle?: { name: string; script: boolean };
}

export interface NftSale {
  txHash: string;
  time: string;
  price: number | null;
  marketplace: string;
  /** The first asset sold; `units` names every one (more than one: a bundle, sold at one price). */
  asset: unknown;
  units: string[];
  buyer: string | null;
  seller: string | null;
}

export interface NftCollectionRow {
  policyId: string;
  name: string;
  standards: string[];
  floor: number | null;
  floorUsd: number | null;
  floorChange24h: number | null;
  volume24h: number;
  volume7d: number;
  volume30d: number;
  volumeAll: number;
  sales24h: number;
  sales7d: number;
  sales30d: number;
  salesAll: number;
  listings: number;
  supply: number;
  owners: number;
  lastSaleTime: string | null;
  lastSalePrice: number | null;
}

export interface NftCollection extends NftCollectionRow {
  recentSales: NftSale[];
  computedAt: string;
  /** The first indexed block's time: the all-time totals, minted and burned counts are of the history since then. */
  coverageFrom: string | null;
  minted: number;
  burned: number;
}

export interface StakePool {
  id: string;
  ticker: string | null;
  name: string | null;
  status: string;
  liveStake: number;
  activeStake: number | null;
  saturation: number;
  margin: number;
  fixedCost: number;
  pledge: number;
  /** The owners' live stake delegated to the pool (ADA) and whether it covers the pledge; null when unknown. */
  ownerStake?: number | null;
  pledgeMet?: boolean | null;
  delegators: number;
  blocksThisEpoch: number;
  roa: number | null;
  epoch: number;
  computedAt: string;
  retiringEpoch: number | null;
  rewardAccount: string | null;
  metadata: { description: string | null; homepage: string | null; verified: boolean | null; reason: string | null };
  performance: { blocksMinted: number; estimatedRoa: number | null; realisedRoa: number | null };
  /** The first indexed block's time: blocksMinted counts the blocks of the history since then. */
  coverageFrom: string | null;
}

/** Vote shares in percent of the body's voting power (null when no power is counted yet). */
export interface VoteShare {
  yesPct: number | null;
  noPct: number | null;
}

export interface ProposalRow {
  id: string;
  type: string;
  summary: string;
  status: string;
  sinceEpoch: number;
  untilEpoch: number;
  requestedAda: number | null;
  drep: VoteShare | null;
  spo: VoteShare | null;
}

export interface NewsItem {
  headline: string;
  source: string;
  publishedAt: string;
  link: string | null;
}

/** One configured news feed's last fetch, as GET /news lists it (`feeds`). */
export interface NewsFeedStatus {
  url: string;
  ok: boolean | null;
  error: string | null;
  fetchedAt: string | null;
}

/** A block of the latest-blocks list (REST GET /explorer/blocks). */
export interface BlockRow {
  hash: string;
  height: number;
  time: string;
  epoch: number;
  txCount: number;
  size: number;
  fees: number;
  issuerPoolId: string | null;
}

export interface Dashboard {
  market: MarketOverview;
  /** The latest blocks of the indexed chain, newest first. */
  blocks: { items: BlockRow[] };
  tokens: TokenList;
  nft: { items: NftCollectionRow[]; total: number; computedAt: string | null };
  governance: { items: ProposalRow[]; total: number; epoch: number | null; computedAt: string | null };
  /** GET /news: the items, and each configured feed's last fetch (a failing feed keeps its last good items). */
  news: { items: NewsItem[]; reason: string | null; feeds?: NewsFeedStatus[] };
}
