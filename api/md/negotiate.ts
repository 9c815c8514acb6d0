/**
 * Content negotiation on REST: a GET under /api/v1 whose Accept header prefers `text/markdown` is answered with the
 * matching Markdown view (the same answer as /api/md/…), where one exists; every REST GET carries `Vary: Accept`.
 * Mounted before the REST micro-cache, so a cached JSON answer is never replayed to a Markdown request.
 */
import type Koa from 'koa';
import { API_PREFIX } from '../routes/index.js';
import { isLogoPath } from '../logo-path.js';
import type { MdRequest } from './render.js';
import { TOKENS_MAX_LIMIT } from './render.js';
import { TOKEN_SORTS, type TokenSort } from '../../views/md/tokens.js';
import { prefersMarkdown, type MdResponder } from './respond.js';
import { BECH32_ADDRESS_PATTERN, PageQueryProperties } from '../schemas/common.js';

const REST_PAGE_SIZE = PageQueryProperties.pageSize.default;

/**
 * An explorer address the wallet view does not take: Byron base58 (`Ae2…`, `DdzFF…`, still holding ADA on mainnet),
 * which /explorer/address answers (api/schemas/explorer.ts AddressParams) and the wallet view refuses as not Bech32.
 */
const BECH32 = new RegExp(`^${BECH32_ADDRESS_PATTERN}$`);
const isByronText = (id: string) => !BECH32.test(id) && /^[1-9A-HJ-NP-Za-km-z]{8,}$/.test(id);

const dec = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/**
 * The token table answering a REST /tokens query, or null when the query asks for something the table does not show.
 * The table is page 1 of the list in its default form (24 h, USD, default order and floors) in one of its sorts, of
 * up to TOKENS_MAX_LIMIT rows (REST's default page size when none is given); REST's default sort, volume over 24 h,
 * is its volume24h. Another page, sort, period, quote, order, floor or search, and any bad value, is answered by the
 * REST route (JSON, or its 400), never by a table of other tokens.
 */
function tokensView(query: Record<string, string | undefined>): MdRequest | null {
  const { sort = 'volume', period = '24h', quote = 'USD', page = '1', pageSize } = query;
  if (['order', 'minLiquidity', 'minHolders', 'q'].some((k) => query[k] !== undefined)) return null;
  if (period !== '24h' || quote !== 'USD' || page !== '1') return null;
  const view = sort === 'volume' ? 'volume24h' : sort;
  if (!TOKEN_SORTS.includes(view as TokenSort)) return null;
  if (pageSize !== undefined && !(/^[0-9]{1,3}$/.test(pageSize) && +pageSize >= 1 && +pageSize <= TOKENS_MAX_LIMIT))
    return null;
  return { view: 'tokens', query: { sort: view, limit: String(pageSize === undefined ? REST_PAGE_SIZE : +pageSize) } };
}

/**
 * The view answering a REST path (without the /api/v1 prefix), or null when there is none. Trades asked by page
 * (a limit or a cursor) have none: the pool and wallet views show their 20 latest trades.
 */
export function viewForRestPath(path: string, query: Record<string, string | undefined>): MdRequest | null {
  // The route's own words in any case, as the routers match them (/Market/overview is the market overview); an id
  // as written (its route validates it).
  const m = (re: RegExp) => re.exec(path)?.[1];
  const lower = path.toLowerCase();
  if (lower === '/market/overview') return { view: 'market' };
  if (lower === '/tokens') return tokensView(query);
  let id: string | undefined;
  if ((id = m(/^\/tokens\/([^/]+)$/i))) return { view: 'token', id: dec(id) };
  if (/\/trades$/i.test(path) && (query.cursor !== undefined || query.limit !== undefined)) return null;
  if ((id = m(/^\/pools\/([^/]+)(?:\/trades)?$/i))) return { view: 'pool', id: dec(id) };
  if ((id = m(/^\/wallet\/([^/]+)(?:\/trades)?$/i))) return { view: 'wallet', id: dec(id) };
  // A Byron address has no view: the explorer's answer (JSON), not the wallet view's 400 "must be a Bech32 address".
  if ((id = m(/^\/explorer\/address\/([^/]+)$/i))) return isByronText(dec(id)) ? null : { view: 'wallet', id: dec(id) };
  if ((id = m(/^\/nft\/collections\/([^/]+)$/i))) return { view: 'nft', id: dec(id) };
  if ((id = m(/^\/staking\/pools\/([^/]+)$/i))) return { view: 'stake-pool', id: dec(id) };
  return null;
}

export function negotiateMarkdown(md: MdResponder): Koa.Middleware {
  return async (ctx, next) => {
    // The logo is an image whatever the Accept: no `Vary: Accept`, which would have a shared cache keep one copy of
    // a week-long logo per browser's <img> Accept header.
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || isLogoPath(ctx.path)) return next();
    ctx.vary('Accept');
    if (!prefersMarkdown(ctx)) return next();
    // A parameter given twice is the REST route's 400 to answer; so is a bad `logos` (every REST route takes it, its
    // one value is `url`, api/route.ts LOGOS_PARAM; no view reads it): `?logos=bogus` is a 400 whatever the Accept.
    if (Object.values(ctx.query).some(Array.isArray)) return next();
    const query = ctx.query as Record<string, string | undefined>;
    if (query.logos !== undefined && query.logos !== 'url') return next();
    const r = viewForRestPath(ctx.path.slice(API_PREFIX.length).replace(/\/+$/, '') || '/', query);
    if (!r) return next();
    await md.respond(ctx, r);
  };
}
