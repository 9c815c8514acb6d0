/**
 * The Markdown surface, `{site_url}/api/md` (spec: Markdown views). The access layer's `md` middleware (limits,
 * keys) runs in front of it (api/app.ts).
 */
import Router from '@koa/router';
import type { ApiDeps } from '../deps.js';
import type { MdResponder } from './respond.js';
import type { ViewName } from './render.js';
import { MARKDOWN_TYPE } from './respond.js';

export const MD_PREFIX = '/api/md';

/** Every view path, as the index and the discovery files list them. */
export const MD_VIEWS: { path: string; view: ViewName; title: string; example?: string }[] = [
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
    title: 'Wallet holdings and trades: addr1…, stake1… or $handle (also /address/{address})',
  },
  { path: '/nft/{policyId}', view: 'nft', title: 'One NFT collection: floor, volumes, sales, listings, owners' },
  {
    path: '/stake-pool/{poolId}',
    view: 'stake-pool',
    title: 'One stake pool: stake, saturation, margin, cost, pledge, returns',
  },
];

export function mdRouter(deps: ApiDeps, md: MdResponder): Router {
  const router = new Router({ prefix: MD_PREFIX });
  const site = deps.config.SITE_URL.replace(/\/+$/, '');
  const index =
    `# Markdown views\n\nCompact Markdown answers with units, an as-of time and links, for people and agents. ` +
    `Discovery: ${site}/llms.txt\n\n` +
    MD_VIEWS.map(
      (v) => `- [${MD_PREFIX}${v.path}](${site}${MD_PREFIX}${v.path.replace(/\{.*\}/, '')}) — ${v.title}`,
    ).join('\n') +
    '\n';
  router.get('/', (ctx) => {
    ctx.type = MARKDOWN_TYPE;
    ctx.body = index;
  });
  const q = (query: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(query).map(([k, v]) => [k, Array.isArray(v) ? String(v[0]) : String(v)]));
  router.get('/market', (ctx) => md.respond(ctx, { view: 'market' }));
  router.get('/dashboard', (ctx) => md.respond(ctx, { view: 'dashboard' }));
  router.get('/tokens', (ctx) => md.respond(ctx, { view: 'tokens', query: q(ctx.query) }));
  router.get('/token/:unit', (ctx) => md.respond(ctx, { view: 'token', id: ctx.params.unit as string }));
  router.get('/pool/:id', (ctx) => md.respond(ctx, { view: 'pool', id: ctx.params.id as string }));
  router.get('/wallet/:address', (ctx) => md.respond(ctx, { view: 'wallet', id: ctx.params.address as string }));
  router.get('/address/:address', (ctx) => md.respond(ctx, { view: 'wallet', id: ctx.params.address as string }));
  router.get('/nft/:policyId', (ctx) => md.respond(ctx, { view: 'nft', id: ctx.params.policyId as string }));
  router.get('/stake-pool/:poolId', (ctx) => md.respond(ctx, { view: 'stake-pool', id: ctx.params.poolId as string }));
  // Any other path under /api/md: a Markdown 404 naming the views (not the JSON 404 of REST).
  router.get('/{*rest}', (ctx) =>
    md.error(ctx, 404, `No view at ${ctx.path}. The views: ${MD_VIEWS.map((v) => MD_PREFIX + v.path).join(', ')}.`),
  );
  return router;
}
