/**
 * News: GET /news — the latest ecosystem headlines, newest first, from the RSS/Atom feeds of NEWS_FEEDS (ingested
 * every 15 minutes by the `news` workflow, activities/news/). Cursor list (limit/cursor) with an optional `q` text
 * filter. With no feed configured the answer is an empty list and a `reason` saying so.
 */
import Router from '@koa/router';
import type { ApiDeps } from '../deps.js';
import { defineRoute, register, type AnyRouteSpec, type CommonQuery, type RestModule } from '../route.js';
import { NewsQuery, NewsResponse } from '../schemas/news.js';
import { listNews } from '../read/news.js';

export const newsRoutes = {
  list: defineRoute<Record<string, never>, CommonQuery & { limit: number; cursor?: string; q?: string }>({
    operationId: 'listNews',
    path: '/news',
    summary: 'Latest ecosystem news headlines, newest first (source, publication time, summary, link)',
    description:
      'Items of the RSS 2.0 / Atom feeds configured in NEWS_FEEDS, refreshed every 15 minutes; the newest 100 per ' +
      'feed and at most 30 days old are kept. With no feed configured: an empty list and a reason.',
    tags: ['News'],
    query: NewsQuery,
    response: NewsResponse,
  }),
} satisfies Record<string, AnyRouteSpec>;

export function newsRouter(deps: ApiDeps): Router {
  const router = new Router();
  register(router, newsRoutes.list, (_ctx, { params, query }) => listNews(deps, { ...params, ...query }));
  return router;
}

export const newsModule: RestModule = { routes: Object.values(newsRoutes), router: newsRouter };
