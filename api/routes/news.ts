/**
 * News: GET /news — the latest ecosystem headlines, newest first, from the RSS/Atom feeds of NEWS_FEEDS (ingested
 * every 15 minutes by the `news` workflow, activities/news/). Cursor list (limit/cursor) with an optional `q` text
 * filter. With no feed configured the answer is an empty list and a `reason` saying so.
 */
import Router from '@koa/router';
import { NEWS, NEWS_FEEDS, type NewsDoc } from '../../mongo/collections/news.js';
import type { ApiDeps } from '../deps.js';
import { BadRequestError } from '../errors.js';
import { defineRoute, register, type AnyRouteSpec, type CommonQuery, type RestModule } from '../route.js';
import { NewsQuery, NewsResponse } from '../schemas/news.js';

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

export const NO_FEEDS_REASON =
  'No news feeds are configured: set NEWS_FEEDS to a comma-separated list of RSS/Atom URLs.';
const NOT_YET_REASON = 'No news ingested yet: the configured feeds are fetched every 15 minutes.';
const FAILING_REASON = 'No news ingested yet: the configured feeds failed their last fetch (see feeds[].error).';
/** Documents examined per page when `q` filters (the collection is bounded: 100 per feed). */
const SCAN_PAGE = 200;

const encodeCursor = (d: NewsDoc) => Buffer.from(`n${d.publishedMs}|${d._id}`, 'latin1').toString('base64url');
function decodeCursor(cursor: string): { _id: string; publishedMs: number } {
  const m = /^n([0-9]{1,16})\|([0-9a-f]{64})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!m) throw new BadRequestError('invalid parameter cursor: not a cursor of this list');
  return { publishedMs: Number(m[1]), _id: m[2] as string };
}

const present = (d: NewsDoc) => ({
  id: d._id,
  headline: d.headline,
  source: d.source,
  publishedAt: d.publishedAt,
  summary: d.summary,
  link: d.link,
});

export function newsRouter(deps: ApiDeps): Router {
  const { store } = deps;
  const feeds = deps.config.NEWS_FEEDS ?? [];
  const router = new Router();
  register(router, newsRoutes.list, async (_ctx, { query }) => {
    // A cursor that is not one of this list is refused even when there is no list to page.
    let after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    if (feeds.length === 0) return { items: [], nextCursor: null, reason: NO_FEEDS_REASON, feeds: [] };
    const q = query.q?.toLowerCase();
    const out: NewsDoc[] = [];
    const coll = store.collection(NEWS);
    // One extra match tells whether a next page exists.
    for (;;) {
      const page = await coll.find('byTime', { reverse: true, limit: SCAN_PAGE, ...(after ? { after } : {}) });
      for (const d of page) if (!q || d.search.includes(q)) out.push(d);
      if (out.length > query.limit || page.length < SCAN_PAGE) break;
      after = page[page.length - 1];
    }
    const items = out.slice(0, query.limit);
    const more = out.length > query.limit;
    const status = await store.collection(NEWS_FEEDS).getMany(feeds);
    const never = items.length === 0 && query.cursor === undefined && !q && status.every((s) => !s?.lastOkAt);
    const reason = !never ? null : status.some((s) => s?.error) ? FAILING_REASON : NOT_YET_REASON;
    return {
      items: items.map(present),
      nextCursor: more ? encodeCursor(items[items.length - 1] as NewsDoc) : null,
      reason,
      feeds: feeds.map((url, i) => ({
        url,
        ok: status[i]?.ok ?? null,
        error: status[i]?.error ?? null,
        fetchedAt: status[i]?.fetchedAt ?? null,
      })),
    };
  });
  return router;
}

export const newsModule: RestModule = { routes: Object.values(newsRoutes), router: newsRouter };
