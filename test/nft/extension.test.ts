/**
 * The NFT sync extension on the real mainnet block 11321965: tx 6 re-prices a jpg.store v3 listing of
 * "Snekkie3494" (WithdrawOrUpdate + re-lock at the ask script, new datum only in metadata labels 50-56), and tx 0
 * mints the CIP-68 ADA Handle `b-263-54` (not an NFT collection). The block goes through `applyNftBlock` inside a SliceState, as the sync
 * runs it, and comes out as documents.
 */
import assert from 'node:assert/strict';
import { applyNftBlock, collectionNameFrom, collectionNameOf } from '../../activities/nft/extension.js';
import { SliceState } from '../../activities/sync/slice-state.js';
import { baseAddress, parseAddress, stakeAddressOf } from '../../cardano/address.js';
import type { Block, Transaction, TxOutput } from '../../cardano/chain/types.js';
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

/**
 * Burns and re-mints of a CIP-25 NFT, block by block. CIP-25 (reference §3.1): the valid metadata is that of the
 * latest mint carrying label 721, so a re-mint may carry none and is still a mint of the NFT. The expected figures are
 * counted by hand from the four blocks: two NFTs minted, one burned, re-minted without 721 to the other holder.
 */
describe('NFT sync extension: a CIP-25 NFT burned and minted again without label 721', function () {
  this.timeout(30_000);
  const policy = 'aa'.repeat(28);
  const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');
  const [cat1, cat2] = [policy + hex('Cat1'), policy + hex('Cat2')];
  const alice = baseAddress('mainnet', '11'.repeat(28), '21'.repeat(28));
  const bob = baseAddress('mainnet', '12'.repeat(28), '22'.repeat(28));
  const holding = (address: string, unit: string): TxOutput => ({
    address,
    value: { ada: { lovelace: 2_000_000n }, [policy]: { [unit.slice(56)]: 1n } },
  });
  const tx = (n: number, t: Pick<Transaction, 'mint' | 'outputs'> & Partial<Transaction>): Transaction => ({
    id: n.toString(16).padStart(64, '0'),
    spends: 'inputs',
    inputs: [],
    ...t,
  });
  const blockAt = (slot: number, transactions: Transaction[]): Block => ({
    type: 'praos',
    era: 'conway',
    id: slot.toString(16).padStart(64, '0'),
    ancestor: 'genesis',
    height: slot,
    slot,
    transactions,
  });
  const label721 = {
    hash: '',
    labels: {
      '721': {
        json: {
          [policy]: { Cat1: { name: 'Cats #1', image: 'ipfs://a' }, Cat2: { name: 'Cats #2', image: 'ipfs://b' } },
        },
      },
    },
  };
  let t: Awaited<ReturnType<typeof tempStore>>;

  before(async () => {
    t = await tempStore();
    const blocks = [
      // Cats #1 to alice, Cats #2 to bob.
      blockAt(100, [
        tx(1, {
          mint: { [policy]: { [cat1.slice(56)]: 1n, [cat2.slice(56)]: 1n } },
          outputs: [holding(alice, cat1), holding(bob, cat2)],
          metadata: label721,
        }),
      ]),
      // alice burns Cats #1.
      blockAt(200, [tx(2, { mint: { [policy]: { [cat1.slice(56)]: -1n } }, outputs: [] })]),
      // The policy mints Cats #1 again, to bob, with no metadata in the transaction.
      blockAt(300, [tx(3, { mint: { [policy]: { [cat1.slice(56)]: 1n } }, outputs: [holding(bob, cat1)] })]),
    ];
    for (const b of blocks) {
      const state = new SliceState(t.store);
      state.beginBlock();
      await applyNftBlock(state, b, new Map());
      state.endBlock();
      await t.store.write(state.writeOps());
    }
  });
  after(() => t?.cleanup());

  it('counts the re-mint as a mint: minted 3 − burned 1 = supply 2, both NFTs with bob', async () => {
    const c = await t.store.collection(NFT_COLLECTIONS).get(policy);
    assert.ok(c);
    assert.deepEqual(
      { minted: c.minted, burned: c.burned, supply: c.supply, owners: c.owners },
      { minted: 3, burned: 1, supply: 2, owners: 1 },
    );
    assert.equal(c.lastMintSlot, 300);
  });

  it('the re-minted NFT keeps the metadata of its last mint with label 721 and is held by its receiver', async () => {
    const a = await t.store.collection(NFT_ASSETS).get(cat1);
    assert.ok(a);
    assert.equal(a.quantity, '1');
    assert.equal(a.name, 'Cats #1');
    assert.equal(a.image, 'ipfs://a');
    assert.equal(a.address, bob);
    assert.equal(a.holder, stakeAddressOf(bob));
  });
});
