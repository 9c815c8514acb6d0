/** /api/md/dashboard: one page: market, top tokens, NFT collections, chain and governance status, news. */
import {
  asOfLine,
  computedLine,
  enc,
  head,
  join,
  link,
  links,
  md,
  num,
  paragraph,
  pct,
  price,
  rest,
  short,
  table,
  text,
  utc,
} from './format.js';
import { marketSummary } from './market.js';
import { tokenTable } from './tokens.js';
import type { Dashboard, ViewContext, VoteShare } from './types.js';

const share = (t: VoteShare | null) =>
  t && t.yesPct !== null && t.noPct !== null ? `${t.yesPct.toFixed(1)} / ${t.noPct.toFixed(1)}` : '—';

export function renderDashboard(ctx: ViewContext, d: Dashboard): string {
  const f = ctx.fresh;
  return join(
    head(ctx, 'Cardano dashboard', 'Market, top tokens, NFT collections, chain and governance status, news.'),
    '## Market',
    computedLine('Figures', d.market.updatedAt),
    marketSummary(d.market),
    '## Top tokens',
    `Top ${d.tokens.items.length} of ${num(d.tokens.total, 0)} tokens, by market cap and liquidity combined (their geometric mean).`,
    computedLine('Figures', d.tokens.updatedAt),
    tokenTable(ctx, d.tokens.items),
    `More: ${link('all tokens', md(ctx, '/tokens'))} · ${link('market overview', md(ctx, '/market'))}`,
    '## NFT collections (by 24 h volume)',
    `Top ${d.nft.items.length} of ${num(d.nft.total, 0)} collections.`,
    computedLine('Stats', d.nft.computedAt),
    table(
      ['Collection', 'Floor (ADA)', 'Floor 24 h (%)', 'Volume 24 h (ADA)', 'Sales 24 h', 'Listings', 'Owners'],
      d.nft.items.map((c) => [
        link(c.name, md(ctx, `/nft/${c.policyId}`)),
        num(c.floor),
        pct(c.floorChange24h),
        num(c.volume24h, 0),
        num(c.sales24h, 0),
        num(c.listings, 0),
        num(c.owners, 0),
      ]),
    ),
    '## Chain',
    table(
      ['Indexed block', 'Chain tip block', 'Sync lag (s)', 'Indexed tip time'],
      [[num(f.height, 0), num(f.tipHeight, 0), num(f.lagSeconds, 0), utc(f.asOf)]],
    ),
    `Latest ${d.blocks.items.length} blocks, newest first (fees in ADA, size in bytes):`,
    table(
      ['Height', 'Time (UTC)', 'Epoch', 'Transactions', 'Fees (ADA)', 'Size (bytes)', 'Stake pool'],
      d.blocks.items.map((b) => [
        link(num(b.height, 0), rest(ctx, `/explorer/blocks/${b.height}`)),
        utc(b.time),
        num(b.epoch, 0),
        num(b.txCount, 0),
        num(b.fees),
        num(b.size, 0),
        b.issuerPoolId ? link(short(b.issuerPoolId, 12), md(ctx, `/stake-pool/${enc(b.issuerPoolId)}`)) : '—',
      ]),
    ),
    `More: ${link('REST: latest blocks (JSON)', rest(ctx, '/explorer/blocks?limit=50'))}`,
    '## Governance',
    `${num(d.governance.total, 0)} active proposals${d.governance.epoch === null ? '' : ` (epoch ${d.governance.epoch})`}${d.governance.total > d.governance.items.length ? `, the first ${d.governance.items.length} shown (all: REST governance proposals below)` : ''}. Vote shares in % of voting power (yes / no).`,
    computedLine('Vote shares', d.governance.computedAt),
    table(
      ['Proposal', 'Type', 'Epochs', 'Requested (ADA)', 'DReps yes/no (%)', 'SPOs yes/no (%)'],
      d.governance.items.map((p) => [
        link(p.summary || p.id, rest(ctx, `/governance/proposals/${enc(p.id)}`)),
        p.type,
        `${p.sinceEpoch}–${p.untilEpoch}`,
        num(p.requestedAda, 0),
        share(p.drep),
        share(p.spo),
      ]),
    ),
    '## News',
    d.news.items.length
      ? d.news.items
          .map(
            (n) =>
              // A headline without a link starts the item's text: as a paragraph, so a feed's "# Breaking" or
              // "2024. The year …" is not a heading or a nested list inside the item.
              `- ${n.link ? link(n.headline, n.link) : paragraph(text(n.headline))} — ${text(n.source)}, ${utc(n.publishedAt)}`,
          )
          .join('\n')
      : `_No news: ${d.news.reason ?? 'no items'}_`,
    // REST and the tool server list each feed's last fetch; a feed whose fetch failed keeps its last good items, so
    // without this line they read as the feed's current news.
    ...(d.news.feeds ?? [])
      .filter((f) => f.ok === false)
      .map(
        (f) =>
          `_Feed failing: ${text(f.url)} (${text(f.error ?? 'error')}, last fetched ${utc(f.fetchedAt)}); its items are from its last good fetch._`,
      ),
    `ADA/USD ${price(d.market.adaUsd)} · ${asOfLine(f)}`,
    links([
      ['Market overview', md(ctx, '/market')],
      ['Tokens', md(ctx, '/tokens')],
      ['REST: NFT collections', rest(ctx, '/nft/collections?sort=volume24h')],
      ['REST: governance proposals', rest(ctx, '/governance/proposals?status=active')],
      ['REST: news', rest(ctx, '/news')],
    ]),
  );
}
