/**
 * A small, complete CBOR (RFC 8949) reader and writer for what Cardano puts on chain: Plutus data, transaction
 * outputs and redeemers. Written here instead of using cbor-x because cbor-x rejects indefinite-length (chunked)
 * byte strings, which the ledger requires for Plutus bytestrings longer than 64 bytes, and because exact
 * re-encoding needs the encoding details (definite vs indefinite lengths, chunk boundaries) that generic
 * decoders throw away. Integers are always bigint: lovelace and asset quantities exceed 2^53.
 */

export type Cbor =
  | { t: 'int'; v: bigint }
  | { t: 'bytes'; v: Uint8Array; chunks?: number[] }
  | { t: 'text'; v: string }
  | { t: 'array'; v: Cbor[]; indef: boolean }
  | { t: 'map'; v: Array<[Cbor, Cbor]>; indef: boolean }
  | { t: 'tag'; tag: bigint; v: Cbor }
  | { t: 'simple'; v: boolean | null | undefined | number }
  | { t: 'float'; v: number };

export class CborError extends Error {}

/** Value of one hex digit's char code, -1 for any other character. */
function nibble(c: number): number {
  if (c >= 48 && c <= 57) return c - 48; // 0-9
  if (c >= 97 && c <= 102) return c - 87; // a-f
  if (c >= 65 && c <= 70) return c - 55; // A-F
  return -1;
}

/** Hex text (either case) → bytes; odd lengths and non-hex characters are refused. Every datum goes through it. */
export function hexToBytes(hex: string): Uint8Array {
  if (hex.length % 2 !== 0) throw new CborError('not a hex string');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = nibble(hex.charCodeAt(2 * i));
    const lo = nibble(hex.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) throw new CborError('not a hex string');
    out[i] = (hi << 4) | lo;
  }
  return out;
}

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

export function bytesToHex(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += HEX[bytes[i] as number];
  return s;
}

const MAX_DEPTH = 256;

class Reader {
  pos = 0;
  constructor(readonly buf: Uint8Array) {}

  byte(): number {
    const b = this.buf[this.pos];
    if (b === undefined) throw new CborError('unexpected end of input');
    this.pos++;
    return b;
  }

  take(n: number): Uint8Array {
    if (this.pos + n > this.buf.length) throw new CborError('unexpected end of input');
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** The argument of a head byte; `null` for the indefinite marker (additional info 31). */
  arg(info: number): bigint | null {
    if (info < 24) return BigInt(info);
    if (info === 24) return BigInt(this.byte());
    if (info === 25 || info === 26 || info === 27) {
      const n = info === 25 ? 2 : info === 26 ? 4 : 8;
      let v = 0n;
      for (const b of this.take(n)) v = (v << 8n) | BigInt(b);
      return v;
    }
    if (info === 31) return null;
    throw new CborError(`reserved additional info ${info}`);
  }

  length(info: number): number | null {
    const v = this.arg(info);
    if (v === null) return null;
    // Every element takes at least one byte, so no count can exceed what is left of the input.
    if (v > BigInt(this.buf.length - this.pos)) throw new CborError('length exceeds input');
    return Number(v);
  }

  item(depth: number): Cbor {
    if (depth > MAX_DEPTH) throw new CborError('nesting too deep');
    const head = this.byte();
    const major = head >> 5;
    const info = head & 0x1f;
    switch (major) {
      case 0:
      case 1: {
        const v = this.arg(info);
        if (v === null) throw new CborError('indefinite integer');
        return { t: 'int', v: major === 0 ? v : -1n - v };
      }
      case 2:
      case 3: {
        const len = this.length(info);
        let bytes: Uint8Array;
        let chunks: number[] | undefined;
        if (len === null) {
          const parts: Uint8Array[] = [];
          chunks = [];
          for (;;) {
            if (this.buf[this.pos] === 0xff) {
              this.pos++;
              break;
            }
            const h = this.byte();
            if (h >> 5 !== major || (h & 0x1f) === 31) throw new CborError('bad chunk in indefinite string');
            const n = this.length(h & 0x1f);
            if (n === null) throw new CborError('bad chunk length');
            parts.push(this.take(n));
            chunks.push(n);
          }
          bytes = concat(parts);
        } else bytes = this.take(len).slice();
        if (major === 3) return { t: 'text', v: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
        return chunks ? { t: 'bytes', v: bytes, chunks } : { t: 'bytes', v: bytes };
      }
      case 4: {
        const len = this.length(info);
        const v: Cbor[] = [];
        if (len === null) {
          while (this.buf[this.pos] !== 0xff) v.push(this.item(depth + 1));
          this.pos++;
        } else for (let i = 0; i < len; i++) v.push(this.item(depth + 1));
        return { t: 'array', v, indef: len === null };
      }
      case 5: {
        const len = this.length(info);
        const v: Array<[Cbor, Cbor]> = [];
        if (len === null) {
          while (this.buf[this.pos] !== 0xff) v.push([this.item(depth + 1), this.item(depth + 1)]);
          this.pos++;
        } else for (let i = 0; i < len; i++) v.push([this.item(depth + 1), this.item(depth + 1)]);
        return { t: 'map', v, indef: len === null };
      }
      case 6: {
        const tag = this.arg(info);
        if (tag === null) throw new CborError('indefinite tag');
        return { t: 'tag', tag, v: this.item(depth + 1) };
      }
      default: {
        if (info === 20) return { t: 'simple', v: false };
        if (info === 21) return { t: 'simple', v: true };
        if (info === 22) return { t: 'simple', v: null };
        if (info === 23) return { t: 'simple', v: undefined };
        if (info === 24) return { t: 'simple', v: this.byte() };
        if (info === 25 || info === 26 || info === 27) {
          const n = info === 25 ? 2 : info === 26 ? 4 : 8;
          const view = new DataView(this.take(n).slice().buffer);
          const v = n === 2 ? halfToFloat(view.getUint16(0)) : n === 4 ? view.getFloat32(0) : view.getFloat64(0);
          return { t: 'float', v };
        }
        if (info < 20) return { t: 'simple', v: info };
        throw new CborError('unexpected break or reserved simple value');
      }
    }
  }
}

function halfToFloat(h: number): number {
  const exp = (h >> 10) & 0x1f;
  const mant = h & 0x3ff;
  const sign = h & 0x8000 ? -1 : 1;
  if (exp === 0) return sign * 2 ** -14 * (mant / 1024);
  if (exp === 31) return mant ? NaN : sign * Infinity;
  return sign * 2 ** (exp - 15) * (1 + mant / 1024);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Decodes exactly one CBOR item; trailing bytes are an error. */
export function decodeCbor(input: Uint8Array | string): Cbor {
  const r = new Reader(typeof input === 'string' ? hexToBytes(input) : input);
  const item = r.item(0);
  if (r.pos !== r.buf.length) throw new CborError(`${r.buf.length - r.pos} trailing bytes after the CBOR item`);
  return item;
}

class Writer {
  parts: number[] = [];

  head(major: number, v: bigint): void {
    const m = major << 5;
    if (v < 24n) this.parts.push(m | Number(v));
    else if (v < 0x100n) this.parts.push(m | 24, Number(v));
    else if (v < 0x10000n) this.parts.push(m | 25, Number(v >> 8n), Number(v & 0xffn));
    else if (v < 0x100000000n) this.be(m | 26, v, 4);
    else this.be(m | 27, v, 8);
  }

  be(first: number, v: bigint, n: number): void {
    this.parts.push(first);
    for (let i = n - 1; i >= 0; i--) this.parts.push(Number((v >> BigInt(8 * i)) & 0xffn));
  }

  raw(bytes: Uint8Array): void {
    for (const b of bytes) this.parts.push(b);
  }

  item(c: Cbor): void {
    switch (c.t) {
      case 'int':
        if (c.v >= 0n) {
          if (c.v < 1n << 64n) this.head(0, c.v);
          else this.bignum(2n, c.v);
        } else {
          const n = -1n - c.v;
          if (n < 1n << 64n) this.head(1, n);
          else this.bignum(3n, n);
        }
        return;
      case 'bytes':
        if (c.chunks) {
          this.parts.push(0x5f);
          let o = 0;
          for (const n of c.chunks) {
            this.head(2, BigInt(n));
            this.raw(c.v.subarray(o, o + n));
            o += n;
          }
          this.parts.push(0xff);
        } else {
          this.head(2, BigInt(c.v.length));
          this.raw(c.v);
        }
        return;
      case 'text': {
        const b = new TextEncoder().encode(c.v);
        this.head(3, BigInt(b.length));
        this.raw(b);
        return;
      }
      case 'array':
        if (c.indef) this.parts.push(0x9f);
        else this.head(4, BigInt(c.v.length));
        for (const x of c.v) this.item(x);
        if (c.indef) this.parts.push(0xff);
        return;
      case 'map':
        if (c.indef) this.parts.push(0xbf);
        else this.head(5, BigInt(c.v.length));
        for (const [k, v] of c.v) {
          this.item(k);
          this.item(v);
        }
        if (c.indef) this.parts.push(0xff);
        return;
      case 'tag':
        this.head(6, c.tag);
        this.item(c.v);
        return;
      case 'simple':
        if (c.v === false) this.parts.push(0xf4);
        else if (c.v === true) this.parts.push(0xf5);
        else if (c.v === null) this.parts.push(0xf6);
        else if (c.v === undefined) this.parts.push(0xf7);
        else this.head(7, BigInt(c.v));
        return;
      case 'float': {
        const b = new Uint8Array(8);
        new DataView(b.buffer).setFloat64(0, c.v);
        this.parts.push(0xfb);
        this.raw(b);
        return;
      }
    }
  }

  /** Tag 2/3 bignums; their byte string follows the same ≤ 64-byte chunking rule as Plutus bytestrings. */
  bignum(tag: bigint, n: bigint): void {
    const bytes: number[] = [];
    for (let v = n; v > 0n; v >>= 8n) bytes.unshift(Number(v & 0xffn));
    this.head(6, tag);
    const b = Uint8Array.from(bytes);
    this.item(b.length > 64 ? { t: 'bytes', v: b, chunks: chunkSizes(b.length) } : { t: 'bytes', v: b });
  }
}

/** 64-byte chunks: the Plutus ledger rule for bytestrings in data. */
export function chunkSizes(length: number): number[] {
  const out: number[] = [];
  for (let o = 0; o < length; o += 64) out.push(Math.min(64, length - o));
  return out;
}

export function encodeCbor(c: Cbor): Uint8Array {
  const w = new Writer();
  w.item(c);
  return Uint8Array.from(w.parts);
}

export function encodeCborHex(c: Cbor): string {
  return bytesToHex(encodeCbor(c));
}

/** Tag 2/3 bignum → bigint (used when reading integers wherever CBOR allows bignums). */
export function bignumValue(c: Cbor): bigint | null {
  if (c.t !== 'tag' || (c.tag !== 2n && c.tag !== 3n) || c.v.t !== 'bytes') return null;
  let n = 0n;
  for (const b of c.v.v) n = (n << 8n) | BigInt(b);
  return c.tag === 2n ? n : -1n - n;
}
