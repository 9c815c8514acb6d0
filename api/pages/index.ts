/**
 * What the site serves besides REST: the Markdown views (/api/md), content negotiation on REST paths, the swap page
 * and the discovery files. api/app.ts mounts `negotiate` in front of the REST micro-cache and the routers after
 * the probes.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import type { ApiDeps } from '../deps.js';
import { mdRouter } from '../md/routes.js';
import { negotiateMarkdown } from '../md/negotiate.js';
import { mdResponder } from '../md/respond.js';
import { mdSource, type MdSource } from '../md/source.js';
import { discoveryRouter } from '../discovery/routes.js';
import { swapRouter } from './swap/routes.js';

export interface SitePages {
  /** REST content negotiation (Accept: text/markdown); mount for REST paths only. */
  negotiate: Koa.Middleware;
  routers: Router[];
}

export function sitePages(deps: ApiDeps): SitePages {
  let source: MdSource | null = null;
  const src = () => (source ??= mdSource(deps));
  const md = mdResponder(deps, src);
  return {
    negotiate: negotiateMarkdown(md),
    routers: [mdRouter(deps, md), swapRouter(), discoveryRouter(deps, src)],
  };
}
