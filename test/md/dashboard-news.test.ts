/**
 * The dashboard's news section says when a configured feed fails. GET /news and get_news list each feed's last fetch
 * (`feeds[].ok`, `error`); a feed whose fetch failed keeps its last good items, so the Markdown dashboard showed them
 * as the feed's current news with no word of the failure (seen on a feed answering HTTP 500 after one good fetch).
 * Oracle: the feed's status as GET /news answered it on that service.
 */
import assert from 'node:assert/strict';
import { renderDashboard } from '../../views/md/dashboard.js';
import type { Dashboard, MarketOverview, TokenList, ViewContext } from '../../views/md/types.js';

const ctx = {
  site: 'https://cds.example',
  fresh: { asOf: '2026-11-30T11:25:57Z', lagSeconds: 48, height: 2142, tipHeight: 2142 },
} as ViewContext;

const market: MarketOverview = {
  adaUsd: 0.689853,
  volume24h: 755721,
  tvlAda: 45765350,
  txns24h: 1667,
  dexes: [],
  topGainers: [],
  topLosers: [],
  trending: [],
  sync: { lagSeconds: 48, height: 2142, tipHeight: 2142 },
  updatedAt: '2026-11-30T11:26:27Z',
};
const tokens = {
  items: [],
  total: 0,
  sort: 'rank',
  period: '24h',
  quote: 'ada',
  filters: { minLiquidity: null, minHolders: null },
  adaUsd: 0.689853,
  updatedAt: '2026-11-30T11:26:27Z',
} as unknown as TokenList;

// What GET /news answered after the feed's fetch failed (its items are from the good fetch before).
const news = {
  items: [
    {
      headline: 'Cardano node 10.6 released',
      source: 'R24 Test Feed',
      publishedAt: '2026-11-30T09:00:00.000Z',
      link: 'http://127.0.0.1:8241/a',
    },
  ],
  reason: null,
  feeds: [
    {
      url: 'http://127.0.0.1:8241/feed.xml',
      ok: false,
      error: 'HTTP 500 Internal Server Error',
      fetchedAt: '2026-11-30T11:26:35.644Z',
    },
    { url: 'https://news.example/rss', ok: true, error: null, fetchedAt: '2026-11-30T11:26:35.601Z' },
  ],
};

const dashboard = (n: Dashboard['news']): Dashboard => ({
  market,
  blocks: { items: [] },
  tokens,
  nft: { items: [], total: 0, computedAt: null },
  governance: { items: [], total: 0, epoch: null, computedAt: null },
  news: n,
});

/** The lines of the News section, up to the closing as-of line. */
const newsSection = (md: string) => md.slice(md.indexOf('## News'), md.indexOf('ADA/USD 0.689853 ·'));

describe('Markdown dashboard: news feeds that fail', () => {
  it('names a failing feed, its error and when it was fetched, beside the items it kept', () => {
    const section = newsSection(renderDashboard(ctx, dashboard(news)));
    assert.match(section, /\[Cardano node 10\.6 released\]\(http:\/\/127\.0\.0\.1:8241\/a\)/);
    assert.ok(
      section.includes(
        '_Feed failing: http://127.0.0.1:8241/feed.xml (HTTP 500 Internal Server Error, last fetched 2026-11-30 11:26 UTC); its items are from its last good fetch._',
      ),
      section,
    );
    // The feed that answered is not named.
    assert.ok(!section.includes('news.example'), section);
  });

  it('says nothing more while every feed answers', () => {
    const ok = { ...news, feeds: news.feeds.map((f) => ({ ...f, ok: true, error: null })) };
    assert.doesNotMatch(newsSection(renderDashboard(ctx, dashboard(ok))), /failing/);
  });

  it('a headline without a link opens no block inside its list item (no heading, nested list or quote)', () => {
    // A feed item whose link is missing (or dropped: not http(s)) is listed by its headline alone, first in the item:
    // "- # Breaking …" made a heading inside the list, "- 2024. The year …" a nested ordered list starting at 2024,
    // "- > …" a quote. Hand-escaped: the leading marker after a backslash.
    const item = (headline: string) => ({
      headline,
      source: 'Feed',
      publishedAt: '2026-11-30T09:00:00.000Z',
      link: null,
    });
    const headlines = ['# Breaking: node 10.6', '2024. The year in review', '> Quoted', '- Dash', '+ Plus'];
    const section = newsSection(
      renderDashboard(ctx, dashboard({ items: headlines.map(item), reason: null, feeds: [] })),
    );
    assert.deepEqual(
      section.split('\n').filter((l) => l.startsWith('- ')),
      [
        '- \\# Breaking: node 10.6 — Feed, 2026-11-30 09:00 UTC',
        '- 2024\\. The year in review — Feed, 2026-11-30 09:00 UTC',
        '- \\> Quoted — Feed, 2026-11-30 09:00 UTC',
        '- \\- Dash — Feed, 2026-11-30 09:00 UTC',
        '- \\+ Plus — Feed, 2026-11-30 09:00 UTC',
      ],
    );
  });
});
