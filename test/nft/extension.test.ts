/**
 * The NFT sync extension on the real mainnet block 11321965: tx 6 re-prices a jpg.store v3 listing of
 * "Snekkie3494" (WithdrawOrUpdate + re-lock at the ask script, new datum only in metadata labels 50-56), and tx 0
 * mints the CIP-68 ADA Handle `b-263-54` (not an NFT collection). The block goes through `applyNftBlock` inside a SliceState, as the sync
 * runs it, and comes out as documents.
 */
import assert from 'node:assert/strict';
import { applyNftBlock, collectionNameFrom, collectionNameOf } from '../../activities/nft/extension.js';
import { SliceState } from '../../activities/sync/slice-state.js';
import { parseAddress, stakeAddressOf } from '../../cardano/address.js';
import type { UtxoDoc } from '../../mongo/collections/chain.js';
import { NFT_ASSETS, NFT_COLLECTIONS, NFT_LISTINGS, NFT_SALES } from '../../mongo/collections/nft.js';
import { realBlock } from '../dex/fixtures.js';
import { tempStore } from '../sync/helpers.js';

const SNEKKIE = 'b558ea5ecfa2a6e9701dab150248e94104402f789c090426eb60eb60536e656b6b696533343934';
const HANDLE_POLICY = 'f0ff48bbb7bbe9d59a40f1ce90e9e9d0ff5002ec48f232b49ca0fb9a';

describe('NFT sync extension: real block 11321965', function () {
  this.timeout(30_000);
  const block = realBlock(11321965);
  const update = block.transactions![6]!;
  // The spent ask UTxO predates the fixture. Rebuilt from the tx: the spend redeemer (index 0) points at the first
  // input in ledger order (46739778…#0), whose datum is the one witness datum; it held the NFT that is re-locked.
  const spentRef = update.inputs.find((i) => i.transaction.id.startsWith('46739778'))!;
  const spentId = `${spentRef.transaction.id}#${spentRef.index}`;
  const askAddress = update.outputs[0]!.address;
  const spentUtxo: UtxoDoc = {
    _id: spentId,
    txId: spentRef.transaction.id,
    index: spentRef.index,
    address: askAddress,
    paymentCred: parseAddress(askAddress).paymentCred,
    stakeAddress: stakeAddressOf(askAddress),
    value: { lovelace: '1314550', assets: { [SNEKKIE]: '1' } },
    datumHash: Object.keys(update.datums ?? {})[0]!,
    datum: null,
    slot: 0,
  };
  let t: Awaited<ReturnType<typeof tempStore>>;

  before(async () => {
    t = await tempStore();
    const state = new SliceState(t.store);
    state.beginBlock();
    await applyNftBlock(state, block, new Map([[spentId, spentUtxo]]));
    state.endBlock();
    await t.store.write(state.writeOps());
  });
  after(() => t?.cleanup());

  it('closes the old 459 ADA listing as updated, linked to the new one', async () => {
    const old = await t.store.collection(NFT_LISTINGS).get(spentId);
    assert.ok(old, 'the spent listing has a document');
    assert.equal(old.status, 'updated');
    assert.equal(old.relistedAs, `${update.id}#0`);
    assert.equal(old.closedTx, update.id);
    assert.equal(old.closedSlot, block.slot);
    assert.equal(old.priceLovelace, '459000000');
    assert.equal(old.listedSlot, null, 'listed before the indexed range');
    assert.equal(await t.store.collection(NFT_SALES).get(spentId), null, 'an update is not a sale');
  });

  it('has the re-listing active at 409 ADA from the metadata datum, cheapest-first indexable', async () => {
    const listing = await t.store.collection(NFT_LISTINGS).get(`${update.id}#0`);
    assert.ok(listing);
    assert.equal(listing.status, 'active');
    assert.equal(listing.unit, SNEKKIE);
    assert.equal(listing.policyId, SNEKKIE.slice(0, 56));
    assert.equal(listing.version, 'v3');
    assert.equal(listing.marketplace, 'jpg.store');
    assert.equal(listing.priceLovelace, '409000000');
    assert.equal(listing.replaces, spentId);
    assert.equal(listing.listedSlot, block.slot);
    assert.equal(listing.seller, listing.payouts[1]?.address);
    const active = await t.store
      .collection(NFT_LISTINGS)
      .find('byPolicyStatus', { eq: [SNEKKIE.slice(0, 56), 'active'] });
    assert.deepEqual(
      active.map((l) => l._id),
      [`${update.id}#0`],
    );
  });

  it('the Snekkie policy is not a collection: its mint is not in the indexed range', async () => {
    assert.equal(await t.store.collection(NFT_COLLECTIONS).get(SNEKKIE.slice(0, 56)), null);
    assert.equal(await t.store.collection(NFT_ASSETS).get(SNEKKIE), null);
  });

  it('the CIP-68 ADA Handle mint is not an NFT collection: handles are their own feature', async () => {
    const mint = block.transactions![0]!;
    const names = Object.keys(mint.mint![HANDLE_POLICY]!);
    // The mint is a unique CIP-68 (222) user token with its (100) reference: what an NFT mint looks like.
    assert.deepEqual(names.map((n) => [n.slice(0, 8), mint.mint![HANDLE_POLICY]![n]]).sort(), [
      ['000643b0', 1n],
      ['000de140', 1n],
    ]);
    assert.equal(await t.store.collection(NFT_COLLECTIONS).get(HANDLE_POLICY), null);
    for (const n of names) assert.equal(await t.store.collection(NFT_ASSETS).get(HANDLE_POLICY + n), null);
    assert.deepEqual(await t.store.collection(NFT_ASSETS).find('byPolicy', { eq: [HANDLE_POLICY] }), []);
  });

  it('names a collection after its NFTs without their numbers', () => {
    assert.equal(collectionNameOf('Dev Punks #12'), 'Dev Punks');
    assert.equal(collectionNameOf('SpaceBud 4211'), 'SpaceBud');
    assert.equal(collectionNameOf('Snekkie3494'), 'Snekkie');
    assert.equal(collectionNameOf('1234'), '1234');
    assert.equal(
      collectionNameFrom({ name: 'Ape #7', attributes: [{ name: 'project', value: 'Apes Society' }] }),
      'Apes Society',
    );
    assert.equal(collectionNameFrom({ name: 'Ape #7', attributes: [{ name: 'fur', value: 'gold' }] }), 'Ape');
  });
});
