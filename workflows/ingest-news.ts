/**
 * The news ingest (every 15 minutes, temporal/schedules.ts `news`): one activity, ingestNewsFeeds — fetches the
 * NEWS_FEEDS URLs and writes news and news_feeds (activities/news/index.ts). Its result names the feeds that failed;
 * when all of them fail the activity throws, so the run is recorded as failed and can be retried.
 */
import type { NewsActivities, NewsIngestResult } from '../activities/news/index.js';
import type { WorkflowContext } from './context.js';

export async function ingestNewsBody(ctx: WorkflowContext<NewsActivities>, _input: null): Promise<NewsIngestResult> {
  return ctx.activities.ingestNewsFeeds();
}
