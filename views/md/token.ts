/** /api/md/token/{unit}: one token with its pools. */
import {
  createdAt,
  enc,
  text,
  head,
  join,
  link,
  links,
  md,
  num,
  pct,
  percent,
  price,
  rest,
  short,
  table,
  utc,
} from './format.js';
import type { Pool, TokenDetail, ViewContext } from './types.js';

export function poolTable(ctx: ViewContext, pools: Pool[]): string {
  return table(
    ['Pool', 'DEX', 'Pair', 'Price (A per B)', 'TVL (ADA)', 'Volume 24 h (ADA)', 'Fee (%)', 'Last state (UTC)'],
    pools.map((p) => [
      link(`#${p.id}`, md(ctx, `/pool/${p.id}`)),
      p.dex,
      `${text(p.tokenA.displayName)}/${text(p.tokenB.displayName)}`,
      price(p.price),
      num(p.tvlAda, 0),
      num(p.volume24h, 0),
      // As the pool view: one figure when both directions charge the same, else each direction's.
      p.feePercentBToA === p.feePercent
        ? percent(p.feePercent)
        : `${percent(p.feePercent)} (A → B) / ${percent(p.feePercentBToA)} (B → A)`,
      utc(p.lastStateTime),
    ]),
  );
}

export function renderToken(ctx: ViewContext, t: TokenDetail): string {
  const s = t.stats;
  const a = t.asset;
  const title = a.name && a.ticker && a.name !== a.ticker ? `${a.name} (${a.ticker})` : a.displayName;
  return join(
    head(ctx, text(title), t.description === null ? undefined : text(t.description)),
    table(
      ['Field', 'Value'],
      [
        ['Unit (policy id + asset name hex)', `\`${a.unit}\``],
        ['Price (ADA)', price(s.priceAda)],
        [
          'Change of the ADA price 1 h / 24 h / 7 d (%)',
          `${pct(s.change1h)} / ${pct(s.change24h)} / ${pct(s.change7d)}`,
        ],
        ['Price (USD)', price(s.priceUsd)],
        [
          'Change of the USD price 1 h / 24 h / 7 d (%)',
          `${pct(s.change1hUsd)} / ${pct(s.change24hUsd)} / ${pct(s.change7dUsd)}`,
        ],
        ['Volume 24 h / 7 d (ADA)', `${num(s.volume24h, 0)} / ${num(s.volume7d, 0)}`],
        ['Liquidity (ADA)', num(s.liquidityAda, 0)],
        [
          'Swaps 24 h (buys / sells), traders',
          `${num(s.txns24h, 0)} (${num(s.buys24h, 0)} / ${num(s.sells24h, 0)}), ${num(s.makers24h, 0)}`,
        ],
        ['Market cap (ADA / USD)', `${num(s.mcapAda, 0)} / ${num(s.mcapUsd, 0)}`],
        ['FDV (USD)', num(s.fdvUsd, 0)],
        ['Supply circulating / total (tokens)', `${num(s.circulatingSupply, 0)} / ${num(s.totalSupply, 0)}`],
        ['Holders', num(s.holders, 0)],
        ['Decimals', String(a.decimals)],
        ['First pool (UTC)', createdAt(s.firstPoolTime, s.firstPoolExact, 'a pool of it predates the indexed history')],
        ['Stats as of (UTC)', utc(s.updatedAt)],
        ...(t.url ? [['Website', text(t.url)]] : []),
      ],
    ),
    `## Pools (${t.pools.length})`,
    poolTable(ctx, t.pools),
    links([
      ...(t.primaryPoolId === null
        ? []
        : ([['Primary pool, recent trades', md(ctx, `/pool/${t.primaryPoolId}`)]] as [string, string][])),
      [
        `Swap ADA → ${a.displayName} (quote)`,
        rest(ctx, `/swap/quote?in=lovelace&out=${enc(a.unit)}&amount=100&logos=url`),
      ],
      ['REST: token (JSON)', rest(ctx, `/tokens/${enc(a.unit)}?logos=url`)],
      ['REST: candles (1 h)', rest(ctx, `/tokens/${enc(a.unit)}/candles?interval=1h`)],
      ['REST: trades', rest(ctx, `/tokens/${enc(a.unit)}/trades?logos=url`)],
      ['REST: holders', rest(ctx, `/tokens/${enc(a.unit)}/holders`)],
      ['All tokens', md(ctx, '/tokens')],
    ]),
    `_Policy ${short(a.policyId, 10)}_`,
  );
}
