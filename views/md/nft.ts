/** /api/md/nft/{policyId}: one NFT collection with its recent sales. */
import { text, head, join, links, md, num, pct, rest, short, table, utc, link } from './format.js';
import type { NftCollection, NftSale, ViewContext } from './types.js';

const assetName = (a: unknown): string => {
  if (a && typeof a === 'object') {
    const o = a as Record<string, unknown>;
    for (const k of ['name', 'displayName', 'assetName', 'unit']) if (typeof o[k] === 'string') return o[k];
  }
  return '—';
};

/**
 * What a sale sold: its asset, or for a bundle (one listing of several NFTs, bought at one price) the first asset and
 * how many more, so the price is not read as one NFT's.
 */
const soldCell = (s: NftSale): string =>
  s.units.length > 1
    ? `${text(assetName(s.asset))} + ${s.units.length - 1} more (bundle of ${s.units.length})`
    : text(assetName(s.asset));

/** An address as a short link to its wallet view; '—' when the sale record has none. */
const walletCell = (ctx: ViewContext, address: string | null): string =>
  address ? link(short(address), md(ctx, `/wallet/${address}`)) : '—';

export function renderNft(ctx: ViewContext, c: NftCollection): string {
  return join(
    head(ctx, `NFT collection: ${text(c.name)}`, `Policy \`${c.policyId}\` · ${c.standards.join(', ') || 'CIP-25'}`),
    table(
      ['Field', 'Value'],
      [
        ['Floor (ADA / USD)', `${num(c.floor)} / ${num(c.floorUsd)}`],
        ['Floor change 24 h (%)', pct(c.floorChange24h)],
        [
          'Volume 24 h / 7 d / 30 d / all indexed (ADA)',
          [c.volume24h, c.volume7d, c.volume30d, c.volumeAll].map((v) => num(v, 0)).join(' / '),
        ],
        [
          'Sales 24 h / 7 d / 30 d / all indexed',
          [c.sales24h, c.sales7d, c.sales30d, c.salesAll].map((v) => num(v, 0)).join(' / '),
        ],
        ['Active listings', num(c.listings, 0)],
        ['Supply (minted − burned)', `${num(c.supply, 0)} (${num(c.minted, 0)} − ${num(c.burned, 0)})`],
        ['Owners', num(c.owners, 0)],
        [
          'Last sale (ADA, UTC)',
          c.lastSaleTime ? `${num(c.lastSalePrice)} at ${utc(c.lastSaleTime)}` : 'none in the indexed history',
        ],
        // A deployment that starts its sync at a later point has no earlier sales or mints: "all" is since then.
        ['Indexed history since (UTC)', utc(c.coverageFrom)],
        ['Stats computed (UTC)', utc(c.computedAt)],
      ],
    ),
    // The latest sales only: how many there are in all, and where the rest are (REST's sales, linked below).
    `## Recent sales (${c.salesAll > c.recentSales.length ? `the latest ${c.recentSales.length} of ${num(c.salesAll, 0)}; all: REST sales below` : c.recentSales.length})`,
    // Both parties of each sale, as REST and get_nft_collection name them (the seller: the listing owner's payout
    // address), each linked to its wallet view.
    table(
      ['Time (UTC)', 'Asset', 'Price (ADA)', 'Marketplace', 'Seller', 'Buyer', 'Tx'],
      c.recentSales.map((s) => [
        utc(s.time),
        soldCell(s),
        num(s.price),
        text(s.marketplace),
        walletCell(ctx, s.seller),
        walletCell(ctx, s.buyer),
        link(short(s.txHash, 6), rest(ctx, `/explorer/tx/${s.txHash}`)),
      ]),
    ),
    links([
      ['REST: collection (JSON)', rest(ctx, `/nft/collections/${c.policyId}`)],
      ['REST: every active listing (cheapest first)', rest(ctx, `/nft/collections/${c.policyId}/listings`)],
      ['REST: sales', rest(ctx, `/nft/collections/${c.policyId}/sales`)],
      ['Dashboard', md(ctx, '/dashboard')],
    ]),
  );
}
