/**
 * The NFT view's recent sales against the REST sale records they show: a jpg.store bundle (one listing of several
 * NFTs, bought at one price) is a sale of every unit it names, so its price is not one NFT's. The collection is Dev
 * Punks as GET /nft/collections/{policy} answered it on the devnet, with its latest sale made a bundle of three.
 */
import assert from 'node:assert/strict';
import { renderNft } from '../../views/md/nft.js';
import type { NftCollection, NftSale, ViewContext } from '../../views/md/types.js';

const ctx: ViewContext = {
  site: 'https://cds.example',
  fresh: { asOf: '2026-11-29T14:33:22Z', lagSeconds: 3, height: 8631, tipHeight: 8631 },
};

const policy = '41c2bb7f0a094bcda7b79c7f1a5eabd6842c1c396e673e23d9617312';
const punk = (n: number) => `${policy}${Buffer.from(`DevPunk${n}`).toString('hex')}`;
const sale = (n: number, units: string[], price: number): NftSale => ({
  txHash: '180585e119c47b37b9584e878a1761e19080b1b00b2c5017c59b91f72de668f7',
  time: '2026-11-29T12:51:26.000Z',
  price,
  marketplace: 'jpg.store',
  asset: { unit: punk(n), policyId: policy, name: `Dev Punks #${n}`, image: null },
  units,
  buyer: 'addr1qx8wjzfc2ejnypawrf6499wjdl5eumhxvz00307pt56znjk7nfrjae87vq4h78f6zp0h28xzx85r7mydq2yxxs4lgl7q0jedvn',
  seller: null,
});

const collection = (recentSales: NftSale[]): NftCollection => ({
  policyId: policy,
  name: 'Dev Punks',
  standards: ['cip25'],
  floor: 14,
  floorUsd: 8.952756,
  floorChange24h: -0.2631578947368421,
  volume24h: 1850.530606,
  volume7d: 3932.367332,
  volume30d: 3932.367332,
  volumeAll: 3932.367332,
  sales24h: 34,
  sales7d: 64,
  sales30d: 64,
  salesAll: 64,
  listings: 50,
  supply: 1000,
  owners: 345,
  lastSaleTime: '2026-11-29T12:51:26.000Z',
  lastSalePrice: 263.27,
  recentSales,
  computedAt: '2026-11-29T14:37:08.989Z',
  coverageFrom: '2026-11-27T14:32:53.000Z',
  minted: 1000,
  burned: 0,
});

/** The rows of the recent sales table, cell by cell. */
const salesRows = (text: string) => {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.startsWith('| Time (UTC) | Asset |'));
  const rows: string[][] = [];
  for (let i = at + 2; at >= 0 && lines[i]?.startsWith('|'); i++) rows.push(lines[i]!.slice(2, -2).split(' | '));
  return rows;
};

describe('Markdown NFT view: recent sales', () => {
  it('a bundle sale names how many NFTs its one price bought (it showed the first NFT alone at the whole price)', () => {
    const rows = salesRows(
      renderNft(ctx, collection([sale(683, [punk(683), punk(684), punk(685)], 263.27), sale(239, [punk(239)], 41)])),
    );
    assert.deepEqual(
      rows.map((r) => [r[1], r[2]]),
      [
        ['Dev Punks #683 + 2 more (bundle of 3)', '263.27'],
        ['Dev Punks #239', '41'],
      ],
    );
  });
});

describe('Markdown NFT view: a collection without a sale', () => {
  it('says none was indexed instead of "— at —"', () => {
    const text = renderNft(ctx, { ...collection([]), lastSaleTime: null, lastSalePrice: null });
    assert.match(text, /\| Last sale \(ADA, UTC\) \| none in the indexed history \|/);
    assert.doesNotMatch(text, /— at —/);
  });
});

describe('Markdown NFT view: both parties of a sale', () => {
  // The devnet's Chain Golems #111 sale as GET /nft/collections/{policy}/sales answered it (tx 3fb4ec4a…): the
  // seller is the listing owner's payout address, the buyer the address the NFT went to (checked against the
  // chain by decoding the jpg.store datum and the buy transaction's outputs).
  const seller =
    'addr1qx4ravfacuqk52yxja5gru4ejputzma7qqh38rws9fla2srwwxs0lx9xvvsztc7sk0yh3kc0e7wvrpjy4n5uyedfm2cs0av6j0';
  const buyer = 'addr1vxpg6qskn4j2z3tl0ls0pxmde872wxeywmzv3w8yd2n7wsqezd5l2';

  it('names the seller beside the buyer, each linked to its wallet view (REST and the tool name both; it showed only the buyer)', () => {
    const text = renderNft(ctx, collection([{ ...sale(239, [punk(239)], 41), buyer, seller }]));
    const lines = text.split('\n');
    assert.ok(lines.includes('| Time (UTC) | Asset | Price (ADA) | Marketplace | Seller | Buyer | Tx |'));
    const [row] = salesRows(text);
    assert.match(row![4]!, new RegExp(`\\(https://cds\\.example/api/md/wallet/${seller}\\)$`));
    assert.match(row![5]!, new RegExp(`\\(https://cds\\.example/api/md/wallet/${buyer}\\)$`));
  });

  it('a sale record without a seller shows "—" in its place, not the buyer', () => {
    const [row] = salesRows(renderNft(ctx, collection([sale(239, [punk(239)], 41)])));
    assert.equal(row![4], '—');
    assert.match(row![5]!, /\/api\/md\/wallet\/addr1qx8wjzfc/);
  });
});
