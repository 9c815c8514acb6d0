/**
 * Discovery files at the site root: /llms.txt, /llms-full.txt, /.well-known/ai-catalog.json, /sitemap.xml, /robots.txt and the
 * human docs page /docs (the 429 answers' `docs` link). Generated from what is served: the OpenAPI document
 * (buildOpenApi over restRoutes), the Markdown views, the configured limits and the MCP tool list (`TOOLS` of
 * api/mcp/tools.ts, read when that module exists).
 */
import { createHash } from 'node:crypto';
import Router from '@koa/router';
import type { Context } from 'koa';
import { loadConfig, type Config } from '../../config/index.js';
import { renderAiCatalog, renderRobots, renderSitemap } from '../../views/discovery/catalog.js';
import { DOCS_STYLE, renderDocsPage } from '../../views/discovery/docs.js';
import { renderLlmsFull, renderLlmsTxt } from '../../views/discovery/llms.js';
import type { OpenApiDoc, SiteInfo, ToolDef } from '../../views/discovery/types.js';
import { fixedAnswer, sendFixed, type FixedAnswer } from '../compress.js';
import type { ApiDeps } from '../deps.js';
import { readFreshness } from '../read/freshness.js';
import { MD_VIEWS } from '../md/routes.js';
import type { MdSource } from '../md/source.js';
import { buildOpenApi } from '../openapi.js';
import { restRoutes } from '../routes/index.js';

/** The /docs page's CSP: its inline stylesheet (by sha-256), its empty data: icon; no script, never framed. */
const DOCS_CSP =
  `default-src 'none'; style-src 'sha256-${createHash('sha256').update(DOCS_STYLE).digest('base64')}'; ` +
  "img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export const SITE_TITLE = 'Cardano data service';
export const SITE_SUMMARY =
  'Read-only Cardano data: token prices, liquidity and volume from on-chain DEX pools, candles, trades, holders, DEX pools, wallets and trading PnL, NFT collections, blocks, transactions and addresses, stake pools, governance, ADA Handles, the Iagon storage-network overview, a market overview, news and swap quotes — as REST (JSON), Markdown views and an MCP tool server.';

/** The MCP tool list, when the tool server's module is present (it exports `TOOLS`). */
export async function loadTools(): Promise<ToolDef[] | null> {
  const specifier = '../mcp/tools.js';
  try {
    const mod = (await import(specifier)) as { TOOLS?: ToolDef[] };
    return Array.isArray(mod.TOOLS) ? mod.TOOLS : null;
  } catch {
    return null;
  }
}

export function siteInfo(config: ApiDeps['config']): SiteInfo {
  // The app's deps carry the whole configuration; defaults fill in for tests that pass a partial one.
  const c = { ...loadConfig({}), ...config } as Config;
  return {
    site: c.SITE_URL.replace(/\/+$/, ''),
    title: SITE_TITLE,
    summary: SITE_SUMMARY,
    views: MD_VIEWS.map((v) => ({ path: v.path, title: v.title })),
    limits: {
      enforced: c.RATE_LIMITS,
      anonPerMinute: c.RATE_LIMIT_ANON_PER_MIN,
      pnlAnonPerMinute: c.RATE_LIMIT_PNL_ANON_PER_MIN,
      pnlKeyPerMinute: c.RATE_LIMIT_PNL_KEY_PER_MIN,
      plans: Object.entries(c.PLAN_LIMITS).map(([name, p]) => ({ name, perMinute: p.perMinute, perDay: p.perDay })),
      plansEnforced: c.PLANS_ENFORCED,
    },
  };
}

/** Sitemap entries beyond the fixed pages: the top tokens, NFT collections and stake pools by their views. */
const SITEMAP_TOKENS = 100;
const SITEMAP_COLLECTIONS = 50;
const SITEMAP_STAKE_POOLS = 50;
const SITEMAP_TTL_MS = 60_000;

export function discoveryRouter(deps: ApiDeps, source: () => MdSource): Router {
  const info = siteInfo(deps.config);
  const s = info.site;
  const router = new Router();
  const once = <T>(f: () => Promise<T>) => {
    let p: Promise<T> | null = null;
    return () => (p ??= f().catch((e: unknown) => ((p = null), Promise.reject(e))));
  };
  // Each file's bytes, ETag and compressed forms, made once per body (the sitemap's changes once a minute).
  const files = new Map<string, FixedAnswer>();
  const text = (type: string, body: string) => (ctx: Context) => {
    let file = files.get(body);
    if (!file) {
      if (files.size >= 16) files.clear();
      file = fixedAnswer(body);
      files.set(body, file);
    }
    ctx.type = type;
    ctx.set('Cache-Control', 'public, max-age=300');
    // br/gzip as every other answer of 1 KB or more (llms-full.txt is ~90 KB), with its coded ETag; 304 when fresh.
    sendFixed(ctx, file);
  };
  const full = once(async () =>
    renderLlmsFull(info, buildOpenApi(restRoutes(), deps.config.SITE_URL) as unknown as OpenApiDoc, await loadTools()),
  );
  const llms = once(async () => renderLlmsTxt(info, (await loadTools()) !== null));
  router.get('/llms.txt', async (ctx) => text('text/markdown; charset=utf-8', await llms())(ctx));
  router.get('/llms-full.txt', async (ctx) => text('text/markdown; charset=utf-8', await full())(ctx));
  router.get('/.well-known/ai-catalog.json', text('application/json; charset=utf-8', renderAiCatalog(info)));
  router.get('/robots.txt', text('text/plain; charset=utf-8', renderRobots(s)));
  // The site-wide CSP (default-src 'none') refused the page's inline stylesheet: /docs rendered unstyled, with a
  // CSP violation in the console. Its own CSP allows that one stylesheet by hash and nothing else.
  const docs = text('text/html; charset=utf-8', renderDocsPage(info));
  router.get('/docs', (ctx) => {
    ctx.set('Content-Security-Policy', DOCS_CSP);
    docs(ctx);
  });
  // The site root (the `url` of the AI catalog and the server card) leads to the documentation page.
  router.get('/', (ctx) => ctx.redirect('/docs'));

  let sitemap: { at: number; body: string } | null = null;
  router.get('/sitemap.xml', async (ctx) => {
    if (!sitemap || Date.now() - sitemap.at > SITEMAP_TTL_MS) {
      const src = source();
      const fixed = ['/docs', '/swap', '/account', '/llms.txt', '/llms-full.txt', '/api/md', '/api/v1/openapi.json'];
      const views = ['/api/md/market', '/api/md/dashboard', '/api/md/tokens'];
      const [tokens, nft, stake, fresh] = await Promise.all([
        src.tokens({}, { sort: 'rank', pageSize: String(SITEMAP_TOKENS) }),
        src.nftCollections({}, { sort: 'volume24h', pageSize: String(SITEMAP_COLLECTIONS) }),
        src.stakePools({}, { pageSize: String(SITEMAP_STAKE_POOLS) }),
        readFreshness(deps),
      ]);
      const paths = [
        ...fixed,
        ...views,
        ...tokens.items.map((t) => `/api/md/token/${t.asset.unit}`),
        ...nft.items.map((c) => `/api/md/nft/${c.policyId}`),
        ...stake.items.map((p) => `/api/md/stake-pool/${p.id}`),
      ];
      sitemap = { at: Date.now(), body: renderSitemap(s, paths, fresh.asOf ? fresh.asOf.slice(0, 10) : null) };
    }
    // As the other discovery files: an ETag (304) and 5 minutes in a cache; it had neither.
    text('application/xml; charset=utf-8', sitemap.body)(ctx);
  });
  return router;
}
