/**
 * The little CBOR this module needs. Decoding uses cbor-x (maps as `Map`, byte strings as `Uint8Array`).
 * Encoding is written out because COSE signs exact bytes: cbor-x would tag a `Uint8Array` as a typed array
 * (tag 64) instead of a plain byte string, and the Sig_structure must be definite-length canonical CBOR.
 */
import { Decoder, Tag } from 'cbor-x';

export type CborValue =
  number | bigint | string | Uint8Array | boolean | null | CborValue[] | Map<CborValue, CborValue>;

const decoder = new Decoder({ mapsAsObjects: false, useRecords: false });

/** Decode one CBOR item; a COSE tag (18 = COSE_Sign1) is unwrapped so callers see the array. */
export function decodeCbor(bytes: Uint8Array): unknown {
  const v: unknown = decoder.decode(bytes);
  return v instanceof Tag ? v.value : v;
}

function head(major: number, n: number | bigint): number[] {
  const m = major << 5;
  const v = BigInt(n);
  if (v < 24n) return [m | Number(v)];
  if (v < 0x100n) return [m | 24, Number(v)];
  if (v < 0x10000n) return [m | 25, Number(v >> 8n), Number(v & 0xffn)];
  if (v < 0x100000000n) return [m | 26, ...[24n, 16n, 8n, 0n].map((s) => Number((v >> s) & 0xffn))];
  return [m | 27, ...[56n, 48n, 40n, 32n, 24n, 16n, 8n, 0n].map((s) => Number((v >> s) & 0xffn))];
}

function encodeInto(v: CborValue, out: number[]): void {
  if (v === null) out.push(0xf6);
  else if (v === true) out.push(0xf5);
  else if (v === false) out.push(0xf4);
  else if (typeof v === 'number' || typeof v === 'bigint') {
    if (typeof v === 'number' && !Number.isInteger(v)) throw new Error('cbor: only integers are supported');
    const b = BigInt(v);
    out.push(...(b >= 0n ? head(0, b) : head(1, -1n - b)));
  } else if (typeof v === 'string') {
    const bytes = new TextEncoder().encode(v);
    out.push(...head(3, bytes.length));
    for (const x of bytes) out.push(x);
  } else if (v instanceof Uint8Array) {
    out.push(...head(2, v.length));
    for (const x of v) out.push(x);
  } else if (Array.isArray(v)) {
    out.push(...head(4, v.length));
    for (const x of v) encodeInto(x, out);
  } else {
    out.push(...head(5, v.size));
    for (const [k, x] of v) {
      encodeInto(k, out);
      encodeInto(x, out);
    }
  }
}

/** Definite-length CBOR of `v` (maps keep their insertion order). */
export function encodeCbor(v: CborValue): Uint8Array {
  const out: number[] = [];
  encodeInto(v, out);
  return Uint8Array.from(out);
}
