/** /api/md/pool/{id}: one pool with its recent trades. */
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
  percent,
  price,
  rest,
  short,
  table,
  tokenExact,
  tokenLink,
  utc,
} from './format.js';
import type { Pool, TradePage, ViewContext, Trade } from './types.js';

/**
 * A trade's amount as the chain holds it (its base units over the token's decimals, every digit), when the answer
 * carries it: the JSON number loses digits past 2^53 base units and the view's rounding would drop the decimals of
 * amounts of 1,000 or more.
 */
const amount = (n: number, raw: string | null | undefined, decimals: number) =>
  raw ? tokenExact(raw, decimals) : num(n, 6);

export function tradeTable(ctx: ViewContext, trades: Trade[], withPool = false): string {
  return table(
    [
      'Time (UTC)',
      ...(withPool ? ['Pool'] : []),
      'Side',
      'In',
      'Out',
      'Price (ADA)',
      'Value (ADA)',
      'Status',
      'Trader',
      'Tx',
    ],
    trades.map((t) => [
      utc(t.time),
      ...(withPool ? [t.poolId === null ? t.dex : link(`#${t.poolId} ${t.dex}`, md(ctx, `/pool/${t.poolId}`))] : []),
      t.side ?? '—',
      `${amount(t.amountIn, t.amountInRaw, t.tokenIn.decimals)} ${text(t.tokenIn.displayName)}`,
      t.amountOut === null
        ? '—'
        : `${amount(t.amountOut, t.amountOutRaw, t.tokenOut.decimals)} ${text(t.tokenOut.displayName)}`,
      // A trade of two tokens: the price is the bought token's, named since it differs from row to row.
      t.priceAda !== null && t.tokenIn.unit !== 'lovelace' && t.tokenOut.unit !== 'lovelace'
        ? `${price(t.priceAda)} per ${text(t.tokenOut.displayName)}`
        : price(t.priceAda),
      num(t.valueAda),
      t.status,
      t.makerAddress ? link(short(t.makerAddress), md(ctx, `/wallet/${t.makerAddress}`)) : '—',
      link(short(t.txHash, 6), rest(ctx, `/explorer/tx/${t.txHash}`)),
    ]),
  );
}

/**
 * Where the trades after the shown ones are: REST's next page, from the page's own cursor (null: the table shows
 * every trade there is). With logo URLs, as every REST link of the views: each trade names two assets, and their inline
 * logos (30-80 KB each) made a page of trades ten times its size.
 */
export function olderTrades(ctx: ViewContext, trades: TradePage, restPath: string): string | false {
  return (
    trades.nextCursor !== null &&
    `Older trades: ${link('REST: next page (JSON)', rest(ctx, `${restPath}?cursor=${enc(trades.nextCursor)}&logos=url`))}`
  );
}

export function renderPool(ctx: ViewContext, p: Pool, trades: TradePage): string {
  const [a, b] = [text(p.tokenA.displayName), text(p.tokenB.displayName)];
  return join(
    head(ctx, `${a}/${b} on ${p.dex} (pool #${p.id})`),
    table(
      ['Field', 'Value'],
      [
        ['Pair', `${tokenLink(ctx, p.tokenA)} / ${tokenLink(ctx, p.tokenB)}`],
        // Every digit of the pool's on-chain reserves, from the base-unit integers (the decimal-adjusted numbers are
        // JSON doubles: past 2^53 base units their last digits are not the chain's).
        [
          `Reserves (${a} / ${b})`,
          `${tokenExact(p.reserveARaw, p.tokenA.decimals)} / ${tokenExact(p.reserveBRaw, p.tokenB.decimals)}`,
        ],
        [`Price (${a} per ${b})`, price(p.price)],
        ['TVL (ADA)', num(p.tvlAda, 0)],
        ['Volume 24 h (ADA)', num(p.volume24h, 0)],
        ['Swaps 24 h', num(p.txns24h, 0)],
        // The two 24 h figures are the market recompute's: their window ends then, not at the as-of line.
        ['24 h figures as of (UTC)', utc(p.statsUpdatedAt)],
        // One figure when both directions charge the same, else each direction's (Minswap V2, SundaeSwap V3, Splash).
        p.feePercentBToA === p.feePercent
          ? ['Swap fee (%)', percent(p.feePercent)]
          : [`Swap fee (%: ${a} → ${b} / ${b} → ${a})`, `${percent(p.feePercent)} / ${percent(p.feePercentBToA)}`],
        [
          'Created (UTC)',
          createdAt(p.createdTime, p.createdExact, 'first seen then; created before the indexed history'),
        ],
        ['Last state change (UTC)', utc(p.lastStateTime)],
        ['DEX pool identifier', `\`${p.identifier}\``],
        ['Address', `\`${p.address}\``],
      ],
    ),
    `## Recent trades (${trades.items.length}, newest first)`,
    tradeTable(ctx, trades.items),
    olderTrades(ctx, trades, `/pools/${p.id}/trades`),
    links([
      ['REST: pool (JSON)', rest(ctx, `/pools/${p.id}?logos=url`)],
      ['REST: trades', rest(ctx, `/pools/${p.id}/trades?logos=url`)],
      ['REST: candles (1 h)', rest(ctx, `/pools/${p.id}/candles?interval=1h`)],
      ['Market overview', md(ctx, '/market')],
    ]),
  );
}
