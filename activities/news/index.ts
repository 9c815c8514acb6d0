/**
 * News ingest, run every 15 minutes (temporal/schedules.ts `news`):
 * - ingestNewsFeeds — fetches every NEWS_FEEDS URL (in parallel, each with its own timeout), parses RSS 2.0/Atom,
 *   writes one `news` document per item (idempotent ids, activities/news/items.ts), one `news_feeds` status per feed,
 *   and prunes (newest NEWS_KEEP_PER_FEED per feed, nothing older than NEWS_MAX_AGE_DAYS, no unconfigured feed).
 * A failing feed does not stop the others: its error is in the result and in its `news_feeds` document. When every
 * configured feed fails the activity throws after recording them, so the run is recorded as failed and retried.
 */
import { NEWS, NEWS_FEEDS, type NewsDoc, type NewsFeedDoc } from '../../mongo/collections/news.js';
import { del, put, type Store, type WriteOp } from '../../mongo/store.js';
import { fetchFeedText, type FetchLike } from './fetch.js';
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
  failed: { url: string; error: string }[];
  /** Items written (new or rewritten). */
  items: number;
  pruned: number;
}

export function createNewsActivities(deps: NewsDeps) {
  const { store } = deps;
  const now = deps.now ?? Date.now;
  return {
    async ingestNewsFeeds(): Promise<NewsIngestResult> {
      const nowMs = now();
      const results = await Promise.all(
        deps.feeds.map(async (url): Promise<{ url: string; feed: ParsedFeed } | { url: string; error: string }> => {
          try {
            const text = await fetchFeedText(url, {
              ...(deps.fetch ? { fetch: deps.fetch } : {}),
              ...(deps.timeoutMs ? { timeoutMs: deps.timeoutMs } : {}),
            });
            return { url, feed: parseFeed(text) };
          } catch (e) {
            return { url, error: (e as Error).message };
          }
        }),
      );

      const ops: WriteOp[] = [];
      const written = new Map<string, NewsDoc>();
      const prevStatus = await store.collection(NEWS_FEEDS).getMany(deps.feeds);
      for (const [i, r] of results.entries()) {
        const fetchedAt = new Date(nowMs).toISOString();
        if ('error' in r) {
          const status: NewsFeedDoc = {
            _id: r.url,
            ok: false,
            error: r.error,
            title: prevStatus[i]?.title ?? null,
            items: 0,
            fetchedAt,
            lastOkAt: prevStatus[i]?.lastOkAt ?? null,
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
        failed,
        items: written.size,
        pruned: stale.length,
      };
    },
  };
}

export type NewsActivities = ReturnType<typeof createNewsActivities>;
