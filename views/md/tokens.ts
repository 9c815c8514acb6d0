/** /api/md/tokens: the ranked token table (also the token tables of the market and dashboard views). */
import { computedLine, enc, head, join, link, links, md, num, pct, price, rest, table, tokenLink } from './format.js';
import type { TokenList, TokenRow, ViewContext } from './types.js';

export const TOKEN_SORTS = ['rank', 'trending', 'gainers', 'losers', 'volume24h', 'mcap', 'new'] as const;
export type TokenSort = (typeof TOKEN_SORTS)[number];

export function tokenTable(ctx: ViewContext, rows: TokenRow[], offset = 0): string {
  return table(
    [
      '#',
      'Token',
      'Price (ADA)',
      '24 h, ADA (%)',
      'Price (USD)',
      '24 h, USD (%)',
      '7 d, ADA (%)',
      'Volume 24 h (ADA)',
      'Liquidity (ADA)',
      'Mcap (USD)',
      'Holders',
    ],
    rows.map((r, i) => [
      String(offset + i + 1),
      tokenLink(ctx, r.asset),
      price(r.stats.priceAda),
      pct(r.stats.change24h),
      price(r.stats.priceUsd),
      pct(r.stats.change24hUsd),
      pct(r.stats.change7d),
      num(r.stats.volume24h, 0),
      num(r.stats.liquidityAda, 0),
      num(r.stats.mcapUsd, 0),
      num(r.stats.holders, 0),
    ]),
  );
}

/** The order of each table, as REST ranks it (spec: /tokens sort semantics; cardano/rankings.ts). */
const SORT_MEANING: Record<TokenSort, (list: TokenList) => string> = {
  rank: () => 'by market cap and liquidity combined (their geometric mean)',
  trending: () => 'by trades in the last hour',
  gainers: (l) => `highest 24 h change of the ${l.quote} price, among tokens traded in those 24 h`,
  losers: (l) => `lowest 24 h change of the ${l.quote} price, among tokens traded in those 24 h`,
  volume24h: () => 'by 24 h volume in ADA',
  mcap: () => 'by market capitalisation',
  new: () => 'newest first (first pool)',
};

/** The floors the list applied (REST echoes them in `filters`): which tokens it leaves out. */
function floors(f: TokenList['filters']): string {
  const parts = [
    f.minLiquidity ? `liquidity of ${num(f.minLiquidity, 0)} ADA or more` : null,
    f.minHolders ? `${num(f.minHolders, 0)} holders or more` : null,
  ].filter((p) => p !== null);
  return parts.length ? ` Only tokens with ${parts.join(' and ')}.` : '';
}

export function renderTokens(ctx: ViewContext, list: TokenList, sort: TokenSort, limit: number): string {
  const others = TOKEN_SORTS.filter((s) => s !== sort).map((s) => link(s, md(ctx, `/tokens?sort=${s}&limit=${limit}`)));
  return join(
    head(
      ctx,
      `Cardano tokens: ${sort}`,
      // No ranking written yet (updatedAt null: the first market recompute after a start or resync has not run) is
      // not an empty market: "Top 0 of 0 tokens" read as if the chain had none.
      list.updatedAt === null
        ? 'The token rankings are not computed yet (the market recompute runs every 20 s); retry shortly.'
        : `Top ${list.items.length} of ${num(list.total, 0)} tokens, ${SORT_MEANING[sort](list)}.${floors(list.filters)} Prices from on-chain DEX pools; read them with the liquidity. ADA/USD ${price(list.adaUsd)}.`,
    ),
    computedLine('Figures', list.updatedAt),
    tokenTable(ctx, list.items),
    // The rows after the table's: REST's next page of the same list (the table has no pages of its own).
    list.total > list.items.length &&
      `Rows ${limit + 1}–${Math.min(list.total, 2 * limit)} of ${num(list.total, 0)}: ${link('REST: page 2 (JSON)', rest(ctx, `/tokens?sort=${enc(list.sort)}&pageSize=${limit}&page=2&logos=url`))}`,
    `Other orders: ${others.join(' · ')}`,
    links([
      ['Market overview', md(ctx, '/market')],
      ['Dashboard', md(ctx, '/dashboard')],
      ['REST: this list (JSON)', rest(ctx, `/tokens?sort=${enc(list.sort)}&pageSize=${limit}&logos=url`)],
    ]),
  );
}
