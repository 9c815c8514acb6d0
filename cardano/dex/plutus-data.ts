/**
 * Plutus Data (the ledger's `Data`: Constr | Map | List | I | B) decoded from and encoded to CBOR, plus the
 * shared on-chain shapes every DEX datum is built from: asset classes, Option, Bool, Rational and the Plutus
 * `Address`. Pure functions; no I/O.
 *
 * Encoding on chain: constructor n is tag 121+n (n ≤ 6), 1280+(n−7) (7 ≤ n ≤ 127), otherwise tag 102 over
 * `[n, fields]`; integers beyond 64 bits are tag 2/3 bignums; bytestrings longer than 64 bytes must be split into
 * ≤ 64-byte chunks of an indefinite-length string. Constructor fields and lists are written with indefinite
 * lengths by PlutusTx, Aiken and CSL (`9f … ff`, empty = `80`) but with definite lengths by some Rust encoders
 * (Splash); decoded nodes remember which, so re-encoding a decoded datum gives back the same bytes.
 */
import { bech32 } from '@scure/base';
import { baseAddress, enterpriseAddress, parseAddress } from '../address.js';
import type { Network } from '../address.js';
import type { Cbor } from './cbor.js';
import { bignumValue, bytesToHex, chunkSizes, decodeCbor, encodeCborHex, hexToBytes } from './cbor.js';

export interface PlutusConstr {
  constr: number;
  fields: PlutusData[];
  /** How the fields array was (or is to be) written; absent = the encoder's default. */
  indefinite?: boolean;
}
export interface PlutusList {
  list: PlutusData[];
  indefinite?: boolean;
}
export interface PlutusMap {
  map: Array<[PlutusData, PlutusData]>;
  indefinite?: boolean;
}
export type PlutusData = bigint | Uint8Array | PlutusConstr | PlutusList | PlutusMap;

/** A datum that does not have the shape a decoder expects. */
export class PlutusShapeError extends Error {}

// ---------------------------------------------------------------------------------------------------------------
// CBOR ↔ Plutus Data

export function decodePlutusData(input: string | Uint8Array): PlutusData {
  return fromCbor(decodeCbor(input));
}

export function fromCbor(c: Cbor): PlutusData {
  switch (c.t) {
    case 'int':
      return c.v;
    case 'bytes':
      return c.v;
    case 'array':
      return { list: c.v.map(fromCbor), indefinite: c.indef };
    case 'map':
      return { map: c.v.map(([k, v]) => [fromCbor(k), fromCbor(v)] as [PlutusData, PlutusData]), indefinite: c.indef };
    case 'tag': {
      const big = bignumValue(c);
      if (big !== null) return big;
      const tag = c.tag;
      const fieldsOf = (x: Cbor): PlutusConstr => {
        if (x.t !== 'array') throw new PlutusShapeError('constructor fields must be an array');
        return { constr: 0, fields: x.v.map(fromCbor), indefinite: x.indef };
      };
      if (tag >= 121n && tag <= 127n) return { ...fieldsOf(c.v), constr: Number(tag - 121n) };
      if (tag >= 1280n && tag <= 1400n) return { ...fieldsOf(c.v), constr: Number(tag - 1280n + 7n) };
      if (tag === 102n) {
        if (c.v.t !== 'array' || c.v.v.length !== 2) throw new PlutusShapeError('tag 102 needs [index, fields]');
        const [ix, fields] = c.v.v as [Cbor, Cbor];
        if (ix.t !== 'int' || ix.v < 0n) throw new PlutusShapeError('tag 102 index must be a non-negative int');
        return { ...fieldsOf(fields), constr: Number(ix.v) };
      }
      throw new PlutusShapeError(`CBOR tag ${tag} is not Plutus data`);
    }
    default:
      throw new PlutusShapeError(`CBOR ${c.t} is not Plutus data`);
  }
}

export interface EncodeOptions {
  /** Lengths for nodes that do not carry their own flag: indefinite (`9f…ff`) or definite. Default definite. */
  indefinite?: boolean;
}

export function toCbor(d: PlutusData, opts: EncodeOptions = {}): Cbor {
  if (typeof d === 'bigint') return { t: 'int', v: d };
  if (d instanceof Uint8Array)
    return d.length > 64 ? { t: 'bytes', v: d, chunks: chunkSizes(d.length) } : { t: 'bytes', v: d };
  // A node's own flag wins (some encoders write even empty arrays as `9f ff`); the default never makes `9f ff`.
  const indef = (items: unknown[], flag: boolean | undefined) =>
    flag ?? (items.length > 0 && (opts.indefinite ?? false));
  if ('list' in d) return { t: 'array', v: d.list.map((x) => toCbor(x, opts)), indef: indef(d.list, d.indefinite) };
  if ('map' in d)
    return {
      t: 'map',
      v: d.map.map(([k, v]) => [toCbor(k, opts), toCbor(v, opts)] as [Cbor, Cbor]),
      indef: d.indefinite ?? false,
    };
  const fields: Cbor = { t: 'array', v: d.fields.map((x) => toCbor(x, opts)), indef: indef(d.fields, d.indefinite) };
  if (!Number.isInteger(d.constr) || d.constr < 0) throw new PlutusShapeError(`bad constructor index ${d.constr}`);
  if (d.constr <= 6) return { t: 'tag', tag: BigInt(121 + d.constr), v: fields };
  if (d.constr <= 127) return { t: 'tag', tag: BigInt(1280 + d.constr - 7), v: fields };
  return { t: 'tag', tag: 102n, v: { t: 'array', v: [{ t: 'int', v: BigInt(d.constr) }, fields], indef: false } };
}

/** CBOR hex of Plutus data. */
export function encodePlutusData(d: PlutusData, opts: EncodeOptions = {}): string {
  return encodeCborHex(toCbor(d, opts));
}

/**
 * The cardano-cli "detailed schema" JSON (`{constructor, fields}`, `{int}`, `{bytes}`, `{list}`, `{map: [{k, v}]}`),
 * with ints as decimal strings so they survive JSON. This is the form the fixtures' `decoded` fields use.
 */
export type PlutusJson =
  | { constructor: number; fields: PlutusJson[] }
  | { int: string }
  | { bytes: string }
  | { list: PlutusJson[] }
  | { map: Array<{ k: PlutusJson; v: PlutusJson }> };

export function plutusDataToJson(d: PlutusData): PlutusJson {
  if (typeof d === 'bigint') return { int: d.toString() };
  if (d instanceof Uint8Array) return { bytes: bytesToHex(d) };
  if ('list' in d) return { list: d.list.map(plutusDataToJson) };
  if ('map' in d) return { map: d.map.map(([k, v]) => ({ k: plutusDataToJson(k), v: plutusDataToJson(v) })) };
  return { constructor: d.constr, fields: d.fields.map(plutusDataToJson) };
}

// ---------------------------------------------------------------------------------------------------------------
// Builders

export const constr = (index: number, ...fields: PlutusData[]): PlutusConstr => ({ constr: index, fields });
export const list = (items: PlutusData[]): PlutusList => ({ list: items });
export const int = (n: bigint | number): bigint => BigInt(n);
export const bytes = (hex: string): Uint8Array => hexToBytes(hex);

// ---------------------------------------------------------------------------------------------------------------
// Readers: each throws PlutusShapeError on a mismatch, so a decoder is a straight-line function and its caller
// turns the exception into "not this DEX's datum".

export function isConstr(d: PlutusData): d is PlutusConstr {
  return typeof d === 'object' && !(d instanceof Uint8Array) && 'constr' in d;
}

export function asConstr(d: PlutusData | undefined, index?: number, minFields?: number): PlutusConstr {
  if (d === undefined || !isConstr(d)) throw new PlutusShapeError('expected a constructor');
  if (index !== undefined && d.constr !== index)
    throw new PlutusShapeError(`expected constructor ${index}, got ${d.constr}`);
  if (minFields !== undefined && d.fields.length < minFields)
    throw new PlutusShapeError(`expected at least ${minFields} fields, got ${d.fields.length}`);
  return d;
}

/** The fields of constructor `index`, exactly `count` of them when given. */
export function fieldsOf(d: PlutusData | undefined, index: number, count?: number): PlutusData[] {
  const c = asConstr(d, index);
  if (count !== undefined && c.fields.length !== count)
    throw new PlutusShapeError(`expected ${count} fields, got ${c.fields.length}`);
  return c.fields;
}

export function asInt(d: PlutusData | undefined): bigint {
  if (typeof d !== 'bigint') throw new PlutusShapeError('expected an integer');
  return d;
}

export function asBytes(d: PlutusData | undefined): Uint8Array {
  if (!(d instanceof Uint8Array)) throw new PlutusShapeError('expected bytes');
  return d;
}

export function asHex(d: PlutusData | undefined): string {
  return bytesToHex(asBytes(d));
}

export function asList(d: PlutusData | undefined): PlutusData[] {
  if (d === undefined || typeof d !== 'object' || d instanceof Uint8Array || !('list' in d))
    throw new PlutusShapeError('expected a list');
  return d.list;
}

// ---------------------------------------------------------------------------------------------------------------
// Common shapes

/** Aiken/PlutusTx Bool: False = C0[], True = C1[]. */
export function asBool(d: PlutusData | undefined): boolean {
  const c = asConstr(d);
  if (c.fields.length !== 0 || c.constr > 1) throw new PlutusShapeError('expected a Bool');
  return c.constr === 1;
}
export const boolData = (b: boolean): PlutusConstr => constr(b ? 1 : 0);

/** Option/Maybe: Some x = C0[x], None = C1[]. */
export function asOption<T>(d: PlutusData | undefined, read: (x: PlutusData) => T): T | null {
  const c = asConstr(d);
  if (c.constr === 1 && c.fields.length === 0) return null;
  if (c.constr === 0 && c.fields.length === 1) return read(c.fields[0] as PlutusData);
  throw new PlutusShapeError('expected an Option');
}
export const optionData = <T>(v: T | null | undefined, write: (x: T) => PlutusData): PlutusConstr =>
  v === null || v === undefined ? constr(1) : constr(0, write(v));

/** Rational as `C0[numerator, denominator]`. */
export interface Rational {
  num: bigint;
  den: bigint;
}
export function asRational(d: PlutusData | undefined): Rational {
  const [num, den] = fieldsOf(d, 0, 2);
  return { num: asInt(num), den: asInt(den) };
}
export const rationalData = (r: Rational): PlutusConstr => constr(0, r.num, r.den);

/**
 * Asset units as this service names them: `lovelace` for ADA, otherwise policy id hex followed by asset name hex
 * (the Ogmios/Blockfrost "unit"). In datums ADA is the pair ("", "").
 */
export const LOVELACE = 'lovelace';

export function unitOf(policyId: string, assetName: string): string {
  return policyId === '' && assetName === '' ? LOVELACE : policyId + assetName;
}

export function splitUnit(unit: string): { policyId: string; assetName: string } {
  if (unit === LOVELACE) return { policyId: '', assetName: '' };
  if (!/^[0-9a-f]{56}([0-9a-f]{2}){0,32}$/.test(unit)) throw new PlutusShapeError(`not an asset unit: ${unit}`);
  return { policyId: unit.slice(0, 56), assetName: unit.slice(56) };
}

/** Asset class `C0[B(policy), B(name)]`. */
export function asAssetClass(d: PlutusData | undefined): string {
  const [p, n] = fieldsOf(d, 0, 2);
  return unitOf(asHex(p), asHex(n));
}
export function assetClassData(unit: string): PlutusConstr {
  const { policyId, assetName } = splitUnit(unit);
  return constr(0, bytes(policyId), bytes(assetName));
}

// ---------------------------------------------------------------------------------------------------------------
// Plutus Address ↔ bech32

/** Plutus `Credential`: C0[B(keyHash)] or C1[B(scriptHash)]. */
export interface Credential {
  hash: string;
  script: boolean;
}
export function asCredential(d: PlutusData | undefined): Credential {
  const c = asConstr(d);
  if (c.constr > 1 || c.fields.length !== 1) throw new PlutusShapeError('expected a Credential');
  const hash = asHex(c.fields[0]);
  if (hash.length !== 56) throw new PlutusShapeError('credential hash must be 28 bytes');
  return { hash, script: c.constr === 1 };
}
export const credentialData = (c: Credential): PlutusConstr => constr(c.script ? 1 : 0, bytes(c.hash));

/**
 * Plutus `Address` = C0[paymentCredential, Option<StakingCredential>], StakingCredential = C0[Credential]
 * (StakingHash) or C1[I slot, I txIx, I certIx] (StakingPtr). Returns the bech32 form on `network`.
 */
export function plutusAddressToBech32(d: PlutusData | undefined, network: Network = 'mainnet'): string {
  const [payData, stakeOpt] = fieldsOf(d, 0, 2);
  const pay = asCredential(payData);
  const staking = asOption(stakeOpt as PlutusData, (s) => s);
  if (staking === null) return enterpriseAddress(network, pay.hash, pay.script);
  const sc = asConstr(staking);
  if (sc.constr === 0) {
    const stake = asCredential(fieldsOf(sc, 0, 1)[0]);
    return baseAddress(network, pay.hash, stake.hash, pay.script, stake.script);
  }
  const [slot, txIx, certIx] = fieldsOf(sc, 1, 3).map(asInt) as [bigint, bigint, bigint];
  return pointerAddress(network, pay, slot, txIx, certIx);
}

function pointerAddress(network: Network, pay: Credential, slot: bigint, txIx: bigint, certIx: bigint): string {
  const nat = (n: bigint): number[] => {
    if (n < 0n) throw new PlutusShapeError('negative pointer');
    const out = [Number(n & 0x7fn)];
    for (let v = n >> 7n; v > 0n; v >>= 7n) out.unshift(Number(v & 0x7fn) | 0x80);
    return out;
  };
  const header = ((pay.script ? 5 : 4) << 4) | (network === 'mainnet' ? 1 : 0);
  const raw = Uint8Array.from([header, ...hexToBytes(pay.hash), ...nat(slot), ...nat(txIx), ...nat(certIx)]);
  return bech32.encode(network === 'mainnet' ? 'addr' : 'addr_test', bech32.toWords(raw), 1023);
}

/** bech32 base/enterprise address → Plutus `Address` (pointer and Byron addresses have no use in DEX datums). */
export function bech32ToPlutusAddress(address: string): PlutusConstr {
  const p = parseAddress(address);
  if (!p.paymentCred || (p.kind !== 'base' && p.kind !== 'enterprise'))
    throw new PlutusShapeError(`only base and enterprise addresses can be put in a datum: ${address}`);
  const pay = credentialData({ hash: p.paymentCred, script: p.paymentScript });
  if (p.kind === 'enterprise' || !p.stakeCred) return constr(0, pay, constr(1));
  return constr(0, pay, constr(0, constr(0, credentialData({ hash: p.stakeCred, script: p.stakeScript }))));
}

/** The network an address is on (datum addresses are written for the network of the output that holds them). */
export function networkOf(address: string): Network {
  try {
    return parseAddress(address).network ?? 'mainnet';
  } catch {
    return 'mainnet';
  }
}
