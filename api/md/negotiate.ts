/**
 * Content negotiation on REST: a GET under /api/v1 whose Accept header prefers `text/markdown` is answered with the
 * matching Markdown view (the same answer as /api/md/…), where one exists; every REST GET carries `Vary: Accept`.
 * Mounted before the REST micro-cache, so a cached JSON answer is never replayed to a Markdown request.
 */
import type Koa from 'koa';
import { API_PREFIX } from '../routes/index.js';
import type { MdRequest } from './render.js';
import { TOKENS_MAX_LIMIT } from './render.js';
import { TOKEN_SORTS, type TokenSort } from '../../views/md/tokens.js';
import type { MdResponder } from './respond.js';

const dec = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** The view answering a REST path (without the /api/v1 prefix), or null when there is none. */
export function viewForRestPath(path: string, query: Record<string, string | undefined>): MdRequest | null {
  const m = (re: RegExp) => re.exec(path)?.[1];
  if (path === '/market/overview') return { view: 'market' };
  if (path === '/tokens') {
    const sort = TOKEN_SORTS.includes(query.sort as TokenSort) ? (query.sort as TokenSort) : 'rank';
    const size = Number(query.pageSize);
    const limit = Number.isInteger(size) && size >= 1 ? Math.min(size, TOKENS_MAX_LIMIT) : undefined;
    return { view: 'tokens', query: { sort, ...(limit ? { limit: String(limit) } : {}) } };
  }
  let id: string | undefined;
  if ((id = m(/^\/tokens\/([^/]+)$/))) return { view: 'token', id: dec(id) };
  if ((id = m(/^\/pools\/([^/]+)(?:\/trades)?$/))) return { view: 'pool', id: dec(id) };
  if ((id = m(/^\/wallet\/([^/]+)(?:\/trades)?$/))) return { view: 'wallet', id: dec(id) };
  if ((id = m(/^\/explorer\/address\/([^/]+)$/))) return { view: 'wallet', id: dec(id) };
  if ((id = m(/^\/nft\/collections\/([^/]+)$/))) return { view: 'nft', id: dec(id) };
  if ((id = m(/^\/staking\/pools\/([^/]+)$/))) return { view: 'stake-pool', id: dec(id) };
  return null;
}

export function negotiateMarkdown(md: MdResponder): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    ctx.vary('Accept');
    if (ctx.accepts('application/json', 'text/markdown') !== 'text/markdown') return next();
    const query = Object.fromEntries(
      Object.entries(ctx.query).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]),
    ) as Record<string, string | undefined>;
    const r = viewForRestPath(ctx.path.slice(API_PREFIX.length).replace(/\/+$/, '') || '/', query);
    if (!r) return next();
    await md.respond(ctx, r);
  };
}
