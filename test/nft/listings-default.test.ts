/**
 * GET /nft/collections/{policy}/listings takes no parameters in the spec and answers the collection's active
 * listings: all of them, not a first page of 50. A collection with 128 active jpg.store listings (the count the audit
 * saw on a long-running devnet; the test devnets list a handful) and 3 closed ones, seeded by hand with prices
 * 1..128 ADA in a shuffled order; the expected answer is computed by hand from those figures. `limit` and `cursor`
 * stay optional extras and page the same list.
 */
import assert from 'node:assert/strict';
import { NFT_LISTINGS, priceKey, UNKNOWN_PRICE_KEY, type NftListingDoc } from '../../mongo/collections/nft.js';
import { put, type Store } from '../../mongo/store.js';
import { TIP, seedChain, startTestApi, type TestApi } from '../api/seed.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const POLICY = 'a7'.repeat(28);
const OTHER = 'b8'.repeat(28);
const ACTIVE = 128;
const TIP_SLOT = TIP.slot ?? 0;
const hex2 = (n: number) => n.toString(16).padStart(2, '0');

function listing(policy: string, n: number, ada: number, status: NftListingDoc['status']): NftListingDoc {
  const id = `${hex2(n)}${hex2(policy === POLICY ? 1 : 2)}${'c9'.repeat(30)}#0`;
  const unit = `${policy}4e4654${hex2(n)}`;
  const lovelace = String(ada * 1_000_000);
  return {
    _id: id,
    policyId: policy,
    unit,
    units: [unit],
    bundle: false,
    marketplace: 'jpg.store',
    version: 'v3',
    priceLovelace: lovelace,
    priceKey: priceKey(lovelace),
    seller: null,
    owner: null,
    payouts: [],
    listedSlot: TIP_SLOT - 1000 + n,
    listedTx: id.slice(0, 64),
    status,
    closedSlot: status === 'active' ? null : TIP_SLOT - 10,
    closedTx: status === 'active' ? null : 'e1'.repeat(32),
    replaces: null,
    relistedAs: null,
    slot: TIP_SLOT - 1000 + n,
  };
}

async function seed(store: Store): Promise<void> {
  await seedChain(store);
  // Prices 1..128 ADA, written in a shuffled order (n·37 mod 128 visits every residue once).
  const docs = Array.from({ length: ACTIVE }, (_, n) => listing(POLICY, n, ((n * 37) % ACTIVE) + 1, 'active'));
  docs.push(listing(POLICY, 200, 0.5, 'sold'), listing(POLICY, 201, 0.25, 'cancelled'));
  docs.push(listing(POLICY, 202, 0.1, 'updated'), listing(OTHER, 1, 2, 'active'));
  await store.write(docs.map((d) => put(NFT_LISTINGS, d)));
}

describe('NFT listings: an unknown price comes last in either order', function () {
  this.timeout(60_000);
  // 60 priced listings (1 … 60 ADA) and 5 whose datum was never seen (no price), on another collection.
  const THIRD = 'c3'.repeat(28);
  const PRICED = 60;
  const unknownIds: string[] = [];
  let api: TestApi;
  before(async () => {
    api = await startTestApi(async (store) => {
      await seedChain(store);
      const docs = Array.from({ length: PRICED }, (_, n) => listing(THIRD, n, ((n * 7) % PRICED) + 1, 'active'));
      for (let n = 100; n < 105; n++) {
        const d = listing(THIRD, n, 0, 'active');
        unknownIds.push(d._id);
        docs.push({ ...d, priceLovelace: null, priceKey: UNKNOWN_PRICE_KEY });
      }
      await store.write(docs.map((d) => put(NFT_LISTINGS, d)));
    });
  });
  after(async () => api?.close());

  for (const [sort, priced] of [
    ['price_asc', Array.from({ length: PRICED }, (_, i) => i + 1)],
    ['price_desc', Array.from({ length: PRICED }, (_, i) => PRICED - i)],
  ] as const) {
    it(`${sort}: every priced listing in order, then the unknown ones, whole and in pages of 7`, async () => {
      const expected = [...priced, ...unknownIds.map(() => null)];
      const whole = (await api.get(`/api/v1/nft/collections/${THIRD}/listings?sort=${sort}`)).body as Json;
      assert.deepEqual(
        whole.items.map((l: Json) => l.price),
        expected,
      );
      // Among themselves, by output reference.
      assert.deepEqual(
        whole.items.slice(PRICED).map((l: Json) => l.id),
        [...unknownIds].sort(),
      );
      const paged: Json[] = [];
      let cursor: string | null = null;
      do {
        const q: string = `sort=${sort}&limit=7${cursor ? `&cursor=${cursor}` : ''}`;
        const r = (await api.get(`/api/v1/nft/collections/${THIRD}/listings?${q}`)).body as Json;
        paged.push(...r.items);
        cursor = r.nextCursor;
      } while (cursor);
      assert.deepEqual(paged, whole.items);
    });
  }
});

describe('NFT listings: the default answer holds every active listing', function () {
  this.timeout(60_000);
  let api: TestApi;
  before(async () => {
    api = await startTestApi(seed);
  });
  after(async () => api?.close());
  const get = async (p: string) => (await api.get(`/api/v1${p}`)) as { status: number; body: Json };

  it('no parameters: all 128 active listings, cheapest first (1 … 128 ADA), total 128, no nextCursor', async () => {
    const r = await get(`/nft/collections/${POLICY}/listings`);
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.items.map((l: Json) => l.price),
      Array.from({ length: ACTIVE }, (_, i) => i + 1),
    );
    assert.equal(r.body.total, ACTIVE);
    assert.equal(r.body.nextCursor, null);
    const desc = await get(`/nft/collections/${POLICY}/listings?sort=price_desc`);
    assert.deepEqual(
      desc.body.items.map((l: Json) => l.price),
      Array.from({ length: ACTIVE }, (_, i) => ACTIVE - i),
    );
  });

  it('limit and cursor remain optional: pages of 50 chain through the same 128 listings', async () => {
    const prices: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r = await get(`/nft/collections/${POLICY}/listings?limit=50${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(r.status, 200);
      assert.equal(r.body.total, ACTIVE);
      prices.push(...r.body.items.map((l: Json) => l.price as number));
      cursor = r.body.nextCursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 3);
    assert.deepEqual(
      prices,
      Array.from({ length: ACTIVE }, (_, i) => i + 1),
    );
    assert.equal((await get(`/nft/collections/${POLICY}/listings?limit=201`)).status, 400);
  });
});
