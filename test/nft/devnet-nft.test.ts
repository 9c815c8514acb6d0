/**
 * NFT collections and the jpg.store v3 marketplace end to end: the devnet mints CIP-25 and CIP-68 collections and
 * lists, buys, cancels and re-prices them in jpg.store's on-chain format; the sync (production Ogmios client, default
 * extensions), the `nft` recompute and the REST API turn that into collections, floors, volumes, owners, sales and
 * listings. Expected values are recomputed independently from the indexed UTxO set and transactions where possible.
 * A forked devnet run, and a replay that rolls back blocks full of marketplace activity, index the same NFT documents
 * as the clean chain.
 */
import assert from 'node:assert/strict';
import { parseOgmiosJson } from '../../activities/chain/json.js';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import type { ChainSource } from '../../activities/chain/source.js';
import type { Block, ChainEvent } from '../../cardano/chain/types.js';
import { defaultExtensions } from '../../activities/extensions.js';
import { createNftExtension } from '../../activities/nft/extension.js';
import {
  JPG_V3_ASK_SCRIPT,
  decodeListingDatum,
  listingPrice,
  marketplaceFeeV3,
} from '../../activities/nft/jpgstore.js';
import { createNftActivities } from '../../activities/nft/stats.js';
import { createRecomputeActivities } from '../../activities/recompute/index.js';
import { recomputeNftRarity } from '../../activities/search/rarity.js';
import { parseAddress, stakeAddressOf } from '../../cardano/address.js';
import { SUNDAESWAP_V3 } from '../../cardano/dex/sundaeswap-v3.js';
import { HANDLE_POLICY } from '../../cardano/handles.js';
import { dexTokens } from '../../devnet/activity/dex-tokens.js';
import { JPG_V3_ASK_ADDRESS, JPG_V3_FEE_ADDRESS, relicsCollection } from '../../devnet/activity/nft-market.js';
import { nftMetadata } from '../../devnet/activity/nfts.js';
import { startDevnet, type Devnet } from '../../devnet/index.js';
import { canonicalBlocks } from '../governance/chain-expected.js';
import { metadataObject, TRANSACTIONS, UTXOS } from '../../mongo/collections/chain.js';
import { NFT_LISTINGS, NFT_SYNC_COLLECTIONS } from '../../mongo/collections/nft.js';
import { NFT_RARITY } from '../../mongo/collections/index.js';
import { storeDigest } from '../../mongo/digest.js';
import { startTestApi, type TestApi } from '../api/seed.js';
import { syncWith } from '../holders/sync-holders.js';
import { tempStore } from '../sync/helpers.js';
import { memoryChain } from '../sync/memory-chain.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const NOW = Date.UTC(2026, 10, 20, 12);
const SEED = 'nft-test';
const HOURS = 5;
const COLLECTION_NAMES = ['Chain Golems', 'Dev Punks', 'Devnet Relics', 'Lunar Foxes', 'Pixel Gardens'];

const startNet = (forkRate: number) =>
  startDevnet({ seed: SEED, backfillHours: HOURS, blockMs: 3_600_000, forkRate, now: () => NOW });

const lovelaceOf = (ada: number) => BigInt(Math.round(ada * 1e6));

describe('NFT collections and jpg.store on the devnet', function () {
  this.timeout(300_000);
  let devnet: Devnet;
  let chain: ChainSource;
  let api: TestApi;
  let rows: Json[];

  before(async () => {
    devnet = await startNet(0);
    chain = await connectOgmios(devnet.url);
    api = await startTestApi(
      async (store) => {
        await syncWith(store, chain, defaultExtensions(), 97);
        const market = createRecomputeActivities({ store, now: () => NOW });
        await market.recomputeTokenStats();
        await market.recomputeMarketOverview();
        await createNftActivities({ store, now: () => NOW }).recomputeNftStats();
      },
      { now: () => NOW },
    );
    const res = await api.get('/api/v1/nft/collections?pageSize=200');
    assert.equal(res.status, 200);
    rows = (res.body as Json).items;
  });
  after(async () => {
    await chain?.close();
    await devnet?.close();
    await api?.close();
  });

  const byName = (name: string) => rows.find((r) => r.name === name) as Json;
  const get = async (p: string) => (await api.get(`/api/v1${p}`)) as { status: number; body: Json };

  /** Every active listing of a policy, cheapest first, through the cursor. */
  async function allListings(policy: string): Promise<Json[]> {
    const out: Json[] = [];
    let cursor: string | null = null;
    do {
      const r = await get(`/nft/collections/${policy}/listings?limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(r.status, 200);
      out.push(...r.body.items);
      cursor = r.body.nextCursor;
    } while (cursor);
    return out;
  }

  async function allSales(policy: string): Promise<Json[]> {
    const out: Json[] = [];
    let cursor: string | null = null;
    do {
      const r = await get(`/nft/collections/${policy}/sales?limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(r.status, 200);
      out.push(...r.body.items);
      cursor = r.body.nextCursor;
    } while (cursor);
    // Newest first in chain order: block, then the transaction's position in it (the devnet's own blocks).
    const position = new Map<string, [number, number]>();
    for (const b of canonicalBlocks(devnet))
      (b.transactions ?? []).forEach((tx, i) => position.set(tx.id, [b.height ?? 0, i]));
    for (let i = 1; i < out.length; i++) {
      const [h0, i0] = position.get(out[i - 1]!.txHash) ?? [0, 0];
      const [h1, i1] = position.get(out[i]!.txHash) ?? [0, 0];
      assert.ok(h1 < h0 || (h1 === h0 && i1 <= i0), `${policy} sales ${i - 1}, ${i} out of chain order`);
    }
    return out;
  }

  it('lists the five devnet collections (one CIP-68) and no fungible token', async () => {
    for (const name of COLLECTION_NAMES) assert.ok(byName(name), `collection ${name}`);
    assert.deepEqual(byName('Devnet Relics').standards, ['cip68']);
    assert.deepEqual(byName('Dev Punks').standards, ['cip25']);
    const fungible = new Set([
      ...devnet.world.tokens.map((t) => t.policyId),
      ...dexTokens(devnet.world).map((t) => t.policyId),
    ]);
    for (const r of rows) assert.ok(!fungible.has(r.policyId), `${r.name} is not a fungible token's policy`);
    // The collections are exactly the devnet's NFT collections: its SundaeSwap V3 pool NFTs (CIP-68 (222) tokens,
    // one per pool) and its ADA Handles are unique tokens too, on the ledger, but neither is an NFT collection.
    const onLedger = (policy: string) =>
      [...devnet.ledger.utxos.values()].filter((u) => Object.keys(u.value.assets[policy] ?? {}).length > 0).length;
    assert.ok(onLedger(SUNDAESWAP_V3.poolScriptHash) > 0, 'the devnet has SundaeSwap V3 pools');
    assert.ok(onLedger(HANDLE_POLICY) > 0, 'the devnet has minted handles');
    assert.deepEqual(
      rows.map((r) => `${r.policyId} ${r.name}`).sort(),
      [...devnet.world.collections, relicsCollection(devnet.world)].map((c) => `${c.policyId} ${c.name}`).sort(),
    );
    const res = await get('/nft/collections?pageSize=2&page=2');
    assert.equal(res.body.total, rows.length);
    assert.equal(res.body.page, 2);
    assert.deepEqual(
      res.body.items.map((r: Json) => r.policyId),
      rows.slice(2, 4).map((r) => r.policyId),
    );
    assert.ok(res.body.computedAt);
    // Default order: 24 h volume, largest first.
    for (let i = 1; i < rows.length; i++) assert.ok(rows[i - 1]!.volume24h >= rows[i]!.volume24h);
  });

  it('floor = the cheapest active listing; listings match the ask UTxOs and their datums', async () => {
    const askUtxos = await api.store.collection(UTXOS).find('byAddress', { eq: [JPG_V3_ASK_ADDRESS] });
    let withListings = 0;
    for (const name of COLLECTION_NAMES) {
      const row = byName(name);
      const listings = await allListings(row.policyId);
      const onChain = askUtxos.filter((u) => Object.keys(u.value.assets).some((a) => a.startsWith(row.policyId)));
      assert.equal(listings.length, onChain.length, `${name}: one active listing per ask UTxO`);
      assert.equal(row.listings, listings.length);
      if (!listings.length) {
        assert.equal(row.floor, null);
        continue;
      }
      withListings++;
      for (let i = 1; i < listings.length; i++)
        assert.ok(listings[i - 1]!.price <= listings[i]!.price, 'cheapest first');
      assert.equal(row.floor, listings[0]!.price, `${name}: floor`);
      for (const l of listings) {
        assert.equal(l.marketplace, 'jpg.store');
        assert.equal(l.version, 'v3');
        assert.ok(l.asset.name.startsWith(`${name} #`), l.asset.name);
        assert.ok(l.listedAt && l.seller?.startsWith('addr1'));
        // The price, independently: the datum jpg.store chunked into the listing tx's metadata (labels 50…).
        const meta = metadataObject((await api.store.collection(TRANSACTIONS).get(l.txHash))?.metadata ?? null);
        let hex = '';
        for (let label = 50; typeof meta?.[String(label)] === 'string'; label++) hex += meta[String(label)] as string;
        const datum = decodeListingDatum(hex.replace(/,$/, ''), 'v3');
        assert.equal(l.priceLovelace, String(listingPrice(datum)));
        assert.equal(parseAddress(l.seller).paymentCred, datum.owner, 'the seller is the datum owner');
        assert.equal(parseAddress(askUtxos[0]!.address).paymentCred, JPG_V3_ASK_SCRIPT);
      }
    }
    assert.ok(withListings >= 3, `active listings in several collections (${withListings})`);
  });

  it('volume = Σ sale prices, sales newest first, buyers received the NFT', async () => {
    let withSales = 0;
    for (const name of COLLECTION_NAMES) {
      const row = byName(name);
      const sales = await allSales(row.policyId);
      assert.equal(row.salesAll, sales.length);
      const sum = sales.reduce((s, x) => s + BigInt(x.priceLovelace), 0n);
      assert.equal(lovelaceOf(row.volumeAll), sum, `${name}: volume`);
      for (let i = 1; i < sales.length; i++) assert.ok(sales[i - 1]!.slot >= sales[i]!.slot, 'newest first');
      if (sales.length) withSales++;
      for (const s of sales.slice(0, 5)) {
        const tx = await api.store.collection(TRANSACTIONS).get(s.txHash);
        const out = tx!.outputs.find((o) => o.value.assets[s.asset.unit] === '1');
        assert.equal(out?.address, s.buyer, 'the buyer output holds the NFT');
        assert.ok(
          tx!.outputs.some((o) => o.address === s.seller),
          'the seller is paid',
        );
      }
    }
    assert.ok(withSales >= 3, `sales in several collections (${withSales})`);
  });

  it('a sale is priced at what its buyer paid: the listing datum’s payouts plus the sale’s marketplace fee output', async () => {
    // Reference §3.3: sale price = Σ payouts + marketplace fee output, read here from the devnet's own sale blocks.
    // The fee output is at least 1 ADA, above the contract formula's ~2 % for payouts under ~49 ADA.
    const txs = new Map(canonicalBlocks(devnet).flatMap((b) => (b.transactions ?? []).map((tx) => [tx.id, tx])));
    let aboveFormula = 0;
    for (const name of COLLECTION_NAMES) {
      const row = byName(name);
      const sales = await allSales(row.policyId);
      let volume = 0n;
      for (const s of sales) {
        const tx = txs.get(s.txHash)!;
        const [datumHex] = Object.values(tx.datums ?? {});
        const payouts = decodeListingDatum(datumHex!, 'v3').payouts.reduce((a, p) => a + p.lovelace, 0n);
        const fee = tx.outputs.find((o) => o.address === JPG_V3_FEE_ADDRESS)!.value.ada.lovelace;
        assert.equal(s.priceLovelace, String(payouts + fee), `${name}: sale ${s.id}`);
        assert.equal(s.price, Number(payouts + fee) / 1e6);
        if (fee > marketplaceFeeV3(payouts)) aboveFormula++;
        volume += payouts + fee;
      }
      assert.equal(lovelaceOf(row.volumeAll), volume, `${name}: volume`);
      const detail = (await get(`/nft/collections/${row.policyId}`)).body;
      assert.equal(detail.lastSalePrice, sales[0] ? sales[0].price : null);
      assert.deepEqual(
        detail.recentSales.map((x: Json) => x.priceLovelace),
        sales.slice(0, 10).map((x) => x.priceLovelace),
      );
    }
    assert.ok(aboveFormula > 0, 'sales whose fee output is above the formula fee (the 1 ADA minimum)');
  });

  it('a listing is priced at what its buyer pays: a sold listing at its sale’s payment, the fee at least 1 ADA', async () => {
    // What buying a listing cost, from the devnet's own sale blocks: the listing datum's payouts plus the sale's
    // marketplace fee output, which is 1 ADA (jpg.store's minimum payout) where the contract formula's ~2 % is less.
    const txs = new Map(canonicalBlocks(devnet).flatMap((b) => (b.transactions ?? []).map((tx) => [tx.id, tx])));
    let minimumFee = 0;
    for (const name of COLLECTION_NAMES) {
      for (const s of await allSales(byName(name).policyId)) {
        const tx = txs.get(s.txHash)!;
        const [datumHex] = Object.values(tx.datums ?? {});
        const payouts = decodeListingDatum(datumHex!, 'v3').payouts.reduce((a, p) => a + p.lovelace, 0n);
        const fee = tx.outputs.find((o) => o.address === JPG_V3_FEE_ADDRESS)!.value.ada.lovelace;
        if (fee === 1_000_000n) minimumFee++;
        // The listing document the listings route presented (its priceLovelace) while the listing was active.
        const listing = await api.store.collection(NFT_LISTINGS).get(s.id);
        assert.equal(listing?.priceLovelace, String(payouts + fee), `${name}: listing ${s.id} before its sale`);
      }
      // Active listings: the price is the datum's payouts plus a fee of at least 1 ADA (the formula's above ~49 ADA).
      for (const l of await allListings(byName(name).policyId)) {
        const meta = metadataObject((await api.store.collection(TRANSACTIONS).get(l.txHash))?.metadata ?? null);
        let hex = '';
        for (let label = 50; typeof meta?.[String(label)] === 'string'; label++) hex += meta[String(label)] as string;
        const payouts = decodeListingDatum(hex.replace(/,$/, ''), 'v3').payouts.reduce((a, p) => a + p.lovelace, 0n);
        const fee = BigInt(l.priceLovelace) - payouts;
        assert.ok(fee >= 1_000_000n, `${name}: listing ${l.id} fee ${fee} lovelace`);
        if (payouts >= 49_000_000n) assert.equal(fee, marketplaceFeeV3(payouts), `${name}: listing ${l.id}`);
      }
    }
    assert.ok(minimumFee > 0, 'sales that paid the 1 ADA minimum fee');
  });

  it('records cancels and price updates', async () => {
    const closed = { cancelled: new Set<string>(), updated: new Set<string>() };
    for await (const l of api.store.collection(NFT_LISTINGS).scan())
      if (l.status === 'cancelled' || l.status === 'updated') closed[l.status].add(l.policyId!);
    assert.ok(closed.cancelled.size >= 2, 'cancels in several collections');
    assert.ok(closed.updated.size >= 2, 'updates in several collections');
  });

  it('supply and owners equal the NFTs and distinct holders in the UTxO set (a listed NFT counts for its seller)', async () => {
    for (const name of COLLECTION_NAMES) {
      const row = byName(name);
      const sellers = new Map((await allListings(row.policyId)).map((l) => [l.asset.unit, l.seller as string]));
      const units = new Set<string>();
      const holders = new Set<string>();
      for await (const u of api.store.collection(UTXOS).scan())
        for (const unit of Object.keys(u.value.assets)) {
          if (!unit.startsWith(row.policyId) || unit.slice(56).startsWith('000643b0')) continue;
          units.add(unit);
          const seller = u.address === JPG_V3_ASK_ADDRESS ? sellers.get(unit) : undefined;
          holders.add(seller ? (stakeAddressOf(seller) ?? seller) : (u.stakeAddress ?? u.address));
        }
      assert.equal(row.supply, units.size, `${name}: supply`);
      assert.equal(row.owners, holders.size, `${name}: owners`);
      assert.ok(row.owners > 10 && row.owners <= row.supply);
    }
  });

  it('a wallet shows the NFTs it holds by name and collection, valued at the collection’s floor', async () => {
    // The oracle: the devnet's own ledger and naming (nftMetadata for CIP-25 pieces, `${name} #${n}` for relics).
    const collections = [...devnet.world.collections, relicsCollection(devnet.world)];
    const byPolicy = new Map(collections.map((c) => [c.policyId, c]));
    const held = new Map<string, Map<string, string>>(); // stake key → NFT unit → expected name
    for (const u of devnet.ledger.utxos.values()) {
      const key = stakeAddressOf(u.address);
      if (!key || u.address === JPG_V3_ASK_ADDRESS) continue;
      for (const [policy, names] of Object.entries(u.value.assets)) {
        const c = byPolicy.get(policy);
        if (!c) continue;
        for (const nameHex of Object.keys(names)) {
          // A relic's user token is (222) `000de140` + its name; its (100) reference token sits at a script.
          const label = nameHex.startsWith('000de140') ? nameHex.slice(8) : nameHex;
          const n = Number(Buffer.from(label, 'hex').toString('utf8').slice(c.prefix.length));
          const units = held.get(key) ?? new Map<string, string>();
          units.set(policy + nameHex, `${c.name} #${n}`);
          held.set(key, units);
        }
      }
    }
    const floors = new Map<string, number | null>();
    for (const c of collections) floors.set(c.policyId, (await allListings(c.policyId))[0]?.price ?? null);
    // The holders of the most NFTs, one of them holding a piece of a collection without a floor if there is one.
    const wallets = [...held].sort((a, b) => b[1].size - a[1].size).slice(0, 5);
    let priced = 0;
    for (const [key, units] of wallets) {
      const r = await get(`/wallet/${key}?logos=url`);
      assert.equal(r.status, 200);
      const nfts = (r.body.positions as Json[]).filter((p) => p.nft !== null);
      assert.deepEqual(nfts.map((p) => p.asset.unit).sort(), [...units.keys()].sort(), `${key}: its NFTs`);
      let sum = 0;
      for (const p of nfts) {
        const c = byPolicy.get(p.asset.policyId)!;
        const floor = floors.get(c.policyId) ?? null;
        assert.equal(p.nft.name, units.get(p.asset.unit));
        assert.deepEqual(p.nft.collection, { policyId: c.policyId, name: c.name });
        if (c.prefix !== 'Relic') {
          const n = Number(p.nft.name.split('#')[1]);
          assert.equal(p.nft.image, nftMetadata(devnet.world, c, n).image);
        } else assert.match(p.nft.image, /^ipfs:\/\//);
        assert.equal(p.balanceRaw, '1');
        assert.equal(p.nft.floor, floor);
        assert.equal(p.priceAda, floor);
        assert.equal(p.valueAda, floor);
        if (floor !== null) priced++;
        sum += floor ?? 0;
      }
      assert.equal(r.body.totals.nfts, nfts.length);
      assert.ok(Math.abs(r.body.totals.nftsAda - sum) < 1e-9, `${key}: nftsAda ${r.body.totals.nftsAda} vs ${sum}`);
      // Everything else keeps its own valuation: no fungible token or handle is taken for an NFT.
      for (const p of r.body.positions as Json[])
        if (p.nft === null) assert.ok(!byPolicy.has(p.asset.policyId), p.asset.unit);
      const unpriced = (r.body.positions as Json[]).filter((p) => p.valueAda === null).length;
      assert.equal(r.body.totals.unpriced, unpriced);
      // The Markdown view names each NFT and links its collection's view.
      const view = await api.get(`/api/md/wallet/${key}`);
      assert.equal(view.status, 200);
      for (const p of nfts) {
        assert.ok(String(view.body).includes(`${p.nft.name}, NFT of [${p.nft.collection.name}](`), p.nft.name);
        assert.ok(String(view.body).includes(`/api/md/nft/${p.asset.policyId})`));
      }
    }
    assert.ok(priced >= 3, `NFTs valued at a floor (${priced})`);
  });

  it('detail: live supply and owners, market stats in ADA and USD, the latest sales', async () => {
    const row = byName('Devnet Relics');
    const r = await get(`/nft/collections/${row.policyId.toUpperCase()}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.policyId, row.policyId);
    // All-time figures are of the indexed history: the answer says where it starts (the first block's time), as
    // the last page of the sales does.
    const firstBlock = (await get('/explorer/blocks/1')).body;
    assert.equal(r.body.coverageFrom, firstBlock.time);
    const lastPage = await get(`/nft/collections/${row.policyId}/sales?limit=200`);
    assert.equal(lastPage.body.nextCursor, null);
    assert.equal(lastPage.body.coverageFrom, firstBlock.time);
    // So do the list's rows (volumeAll, salesAll).
    assert.equal((await get('/nft/collections')).body.coverageFrom, firstBlock.time);
    assert.equal(r.body.supply, row.supply);
    assert.equal(r.body.owners, row.owners);
    assert.equal(r.body.minted, row.supply + r.body.burned);
    assert.equal(r.body.floor, row.floor);
    assert.ok(r.body.adaUsd > 0, 'ADA/USD from the stablecoin pools');
    if (r.body.floor !== null) assert.ok(Math.abs(r.body.floorUsd - r.body.floor * r.body.adaUsd) < 1e-3);
    const sales = await allSales(row.policyId);
    assert.deepEqual(
      r.body.recentSales.map((s: Json) => s.id),
      sales.slice(0, 10).map((s) => s.id),
    );
  });

  it('search and the other sorts', async () => {
    const relics = byName('Devnet Relics');
    const q = await get('/nft/collections?q=RELIC');
    assert.deepEqual(
      q.body.items.map((r: Json) => r.name),
      ['Devnet Relics'],
    );
    assert.equal(q.body.total, 1);
    const byPolicy = await get(`/nft/collections?q=${relics.policyId.slice(0, 12)}`);
    assert.equal(byPolicy.body.items[0].policyId, relics.policyId);
    // Spaces around the text are not part of it (as on /tokens): a pasted policy id still finds its collection.
    const padded = await get(`/nft/collections?q=%20${relics.policyId}%20`);
    assert.deepEqual(
      padded.body.items.map((r: Json) => r.policyId),
      [relics.policyId],
    );
    const floor = (await get('/nft/collections?sort=floor&pageSize=200')).body.items as Json[];
    const floors = floor.map((r) => r.floor);
    const firstNull = floors.indexOf(null);
    const priced = firstNull < 0 ? floors : floors.slice(0, firstNull);
    if (firstNull >= 0)
      assert.ok(
        floors.slice(firstNull).every((f) => f === null),
        'no floor: last',
      );
    for (let i = 1; i < priced.length; i++) assert.ok(priced[i - 1] >= priced[i]);
    const listings = (await get('/nft/collections?sort=listings&pageSize=200')).body.items as Json[];
    for (let i = 1; i < listings.length; i++) assert.ok(listings[i - 1]!.listings >= listings[i]!.listings);
  });

  it('400 for a malformed policy, cursor or page size; 404 for an unknown policy', async () => {
    const unknown = 'ab'.repeat(28);
    for (const p of [
      '/nft/collections/xyz',
      `/nft/collections/${'a'.repeat(55)}`,
      `/nft/collections/zz${unknown.slice(2)}/sales`,
    ]) {
      const r = await get(p);
      assert.equal(r.status, 400, p);
      assert.match(r.body.error, /policy/);
    }
    for (const p of [
      `/nft/collections/${unknown}`,
      `/nft/collections/${unknown}/sales`,
      `/nft/collections/${unknown}/listings`,
    ])
      assert.equal((await get(p)).status, 404, p);
    const policy = byName('Dev Punks').policyId;
    for (const p of [
      `/nft/collections/${policy}/sales?cursor=nonsense`,
      `/nft/collections/${policy}/listings?cursor=nonsense`,
      `/nft/collections/${policy}/sales?limit=0`,
      '/nft/collections?pageSize=201',
      '/nft/collections?sort=rarity',
    ])
      assert.equal((await get(p)).status, 400, p);
  });

  it('the listings route, without parameters, answers every active listing: one per ask UTxO on the devnet ledger', async () => {
    // The spec's listings route takes no parameters and answers the active listings: not a first page of 50.
    const askAssets = [...devnet.ledger.utxosAt(JPG_V3_ASK_ADDRESS)].flatMap((u) =>
      Object.entries(u.value.assets).flatMap(([p, names]) => Object.keys(names).map((n) => p + n)),
    );
    let most = 0;
    for (const name of COLLECTION_NAMES) {
      const policy = byName(name).policyId as string;
      const r = await get(`/nft/collections/${policy}/listings`);
      assert.equal(r.status, 200);
      const onLedger = askAssets.filter((u) => u.startsWith(policy)).sort();
      assert.deepEqual(
        r.body.items.map((l: Json) => l.asset.unit).sort(),
        onLedger,
        `${name}: every listed NFT, as on the ledger`,
      );
      assert.equal(r.body.total, onLedger.length);
      assert.equal(r.body.nextCursor, null, `${name}: nothing left to page`);
      most = Math.max(most, onLedger.length);
      // limit and cursor remain optional extras: a page of 2 says there is more.
      if (onLedger.length > 2) {
        const page = await get(`/nft/collections/${policy}/listings?limit=2`);
        assert.equal(page.body.items.length, 2);
        assert.ok(page.body.nextCursor);
      }
    }
    assert.ok(most > 2, `a collection with several active listings (${most})`);
  });

  it('a cursor belongs to its list: one of another collection (or the other order) is a 400; its own pages without gaps or repeats', async () => {
    const withSales = COLLECTION_NAMES.map(byName)
      .filter((r) => r.salesAll > 3)
      .sort((a, b) => b.salesAll - a.salesAll);
    assert.ok(withSales.length >= 2, 'two collections with sales');
    const [a, b] = withSales as [Json, Json];
    const first = await get(`/nft/collections/${a.policyId}/sales?limit=1`);
    const cursorA = first.body.nextCursor as string;
    assert.ok(cursorA);
    const foreign = await get(`/nft/collections/${b.policyId}/sales?limit=1&cursor=${cursorA}`);
    assert.equal(foreign.status, 400);
    assert.match(foreign.body.error, /^invalid parameter cursor: /);
    const listingsA = (await get(`/nft/collections/${a.policyId}/listings?limit=1`)).body.nextCursor as string;
    assert.ok(listingsA);
    for (const p of [
      `/nft/collections/${b.policyId}/listings?limit=1&cursor=${listingsA}`,
      `/nft/collections/${a.policyId}/listings?limit=1&sort=price_desc&cursor=${listingsA}`,
      `/nft/collections/${a.policyId}/sales?limit=1&cursor=${listingsA}`,
    ]) {
      const r = await get(p);
      assert.equal(r.status, 400, p);
      assert.match(r.body.error, /^invalid parameter cursor: /, p);
    }
    // The chain of A's own cursors: every sale once, in the order of the single 200-item page.
    const whole = (await get(`/nft/collections/${a.policyId}/sales?limit=200`)).body.items.map((x: Json) => x.id);
    assert.equal(whole.length, a.salesAll);
    const chained: string[] = [];
    let cursor: string | null = null;
    do {
      const r = await get(`/nft/collections/${a.policyId}/sales?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(r.status, 200);
      chained.push(...r.body.items.map((x: Json) => x.id));
      cursor = r.body.nextCursor;
    } while (cursor);
    assert.deepEqual(chained, whole);
  });

  it('rarity ranks every CIP-25 NFT by its traits in the mint metadata (1 = rarest, ties share a rank)', async () => {
    const { ranked } = await recomputeNftRarity(api.store);
    assert.ok(ranked > 0, 'NFTs with traits are ranked');
    // Expected, independently: the traits the devnet wrote into each mint's label-721 metadata, scored
    // Σ over trait types of N / (NFTs sharing that value), a missing trait counting as the value "none".
    const traits = new Map<string, Map<string, Map<string, string>>>();
    for (const b of canonicalBlocks(devnet))
      for (const tx of b.transactions ?? []) {
        const meta = tx.metadata?.labels['721']?.json as Json | undefined;
        if (!meta || tx.spends !== 'inputs') continue;
        for (const [policy, names] of Object.entries(tx.mint ?? {}))
          for (const nameHex of Object.keys(names)) {
            const fields = meta[policy]?.[Buffer.from(nameHex, 'hex').toString('utf8')] ?? meta[policy]?.[nameHex];
            if (!fields?.attributes) continue;
            const m = traits.get(policy) ?? new Map<string, Map<string, string>>();
            m.set(policy + nameHex, new Map(Object.entries(fields.attributes as Json).map(([k, v]) => [k, String(v)])));
            traits.set(policy, m);
          }
      }
    let checked = 0;
    for (const name of COLLECTION_NAMES.filter((n) => n !== 'Devnet Relics')) {
      const row = byName(name);
      const nfts = traits.get(row.policyId)!;
      assert.equal(nfts.size, row.supply, `${name}: every NFT minted with traits`);
      const types = new Set([...nfts.values()].flatMap((t) => [...t.keys()]));
      const count = new Map<string, number>();
      const valueOf = (t: Map<string, string>, type: string) => `${type}=${t.get(type) ?? '(none)'}`;
      for (const t of nfts.values())
        for (const type of types) count.set(valueOf(t, type), (count.get(valueOf(t, type)) ?? 0) + 1);
      const score = new Map(
        [...nfts].map(([unit, t]) => [
          unit,
          [...types].reduce((a, type) => a + nfts.size / count.get(valueOf(t, type))!, 0),
        ]),
      );
      const docs = await api.store.collection(NFT_RARITY).find('byPolicy', { eq: [row.policyId] });
      assert.equal(docs.length, nfts.size, `${name}: one rank per NFT`);
      for (const d of docs) {
        const mine = score.get(d._id)!;
        const rarer = [...score.values()].filter((x) => x > mine + 1e-6).length;
        assert.equal(d.rank, rarer + 1, `${name} ${d._id}: rank`);
        assert.equal(d.of, nfts.size);
        checked++;
      }
    }
    assert.ok(checked > 100, `ranks checked (${checked})`);
  });

  it('a forked devnet run indexes the same NFT documents as the clean chain', async () => {
    const forkedNet = await startNet(0.2);
    const forkedChain = await connectOgmios(forkedNet.url);
    const t = await tempStore();
    try {
      await syncWith(t.store, forkedChain, [createNftExtension()], 13);
      const [a, b] = await Promise.all([
        storeDigest(t.store, NFT_SYNC_COLLECTIONS),
        storeDigest(api.store, NFT_SYNC_COLLECTIONS),
      ]);
      assert.ok((b.counts.nft_listings ?? 0) > 20);
      assert.deepEqual(a.counts, b.counts);
      assert.deepEqual(a.perCollection, b.perCollection);
    } finally {
      await forkedChain.close();
      await forkedNet.close();
      await t.cleanup();
    }
  });

  it('rolling back blocks with listings, sales and cancels and re-applying them restores the same documents', async () => {
    const blocks = devnet
      .events()
      .filter((e) => e.kind === 'forward')
      .map((e) => parseOgmiosJson(devnet.blockJson(e as Parameters<Devnet['blockJson']>[0])) as Block);
    const marketplace = (b: Block) =>
      (b.transactions ?? []).some(
        (tx) => tx.redeemers?.length || tx.outputs.some((o) => o.address === JPG_V3_ASK_ADDRESS),
      );
    // After every block with marketplace activity, roll back 3 blocks (it included) and re-apply them.
    const last = blocks[blocks.length - 1]!;
    const tip = { slot: last.slot ?? 0, id: last.id, height: last.height };
    const events: ChainEvent[] = [];
    let rolledBack = 0;
    blocks.forEach((b, i) => {
      events.push({ direction: 'forward', block: b, tip });
      if (i >= 3 && marketplace(b) && i % 2 === 0) {
        const to = blocks[i - 3]!;
        events.push({ direction: 'backward', point: { slot: to.slot ?? 0, id: to.id }, tip });
        for (let j = i - 2; j <= i; j++) events.push({ direction: 'forward', block: blocks[j]!, tip });
        rolledBack++;
      }
    });
    assert.ok(rolledBack >= 10, `rollbacks over marketplace blocks (${rolledBack})`);
    const t = await tempStore();
    try {
      await syncWith(t.store, memoryChain(events), [createNftExtension()], 2);
      const [a, b] = await Promise.all([
        storeDigest(t.store, NFT_SYNC_COLLECTIONS),
        storeDigest(api.store, NFT_SYNC_COLLECTIONS),
      ]);
      assert.deepEqual(a.counts, b.counts);
      assert.deepEqual(a.perCollection, b.perCollection);
    } finally {
      await t.cleanup();
    }
  });
});
