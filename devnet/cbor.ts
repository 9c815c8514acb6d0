/**
 * A minimal canonical CBOR encoder for the devnet's transaction bodies, headers and auxiliary data: ids are
 * blake2b-256 of these bytes, as on mainnet (tx id = hash of the body, block id = hash of the header).
 * Supports what those structures use: unsigned/negative integers (number or bigint), byte strings, text,
 * arrays, maps (Map with any keys, or plain objects with text keys) and tags.
 */
export class Tagged {
  constructor(
    readonly tag: number,
    readonly value: CborValue,
  ) {}
}
/**
 * An unsigned integer whose byte offset the encoder reports, so it can be overwritten in place later when the
 * new value has the same encoded width (a transaction's fee and change are known only after its size is).
 */
export class Mark {
  constructor(readonly value: number | bigint) {}
}
export type CborValue =
  | Mark
  | number
  | bigint
  | string
  | Uint8Array
  | CborValue[]
  | Map<CborValue, CborValue>
  | Tagged
  /** CBOR null (simple value 22): absent optional fields such as a governance anchor. */
  | null
  | { [k: string]: CborValue };

const enc = new TextEncoder();

class Writer {
  buf = new Uint8Array(1024);
  len = 0;
  marks: number[] = [];
  ensure(n: number) {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }
  head(major: number, n: number | bigint): void {
    this.ensure(9);
    const m = major << 5;
    if (typeof n === 'number' && n < 24) this.buf[this.len++] = m | n;
    else if (typeof n === 'number' && n < 0x100) {
      this.buf[this.len++] = m | 24;
      this.buf[this.len++] = n;
    } else if (typeof n === 'number' && n < 0x10000) {
      this.buf[this.len++] = m | 25;
      this.buf[this.len++] = n >>> 8;
      this.buf[this.len++] = n & 0xff;
    } else if (typeof n === 'number' && n < 0x100000000) {
      this.buf[this.len++] = m | 26;
      this.buf[this.len++] = n >>> 24;
      this.buf[this.len++] = (n >>> 16) & 0xff;
      this.buf[this.len++] = (n >>> 8) & 0xff;
      this.buf[this.len++] = n & 0xff;
    } else {
      const big = BigInt(n);
      if (big < 0x100000000n) return this.head(major, Number(big));
      this.buf[this.len++] = m | 27;
      for (let shift = 56n; shift >= 0n; shift -= 8n) this.buf[this.len++] = Number((big >> shift) & 0xffn);
    }
  }
  bytes(b: Uint8Array) {
    this.ensure(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }
}

function write(w: Writer, v: CborValue): void {
  if (v === null) {
    w.ensure(1);
    w.buf[w.len++] = 0xf6;
    return;
  }
  if (typeof v === 'number' || typeof v === 'bigint') {
    if (typeof v === 'number' && !Number.isSafeInteger(v)) throw new Error(`CBOR: not an integer: ${v}`);
    if (v >= 0) w.head(0, v);
    else w.head(1, typeof v === 'bigint' ? -v - 1n : -v - 1);
  } else if (typeof v === 'string') {
    const b = enc.encode(v);
    w.head(3, b.length);
    w.bytes(b);
  } else if (v instanceof Uint8Array) {
    w.head(2, v.length);
    w.bytes(v);
  } else if (Array.isArray(v)) {
    w.head(4, v.length);
    for (const item of v) write(w, item);
  } else if (v instanceof Map) {
    w.head(5, v.size);
    for (const [k, item] of v) {
      write(w, k);
      write(w, item);
    }
  } else if (v instanceof Mark) {
    w.marks.push(w.len);
    write(w, v.value);
  } else if (v instanceof Tagged) {
    w.head(6, v.tag);
    write(w, v.value);
  } else {
    const keys = Object.keys(v);
    w.head(5, keys.length);
    for (const k of keys) {
      write(w, k);
      write(w, v[k] as CborValue);
    }
  }
}

/** One scratch writer, reused by every (synchronous) encode; results are copied out. */
const scratch = new Writer();
function run(v: CborValue): Writer {
  scratch.len = 0;
  scratch.marks = [];
  write(scratch, v);
  return scratch;
}

export function encodeCbor(v: CborValue): Uint8Array {
  const w = run(v);
  return w.buf.slice(0, w.len);
}

/** Encodes and reports the byte offsets of every `Mark`, in encoding order. */
export function encodeCborMarked(v: CborValue): { bytes: Uint8Array; marks: number[] } {
  const w = run(v);
  return { bytes: w.buf.slice(0, w.len), marks: w.marks };
}

/** Overwrites the unsigned integer at `offset` with `value`; false when the encoded width would differ. */
export function patchUint(bytes: Uint8Array, offset: number, value: number | bigint): boolean {
  scratch.len = 0;
  scratch.head(0, value);
  if (scratch.len !== headWidth(bytes[offset] as number)) return false;
  bytes.set(scratch.buf.subarray(0, scratch.len), offset);
  return true;
}

function headWidth(initial: number): number {
  const info = initial & 0x1f;
  return info < 24 ? 1 : info === 24 ? 2 : info === 25 ? 3 : info === 26 ? 5 : 9;
}
