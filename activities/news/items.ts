/**
 * Feed items → news documents, and what to prune. Pure (the hash is node:crypto's sha-256).
 *
 * Identity: sha-256 of the item's guid/id, else its link, else feed URL + headline; re-ingesting a feed rewrites
 * the same documents (idempotent) and keeps when each was first seen. An item two feeds carry is kept once, under
 * the feed that brought it first.
 * Retention (the documented choice): the newest NEWS_KEEP_PER_FEED items per feed and nothing older than
 * NEWS_MAX_AGE_DAYS; items of feeds no longer in NEWS_FEEDS are removed.
 */
import { createHash } from 'node:crypto';
import type { NewsDoc } from '../../mongo/collections/news.js';
import { htmlToText, truncate } from './html.js';
import type { FeedItem } from './parse.js';

export const NEWS_SUMMARY_MAX = 500;
export const NEWS_HEADLINE_MAX = 300;
export const NEWS_KEEP_PER_FEED = 100;
export const NEWS_MAX_AGE_DAYS = 30;
const DAY_MS = 86_400_000;

export function newsId(item: FeedItem, feedUrl: string): string {
  const key = item.guid ? `guid:${item.guid}` : item.link ? `link:${item.link}` : `item:${feedUrl}\n${item.title}`;
  return createHash('sha256').update(key).digest('hex');
}

/** Host name of a URL, the source name of a feed without a title. */
export const hostOf = (url: string): string => {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
};

/** Only http(s) links are kept (a feed may carry javascript: or relative ones); relative ones resolve on the feed. */
function safeLink(link: string | null, feedUrl: string): string | null {
  if (!link) return null;
  try {
    const u = new URL(link, feedUrl);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/**
 * The document of one item (null when it has neither headline nor link). A publication time in the future (a
 * feed's clock or timezone error) is taken as when the item was first seen, so it cannot pin the item at the top:
 * clamped to each ingest's own time instead, it would move back to the top of the list every time the feed is fetched
 * again until its stated time passes (a year ahead: for a year). A stated time not in the future is kept as stated.
 */
export function newsDocOf(
  item: FeedItem,
  feed: { url: string; title: string | null },
  nowMs: number,
  prev: NewsDoc | null,
): NewsDoc | null {
  const link = safeLink(item.link, feed.url);
  const headline = truncate(htmlToText(item.title), NEWS_HEADLINE_MAX) || (link ? hostOf(link) : '');
  if (!headline) return null;
  const summaryText = item.summaryHtml ? htmlToText(item.summaryHtml) : '';
  const summary = summaryText ? truncate(summaryText, NEWS_SUMMARY_MAX) : null;
  const firstSeenMs = prev ? Date.parse(prev.firstSeenAt) : nowMs;
  const dated = item.publishedMs !== null;
  const publishedMs = dated && (item.publishedMs as number) <= nowMs ? (item.publishedMs as number) : firstSeenMs;
  const feedUrl = prev?.feedUrl ?? feed.url;
  const source = prev?.source ?? (feed.title ? htmlToText(feed.title) : hostOf(feed.url));
  return {
    _id: newsId(item, feed.url),
    headline,
    source,
    feedUrl,
    link,
    publishedAt: new Date(publishedMs).toISOString(),
    publishedMs,
    dated,
    summary,
    search: `${headline}\n${summary ?? ''}\n${source}`.toLowerCase(),
    firstSeenAt: new Date(firstSeenMs).toISOString(),
  };
}

/** Ids to delete: other feeds' items, items older than the age limit, and each feed's items beyond the newest N. */
export function pruneIds(docs: readonly NewsDoc[], feeds: ReadonlySet<string>, nowMs: number): string[] {
  const cutoff = nowMs - NEWS_MAX_AGE_DAYS * DAY_MS;
  const out: string[] = [];
  const byFeed = new Map<string, NewsDoc[]>();
  for (const d of docs) {
    if (!feeds.has(d.feedUrl) || d.publishedMs < cutoff) out.push(d._id);
    else byFeed.set(d.feedUrl, [...(byFeed.get(d.feedUrl) ?? []), d]);
  }
  for (const list of byFeed.values()) {
    list.sort((a, b) => b.publishedMs - a.publishedMs || (a._id < b._id ? -1 : 1));
    for (const d of list.slice(NEWS_KEEP_PER_FEED)) out.push(d._id);
  }
  return out;
}
