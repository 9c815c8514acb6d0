/**
 * Where the Markdown views get their data: the read layer (api/read/*), the very functions REST answers from. Each
 * input is validated and defaulted by the REST route spec's own parser, so a view accepts exactly what REST does
 * and throws the same errors (BadRequestError 400, NotFoundError 404). Logos are always requested as URLs.
 */
import { listGovernanceProposals } from '../read/governance.js';
import { getBlocks } from '../read/explorer.js';
import { getMarketOverview } from '../read/market.js';
import { listNews } from '../read/news.js';
import { getNftCollection, listNftCollections } from '../read/nft.js';
import { getPool, getPoolTrades } from '../read/pools.js';
import { getStakePool, listStakePools } from '../read/staking.js';
import { getToken, listTokens } from '../read/tokens.js';
import { getWallet, getWalletTrades } from '../read/wallet.js';
import type { ReadDeps } from '../read/deps.js';
import { explorerRoutes } from '../routes/explorer.js';
import { governanceRoutes } from '../routes/governance.js';
import { marketRoutes } from '../routes/market.js';
import { newsRoutes } from '../routes/news.js';
import { nftRoutes } from '../routes/nft.js';
import { poolRoutes } from '../routes/pools.js';
import { stakingRoutes } from '../routes/staking.js';
import { tokenRoutes } from '../routes/tokens.js';
import { walletRoutes } from '../routes/wallet.js';
import type { RouteSpec } from '../route.js';

type Raw = Record<string, string | undefined>;

export function mdSource(deps: ReadDeps) {
  /** Validates raw (string) parameters as the REST route does, then calls its read function. */
  const call =
    <P extends object, Q extends object, O>(spec: RouteSpec<P, Q>, read: (d: ReadDeps, input: P & Q) => Promise<O>) =>
    (params: Raw = {}, query: Raw = {}): Promise<O> => {
      const v = spec.parse(params, { ...query, logos: 'url' });
      return read(deps, { ...v.params, ...v.query });
    };
  return {
    marketOverview: call(marketRoutes.overview, getMarketOverview),
    blocks: call(explorerRoutes.blocks, getBlocks),
    tokens: call(tokenRoutes.list, listTokens),
    token: call(tokenRoutes.detail, getToken),
    pool: call(poolRoutes.detail, getPool),
    poolTrades: call(poolRoutes.trades, getPoolTrades),
    wallet: call(walletRoutes.portfolio, getWallet),
    walletTrades: call(walletRoutes.trades, getWalletTrades),
    nftCollections: call(nftRoutes.list, listNftCollections),
    nftCollection: call(nftRoutes.detail, getNftCollection),
    stakePools: call(stakingRoutes.list, listStakePools),
    stakePool: call(stakingRoutes.detail, getStakePool),
    proposals: call(governanceRoutes.proposals, listGovernanceProposals),
    news: call(newsRoutes.list, listNews),
  };
}

export type MdSource = ReturnType<typeof mdSource>;
