/** /api/md/market: the market overview. */
import { computedLine, head, join, links, md, num, price, rest, table } from './format.js';
import { tokenTable } from './tokens.js';
import type { MarketOverview, ViewContext } from './types.js';

/**
 * Which tokens the overview's gainers and losers are drawn from (spec: market overview; the market recompute's
 * MOVERS_MIN_LIQUIDITY_ADA). They rank the ADA price's change, so a gainer's USD change may be negative.
 */
const MOVERS_RULE = 'among tokens traded in those 24 h with liquidity of 10,000 ADA or more.';

export function marketSummary(o: MarketOverview): string {
  return table(
    ['ADA/USD', 'DEX volume 24 h (ADA)', 'TVL (ADA)', 'Swaps 24 h'],
    [[price(o.adaUsd), num(o.volume24h, 0), num(o.tvlAda, 0), num(o.txns24h, 0)]],
  );
}

export function renderMarket(ctx: ViewContext, o: MarketOverview): string {
  return join(
    head(ctx, 'Cardano DEX market overview', 'Whole-market snapshot from on-chain DEX pools.'),
    computedLine('Figures', o.updatedAt),
    marketSummary(o),
    '## DEXes',
    table(
      ['DEX', 'Volume 24 h (ADA)', 'TVL (ADA)', 'Pools', 'Swaps 24 h', 'Batcher fee per order (ADA, median 24 h)'],
      o.dexes.map((d) => [
        d.dex,
        num(d.volume24h, 0),
        num(d.tvlAda, 0),
        num(d.pools, 0),
        num(d.txns24h, 0),
        num(d.batcherFee, 6),
      ]),
    ),
    '## Top gainers (24 h)',
    `Highest 24 h change of the ADA price, ${MOVERS_RULE}`,
    tokenTable(ctx, o.topGainers),
    '## Top losers (24 h)',
    `Lowest 24 h change of the ADA price, ${MOVERS_RULE}`,
    tokenTable(ctx, o.topLosers),
    '## Trending (24 h volume)',
    'Largest 24 h volume in ADA.',
    tokenTable(ctx, o.trending),
    links([
      ['Dashboard', md(ctx, '/dashboard')],
      ['All tokens, ranked', md(ctx, '/tokens')],
      ['REST: market overview (JSON)', rest(ctx, '/market/overview?logos=url')],
    ]),
  );
}
