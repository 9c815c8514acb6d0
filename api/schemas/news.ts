/** News request and response schemas (GET /news): latest ecosystem headlines from the configured RSS/Atom feeds. */
import { component, type ObjectSchema } from '../schema.js';
import { CursorQueryProperties, searchText } from './common.js';

export const NewsQuery: ObjectSchema = {
  type: 'object',
  properties: {
    ...CursorQueryProperties,
    q: searchText(
      200,
      'Only items whose headline, summary or source contain every word of this text (case-insensitive).',
    ),
  },
};

const NewsItem = component('NewsItem', {
  type: 'object',
  required: ['id', 'headline', 'source', 'publishedAt', 'summary', 'link'],
  properties: {
    id: { type: 'string', description: 'Stable id (sha-256 of the item’s guid or link).' },
    headline: { type: 'string' },
    source: { type: 'string', description: 'The feed’s title (else its host name).' },
    publishedAt: {
      type: 'string',
      format: 'date-time',
      description: 'Publication time from the feed (UTC); when the feed gives none, when the item was first seen.',
    },
    summary: { type: ['string', 'null'], description: 'Plain-text summary (HTML removed), at most 500 characters.' },
    link: { type: ['string', 'null'], description: 'The article (http/https).' },
  },
});

const FeedStatus = component('NewsFeedStatus', {
  type: 'object',
  required: ['url', 'ok', 'error', 'fetchedAt'],
  properties: {
    url: { type: 'string' },
    ok: { type: ['boolean', 'null'], description: 'Outcome of the last fetch; null before the first.' },
    error: { type: ['string', 'null'], description: 'Why the last fetch failed.' },
    fetchedAt: { type: ['string', 'null'], format: 'date-time' },
  },
});

export const NewsResponse = component('NewsList', {
  type: 'object',
  required: ['items', 'nextCursor', 'reason', 'feeds'],
  properties: {
    items: { type: 'array', items: NewsItem, description: 'Newest first.' },
    nextCursor: { type: ['string', 'null'], description: 'Pass as cursor for the next page; null at the end.' },
    reason: {
      type: ['string', 'null'],
      description: 'Why the list is empty when no feed is configured or nothing is ingested yet; null otherwise.',
    },
    feeds: { type: 'array', items: FeedStatus, description: 'The configured feeds and their last fetch.' },
  },
});
