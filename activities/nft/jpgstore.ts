/**
 * jpg.store listings, sales and cancels, read from Ogmios transactions. Pure: the outputs a tx spends and datums
 * known only by hash come in through resolvers (the sync's UTxO set), as for the DEX parsers.
 *
 * v3 "ask" (Aiken, jpg-store/contracts-v3 @ de7365cb): an NFT is listed by locking it at the ask script
 * `c727443d…` (usually with jpg.store's stake script `2c967f4b…`) with datum `C0[payouts, owner]`,
 * `payouts = [C0[Address, I lovelace]]` (royalty and seller; the marketplace fee is NOT in the list) and
 * `owner` = the lister's payment key hash. A buyer pays Σ payouts + fee, the fee being the contract's formula
 * `Σpayouts·50/49/50` (integer division, ≈ 2 % of the total) but at least jpg.store's minimum payout of 1 ADA (the
 * fee output is a payout output: below ~49 ADA of payouts the formula asks for less). Spending the ask
 * UTxO with redeemer `Buy C0[offset]` is a sale (outputs from `offset`: the fee output at the marketplace address
 * tagged with inline datum blake2b_256(serialise(out_ref)), then the payouts in datum order); `WithdrawOrUpdate C1[]`
 * (owner signs) is a cancel, or a price update when the same NFT is locked again at the ask script in the same tx.
 * Listing datums are usually only hashed in the output; jpg.store puts the datum in the witness set and also in tx
 * metadata (label 30 = "6", labels 50… = 64-character chunks of the datum CBOR hex, ","-terminated).
 *
 * v2 (Plutus, jpg-store/contract-v2 @ bedd4274): script `9068a7a3…`, datum `Swap C0[owner, payouts]` with
 * `Payout C0[Address, ExpectedValue]`, `ExpectedValue = Map<policy, C0[I extra, Map<name, I qty>]>`; redeemer
 * `Cancel C0[]` | `Accept C1[]` (note: the reverse of v3). The payouts are believed to include the marketplace fee
 * (unsure per the reference), so the v2 price is Σ payouts.
 */
import type { OutputReference, Transaction, TxOutput, Value } from '../../cardano/chain/types.js';
import { hash256 } from '../../cardano/address.js';
import type { Network } from '../../cardano/address.js';
import { hexToBytes } from '../../cardano/dex/cbor.js';
import type { PlutusData } from '../../cardano/dex/plutus-data.js';
import {
  PlutusShapeError,
  asConstr,
  asHex,
  asInt,
  asList,
  bech32ToPlutusAddress,
  bytes,
  constr,
  decodePlutusData,
  encodePlutusData,
  fieldsOf,
  list,
  networkOf,
  plutusAddressToBech32,
} from '../../cardano/dex/plutus-data.js';
import type { DatumResolver, InputResolver } from '../../cardano/dex/types.js';
import { attempt, paymentCredential, redeemersOf, refString, sortedInputs } from '../../cardano/dex/utxo.js';
import { labelOf } from '../../cardano/nft/metadatum.js';

/** Payment script hash of the v3 ask validator (unparameterised; every v3 listing address has it). */
export const JPG_V3_ASK_SCRIPT = 'c727443d77df6cff95dca383994f4c3024d03ff56b02ecc22b0f3f65';
/** The v3 marketplace fee address: script `84cc25ea…` + stake script `2c967f4b…`. */
export const JPG_V3_FEE_SCRIPT = '84cc25ea4c29951d40b443b95bbc5676bc425470f96376d1984af9ab';
export const JPG_STAKE_SCRIPT = '2c967f4bd28944b06462e13c5e3f5d5fa6e03f8567569438cd833e6d';
/** Keys whose signature lets a v3 buy skip the fee check (jpg.store computed a discounted fee off chain). */
export const JPG_V3_AUTHORIZERS = [
  '15df89fe62968415bac4de9d8576da39c34db4717f46332572aca3eb',
  '53391ebae9fa352a1108e2769df9baf0d3efcab0f49404bd6ac56bd4',
] as const;
/** Payment script hash of the v2 swap validator (`assets/mainnet/swap.addr`). */
export const JPG_V2_SWAP_SCRIPT = '9068a7a3f008803edac87af1619860f2cdcde40c26987325ace138ad';

export type JpgVersion = 'v3' | 'v2';

export interface JpgPayout {
  /** bech32, on the network of the output that carries the datum. */
  address: string;
  /** Lovelace the address must receive (v2: the ADA part of the expected value). */
  lovelace: bigint;
}

export interface JpgListingDatum {
  version: JpgVersion;
  /** Payment key hash of the lister: the key that must sign a cancel/update. */
  owner: string;
  payouts: JpgPayout[];
}

/** Which jpg.store contract an address belongs to, by payment credential. */
export function jpgVersionOf(address: string): JpgVersion | null {
  const cred = paymentCredential(address);
  return cred === JPG_V3_ASK_SCRIPT ? 'v3' : cred === JPG_V2_SWAP_SCRIPT ? 'v2' : null;
}

// ---------------------------------------------------------------------------------------------------------------
// Datums

export function decodeListingDatum(
  datum: string | PlutusData,
  version: JpgVersion,
  network: Network = 'mainnet',
): JpgListingDatum {
  const d = typeof datum === 'string' ? decodePlutusData(datum) : datum;
  if (version === 'v3') {
    const [payouts, owner] = fieldsOf(d, 0, 2);
    return {
      version,
      owner: asHex(owner),
      payouts: asList(payouts).map((p) => {
        const [address, amount] = fieldsOf(p, 0, 2);
        return { address: plutusAddressToBech32(address, network), lovelace: asInt(amount) };
      }),
    };
  }
  const [owner, payouts] = fieldsOf(d, 0, 2);
  return {
    version,
    owner: asHex(owner),
    payouts: asList(payouts).map((p) => {
      const [address, expected] = fieldsOf(p, 0, 2);
      return { address: plutusAddressToBech32(address, network), lovelace: expectedLovelace(expected) };
    }),
  };
}

/** ADA in a v2 `ExpectedValue`: under policy "" the token map holds `"" → lovelace`, plus the `extra` count. */
function expectedLovelace(d: PlutusData | undefined): bigint {
  if (d === undefined || typeof d !== 'object' || d instanceof Uint8Array || !('map' in d))
    throw new PlutusShapeError('expected an ExpectedValue map');
  let total = 0n;
  for (const [policy, entry] of d.map) {
    if (asHex(policy) !== '') continue;
    const [extra, tokens] = fieldsOf(entry, 0, 2);
    total += asInt(extra);
    if (typeof tokens !== 'object' || tokens instanceof Uint8Array || !('map' in tokens))
      throw new PlutusShapeError('expected a token map');
    for (const [, q] of tokens.map) total += asInt(q);
  }
  return total;
}

/** The datum as Plutus data (v3 Aiken and v2 PlutusTx both write constructor fields and lists indefinite). */
export function listingDatumData(d: JpgListingDatum): PlutusData {
  if (d.version === 'v3')
    return constr(
      0,
      list(d.payouts.map((p) => constr(0, bech32ToPlutusAddress(p.address), p.lovelace))),
      bytes(d.owner),
    );
  const ada = (lovelace: bigint): PlutusData => ({
    map: [[bytes(''), constr(0, 0n, { map: [[bytes(''), lovelace]] })]],
  });
  return constr(
    0,
    bytes(d.owner),
    list(d.payouts.map((p) => constr(0, bech32ToPlutusAddress(p.address), ada(p.lovelace)))),
  );
}

/** CBOR hex of a listing datum, byte-identical to what jpg.store writes for v3. */
export function encodeListingDatum(d: JpgListingDatum): string {
  return encodePlutusData(listingDatumData(d), { indefinite: true });
}

/** The v3 contract's fee: `Σpayouts·50/49/50`, integer division at each step. */
export function marketplaceFeeV3(payoutsSum: bigint): bigint {
  return (payoutsSum * 50n) / 49n / 50n;
}

/**
 * Lovelace of the smallest marketplace fee output a v3 buy carries: jpg.store's minimum payout (`min_payout`,
 * 1 ADA, jpg-store/contracts-v3 lib/jpg/constants.ak; reference §3.3). Every devnet sale's fee output is
 * max(formula, this).
 */
export const JPG_V3_MIN_FEE = 1_000_000n;

/**
 * Price a buyer pays for the listing, in lovelace: v3 = payouts + the fee output of a buy (the contract's formula,
 * at least `JPG_V3_MIN_FEE`: a listing with 5 ADA of payouts costs 6 ADA, not 5.10); v2 = payouts (they are
 * believed to hold the fee).
 */
export function listingPrice(d: JpgListingDatum): bigint {
  const sum = d.payouts.reduce((a, p) => a + p.lovelace, 0n);
  if (d.version !== 'v3') return sum;
  const fee = marketplaceFeeV3(sum);
  return sum + (fee > JPG_V3_MIN_FEE ? fee : JPG_V3_MIN_FEE);
}

/**
 * Datums jpg.store wrote into tx metadata (labels 50, 51, … concatenated, each datum ","-terminated), by
 * blake2b-256 hash. Observed on v3 listings; a datum is returned only when it decodes as Plutus data.
 */
export function datumsFromMetadata(tx: Transaction): Map<string, string> {
  const out = new Map<string, string>();
  let text = '';
  for (let label = 50; ; label++) {
    const chunk = labelOf(tx.metadata, label);
    if (typeof chunk !== 'string') break;
    text += chunk;
  }
  for (const part of text.split(',')) {
    const hex = part.trim().toLowerCase();
    if (!/^([0-9a-f]{2})+$/.test(hex) || attempt(() => decodePlutusData(hex)) === null) continue;
    out.set(hash256(hexToBytes(hex)), hex);
  }
  return out;
}

/**
 * The inline datum v3 requires on the first payout output of a buy (double-satisfaction tag):
 * `blake2b_256(serialise_data(OutputReference C0[C0[B txId], I index]))`, as Ogmios shows an inline datum (CBOR hex
 * of the 32 bytes).
 */
export function saleTagDatum(ref: OutputReference): string {
  const outRef = constr(0, constr(0, bytes(ref.transaction.id)), BigInt(ref.index));
  return `5820${hash256(hexToBytes(encodePlutusData(outRef, { indefinite: true })))}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Events

export interface JpgStoreEvent {
  kind: 'listing' | 'sale' | 'cancel';
  marketplace: 'jpg.store';
  version: JpgVersion;
  /** The ask UTxO (`txId#index`): created by a listing, spent by a sale or cancel. */
  listingRef: string;
  /** The listed NFT (first non-ADA asset of the ask UTxO); null for an ask UTxO holding no token. */
  unit: string | null;
  /** Every non-ADA asset of the ask UTxO: more than one = a bundle, priced as a whole. */
  units: string[];
  /** What the buyer pays (see `listingPrice`); null when the datum could not be found. */
  priceLovelace: bigint | null;
  /** Lister's payment key hash (datum `owner`). */
  owner: string | null;
  /** The payout address paying the owner's key (the seller's wallet), else null. */
  seller: string | null;
  /** Sale only: address of the first output receiving the NFT. */
  buyer?: string | null;
  /** Sale only (v3): lovelace of the output carrying the sale tag at the marketplace address, when present. */
  feePaidLovelace?: bigint | null;
  payouts: JpgPayout[];
  /** Cancel: the listing created by the same tx for the same NFT (a price update). */
  relistedAs?: string;
  /** Listing: the listing this one replaces (a price update). */
  replaces?: string;
}

function assetsOf(value: Value): string[] {
  const out: string[] = [];
  for (const [policy, assets] of Object.entries(value)) {
    if (policy === 'ada') continue;
    for (const [name, q] of Object.entries(assets as Record<string, bigint>)) if (q > 0n) out.push(policy + name);
  }
  return out;
}

function holds(value: Value, unit: string): boolean {
  return (value[unit.slice(0, 56)]?.[unit.slice(56)] ?? 0n) > 0n;
}

function sellerOf(d: JpgListingDatum): string | null {
  return d.payouts.find((p) => paymentCredential(p.address) === d.owner)?.address ?? null;
}

function datumHexOf(
  output: TxOutput,
  tx: Transaction,
  fromMetadata: () => Map<string, string>,
  datums?: DatumResolver,
) {
  if (output.datum) return output.datum;
  const h = output.datumHash;
  if (!h) return undefined;
  return tx.datums?.[h] ?? fromMetadata().get(h) ?? datums?.(h);
}

function listingOf(output: TxOutput, version: JpgVersion, hex: string | undefined): JpgListingDatum | null {
  if (!hex) return null;
  return attempt(() => decodeListingDatum(hex, version, networkOf(output.address)));
}

/**
 * jpg.store events of a valid tx, in this order: sales and cancels (spent ask UTxOs, ledger input order), then
 * listings (new ask outputs, output order). A failed tx has none. Spent ask UTxOs are recognised only when
 * `resolve` knows them (the sync's UTxO set); listings need no resolver.
 */
export function jpgStoreEventsOf(tx: Transaction, resolve: InputResolver, datums?: DatumResolver): JpgStoreEvent[] {
  if (tx.spends !== 'inputs') return [];
  // Decoded only when a jpg.store output needs a datum by hash (most transactions touch no jpg.store script).
  let metadataDatums: Map<string, string> | undefined;
  const fromMetadata = () => (metadataDatums ??= datumsFromMetadata(tx));
  const listings: JpgStoreEvent[] = [];
  tx.outputs.forEach((o, index) => {
    const version = jpgVersionOf(o.address);
    if (!version) return;
    const d = listingOf(o, version, datumHexOf(o, tx, fromMetadata, datums));
    const units = assetsOf(o.value);
    listings.push({
      kind: 'listing',
      marketplace: 'jpg.store',
      version,
      listingRef: `${tx.id}#${index}`,
      unit: units[0] ?? null,
      units,
      priceLovelace: d ? listingPrice(d) : null,
      owner: d?.owner ?? null,
      seller: d ? sellerOf(d) : null,
      payouts: d?.payouts ?? [],
    });
  });

  let spendRedeemers: Map<number, PlutusData | null> | undefined;
  const spends = () =>
    (spendRedeemers ??= new Map(
      redeemersOf(tx)
        .filter((r) => r.purpose === 'spend')
        .map((r) => [r.index, r.data]),
    ));
  const closed: JpgStoreEvent[] = [];
  sortedInputs(tx).forEach((ref, position) => {
    const spent = resolve(ref);
    const version = spent ? jpgVersionOf(spent.address) : null;
    if (!spent || !version) return;
    const redeemer = spends().get(position);
    const action = redeemer ? attempt(() => asConstr(redeemer).constr) : null;
    if (action === null || action === undefined) return;
    const isSale = version === 'v3' ? action === 0 : action === 1;
    const d = listingOf(spent, version, datumHexOf(spent, tx, fromMetadata, datums));
    const units = assetsOf(spent.value);
    const unit = units[0] ?? null;
    const event: JpgStoreEvent = {
      kind: isSale ? 'sale' : 'cancel',
      marketplace: 'jpg.store',
      version,
      listingRef: refString(ref),
      unit,
      units,
      priceLovelace: d ? listingPrice(d) : null,
      owner: d?.owner ?? null,
      seller: d ? sellerOf(d) : null,
      payouts: d?.payouts ?? [],
    };
    if (isSale) {
      event.buyer =
        unit === null
          ? null
          : (tx.outputs.find((o) => holds(o.value, unit) && !jpgVersionOf(o.address))?.address ?? null);
      if (version === 'v3') {
        const tag = saleTagDatum(ref);
        const feeOut = tx.outputs.find((o) => o.datum === tag && paymentCredential(o.address) === JPG_V3_FEE_SCRIPT);
        event.feePaidLovelace = feeOut ? feeOut.value.ada.lovelace : null;
      }
    } else if (unit !== null) {
      const relist = listings.find((l) => l.unit === unit && l.replaces === undefined);
      if (relist) {
        event.relistedAs = relist.listingRef;
        relist.replaces = event.listingRef;
      }
    }
    closed.push(event);
  });
  return [...closed, ...listings];
}
