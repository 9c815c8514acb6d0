/**
 * The Markdown surface, `{site_url}/api/md` (spec: Markdown views). The access layer's `md` middleware (limits,
 * keys) runs in front of it (api/app.ts).
 */
import { fixedAnswer, sendFixed } from '../compress.js';
import Router from '@koa/router';
import type { ApiDeps } from '../deps.js';
import type { MdResponder } from './respond.js';
import type { ViewName } from './render.js';
import { MARKDOWN_TYPE } from './respond.js';

export const MD_PREFIX = '/api/md';

/**
 * Every view path: the router, the index, the 404 answer and the discovery files are all made from this table. A
 * path holds at most one `{parameter}`; `query: true` passes the query string on (the token table's sort and limit).
 */
export const MD_VIEWS: { path: string; view: ViewName; title: string; query?: true }[] = [
  { path: '/market', view: 'market', title: 'Market overview: ADA/USD, DEX volume and TVL, gainers, losers, trending' },
  {
    path: '/dashboard',
    view: 'dashboard',
    title: 'One-page summary: market, top tokens, NFT collections, chain, governance, news',
  },
  {
    path: '/tokens',
    view: 'tokens',
    title: 'Ranked token table; sort = rank, trending, gainers, losers, volume24h, mcap, new; limit 1–100',
    query: true,
  },
  {
    path: '/token/{unit}',
    view: 'token',
    title: 'One token: price, changes, volume, liquidity, supply, holders, pools',
  },
  { path: '/pool/{id}', view: 'pool', title: 'One DEX pool with its recent trades' },
  {
    path: '/wallet/{address}',
    view: 'wallet',
    title: 'Wallet holdings and trades: addr1…, stake1… or $handle',
  },
  { path: '/address/{address}', view: 'wallet', title: 'The wallet view under the name of an address' },
  { path: '/nft/{policyId}', view: 'nft', title: 'One NFT collection: floor, volumes, sales, listings, owners' },
  {
    path: '/stake-pool/{poolId}',
    view: 'stake-pool',
    title: 'One stake pool: stake, saturation, margin, cost, pledge, returns',
  },
];

/** The path parameter of a view path template, if any. */
const paramOf = (path: string): string | null => /\{(\w+)\}/.exec(path)?.[1] ?? null;

export function mdRouter(deps: ApiDeps, md: MdResponder): Router {
  const router = new Router({ prefix: MD_PREFIX });
  const site = deps.config.SITE_URL.replace(/\/+$/, '');
  // A view without a parameter is a link; a template (`{unit}`) is no page of its own, so it is shown as text.
  const index =
    `# Markdown views\n\nCompact Markdown answers with units, an as-of time and links, for people and agents. ` +
    `Replace a \`{parameter}\` with an id. Discovery: ${site}/llms.txt\n\n` +
    MD_VIEWS.map((v) =>
      paramOf(v.path)
        ? `- \`${MD_PREFIX}${v.path}\` — ${v.title}`
        : `- [${MD_PREFIX}${v.path}](${site}${MD_PREFIX}${v.path}) — ${v.title}`,
    ).join('\n') +
    '\n';
  const indexAnswer = fixedAnswer(index);
  router.get('/', (ctx) => {
    ctx.type = MARKDOWN_TYPE;
    // Changes with a deployment only, as the discovery files (llms.txt) that point here.
    ctx.set('Cache-Control', 'public, max-age=300');
    sendFixed(ctx, indexAnswer);
  });
  const q = (query: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]));
  for (const v of MD_VIEWS) {
    const param = paramOf(v.path);
    router.get(v.path.replace(/\{(\w+)\}/, ':$1'), (ctx) => {
      // `?limit=5&limit=50`: which one was meant is unknown, so it is the REST routes' 400, not the first value.
      const twice = v.query && Object.entries(ctx.query).find(([, value]) => Array.isArray(value));
      if (twice) return md.error(ctx, 400, `invalid parameter ${twice[0]}: given more than once (send it once)`);
      return md.respond(ctx, {
        view: v.view,
        ...(param ? { id: ctx.params[param] as string } : {}),
        ...(v.query ? { query: q(ctx.query) } : {}),
      });
    });
  }
  // Any other path under /api/md: a Markdown 404 naming the views (not the JSON 404 of REST).
  router.get('/{*rest}', (ctx) =>
    md.error(ctx, 404, `No view at ${ctx.path}. The views: ${MD_VIEWS.map((v) => MD_PREFIX + v.path).join(', ')}.`),
  );
  return router;
}
