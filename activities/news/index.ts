/**
 * News ingest, run every 15 minutes (temporal/schedules.ts `news`):
 * - ingestNewsFeeds — fetches every NEWS_FEEDS URL (in parallel, each with its own timeout; conditionally, with the
 *   ETag / Last-Modified of the document last ingested, so an unchanged feed answers 304), parses RSS 2.0/Atom,
 *   writes one `news` document per item (idempotent ids, activities/news/items.ts), one `news_feeds` status per feed,
 *   and prunes (newest NEWS_KEEP_PER_FEED per feed, nothing older than NEWS_MAX_AGE_DAYS, no unconfigured feed).
 * A failing feed does not stop the others: its error is in the result and in its `news_feeds` document. When every
 * configured feed fails the activity throws after recording them, so the run is recorded as failed and retried.
 */
import { NEWS, NEWS_FEEDS, type NewsDoc, type NewsFeedDoc } from '../../mongo/collections/news.js';
import { del, put, type Store, type WriteOp } from '../../mongo/store.js';
import { fetchFeed, type FeedValidators, type FetchLike } from './fetch.js';
import { newsDocOf, newsId, pruneIds } from './items.js';
import { parseFeed, type ParsedFeed } from './parse.js';

export interface NewsDeps {
  store: Store;
  /** Feed URLs (NEWS_FEEDS); empty = nothing fetched, every stored item pruned. */
  feeds: readonly string[];
  fetch?: FetchLike;
  timeoutMs?: number;
  /** Clock (unix ms); tests pin it. */
  now?: () => number;
}

export interface NewsIngestResult {
  feeds: number;
  ok: number;
  /** Feeds that answered 304 to the validators of the document last ingested (counted in `ok`). */
  unchanged: number;
  failed: { url: string; error: string }[];
  /** Items written (new or rewritten). */
  items: number;
  pruned: number;
}

type FeedOutcome =
  | { url: string; feed: ParsedFeed; validators: FeedValidators }
  | { url: string; unchanged: true }
  | { url: string; error: string };

export function createNewsActivities(deps: NewsDeps) {
  const { store } = deps;
  const now = deps.now ?? Date.now;
  return {
    async ingestNewsFeeds(): Promise<NewsIngestResult> {
      const nowMs = now();
      const prevStatus = await store.collection(NEWS_FEEDS).getMany(deps.feeds);
      const results = await Promise.all(
        deps.feeds.map(async (url, i): Promise<FeedOutcome> => {
          // Conditional only after a good ingest: a feed whose last fetch failed is asked for its document.
          const prev = prevStatus[i];
          const validators = prev?.ok ? { etag: prev.etag ?? null, lastModified: prev.lastModified ?? null } : null;
          try {
            const got = await fetchFeed(url, {
              ...(deps.fetch ? { fetch: deps.fetch } : {}),
              ...(deps.timeoutMs ? { timeoutMs: deps.timeoutMs } : {}),
              validators,
            });
            if (got.notModified) return { url, unchanged: true };
            return { url, feed: parseFeed(got.text), validators: got.validators };
          } catch (e) {
            return { url, error: (e as Error).message };
          }
        }),
      );

      const ops: WriteOp[] = [];
      const written = new Map<string, NewsDoc>();
      for (const [i, r] of results.entries()) {
        const fetchedAt = new Date(nowMs).toISOString();
        if ('unchanged' in r) {
          // 304: the document last ingested is still the feed's; its items are stored already.
          const prev = prevStatus[i] as NewsFeedDoc;
          ops.push(put(NEWS_FEEDS, { ...prev, ok: true, error: null, fetchedAt, lastOkAt: fetchedAt }));
          continue;
        }
        if ('error' in r) {
          const status: NewsFeedDoc = {
            _id: r.url,
            ok: false,
            error: r.error,
            title: prevStatus[i]?.title ?? null,
            items: 0,
            fetchedAt,
            lastOkAt: prevStatus[i]?.lastOkAt ?? null,
            etag: null,
            lastModified: null,
          };
          ops.push(put(NEWS_FEEDS, status));
          continue;
        }
        const ids = r.feed.items.map((it) => newsId(it, r.url));
        const prev = await store.collection(NEWS).getMany(ids);
        r.feed.items.forEach((it, j) => {
          const id = ids[j] as string;
          if (written.has(id)) return;
          const doc = newsDocOf(it, { url: r.url, title: r.feed.title }, nowMs, prev[j] ?? null);
          if (doc) written.set(id, doc);
        });
        ops.push(
          put(NEWS_FEEDS, {
            _id: r.url,
            ok: true,
            error: null,
            title: r.feed.title,
            items: r.feed.items.length,
            fetchedAt,
            lastOkAt: fetchedAt,
            ...r.validators,
          }),
        );
      }
      for (const d of written.values()) ops.push(put(NEWS, d));
      await store.write(ops);

      // Retention, over the whole (small, bounded) collection after the write.
      const all: NewsDoc[] = [];
      for await (const d of store.collection(NEWS).scan()) all.push(d);
      const stale = pruneIds(all, new Set(deps.feeds), nowMs);
      const statusStale: string[] = [];
      for await (const s of store.collection(NEWS_FEEDS).scan())
        if (!deps.feeds.includes(s._id)) statusStale.push(s._id);
      const dels = [...stale.map((id) => del(NEWS, id)), ...statusStale.map((id) => del(NEWS_FEEDS, id))];
      for (let i = 0; i < dels.length; i += 500) await store.write(dels.slice(i, i + 500));

      const failed = results.flatMap((r) => ('error' in r ? [{ url: r.url, error: r.error }] : []));
      if (deps.feeds.length > 0 && failed.length === deps.feeds.length)
        throw new Error(`every news feed failed: ${failed.map((f) => `${f.url}: ${f.error}`).join('; ')}`);
      return {
        feeds: deps.feeds.length,
        ok: deps.feeds.length - failed.length,
        unchanged: results.filter((r) => 'unchanged' in r).length,
        failed,
        items: written.size,
        pruned: stale.length,
      };
    },
  };
}

export type NewsActivities = ReturnType<typeof createNewsActivities>;
