/**
 * Bad input and unknown ids across the REST routes: every malformed parameter is a 400 `{ error }` and every
 * well-formed id the index does not know a 404 `{ error }`, never a 500 or a 200 that ignored the parameter.
 * Over the explorer fixtures (two real mainnet blocks, with Byron addresses among their outputs) plus one NFT
 * collection's listing and sale, and the holder count of a token no DEX pool trades.
 */
import assert from 'node:assert/strict';
import { sealCursor } from '../../api/read/cursor.js';
import { rewardAddress } from '../../cardano/address.js';
import { ADDRESSES } from '../../mongo/collections/chain.js';
import { HOLDER_COUNTS, HOLDER_SERIES, holderSeriesId } from '../../mongo/collections/holders.js';
import { nftCursor } from '../../api/read/nft.js';
import { NFT_LISTINGS, NFT_SALES, priceKey } from '../../mongo/collections/nft.js';
import { put, type Store } from '../../mongo/store.js';
import { STAKE, STAKE_CHANGE_ADDRESS, TIP, seedChain, startTestApi, type TestApi } from './seed.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const NOW_MS = Date.parse('2025-03-01T12:00:00Z');
/** The UTC day of the tip block (2025-01-07): the day of its holders-series point. */
const DAY = Math.floor((1596059091 + ((TIP.slot ?? 0) - 4492800)) / 86_400) * 86_400;
const POLICY = 'a7'.repeat(28);
const NFT = `${POLICY}4e4654303031`;
const HELD_ONLY = `${'b8'.repeat(28)}4e4f504f4f4c`; // held on chain, no DEX pool, no registry entry
const LISTING_ID = `${'c9'.repeat(32)}#0`;
const SALE_ID = `${'d0'.repeat(32)}#1`;
const UNSEEN_STAKE = rewardAddress('mainnet', '5e'.repeat(28));
/** A Byron address of a test network (attribute 2, the network magic, set) with a valid checksum. */
const TESTNET_BYRON =
  '37btjrVyb4KDXBNC4haBVPCrro8AQPHwvCMp3RFhhSVWwfFmZ6wwzSK6JK1hY6wHNmtrpTf1kdbva8TCneM2YsiXT7mrzT21EacHnPpz5YyUdj64na';
const TIP_SLOT = TIP.slot ?? 0;
const cursor = (text: string) => Buffer.from(text).toString('base64url');

async function seed(store: Store): Promise<void> {
  await seedChain(store);
  await store.write([
    put(NFT_LISTINGS, {
      _id: LISTING_ID,
      policyId: POLICY,
      unit: NFT,
      units: [NFT],
      bundle: false,
      marketplace: 'jpg.store',
      version: 'v3',
      priceLovelace: '25000000',
      priceKey: priceKey('25000000'),
      seller: null,
      owner: null,
      payouts: [],
      listedSlot: TIP_SLOT - 100,
      listedTx: LISTING_ID.slice(0, 64),
      status: 'active',
      closedSlot: null,
      closedTx: null,
      replaces: null,
      relistedAs: null,
      slot: TIP_SLOT - 100,
    }),
    put(NFT_SALES, {
      _id: SALE_ID,
      policyId: POLICY,
      unit: NFT,
      units: [NFT],
      marketplace: 'jpg.store',
      version: 'v3',
      priceLovelace: '30000000',
      feePaidLovelace: null,
      buyer: null,
      seller: null,
      txId: 'e1'.repeat(32),
      slot: TIP_SLOT - 50,
      height: TIP.height - 1,
      txIndex: 0,
      listingRef: SALE_ID,
    }),
    put(HOLDER_COUNTS, { _id: HELD_ONLY, unit: HELD_ONLY, count: 2, supplyRaw: '5', slot: TIP_SLOT }),
    put(HOLDER_SERIES, { _id: holderSeriesId(HELD_ONLY, DAY), unit: HELD_ONLY, time: DAY, holders: 2, slot: TIP_SLOT }),
  ]);
}

describe('REST bad input and unknown ids', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi(seed, { now: () => NOW_MS });
  });
  after(() => api.close());

  const expect = async (path: string, status: number, error?: RegExp) => {
    const r = await api.get(`/api/v1${path}`);
    assert.equal(r.status, status, `${path}: ${JSON.stringify(r.body)}`);
    if (status >= 400) {
      assert.equal(typeof (r.body as Json).error, 'string', path);
      assert.deepEqual(Object.keys(r.body as Json), ['error'], `${path}: only { error }`);
      if (error) assert.match((r.body as Json).error, error, path);
    }
    return r.body as Json;
  };

  it('400 for numbers ajv would coerce to Infinity or from hex/whitespace, never a 500', async () => {
    // Each of these reached the store as ±Infinity (500) or was taken as another number (200).
    for (const path of [
      '/nft/collections?pageSize=1e400',
      '/nft/collections?page=1e400',
      '/nft/collections?page=Infinity',
      '/nft/collections?page=0x10',
      '/nft/collections?page=%205',
      '/governance/proposals?page=1e400',
      '/governance/dreps?pageSize=-1e400',
      `/wallet/${UNSEEN_STAKE}/trades?limit=1e400`,
      `/nft/collections/${POLICY}/sales?limit=Infinity`,
      `/tokens/${HELD_ONLY}/series/holders?days=1e400`,
      '/tokens?minLiquidity=1e400',
    ])
      await expect(path, 400, /^invalid parameter \w+: must be /);
    // Decimal notation still works, for integers and numbers alike.
    await expect('/nft/collections?page=2&pageSize=010', 200);
    await expect('/tokens?minLiquidity=1.5e3&pageSize=1', 200);
  });

  it('400 naming the parameter given twice, and what a search text must be, on every list alike', async () => {
    // Each value alone is valid: the 400 says the parameter came twice, not that 1 or mcap is out of range.
    for (const [path, name] of <[string, string][]>[
      ['/nft/collections?page=1&page=2', 'page'],
      [`/nft/collections/${POLICY}/sales?limit=1&limit=2`, 'limit'],
      ['/tokens?sort=mcap&sort=volume', 'sort'],
      ['/pools?dex=splash&dex=splash', 'dex'],
    ])
      await expect(path, 400, new RegExp(`^invalid parameter ${name}: given more than once`));
    // A parameter the route does not take is ignored, given once or twice alike (a tracking tag sent twice).
    for (const path of ['/nft/collections?utm=a', '/nft/collections?utm=a&utm=b', '/nft/collections?limit=1&limit=2'])
      await expect(path, 200);
    // One rule on every list with a search text: empty or blank is a search for nothing (400, not ignored).
    for (const path of ['/tokens', '/nft/collections', '/governance/proposals'])
      for (const q of ['', '%20', '%20%09'])
        await expect(
          `${path}?q=${q}`,
          400,
          /^invalid parameter q: must be a search text of 1 to 100 characters, not only spaces \(leave q out to list everything\)$/,
        );
    await expect(
      '/news?q=',
      400,
      /^invalid parameter q: must be a search text of 1 to 200 characters, not only spaces/,
    );
    await expect('/news?q=%20', 400, /^invalid parameter q: must be a search text of 1 to 200 characters/);
    await expect(`/tokens?q=${'x'.repeat(101)}`, 400, /^invalid parameter q: must be a search text of 1 to 100/);
    // Spaces around a search text are not part of it.
    await expect('/nft/collections?q=%20x%20', 200);
  });

  it('a query parameter named as a path parameter does not replace the path: the answer is for what the path names', async () => {
    // /wallet/{address}?address=… answered for the query's address, not the path's (a handle's wallet page linked
    // with a stray ?address= showed another wallet), and a list there reached the store: 500.
    const wallet = await expect(`/wallet/${STAKE}?address=${STAKE_CHANGE_ADDRESS}`, 200);
    assert.equal(wallet.address, STAKE);
    assert.deepEqual(wallet, await expect(`/wallet/${STAKE}`, 200));
    await expect(`/wallet/${STAKE}/trades?address=x&address=y`, 200);
    const block = await expect(`/explorer/blocks/${TIP.height}?id=1&id=2`, 200);
    assert.equal(block.height, TIP.height);
    await expect(`/explorer/address/${STAKE}?address=%24nobody`, 200);
    // A handle asked by path is resolved from the path alone (the query's handle was looked up instead).
    await expect('/handles/%24nobody?handle=%24%24', 404, /^handle \$nobody not found/);
    await expect('/handles/%24nobody?handle=someone', 404, /^handle \$nobody not found/);
  });

  it('a numeric id of at most 20 digits that names nothing is 404, a longer one 400, for blocks and pools alike', async () => {
    for (const id of ['9'.repeat(16), '9007199254740993', '9'.repeat(20)]) {
      await expect(`/explorer/blocks/${id}`, 404, new RegExp(`^block ${id} not found`));
      await expect(`/pools/${id}`, 404, new RegExp(`^pool ${id} not found`));
    }
    const long = '1'.repeat(21);
    await expect(
      `/explorer/blocks/${long}`,
      400,
      /^invalid parameter id: .*a non-negative integer of at most 20 digits/,
    );
    await expect(
      `/pools/${long}`,
      400,
      /^invalid parameter id: must be a pool id \(a non-negative integer of at most 20 digits\)$/,
    );
  });

  it('400 for a page so deep its offset is no longer an exact integer', async () => {
    await expect('/nft/collections?page=9999999999999999999', 400, /page: must be an integer from 1 to 1000000/);
    await expect('/governance/proposals?page=1000001', 400, /page/);
    const last = await expect('/nft/collections?page=1000000', 200);
    assert.deepEqual(last.items, []);
  });

  it('400 for a news cursor that is not one of the list, also when no feed is configured', async () => {
    const ok = await expect('/news', 200);
    assert.deepEqual(ok.items, []);
    for (const c of ['garbage', '%00', cursor('n1|xyz')]) await expect(`/news?cursor=${c}`, 400, /cursor/);
  });

  it('400 for an NFT cursor whose sort key is not the list’s (a garbage key, or the other list’s cursor)', async () => {
    const sales = await expect(`/nft/collections/${POLICY}/sales`, 200);
    assert.equal(sales.items.length, 1);
    const listings = await expect(`/nft/collections/${POLICY}/listings`, 200);
    assert.equal(listings.items.length, 1);
    const saleCursor = nftCursor.sales(POLICY, `${TIP_SLOT}.0`, SALE_ID);
    const listingCursor = nftCursor.listings(POLICY, 'price_asc', priceKey('1'), LISTING_ID);
    // The cursors of each list page on.
    await expect(`/nft/collections/${POLICY}/sales?cursor=${saleCursor}`, 200);
    await expect(`/nft/collections/${POLICY}/listings?cursor=${listingCursor}`, 200);
    // Garbage keys, sealed to this very list: each list's own key check refuses them.
    for (const [key, id] of [
      ['abc', LISTING_ID],
      ['9'.repeat(23), SALE_ID],
      ['-1', SALE_ID],
      [`${TIP_SLOT}`, SALE_ID.slice(0, 64)],
    ] as const) {
      const sale = nftCursor.sales(POLICY, key, id);
      const listing = nftCursor.listings(POLICY, 'price_asc', key, id);
      await expect(`/nft/collections/${POLICY}/sales?cursor=${sale}`, 400, /cursor: not a cursor of this list/);
      await expect(`/nft/collections/${POLICY}/listings?cursor=${listing}`, 400, /cursor: not a cursor of this list/);
    }
    for (const c of [
      // The form without the list's digest (what cursors were before they were bound to their list).
      cursor(`${TIP_SLOT}.0|${SALE_ID}`),
      cursor(`${priceKey('1')}|${LISTING_ID}`),
      // Well-formed keys of this list, bound to another policy's list.
      nftCursor.sales('b8'.repeat(28), `${TIP_SLOT}.0`, SALE_ID),
      nftCursor.listings('b8'.repeat(28), 'price_asc', priceKey('1'), LISTING_ID),
    ]) {
      await expect(`/nft/collections/${POLICY}/listings?cursor=${c}`, 400, /cursor: not a cursor of this list/);
      await expect(`/nft/collections/${POLICY}/sales?cursor=${c}`, 400, /cursor: not a cursor of this list/);
    }
    // Texts other than the cursor handed out that base64 decoding alone reads as the same bytes (a last character
    // changed in its unused bits, a character appended where it makes no whole byte): edited cursors, refused.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const bytes = (t: string) => Buffer.from(t, 'base64url').toString('hex');
    const edits = [...alphabet]
      .flatMap((ch) => [`${saleCursor.slice(0, -1)}${ch}`, `${saleCursor}${ch}`, `${saleCursor}A${ch}`])
      .filter((t) => t !== saleCursor && bytes(t) === bytes(saleCursor));
    assert.ok(edits.length > 0, 'edits that decode to the same bytes');
    for (const edited of edits)
      await expect(`/nft/collections/${POLICY}/sales?cursor=${edited}`, 400, /^invalid parameter cursor/);
    await expect(`/nft/collections/${POLICY}/listings?cursor=${saleCursor}`, 400, /cursor/);
    await expect(`/nft/collections/${POLICY}/sales?cursor=${listingCursor}`, 400, /cursor/);
    // A well-formed policy nobody minted or listed stays a 404.
    await expect(`/nft/collections/${'ab'.repeat(28)}/listings`, 404, /not found/);
  });

  it('explorer: 400 for base58 text that is no Byron address and for capitalised Bech32; Byron addresses work', async () => {
    let byron: string | undefined;
    for await (const d of api.store.collection(ADDRESSES).scan()) if (!d._id.startsWith('addr')) byron ??= d._id;
    assert.ok(byron, 'the fixtures hold a Byron address');
    const found = await expect(`/explorer/address/${byron}`, 200);
    assert.equal(found.addressType, 'byron');
    // Valid checksum, never seen: 404.
    await expect('/explorer/address/Ae2tdPwUPEZFRbyhz3cpfC2CumGzNkFBN2L42rcUc2yjQpEkxDbkPodpMAi', 404, /not found/);
    for (const bad of [
      'hexxoworxdhexxoworxdhexxoworxd',
      '1'.repeat(200),
      `${byron.slice(0, -1)}${byron.endsWith('a') ? 'b' : 'a'}`,
    ])
      await expect(`/explorer/address/${bad}`, 400, /not a Cardano address/);
    await expect(`/explorer/address/${TESTNET_BYRON}`, 400, /testnet/);
    await expect(`/explorer/address/${STAKE}`, 200);
    await expect(`/explorer/address/${STAKE.toUpperCase()}`, 400, /lowercase/);
  });

  it('capitalised Bech32 is told to be written in lowercase on the explorer and wallet routes, whatever its characters', async () => {
    // The change address holds a 0, which base58 lacks: in capitals it matched neither the (lowercase) Bech32 nor the
    // Byron pattern and was refused as "must be a Cardano address", though it is one. The wallet routes (no Byron
    // pattern) answered so for every capitalised address.
    await expect(`/explorer/address/${STAKE_CHANGE_ADDRESS}`, 200);
    const capitalised = (a: string) => `${a.slice(0, 1).toUpperCase()}${a.slice(1)}`;
    for (const address of [STAKE_CHANGE_ADDRESS, STAKE])
      for (const written of [address.toUpperCase(), capitalised(address)])
        for (const path of [
          `/explorer/address/${written}`,
          `/wallet/${written}`,
          `/wallet/${written}/trades`,
          `/wallet/${written}/pnl`,
        ])
          await expect(path, 400, /write the Bech32 address in lowercase/);
  });

  it('ADA or a ticker where a token unit is expected: the 400 says ADA has no token answer, or how to find the unit', async () => {
    // Spec: the unit `lovelace` denotes ADA; ADA is not a token of /tokens (no stats, candles, trades or holders).
    for (const sub of ['', '/candles', '/trades', '/holders', '/series/liquidity', '/series/holders'])
      for (const ada of ['lovelace', 'LOVELACE', 'ada'])
        await expect(`/tokens/${ada}${sub}`, 400, /^invalid parameter unit: .*; ADA \(lovelace\) is no token here/);
    // A ticker or name is not a unit: the list's search finds its unit.
    await expect(
      '/tokens/INDY',
      400,
      /; a name or ticker: GET \/tokens\?q=INDY lists the tokens it names, with their units$/,
    );
    // A CIP-14 fingerprint (as Cardanoscan shows mainnet SNEK) is a hash: the list's search finds its token.
    for (const sub of ['', '/candles', '/trades', '/holders'])
      await expect(
        `/tokens/asset108xu02ckwrfc8qs9d97mgyh4kn8gdu9w8f5sxk${sub}`,
        400,
        /; a CIP-14 asset fingerprint: GET \/tokens\?q=asset108xu02ckwrfc8qs9d97mgyh4kn8gdu9w8f5sxk lists its token, with its unit$/,
      );
    // Hex of the wrong length is neither: the plain message.
    await expect(`/tokens/${'ab'.repeat(27)}`, 400, /^invalid parameter unit: must be a policy id \(56 hex\)[^;]*$/);
  });

  it('the holders series of a token held on chain but traded on no DEX answers like its holders', async () => {
    const holders = await expect(`/tokens/${HELD_ONLY}/holders`, 200);
    assert.equal(holders.total, 2);
    const series = await expect(`/tokens/${HELD_ONLY}/series/holders`, 200);
    assert.deepEqual(series, {
      metric: 'holders',
      points: [{ time: DAY, value: 2 }],
      asOf: series.asOf,
      coverageFrom: series.coverageFrom,
    });
    assert.match(series.asOf, /^\d{4}-\d\d-\d\dT/);
    // The series ends on the tip's day (the clock is two months later: no later day is known), and the history it
    // covers starts at the first indexed block, later that day than the point's midnight.
    const blocks = (await expect('/explorer/blocks?limit=200', 200)).items as Json[];
    assert.equal(blocks.length < 200 && blocks[0]?.height, TIP.height);
    const firstBlock = blocks[blocks.length - 1]!.time as string;
    assert.ok(Date.parse(firstBlock) > DAY * 1000, firstBlock);
    assert.equal(series.coverageFrom, firstBlock);
    assert.equal((await expect(`/tokens/${HELD_ONLY}/series/holders?days=1`, 200)).coverageFrom, firstBlock);
    await expect(`/tokens/${HELD_ONLY}/series/liquidity`, 404, /no DEX pool/);
    await expect(`/tokens/${'cd'.repeat(28)}41/series/holders`, 404, /not found/);
    await expect(`/tokens/${HELD_ONLY}/series/volume`, 400, /metric/);
  });

  it('a wallet never seen is a 404 on every page of its trades, cursor or not', async () => {
    await expect(`/wallet/${UNSEEN_STAKE}/trades`, 404, /not found/);
    // A cursor of this wallet's list (sealed to it as the API seals them) still finds no wallet.
    const sealed = sealCursor(`maker:${UNSEEN_STAKE}`, 't6808.6808');
    await expect(`/wallet/${UNSEEN_STAKE}/trades?cursor=${sealed}`, 404, /not found/);
    await expect(`/wallet/${UNSEEN_STAKE}/trades?cursor=garbage`, 400, /cursor/);
  });
});
