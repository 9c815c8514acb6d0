/**
 * A CIP-68 NFT collection and the jpg.store v3 marketplace on the devnet.
 *
 * - "Devnet Relics" (CIP-68): a buyer pays the creator and receives the (222) user token; the (100) reference token
 *   goes to the metadata-store script address with the piece's metadata as inline datum
 *   `C0[{name, image, mediaType, <traits>}, 1, C0[]]` (bytes keys and values, as CIP-68 writes them).
 * - Listings: a holder of a piece of any devnet collection (nfts.ts or the relics) locks it at the v3 ask script
 *   (`c727443d…` + jpg.store's stake script `2c967f4b…`) with a datum hash; the datum `C0[[royalty, seller
 *   payouts], owner pkh]` goes into the witness set and, as jpg.store does, hex-chunked into metadata labels
 *   30 ("6") and 50… (64 characters each, ","-terminated). Sellers price by payouts + the contract's formula fee
 *   (`formulaPrice`); a buyer pays the fee output at its 1 ADA minimum when the formula asks for less.
 * - Sales: the ask UTxO is spent with `Buy C0[1]`: output 0 gives the NFT to the buyer, output 1 is the marketplace
 *   fee output (tagged with inline datum blake2b_256(out_ref)), then the payouts in datum order.
 * - Cancels and price updates: `WithdrawOrUpdate C1[]` signed by the owner: the NFT goes back to the seller, or is
 *   re-locked at the ask address with a new datum (carried only in metadata, like the real update in block
 *   11321965).
 * Module state (the open listings) changes only in canonical steps; orphan blocks never run this module.
 */
import { hex } from '@scure/base';
import { baseAddress, hash256 } from '../../cardano/address.js';
import { bytes, constr, encodePlutusData, type PlutusData } from '../../cardano/dex/plutus-data.js';
import {
  JPG_STAKE_SCRIPT,
  JPG_V3_ASK_SCRIPT,
  JPG_V3_FEE_SCRIPT,
  encodeListingDatum,
  marketplaceFeeV3,
  saleTagDatum,
  type JpgListingDatum,
} from '../../activities/nft/jpgstore.js';
import type { CborValue } from '../cbor.js';
import type { ActivityContext, ActivityModule } from '../generator.js';
import type { Utxo } from '../ledger.js';
import { Rng } from '../rng.js';
import { policySigner, type DevTx } from '../tx.js';
import { minCoin, type Assets } from '../value.js';
import type { NftCollection, Wallet, World } from '../world.js';
import { ADA, pickFunded } from './common.js';
import { cip68StoreAddress, nativePolicyId } from './dex-tokens.js';

const enc = new TextEncoder();
const utf8Hex = (s: string) => hex.encode(enc.encode(s));

export const JPG_V3_ASK_ADDRESS = baseAddress('mainnet', JPG_V3_ASK_SCRIPT, JPG_STAKE_SCRIPT, true, true);
export const JPG_V3_FEE_ADDRESS = baseAddress('mainnet', JPG_V3_FEE_SCRIPT, JPG_STAKE_SCRIPT, true, true);
const REFERENCE_PREFIX = '000643b0';
const USER_PREFIX = '000de140';
/** The relic drop (a CIP-68 NFT collection) opens at this height, about 20 minutes into the chain. */
const RELIC_DROP_HEIGHT = 60;
/** Bytes of a datum-hash output field, for min-UTxO. */
const DATUM_HASH_BYTES = 34;

/** The CIP-68 collection of this module (a World-like description; its policy is a devnet native policy). */
export function relicsCollection(world: World): NftCollection {
  const policyVkey = hash256(enc.encode(`${world.seed}/key/collection/Relic`));
  return {
    policyId: nativePolicyId(policyVkey),
    policyVkey,
    name: 'Devnet Relics',
    prefix: 'Relic',
    size: 400,
    creator: 110,
    priceLovelace: 45_000_000n,
    traits: { element: ['fire', 'water', 'earth', 'air', 'aether'], age: ['ancient', 'elder', 'young'] },
  };
}

/** Inline datum of relic `n`'s (100) reference token. */
export function relicDatum(world: World, c: NftCollection, n: number): string {
  const r = new Rng(world.seed, 'relic', n);
  const text = (s: string): PlutusData => bytes(utf8Hex(s));
  const entries: [PlutusData, PlutusData][] = [
    [text('name'), text(`${c.name} #${n}`)],
    [text('image'), text(`ipfs://${hash256(enc.encode(`${world.seed}/relic/${n}`)).slice(0, 46)}`)],
    [text('mediaType'), text('image/png')],
  ];
  for (const [trait, values] of Object.entries(c.traits)) entries.push([text(trait), text(r.pick(values))]);
  return encodePlutusData(constr(0, { map: entries }, 1n, constr(0)));
}

/** jpg.store's metadata copy of a listing datum: label 30 = "6", labels 50… = 64-character chunks, ","-ended. */
export function datumMetadata(datumHex: string): Record<string, CborValue> {
  const text = `${datumHex},`;
  const out: Record<string, CborValue> = { '30': '6' };
  for (let i = 0; i * 64 < text.length; i++) out[String(50 + i)] = text.slice(i * 64, i * 64 + 64);
  return out;
}

interface OpenListing {
  utxo: Utxo;
  datum: JpgListingDatum;
  datumHex: string;
  seller: Wallet;
  piece: Assets;
}

/**
 * Payouts + the contract's formula fee: what the devnet's sellers aim at when they re-price and its buyers budget
 * for (without the fee's 1 ADA minimum, as the devnet always has; it keeps the generated history unchanged).
 */
function formulaPrice(d: JpgListingDatum): bigint {
  const sum = d.payouts.reduce((a, p) => a + p.lovelace, 0n);
  return sum + marketplaceFeeV3(sum);
}

const ENCODE = { indefinite: true } as const;
const BUY_REDEEMER = encodePlutusData(constr(0, 1n), ENCODE); // Buy { payout_outputs_offset: 1 }
const WITHDRAW_REDEEMER = encodePlutusData(constr(1), ENCODE);

export function nftMarketModule(world: World): ActivityModule {
  const relics = relicsCollection(world);
  const collections = [...world.collections, relics];
  const byPolicy = new Map(collections.map((c) => [c.policyId, c]));
  let relicsMinted = 0;
  const open: OpenListing[] = [];

  const mintRelic = (ctx: ActivityContext): DevTx | null => {
    if (relicsMinted >= relics.size) return null;
    const n = relicsMinted + 1;
    const buyer = pickFunded(ctx, world.wallets, relics.priceLovelace + 10n * ADA);
    if (!buyer) return null;
    const suffix = utf8Hex(`${relics.prefix}${n}`);
    const user: Assets = { [relics.policyId]: { [USER_PREFIX + suffix]: 1n } };
    const ref: Assets = { [relics.policyId]: { [REFERENCE_PREFIX + suffix]: 1n } };
    const datum = relicDatum(world, relics, n);
    const creator = world.wallets[relics.creator] as Wallet;
    const tx = ctx.build({
      fundFrom: buyer.address,
      mint: { [relics.policyId]: { [USER_PREFIX + suffix]: 1n, [REFERENCE_PREFIX + suffix]: 1n } },
      mintPolicies: { [relics.policyId]: policySigner(relics.policyVkey) },
      outputs: [
        { address: buyer.address, value: { coin: minCoin(user), assets: user } },
        { address: cip68StoreAddress(world), value: { coin: minCoin(ref, datum.length / 2), assets: ref }, datum },
        { address: creator.address, value: { coin: relics.priceLovelace, assets: {} } },
      ],
      signers: [buyer.paymentVkey, relics.policyVkey],
    });
    if (tx) relicsMinted = n;
    return tx;
  };

  /** A listing datum for a total price near `target`: royalty to the creator, the rest to the seller. */
  const listingDatum = (ctx: ActivityContext, c: NftCollection, seller: Wallet, target: bigint): JpgListingDatum => {
    const payoutsSum = ((target * 49n) / 50n / ADA) * ADA; // whole ADA, so that payouts + fee ≈ target
    const royalty = (payoutsSum * BigInt(ctx.rng.int(2, 6))) / 100n / ADA;
    const creator = world.wallets[c.creator] as Wallet;
    const payouts = [];
    if (royalty >= 1n && creator.address !== seller.address)
      payouts.push({ address: creator.address, lovelace: royalty * ADA });
    payouts.push({ address: seller.address, lovelace: payoutsSum - (payouts[0]?.lovelace ?? 0n) });
    return { version: 'v3', owner: seller.paymentCred, payouts };
  };

  const askOutput = (piece: Assets, datumHex: string) => ({
    address: JPG_V3_ASK_ADDRESS,
    value: { coin: minCoin(piece, DATUM_HASH_BYTES), assets: piece },
    datumHash: hash256(hex.decode(datumHex)),
  });

  /** Finds a wallet holding a listable piece: a few random wallets, their UTxOs in ledger order. */
  const findPiece = (ctx: ActivityContext): { seller: Wallet; utxo: Utxo; c: NftCollection; piece: Assets } | null => {
    for (let i = 0; i < 10; i++) {
      const seller = ctx.rng.pick(world.wallets);
      for (const u of ctx.view.utxosAt(seller.address))
        for (const [policy, names] of Object.entries(u.value.assets)) {
          const c = byPolicy.get(policy);
          if (!c) continue;
          const name = Object.keys(names).find((n) => !n.startsWith(REFERENCE_PREFIX));
          if (name) return { seller, utxo: u, c, piece: { [policy]: { [name]: 1n } } };
        }
    }
    return null;
  };

  const list = (ctx: ActivityContext): DevTx | null => {
    const found = findPiece(ctx);
    if (!found) return null;
    const { seller, utxo, c, piece } = found;
    const target = BigInt(Math.floor(Number(c.priceLovelace) * ctx.rng.logUniform(0.5, 4)));
    const datum = listingDatum(ctx, c, seller, target > 5n * ADA ? target : 5n * ADA);
    const datumHex = encodeListingDatum(datum);
    const tx = ctx.build({
      inputs: [utxo],
      fundFrom: seller.address,
      outputs: [askOutput(piece, datumHex)],
      metadata: datumMetadata(datumHex),
      datums: [datumHex],
      signers: [seller.paymentVkey],
    });
    if (tx) open.push({ utxo: tx.created[0] as Utxo, datum, datumHex, seller, piece });
    return tx;
  };

  /** A random open listing still unspent, removed from the open list. */
  const takeListing = (ctx: ActivityContext): OpenListing | null => {
    while (open.length) {
      const i = ctx.rng.int(0, open.length - 1);
      const l = open[i] as OpenListing;
      open.splice(i, 1);
      if (ctx.view.isUnspent(l.utxo)) return l;
    }
    return null;
  };

  const buy = (ctx: ActivityContext): DevTx | null => {
    const l = takeListing(ctx);
    if (!l) return null;
    const price = formulaPrice(l.datum);
    const buyer = pickFunded(ctx, world.wallets, price + 10n * ADA);
    if (!buyer || buyer.address === l.seller.address) {
      open.push(l);
      return null;
    }
    const payoutsSum = l.datum.payouts.reduce((a, p) => a + p.lovelace, 0n);
    const fee = marketplaceFeeV3(payoutsSum);
    const ref = { transaction: { id: l.utxo.txId }, index: l.utxo.index };
    const tx = ctx.build({
      inputs: [l.utxo],
      fundFrom: buyer.address,
      outputs: [
        { address: buyer.address, value: { coin: minCoin(l.piece), assets: l.piece } },
        // The contract wants at least the fee at the marketplace address; a payout below 1 ADA is not allowed.
        { address: JPG_V3_FEE_ADDRESS, value: { coin: fee > ADA ? fee : ADA, assets: {} }, datum: saleTagDatum(ref) },
        ...l.datum.payouts.map((p) => ({ address: p.address, value: { coin: p.lovelace, assets: {} } })),
      ],
      datums: [l.datumHex],
      redeemers: [{ input: l.utxo, data: BUY_REDEEMER }],
      signers: [buyer.paymentVkey],
    });
    if (!tx) open.push(l);
    return tx;
  };

  /** WithdrawOrUpdate: back to the seller, or (update) re-listed at a new price in the same tx. */
  const withdraw = (ctx: ActivityContext, update: boolean): DevTx | null => {
    const l = takeListing(ctx);
    if (!l) return null;
    const policy = Object.keys(l.piece)[0] as string;
    const c = byPolicy.get(policy) as NftCollection;
    const price = formulaPrice(l.datum);
    const next = update ? listingDatum(ctx, c, l.seller, (price * BigInt(ctx.rng.int(70, 95))) / 100n) : null;
    const nextHex = next ? encodeListingDatum(next) : null;
    // The seller pays the fee: one of their UTxOs is spent too (the ask's own ADA is re-locked by an update).
    const [feeInput] = ctx.view.utxosAt(l.seller.address);
    const tx = ctx.build({
      inputs: feeInput ? [l.utxo, feeInput] : [l.utxo],
      fundFrom: l.seller.address,
      outputs: nextHex
        ? [askOutput(l.piece, nextHex)]
        : [{ address: l.seller.address, value: { coin: minCoin(l.piece), assets: l.piece } }],
      ...(nextHex ? { metadata: datumMetadata(nextHex) } : {}),
      datums: [l.datumHex],
      redeemers: [{ input: l.utxo, data: WITHDRAW_REDEEMER }],
      signers: [l.seller.paymentVkey],
    });
    if (!tx) open.push(l);
    else if (next && nextHex)
      open.push({ utxo: tx.created[0] as Utxo, datum: next, datumHex: nextHex, seller: l.seller, piece: l.piece });
    return tx;
  };

  return {
    name: 'nft-market',
    step(ctx) {
      const txs: DevTx[] = [];
      if (ctx.fork || ctx.height < 5) return txs;
      const push = (tx: DevTx | null) => tx && txs.push(tx);
      if (ctx.height >= RELIC_DROP_HEIGHT) for (let i = ctx.rng.poisson(0.12); i > 0; i--) push(mintRelic(ctx));
      for (let i = ctx.rng.poisson(0.07); i > 0; i--) push(list(ctx));
      for (let i = ctx.rng.poisson(0.03); i > 0; i--) push(buy(ctx));
      if (ctx.rng.chance(0.012)) push(withdraw(ctx, false));
      if (ctx.rng.chance(0.012)) push(withdraw(ctx, true));
      return txs;
    },
  };
}
