import assert from 'node:assert/strict';
import type { OutputReference, Transaction, TxOutput } from '../../cardano/chain/types.js';
import { baseAddress, hash256 } from '../../cardano/address.js';
import { hexToBytes } from '../../cardano/dex/cbor.js';
import type { PlutusJson } from '../../cardano/dex/plutus-data.js';
import { constr, encodePlutusData } from '../../cardano/dex/plutus-data.js';
import {
  JPG_STAKE_SCRIPT,
  JPG_V2_SWAP_SCRIPT,
  JPG_V3_FEE_SCRIPT,
  datumsFromMetadata,
  decodeListingDatum,
  encodeListingDatum,
  jpgStoreEventsOf,
  jpgVersionOf,
  listingPrice,
  marketplaceFeeV3,
  saleTagDatum,
} from '../../activities/nft/jpgstore.js';
import type { JpgListingDatum } from '../../activities/nft/jpgstore.js';
import { readJson, realTx } from '../dex/fixtures.js';
import { ledgerTxToOgmios } from './ledger-tx.js';

interface ListingFixture {
  txCbor: string;
  txBodyHash: string;
  listingOutput: { address: string; lovelace: string; asset: string; datumHash: string };
  listingDatumCbor: string;
  listingDatumDecoded: PlutusJson;
}
const fx = readJson<ListingFixture>('dex/nft/jpgstore-v3-ask-listing-tx.mainnet.json');
const noInputs = () => null;

/** Independent reading of the fixture's generic decoding: payouts = field 0 (list of C0[address, int]), owner = field 1. */
function fixturePayouts(): Array<{ pkh: string; stake: string; lovelace: bigint }> {
  const root = fx.listingDatumDecoded as { fields: PlutusJson[] };
  const payouts = (root.fields[0] as { list: PlutusJson[] }).list as Array<{ fields: PlutusJson[] }>;
  return payouts.map((p) => {
    const addr = p.fields[0] as { fields: Array<{ fields: unknown[] }> };
    const pkh = (addr.fields[0]!.fields[0] as { bytes: string }).bytes;
    // C0[ C0[ C0[ B(stake) ] ] ] = Some(StakingHash(PubKeyCredential stake))
    const stake = (
      ((addr.fields[1]!.fields[0] as { fields: unknown[] }).fields[0] as { fields: unknown[] }).fields[0] as {
        bytes: string;
      }
    ).bytes;
    return { pkh, stake, lovelace: BigInt((p.fields[1] as { int: string }).int) };
  });
}
const fixtureOwner = () => ((fx.listingDatumDecoded as { fields: PlutusJson[] }).fields[1] as { bytes: string }).bytes;

describe('jpg.store v3: the real mainnet listing transaction', () => {
  const tx = ledgerTxToOgmios(fx.txCbor);
  const unit = fx.listingOutput.asset.replace('.', '');

  it('the fixture converts exactly: body hash, listing output and its witness datum', () => {
    assert.equal(tx.id, fx.txBodyHash);
    assert.equal(tx.outputs[0]?.address, fx.listingOutput.address);
    assert.equal(tx.outputs[0]?.datumHash, fx.listingOutput.datumHash);
    assert.equal(tx.datums?.[fx.listingOutput.datumHash], fx.listingDatumCbor);
    assert.equal(jpgVersionOf(fx.listingOutput.address), 'v3');
  });

  it('parses to one listing of the NFT at 100 ADA (3 + 95 ADA payouts + the 2 ADA contract fee)', () => {
    const payouts = fixturePayouts();
    const sum = payouts.reduce((a, p) => a + p.lovelace, 0n);
    const expectedPrice = sum + (sum * 50n) / 49n / 50n; // ask.ak: marketplace_fee = payouts_sum * 50 / 49 / 50
    assert.equal(expectedPrice, 100_000_000n);

    const events = jpgStoreEventsOf(tx, noInputs);
    assert.equal(events.length, 1);
    const e = events[0]!;
    assert.equal(e.kind, 'listing');
    assert.equal(e.marketplace, 'jpg.store');
    assert.equal(e.version, 'v3');
    assert.equal(e.listingRef, `${fx.txBodyHash}#0`);
    assert.equal(e.unit, unit);
    assert.deepEqual(e.units, [unit]);
    assert.equal(e.priceLovelace, expectedPrice);
    assert.equal(e.owner, fixtureOwner());
    assert.deepEqual(
      e.payouts,
      payouts.map((p) => ({ address: baseAddress('mainnet', p.pkh, p.stake), lovelace: p.lovelace })),
    );
    // The seller is the payout paying the owner's key, and the tx's change goes to the same wallet.
    const sellerPayout = payouts.find((p) => p.pkh === fixtureOwner())!;
    assert.equal(e.seller, baseAddress('mainnet', sellerPayout.pkh, sellerPayout.stake));
    assert.equal(e.seller, tx.outputs[1]?.address);
  });

  it('prices a cheap listing with the 1 ADA minimum fee a buy carries, a dear one with the formula fee', () => {
    const v3 = (...lovelace: bigint[]) => ({
      ...decodeListingDatum(fx.listingDatumCbor, 'v3'),
      payouts: lovelace.map((l) => ({ address: tx.outputs[1]!.address, lovelace: l })),
    });
    // Hand-computed: the formula's fee on 5 ADA is 0.102040 ADA, below the 1 ADA minimum payout, so a buyer pays 6 ADA.
    assert.equal(listingPrice(v3(1_000_000n, 4_000_000n)), 6_000_000n);
    // 48.99 ADA: formula 0.999795 ADA, still the minimum; 49 ADA: formula exactly 1 ADA; 98 ADA: formula 2 ADA.
    assert.equal(listingPrice(v3(48_990_000n)), 49_990_000n);
    assert.equal(listingPrice(v3(49_000_000n)), 50_000_000n);
    assert.equal(listingPrice(v3(3_000_000n, 95_000_000n)), 100_000_000n);
  });

  it('finds the same listing from the datum jpg.store chunked into metadata when the witness is absent', () => {
    const fromMetadata = datumsFromMetadata(tx);
    assert.equal(fromMetadata.get(fx.listingOutput.datumHash), fx.listingDatumCbor);
    const bare: Transaction = { ...tx };
    delete bare.datums;
    assert.equal(jpgStoreEventsOf(bare, noInputs)[0]?.priceLovelace, 100_000_000n);
  });

  it('re-encodes the decoded datum byte for byte', () => {
    const d = decodeListingDatum(fx.listingDatumCbor, 'v3');
    assert.equal(encodeListingDatum(d), fx.listingDatumCbor);
    assert.equal(hash256(hexToBytes(encodeListingDatum(d))), fx.listingOutput.datumHash);
  });

  describe('spending the listing', () => {
    const listingRef: OutputReference = { transaction: { id: fx.txBodyHash }, index: 0 };
    const listed = tx.outputs[0] as TxOutput;
    const resolve = (r: OutputReference) => (r.transaction.id === fx.txBodyHash && r.index === 0 ? listed : null);
    const buyer = baseAddress('mainnet', '11'.repeat(28), '22'.repeat(28));
    const [policy, name] = fx.listingOutput.asset.split('.') as [string, string];
    const d = decodeListingDatum(fx.listingDatumCbor, 'v3');
    const spend = (redeemer: string, outputs: TxOutput[], signers: string[] = []): Transaction => ({
      id: 'ee'.repeat(32),
      spends: 'inputs',
      inputs: [{ transaction: { id: 'ff'.repeat(32) }, index: 3 }, listingRef],
      outputs,
      datums: { [fx.listingOutput.datumHash]: fx.listingDatumCbor },
      redeemers: [{ validator: { index: 0, purpose: 'spend' }, redeemer }],
      requiredExtraSignatories: signers,
    });

    it('Buy (C0[offset]) with the tagged fee output and payouts in datum order is a sale to the NFT receiver', () => {
      const feeAddress = baseAddress('mainnet', JPG_V3_FEE_SCRIPT, JPG_STAKE_SCRIPT, true, true);
      const sale = spend(encodePlutusData(constr(0, 0n), { indefinite: true }), [
        { address: feeAddress, value: { ada: { lovelace: 2_000_000n } }, datum: saleTagDatum(listingRef) },
        ...d.payouts.map((p) => ({ address: p.address, value: { ada: { lovelace: p.lovelace } } })),
        { address: buyer, value: { ada: { lovelace: 1_500_000n }, [policy]: { [name]: 1n } } },
      ]);
      const [e, ...rest] = jpgStoreEventsOf(sale, resolve);
      assert.equal(rest.length, 0);
      assert.equal(e?.kind, 'sale');
      assert.equal(e?.listingRef, `${fx.txBodyHash}#0`);
      assert.equal(e?.unit, policy + name);
      assert.equal(e?.priceLovelace, 100_000_000n);
      assert.equal(e?.buyer, buyer);
      assert.equal(e?.seller, d.payouts[1]?.address);
      assert.equal(e?.feePaidLovelace, 2_000_000n);
    });

    it('WithdrawOrUpdate (C1[]) without a re-listing is a cancel; with one it links old and new listing', () => {
      const cancel = spend('d87a80', [{ address: d.payouts[1]!.address, value: listed.value }], [d.owner]);
      const events = jpgStoreEventsOf(cancel, resolve);
      assert.deepEqual(
        events.map((e) => [e.kind, e.relistedAs]),
        [['cancel', undefined]],
      );

      const cheaper: JpgListingDatum = { ...d, payouts: [d.payouts[0]!, { ...d.payouts[1]!, lovelace: 80_000_000n }] };
      const datum = encodeListingDatum(cheaper);
      const update = spend('d87a80', [{ address: fx.listingOutput.address, value: listed.value, datum }], [d.owner]);
      const [c, l] = jpgStoreEventsOf(update, resolve);
      assert.equal(c?.kind, 'cancel');
      assert.equal(c?.relistedAs, `${'ee'.repeat(32)}#0`);
      assert.equal(l?.kind, 'listing');
      assert.equal(l?.replaces, `${fx.txBodyHash}#0`);
      assert.equal(l?.priceLovelace, 83_000_000n + marketplaceFeeV3(83_000_000n));
    });

    it('a failed tx (collateral spent) has no events', () => {
      assert.deepEqual(jpgStoreEventsOf({ ...spend('d87a80', []), spends: 'collaterals' }, resolve), []);
    });
  });
});

describe('jpg.store v3: real price update on mainnet (block 11321965 tx 6)', () => {
  const tx = realTx(11321965, 6);
  const snekkie = 'b558ea5ecfa2a6e9701dab150248e94104402f789c090426eb60eb60536e656b6b696533343934';
  // The spent ask UTxO is not in the fixtures. Rebuilt from the tx itself: the spend redeemer's index 0 is the first
  // input in ledger order (46739778…#0; the other input is also the collateral, so a wallet UTxO); the witness set
  // carries its datum (hash 3491324f…); the NFT is the one re-locked. Its lovelace is unknown and does not matter.
  const [oldDatumHash] = Object.keys(tx.datums ?? {}) as [string];
  const spentRef = tx.inputs.find((i) => i.transaction.id.startsWith('46739778'))!;
  const spent: TxOutput = {
    address: tx.outputs[0]!.address,
    value: { ada: { lovelace: 0n }, [snekkie.slice(0, 56)]: { [snekkie.slice(56)]: 1n } },
    datumHash: oldDatumHash,
  };
  const resolve = (r: OutputReference) =>
    r.transaction.id === spentRef.transaction.id && r.index === spentRef.index ? spent : null;

  it('the new listing datum comes from metadata labels 50-56 and hashes to the output datum hash', () => {
    const recovered = datumsFromMetadata(tx);
    assert.ok(recovered.has(tx.outputs[0]!.datumHash!));
  });

  it('is a cancel of the old 459 ADA listing re-listed at 409 ADA, same NFT, same owner', () => {
    const [cancel, listing, ...rest] = jpgStoreEventsOf(tx, resolve);
    assert.equal(rest.length, 0);
    assert.equal(cancel?.kind, 'cancel');
    assert.equal(cancel?.listingRef, `${spentRef.transaction.id}#${spentRef.index}`);
    assert.equal(cancel?.unit, snekkie);
    assert.equal(cancel?.relistedAs, `${tx.id}#0`);
    const oldSum = 45_900_000n + 403_920_000n;
    assert.deepEqual(
      cancel?.payouts.map((p) => p.lovelace),
      [45_900_000n, 403_920_000n],
    );
    assert.equal(cancel?.priceLovelace, oldSum + (oldSum * 50n) / 49n / 50n);
    assert.equal(cancel?.priceLovelace, 459_000_000n, 'a round 459 ADA list price');

    assert.equal(listing?.kind, 'listing');
    assert.equal(listing?.unit, snekkie);
    assert.equal(listing?.replaces, cancel?.listingRef);
    assert.deepEqual(
      listing?.payouts.map((p) => p.lovelace),
      [40_900_000n, 359_920_000n],
    );
    const newSum = 40_900_000n + 359_920_000n;
    assert.equal(listing?.priceLovelace, newSum + (newSum * 50n) / 49n / 50n);
    assert.equal(listing?.priceLovelace, 409_000_000n, 'a round 409 ADA list price');
    // WithdrawOrUpdate requires the owner's signature: the datum's owner is the tx's required signer.
    assert.equal(listing?.owner, cancel?.owner);
    assert.deepEqual(tx.requiredExtraSignatories, [listing?.owner]);
    // The royalty payout goes to a script address (payment credential C1), decoded as such.
    assert.match(listing!.payouts[0]!.address, /^addr1/);
    assert.equal(listing?.seller, listing?.payouts[1]?.address);
  });
});

describe('jpg.store v2 datums', () => {
  const seller = baseAddress('mainnet', '33'.repeat(28), '44'.repeat(28));
  const fee = baseAddress('mainnet', '55'.repeat(28), '66'.repeat(28));
  const d: JpgListingDatum = {
    version: 'v2',
    owner: '33'.repeat(28),
    payouts: [
      { address: seller, lovelace: 49_000_000n },
      { address: fee, lovelace: 1_000_000n },
    ],
  };

  it('encode → decode round trip; price is the sum of payouts', () => {
    const hex = encodeListingDatum(d);
    assert.deepEqual(decodeListingDatum(hex, 'v2'), d);
    assert.equal(encodeListingDatum(decodeListingDatum(hex, 'v2')), hex);
    assert.equal(listingPrice(d), 50_000_000n);
  });

  it('Accept (C1) is a sale, Cancel (C0) a cancel: the reverse of v3', () => {
    const ask = baseAddress('mainnet', JPG_V2_SWAP_SCRIPT, '77'.repeat(28), true, false);
    assert.equal(jpgVersionOf(ask), 'v2');
    const ref: OutputReference = { transaction: { id: 'aa'.repeat(32) }, index: 0 };
    const listed: TxOutput = {
      address: ask,
      value: { ada: { lovelace: 2_000_000n }, ['88'.repeat(28)]: { '01': 1n } },
      datum: encodeListingDatum(d),
    };
    const tx = (redeemer: string): Transaction => ({
      id: 'bb'.repeat(32),
      spends: 'inputs',
      inputs: [ref],
      outputs: [{ address: fee, value: { ada: { lovelace: 1_000_000n }, ['88'.repeat(28)]: { '01': 1n } } }],
      redeemers: [{ validator: { index: 0, purpose: 'spend' }, redeemer }],
    });
    const resolve = () => listed;
    assert.equal(jpgStoreEventsOf(tx('d87a80'), resolve)[0]?.kind, 'sale');
    assert.equal(jpgStoreEventsOf(tx('d87980'), resolve)[0]?.kind, 'cancel');
    assert.equal(jpgStoreEventsOf(tx('d87a80'), resolve)[0]?.priceLovelace, 50_000_000n);
  });
});
