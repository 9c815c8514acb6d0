/** /api/md/wallet/{address} (and /api/md/address/{address}): holdings and recent trades of a wallet. */
import {
  adaExact,
  enc,
  tokenExact,
  text,
  short,
  head,
  join,
  links,
  md,
  num,
  pct,
  percent,
  price,
  rest,
  table,
  tokenLink,
  utc,
} from './format.js';
import { olderTrades, tradeTable } from './pool.js';
import type { TradePage, ViewContext, Wallet } from './types.js';

/**
 * The wallet's handles in its heading line, saying when the list is the first 100 of more. As text: a handle may hold
 * `_` (`$_gm_`), which Markdown would read as emphasis after the `$`.
 */
const handlesLine = (w: Wallet): string =>
  w.handles.length
    ? ` · handles ${w.handles.map(text).join(', ')}${w.handlesTotal > w.handles.length ? ` (the first ${w.handles.length} of ${w.handlesTotal})` : ''}`
    : '';

/** A payment address's stake key: its explorer answer and its view (rewards, all its addresses combined). */
const stakeKeyLinks = (ctx: ViewContext, w: Wallet): [string, string][] =>
  w.stakeAddress && w.stakeAddress !== w.address
    ? [
        ['REST: explorer stake key', rest(ctx, `/explorer/address/${enc(w.stakeAddress)}`)],
        ['Stake key view (rewards, delegation, all its addresses)', md(ctx, `/wallet/${enc(w.stakeAddress)}`)],
      ]
    : [];

/** A stake key's delegations: its stake pool's view, and its DRep (REST: the views have no DRep page). */
function delegationLine(ctx: ViewContext, d: { poolId: string | null; drep: string | null }): string {
  const pool = d.poolId ? `[${d.poolId}](${md(ctx, `/stake-pool/${enc(d.poolId)}`)})` : 'no stake pool';
  const drep = d.drep ? `[${d.drep}](${rest(ctx, `/governance/dreps/${enc(d.drep)}`)})` : 'no DRep';
  return `Delegates its stake to ${pool} and its vote to ${drep}.`;
}

export function renderWallet(ctx: ViewContext, w: Wallet, trades: TradePage, requested: string): string {
  // A handle as the chain writes it ($name, lowercase), however it was asked for ($Name, sub@root without "$"); one a
  // script holds (a marketplace listing, a multisig) makes this the script's holdings, not a person's wallet.
  const handle = w.handle;
  const who = handle
    ? `${text(handle.name)} (${w.address})${handle.script ? ' · a script holds the handle (e.g. a marketplace listing)' : ''}`
    : w.address;
  return join(
    head(
      ctx,
      `Wallet ${text(handle?.name ?? requested)}`,
      `${who}${w.stakeAddress && w.stakeAddress !== w.address ? ` · stake key ${w.stakeAddress}` : ''}${w.addresses > 1 ? ` · ${w.addresses} addresses combined${w.complete ? '' : ' (bounded: not every address summed)'}` : ''}${handlesLine(w)}`,
    ),
    table(
      [
        'ADA balance (ADA)',
        'Staking rewards (ADA)',
        'Tokens value (ADA)',
        'Total (ADA)',
        'Total (USD)',
        'Unpriced tokens',
      ],
      [
        [
          adaExact(w.adaBalance),
          // A payment address's rewards are its stake key's: the stake key's view counts them.
          w.rewards === null
            ? w.stakeAddress && w.stakeAddress !== w.address
              ? 'see stake key'
              : '—'
            : adaExact(w.rewards),
          num(w.totals.tokensAda),
          num(w.totals.ada),
          num(w.totals.usd),
          num(w.totals.unpriced, 0),
        ],
      ],
    ),
    // The rewards are a recompute's read of the ledger, not the indexed tip's: when it read them.
    w.rewards !== null &&
      w.rewardsAsOf &&
      `_Staking rewards as the ledger reported them at ${utc(w.rewardsAsOf)}, less the withdrawals indexed since_`,
    w.delegation && delegationLine(ctx, w.delegation),
    // NFTs have no market of their own: their value is a listing's ask, not a trade, so it is said apart.
    (w.totals.nfts ?? 0) > 0 &&
      `_Of the tokens' value, ${num(w.totals.nftsAda ?? 0)} ADA is ${num(w.totals.nfts ?? 0, 0)} NFTs at their collections' floors (the cheapest active listing); an NFT of a collection without one is unpriced_`,
    `## Tokens (${w.positions.length})`,
    table(
      ['Token', 'Balance (tokens)', 'Price (ADA)', '24 h, ADA (%)', 'Value (ADA)', 'Value (USD)'],
      w.positions.map((p) => [
        // Only traded tokens have a token view (its pools); an LP token links its pool's view, an NFT its
        // collection's; unpriced tokens are named, not linked.
        p.lp
          ? `[LP of pool #${p.lp.poolId}](${md(ctx, `/pool/${p.lp.poolId}`)}) (${p.lp.dex}${p.lp.share === null ? '' : `, ${percent(p.lp.share * 100, 4)} % of it`}${p.lp.unissuedRaw === '0' ? '' : `; ${tokenExact(p.lp.unissuedRaw, p.asset.decimals)} are the pool's own unissued LP tokens, not valued`})`
          : p.nft
            ? `${text(p.nft.name)}, NFT of [${text(p.nft.collection.name ?? short(p.nft.collection.policyId, 10))}](${md(ctx, `/nft/${p.nft.collection.policyId}`)})${p.nft.floor === null ? ' (no listing: unpriced)' : ' (at floor)'}`
            : p.priceAda === null
              ? `${text(p.asset.displayName)} (\`${short(p.asset.unit, 10)}\`)`
              : tokenLink(ctx, p.asset),
        // Exact, as the ADA balance: a rounded figure would misstate what the wallet holds.
        tokenExact(p.balanceRaw, p.asset.decimals),
        price(p.priceAda),
        pct(p.change24h),
        num(p.valueAda),
        num(p.valueUsd),
      ]),
    ),
    `## Recent trades (${trades.items.length}, newest first)`,
    tradeTable(ctx, trades.items, true),
    olderTrades(ctx, trades, `/wallet/${enc(requested)}/trades`),
    links([
      ['REST: wallet (JSON)', rest(ctx, `/wallet/${enc(requested)}?logos=url`)],
      ['REST: trades', rest(ctx, `/wallet/${enc(requested)}/trades?logos=url`)],
      ['REST: profit and loss (FIFO)', rest(ctx, `/wallet/${enc(requested)}/pnl?logos=url`)],
      // The explorer answer of what this view shows (its balance is this view's); a payment address's stake key
      // sums every address carrying it (DEX orders at script addresses too), so it is linked as the key's.
      ['REST: explorer address', rest(ctx, `/explorer/address/${enc(w.address)}`)],
      ...stakeKeyLinks(ctx, w),
      ['Dashboard', md(ctx, '/dashboard')],
    ]),
  );
}
