/**
 * Read functions of news (REST, MCP and Markdown present their results).
 */
import { NEWS_FEEDS, newsNewestFirst, type NewsDoc } from '../../mongo/collections/news.js';
import { BadRequestError } from '../errors.js';
import { openCursor, sealCursor } from './cursor.js';
import type { newsRoutes } from '../routes/news.js';
import type { ReadDeps, RouteInput } from './deps.js';
import { withAsOf } from './freshness.js';
export const NO_FEEDS_REASON =
  'No news feeds are configured: set NEWS_FEEDS to a comma-separated list of RSS/Atom URLs.';
const NOT_YET_REASON = 'No news ingested yet: the configured feeds are fetched every 15 minutes.';
const FAILING_REASON = 'No news ingested yet: the configured feeds failed their last fetch (see feeds[].error).';
/** Documents examined per page when `q` filters (the collection is bounded: 100 per feed). */
const SCAN_PAGE = 200;

/**
 * The list a cursor pages: the news, or the news carrying every word of `q` (its words as a set: "Hydra release" and
 * "release hydra" are one list). A cursor is sealed to it (api/read/cursor.ts), so the cursor of another search, or
 * one edited by hand, is a 400 instead of paging on from a place that list never handed out.
 */
const newsList = (words: readonly string[]) => `news|${[...new Set(words)].sort().join(' ')}`;
const encodeCursor = (words: readonly string[], d: NewsDoc) =>
  sealCursor(newsList(words), `n${d.publishedMs}|${d._id}`);
function decodeCursor(words: readonly string[], cursor: string): { _id: string; publishedMs: number } {
  const m = /^n([0-9]{1,16})\|([0-9a-f]{64})$/.exec(openCursor(newsList(words), cursor));
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

async function listNewsAnswer(deps: ReadDeps, input: RouteInput<typeof newsRoutes.list>) {
  const feeds = deps.config.NEWS_FEEDS ?? [];
  const { store } = deps;
  // Every word of the text, each anywhere in the headline, summary or source ("hydra release" finds "Hydra head
  // protocol 1.0 release"): the text whole as one substring found only items carrying its words in that order.
  const words = input.q?.toLowerCase().split(/\s+/).filter(Boolean) ?? [];
  // A cursor that is not one of this list is refused even when there is no list to page.
  let after = input.cursor === undefined ? undefined : decodeCursor(words, input.cursor);
  if (feeds.length === 0) return { items: [], nextCursor: null, reason: NO_FEEDS_REASON, feeds: [] };
  const q = words.length > 0;
  const out: NewsDoc[] = [];
  // One extra match tells whether a next page exists.
  for (;;) {
    const page = await newsNewestFirst(store, SCAN_PAGE, after);
    for (const d of page) if (words.every((w) => d.search.includes(w))) out.push(d);
    if (out.length > input.limit || page.length < SCAN_PAGE) break;
    after = page[page.length - 1];
  }
  const items = out.slice(0, input.limit);
  const more = out.length > input.limit;
  const status = await store.collection(NEWS_FEEDS).getMany(feeds);
  const never = items.length === 0 && input.cursor === undefined && !q && status.every((s) => !s?.lastOkAt);
  const reason = !never ? null : status.some((s) => s?.error) ? FAILING_REASON : NOT_YET_REASON;
  return {
    items: items.map(present),
    nextCursor: more ? encodeCursor(words, items[items.length - 1] as NewsDoc) : null,
    reason,
    feeds: feeds.map((url, i) => ({
      url,
      ok: status[i]?.ok ?? null,
      error: status[i]?.error ?? null,
      fetchedAt: status[i]?.fetchedAt ?? null,
    })),
  };
}

export const listNews = withAsOf(listNewsAnswer);
