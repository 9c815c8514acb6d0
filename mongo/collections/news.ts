/**
 * Ecosystem news (not chain-derived, never rolled back), written by the `news` ingest workflow
 * (activities/news/, every 15 minutes) from the RSS 2.0 and Atom feeds of NEWS_FEEDS.
 *
 * `news`: one document per item; `_id` = sha-256 of the item's guid/id (else its link), so a re-ingest rewrites the
 * same document and an item two feeds share is kept once. Kept: the newest NEWS_KEEP_PER_FEED items per feed, none
 * older than NEWS_MAX_AGE_DAYS, none of a feed no longer configured (activities/news/ingest.ts).
 * `news_feeds`: the outcome of the last fetch of each configured feed; `_id` = the feed URL.
 */
import { defineCollection, type Store } from '../store.js';

export interface NewsDoc {
  _id: string;
  headline: string;
  /** The feed's own title (channel/feed title), else its host name. */
  source: string;
  feedUrl: string;
  link: string | null;
  /** ISO publication time from the feed; the time the item was first seen when the feed gives none. */
  publishedAt: string;
  /** The same as unix ms: the newest-first index. */
  publishedMs: number;
  /** false when the feed gave no (valid) date and publishedAt is when the item was first seen. */
  dated: boolean;
  /** Plain text (HTML removed, entities decoded), at most NEWS_SUMMARY_MAX characters; null when the feed has none. */
  summary: string | null;
  /** Lower-cased headline, summary and source, for the `q` filter. */
  search: string;
  firstSeenAt: string;
}
export const NEWS = defineCollection<NewsDoc>({
  name: 'news',
  indexes: [
    { name: 'byTime', fields: ['publishedMs'] },
    { name: 'byFeed', fields: ['feedUrl', 'publishedMs'] },
  ],
});

export interface NewsFeedDoc {
  /** The configured feed URL. */
  _id: string;
  ok: boolean;
  /** Why the last fetch failed (HTTP status, timeout, not a feed); null when it succeeded. */
  error: string | null;
  /** Feed title when it parsed. */
  title: string | null;
  /** Items in the last document fetched. */
  items: number;
  fetchedAt: string;
  /** Last time the feed answered with a parsable document (or a 304: the one ingested before); null if never. */
  lastOkAt: string | null;
  /**
   * The validators of the document last ingested (its ETag and Last-Modified headers), sent on the next fetch so an
   * unchanged feed answers 304; absent in documents written before they were kept.
   */
  etag?: string | null;
  lastModified?: string | null;
}
export const NEWS_FEEDS = defineCollection<NewsFeedDoc>({ name: 'news_feeds' });

export const NEWS_COLLECTIONS = [NEWS, NEWS_FEEDS];

// ---- named reads ----------------------------------------------------------------------------------------------

/** News items, newest publication first, strictly after `after` (the last item of the previous scan) when given. */
export const newsNewestFirst = (
  store: Store,
  limit: number,
  after?: Pick<NewsDoc, '_id' | 'publishedMs'>,
): Promise<NewsDoc[]> => store.collection(NEWS).find('byTime', { reverse: true, limit, ...(after ? { after } : {}) });
