/**
 * Units, pure (shared by the API's answers and the recomputes). The store keeps every amount as an integer string in the chain's base unit
 * (lovelace; raw token quantity) because values exceed 2^53 on mainnet. The spec answers in whole ADA and
 * decimal-adjusted token amounts, so each amount is scaled here exactly (bigint quotient and remainder, then the
 * decimal string is parsed once), and the exact integer string travels beside it.
 */
import { blake2b } from '@noble/hashes/blake2.js';
import { bech32, hex } from '@scure/base';
import { LABEL, labelPrefix, splitLabel, withLabel } from './nft/cip67.js';

const DIGITS = /^[0-9]+$/;

/**
 * `raw · 10^-decimals` as the nearest double, computed from the exact decimal expansion. A stored amount (a string
 * of digits) gets its decimal point by slicing, the same text the BigInt arithmetic below writes but for leading
 * zeros, which Number() reads alike: a sixth of the cost, and presenting a list calls this for every amount.
 */
export function scaleInteger(raw: string | bigint, decimals: number): number {
  if (typeof raw === 'string' && decimals > 0 && DIGITS.test(raw)) {
    const cut = raw.length - decimals;
    return Number(cut > 0 ? `${raw.slice(0, cut)}.${raw.slice(cut)}` : `0.${raw.padStart(decimals, '0')}`);
  }
  return scaleBigInt(raw, decimals);
}

/** The same by BigInt arithmetic: negative amounts, bigint input, no decimals. */
export function scaleBigInt(raw: string | bigint, decimals: number): number {
  const n = BigInt(raw);
  if (decimals <= 0) return Number(n);
  const negative = n < 0n;
  const abs = negative ? -n : n;
  const base = 10n ** BigInt(decimals);
  const frac = String(abs % base).padStart(decimals, '0');
  return Number(`${negative ? '-' : ''}${abs / base}.${frac}`);
}

/**
 * `raw · 10^-decimals` as exact decimal text (no exponent, trailing fraction zeros dropped), for messages that
 * name an amount beyond 2^53 base units: 2^64 − 1 at 0 decimals is 18446744073709551615, which a double prints
 * as 18446744073709552000.
 */
export function decimalText(raw: bigint, decimals: number): string {
  const negative = raw < 0n;
  const digits = String(negative ? -raw : raw).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * `num / den` (den ≠ 0) as the nearest double, from the exact quotient to at least 20 significant digits. A quotient
 * of two decimal-adjusted amounts rounds three times: 128.036055 INDY for 100 ADA printed 1.2803605500000002 INDY
 * per ADA, for 1.28036055.
 */
export function ratioNumber(num: bigint, den: bigint): number {
  if (num === 0n) return 0;
  const negative = num < 0n !== den < 0n;
  const n = num < 0n ? -num : num;
  const d = den < 0n ? -den : den;
  const places = Math.max(0, 20 - (String(n).length - String(d).length));
  const value = Number(decimalText((n * 10n ** BigInt(places)) / d, places));
  return negative ? -value : value;
}

/** 1 ADA = 1,000,000 lovelace. */
export const LOVELACE_DECIMALS = 6;
export const lovelaceToAda = (lovelace: string | bigint): number => scaleInteger(lovelace, LOVELACE_DECIMALS);
/** Whole ADA of a lovelace figure the answer may not know (null or absent: unknown, shown as null). */
export const lovelaceToAdaOrNull = (lovelace: string | bigint | null | undefined): number | null =>
  lovelace == null ? null : lovelaceToAda(lovelace);

/** A native asset unit is the 28-byte policy id (56 hex) followed by the asset name (0–32 bytes, hex). */
export function splitUnit(unit: string): { policyId: string; nameHex: string } {
  return { policyId: unit.slice(0, 56), nameHex: unit.slice(56) };
}

/**
 * The CIP-67 label of an asset name (`0` + 16-bit label + CRC-8 + `0`, the first 4 bytes), e.g. 100 for a CIP-68
 * reference NFT, 222 for its user NFT, 333 for a CIP-68 fungible token; null when the name carries none.
 */
export function cip67Label(nameHex: string): number | null {
  return splitLabel(nameHex)?.label ?? null;
}

/** CIP-67 asset-name label prefixes (4 bytes: 0, label, crc8, 0). */
export const CIP67_REFERENCE = labelPrefix(LABEL.reference); // 000643b0: (100) reference NFT holding the metadata datum
export const CIP67_FT = labelPrefix(LABEL.ft); // 0014df10: (333) fungible token

/**
 * The CIP-68 token of label `label` (same policy and suffix) whose metadata datum the reference NFT `unit` (label 100:
 * `policy ‖ 000643b0 ‖ suffix`) carries; null when `unit` is no reference NFT.
 */
function cip68OfReference(unit: string, label: number): string | null {
  const { policyId, nameHex } = splitUnit(unit.toLowerCase());
  const named = splitLabel(nameHex);
  return policyId.length === 56 && named?.label === LABEL.reference
    ? policyId + withLabel(label, named.suffixHex)
    : null;
}

/**
 * The CIP-68 fungible token (label 333: `policy ‖ 0014df10 ‖ suffix`) whose metadata datum the reference NFT `unit`
 * carries; null when `unit` is no reference NFT. The reference NFT is no token of its own: who looks it up (a mint,
 * the address holding it) means the 333 token; the market sync files the reference datum's metadata under that unit.
 */
export const cip68FtOfReference = (unit: string): string | null => cip68OfReference(unit, LABEL.ft);

/**
 * The CIP-68 NFT (label 222: `policy ‖ 000de140 ‖ suffix`, the token a wallet holds) whose metadata datum the
 * reference NFT `unit` carries; null when `unit` is no reference NFT. A CIP-68 NFT mint creates both: who looks the
 * reference one up means the NFT.
 */
export const cip68NftOfReference = (unit: string): string | null => cip68OfReference(unit, LABEL.nft);

/**
 * The CIP-14 asset fingerprint of a unit: bech32 `asset1…` of blake2b-160 over policy id ‖ asset name bytes. It is the
 * id explorers and wallets (Cardanoscan, pool.pm, Eternl) show for a native asset; it is a hash, so a unit is found
 * by its fingerprint only through an index that holds it (the search terms).
 */
export function assetFingerprint(unit: string): string {
  return bech32.encode('asset', bech32.toWords(blake2b(hex.decode(unit.toLowerCase()), { dkLen: 20 })));
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const NON_PRINTABLE = /[\p{Cc}\p{Cn}\p{Co}\p{Cs}]/u;

/**
 * The human-readable asset name: the UTF-8 text of the name bytes (after a CIP-67 label, if any) when it is
 * printable; null for binary names (hashes, NFT serials) and empty names.
 */
export function decodeAssetName(nameHex: string): string | null {
  const body = cip67Label(nameHex) === null ? nameHex : nameHex.slice(8);
  if (body.length === 0 || body.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(body)) return null;
  try {
    const text = utf8.decode(Buffer.from(body, 'hex'));
    return NON_PRINTABLE.test(text) ? null : text;
  } catch {
    return null;
  }
}

/** An ADA amount as the answers give it: whole ADA with the exact lovelace integer beside it. */
export interface AdaAmount {
  ada: number;
  lovelace: string;
}

/**
 * Ogmios JSON (certificates, governance actions, protocol-parameter updates) with every ADA amount it carries —
 * Ogmios writes each as `{ "ada": { "lovelace": n } }` — turned into `{ ada: whole ADA, lovelace: "n" }`, the
 * README's Units rule; every other value is kept as it is. Integers may be numbers or decimal strings (big ones).
 */
export function adaAmountsIn(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(adaAmountsIn);
  if (x === null || typeof x !== 'object') return x;
  const o = x as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length === 1 && keys[0] === 'ada') {
    const inner = o.ada;
    if (inner !== null && typeof inner === 'object' && !Array.isArray(inner)) {
      const ik = Object.keys(inner);
      const l = (inner as Record<string, unknown>).lovelace;
      if (ik.length === 1 && ik[0] === 'lovelace' && isInteger(l)) {
        const lovelace = String(l);
        return { ada: lovelaceToAda(lovelace), lovelace } satisfies AdaAmount;
      }
    }
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) out[k] = adaAmountsIn(v);
  return out;
}

const isInteger = (v: unknown): v is number | string | bigint =>
  typeof v === 'bigint' ||
  (typeof v === 'number' && Number.isInteger(v)) ||
  (typeof v === 'string' && /^-?\d+$/.test(v));
