/**
 * Collection stats from listings and sales: the floor now and 24 h ago (from the listings active then), the volume
 * windows and USD figures. A two-day history of one collection in the shape the sync extension writes.
 */
import assert from 'node:assert/strict';
import { computeCollectionStats, floorOf } from '../../activities/nft/stats.js';
import { slotClock } from '../../mongo/collections/clock.js';
import {
  UNKNOWN_PRICE_KEY,
  priceKey,
  salePaidLovelace,
  type NftCollectionDoc,
  type NftListingDoc,
  type NftSaleDoc,
} from '../../mongo/collections/nft.js';

const POLICY = 'ab'.repeat(28);
const DAY = 86_400;
const TIP = 100 * DAY;
const ADA = 1_000_000n;

function listing(
  id: number,
  ada: bigint | null,
  listedSlot: number,
  closed: { slot: number; status: NftListingDoc['status'] } | null,
  bundle = false,
): NftListingDoc {
  const price = ada === null ? null : String(ada * ADA);
  return {
    _id: `${String(id).padStart(64, '0')}#0`,
    policyId: POLICY,
    unit: `${POLICY}${id.toString(16).padStart(2, '0')}`,
    units: bundle ? [`${POLICY}01`, `${POLICY}02`] : [`${POLICY}${id.toString(16).padStart(2, '0')}`],
    bundle,
    marketplace: 'jpg.store',
    version: 'v3',
    priceLovelace: price,
    priceKey: price === null ? UNKNOWN_PRICE_KEY : priceKey(price),
    seller: null,
    owner: null,
    payouts: [],
    listedSlot,
    listedTx: null,
    status: closed?.status ?? 'active',
    closedSlot: closed?.slot ?? null,
    closedTx: null,
    replaces: null,
    relistedAs: null,
    slot: closed?.slot ?? listedSlot,
  };
}

const sale = (id: number, ada: bigint, slot: number): NftSaleDoc => ({
  _id: `${String(id).padStart(64, '0')}#0`,
  policyId: POLICY,
  unit: `${POLICY}01`,
  units: [`${POLICY}01`],
  marketplace: 'jpg.store',
  version: 'v3',
  priceLovelace: String(ada * ADA),
  feePaidLovelace: null,
  buyer: null,
  seller: null,
  txId: String(id).padStart(64, '0'),
  slot,
  height: slot / 20,
  txIndex: 0,
  listingRef: `${String(id).padStart(64, '0')}#0`,
});

const collection: NftCollectionDoc = {
  _id: POLICY,
  policyId: POLICY,
  name: 'Test Apes',
  image: 'ipfs://QmTest',
  standards: ['cip25'],
  supply: 40,
  minted: 41,
  burned: 1,
  owners: 17,
  firstMintSlot: 1000,
  firstMintTx: '00'.repeat(32),
  lastMintSlot: 2000,
  slot: 2000,
};

describe('NFT collection stats', () => {
  const clock = slotClock({ slot: TIP, timeMs: Date.UTC(2026, 10, 20) });
  // 24 h ago the floor was 80 ADA (listing 1, sold since); now it is 100 ADA (listing 3). Listing 2 (60 ADA) was
  // listed and cancelled before then; the 50 ADA bundle and the unknown-price listing never count.
  const listings = [
    listing(1, 80n, TIP - 2 * DAY, { slot: TIP - 3600, status: 'sold' }),
    listing(2, 60n, TIP - 3 * DAY, { slot: TIP - 2 * DAY, status: 'cancelled' }),
    listing(3, 100n, TIP - 30 * 3600, null),
    listing(4, 50n, TIP - 3 * DAY, null, true),
    listing(5, null, TIP - 3 * DAY, null),
    listing(6, 120n, TIP - 3600, null),
  ];
  const sales = [sale(1, 80n, TIP - 3600), sale(7, 200n, TIP - 3 * DAY), sale(8, 1000n, TIP - 40 * DAY)];
  const active = listings.filter((l) => l.status === 'active');
  const stats = computeCollectionStats(
    {
      collection,
      active,
      listedBy24hAgo: listings.filter((l) => l.listedSlot! <= TIP - DAY),
      sales,
    },
    { tipSlot: TIP, clock, adaUsd: 0.5, computedAt: '2026-11-20T00:00:00.000Z' },
  );

  it('floor: cheapest active single-NFT listing with a known price; 24 h ago from the listings active then', () => {
    assert.equal(stats.floorLovelace, '100000000');
    assert.equal(stats.floor, 100);
    assert.equal(stats.floorUsd, 50);
    assert.equal(stats.floor24hAgo, 80);
    assert.equal(stats.floorChange24h, 0.25);
    assert.equal(floorOf(listings, TIP - 2.5 * DAY), 60n * ADA, 'the cancelled listing was the floor then');
  });

  it('volumes and sales counts per window, listings, supply and owners from the collection', () => {
    assert.deepEqual([stats.volume24h, stats.volume7d, stats.volume30d, stats.volumeAll], [80, 280, 280, 1280]);
    assert.deepEqual([stats.sales24h, stats.sales7d, stats.sales30d, stats.salesAll], [1, 2, 2, 3]);
    assert.equal(stats.volume24hUsd, 40);
    assert.equal(stats.listings, 4, 'bundles and unknown prices are listings too');
    assert.equal(stats.supply, 40);
    assert.equal(stats.owners, 17);
    assert.equal(stats.lastSalePrice, 80);
    assert.equal(stats.lastSaleTime, clock.iso(TIP - 3600));
  });

  it('no floor and no change without priced single listings; no USD without ADA/USD', () => {
    const empty = computeCollectionStats(
      { collection, active: [listing(4, 50n, 0, null, true)], listedBy24hAgo: [], sales: [] },
      { tipSlot: TIP, clock, adaUsd: null, computedAt: '2026-11-20T00:00:00.000Z' },
    );
    assert.equal(empty.floor, null);
    assert.equal(empty.floorChange24h, null);
    assert.equal(empty.floorUsd, null);
    assert.equal(empty.volume24hUsd, null);
    assert.equal(empty.lastSaleTime, null);
    assert.equal(empty.rankFloor, null);
  });
});

describe('NFT sale price: what the buyer paid', () => {
  // A v3 listing of 5 ADA in payouts (4.8 seller + 0.2 royalty): the contract's formula fee is
  // 5,000,000·50/49/50 = 102,040 lovelace, a list price of 5.102040 ADA; the buy paid the 1 ADA minimum fee output.
  const payouts = [
    { address: 'addr1seller', lovelace: '4800000' },
    { address: 'addr1royalty', lovelace: '200000' },
  ];
  it('the listing payouts plus the fee output the sale carried', () => {
    assert.equal(salePaidLovelace({ priceLovelace: '5102040', feePaidLovelace: '1000000' }, { payouts }), '6000000');
  });
  it('the listing price without a fee output (v2) or without the listing payouts', () => {
    assert.equal(salePaidLovelace({ priceLovelace: '5000000', feePaidLovelace: null }, { payouts }), '5000000');
    assert.equal(
      salePaidLovelace({ priceLovelace: '5102040', feePaidLovelace: '1000000' }, { payouts: [] }),
      '5102040',
    );
    assert.equal(salePaidLovelace({ priceLovelace: null, feePaidLovelace: '1000000' }, null), null);
  });
});
