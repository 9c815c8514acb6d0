/**
 * The Markdown views: which data each one reads (the REST operations' answers, source.ts) and which pure renderer
 * (views/md/) turns it into text. One entry point, `renderMd`, for the /api/md router and for content negotiation
 * on REST paths (negotiate.ts).
 */
import { BadRequestError } from '../errors.js';
import { renderDashboard } from '../../views/md/dashboard.js';
import { renderMarket } from '../../views/md/market.js';
import { renderNft } from '../../views/md/nft.js';
import { renderPool } from '../../views/md/pool.js';
import { renderStakePool } from '../../views/md/stake-pool.js';
import { renderToken } from '../../views/md/token.js';
import { renderTokens, TOKEN_SORTS, type TokenSort } from '../../views/md/tokens.js';
import type * as T from '../../views/md/types.js';
import { renderWallet } from '../../views/md/wallet.js';
import type { MdSource } from './source.js';

export type ViewName = 'market' | 'dashboard' | 'tokens' | 'token' | 'pool' | 'wallet' | 'nft' | 'stake-pool';

export interface MdRequest {
  view: ViewName;
  /** The view's one path parameter (unit, pool id, address, policy id, stake pool id). */
  id?: string;
  query?: Record<string, string | undefined>;
}

export const TOKENS_DEFAULT_LIMIT = 25;
export const TOKENS_MAX_LIMIT = 100;
/** Recent trades shown under a pool and a wallet. */
const TRADES = 20;

function tokensQuery(query: Record<string, string | undefined>): { sort: TokenSort; limit: number } {
  const sort = (query.sort ?? 'rank') as TokenSort;
  if (!TOKEN_SORTS.includes(sort))
    throw new BadRequestError(`invalid parameter sort: must be one of ${TOKEN_SORTS.join(', ')}`);
  const rawLimit = query.limit ?? String(TOKENS_DEFAULT_LIMIT);
  const limit = /^[0-9]{1,4}$/.test(rawLimit) ? Number(rawLimit) : NaN;
  if (!(limit >= 1 && limit <= TOKENS_MAX_LIMIT))
    throw new BadRequestError(`invalid parameter limit: must be an integer from 1 to ${TOKENS_MAX_LIMIT}`);
  return { sort, limit };
}

export async function renderMd(src: MdSource, ctx: T.ViewContext, r: MdRequest): Promise<string> {
  const id = r.id ?? '';
  const query = r.query ?? {};
  switch (r.view) {
    case 'market':
      return renderMarket(ctx, await src.marketOverview());
    case 'dashboard': {
      const [market, blocks, tokens, nft, governance, news] = await Promise.all([
        src.marketOverview(),
        src.blocks({}, { limit: '5' }),
        src.tokens({}, { sort: 'rank', pageSize: '10' }),
        src.nftCollections({}, { sort: 'volume24h', pageSize: '5' }),
        src.proposals({}, { status: 'active', pageSize: '5' }),
        src.news({}, { limit: '5' }),
      ]);
      return renderDashboard(ctx, { market, blocks, tokens, nft, governance, news });
    }
    case 'tokens': {
      const { sort, limit } = tokensQuery(query);
      return renderTokens(ctx, await src.tokens({}, { sort, pageSize: String(limit) }), sort, limit);
    }
    case 'token':
      return renderToken(ctx, await src.token({ unit: id }));
    case 'pool': {
      const [pool, trades] = await Promise.all([src.pool({ id }), src.poolTrades({ id }, { limit: String(TRADES) })]);
      return renderPool(ctx, pool, trades);
    }
    case 'wallet': {
      const [wallet, trades] = await Promise.all([
        src.wallet({ address: id }),
        src.walletTrades({ address: id }, { limit: String(TRADES) }),
      ]);
      return renderWallet(ctx, wallet, trades, id);
    }
    case 'nft':
      return renderNft(ctx, await src.nftCollection({ policy: id }));
    case 'stake-pool':
      return renderStakePool(ctx, await src.stakePool({ id }));
  }
}
