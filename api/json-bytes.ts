/**
 * A JSON answer as bytes with a strong ETag of exactly those bytes. Market answers carry inline logos by default
 * (data URIs of ~1-60 KB each, the same image repeated on every trade of a token's list): they are 90-98 % of the
 * bytes, and serialising, UTF-8 encoding and hashing them again on every request was most of such a request's CPU
 * (a 3.3 MB trade list: ~9 ms of JSON.stringify alone). With `spliceLongStrings`, strings of at least LONG
 * characters are serialised once per process (bytes and hash kept, bounded by CACHED_BYTES) and copied into the
 * answer; the rest is serialised as usual. The bytes are exactly JSON.stringify's.
 *
 * The ETag is then a hash of the answer's structure: each stretch of JSON text between long strings with its length,
 * and each long string's own hash. Equal answers get equal ETags in every process (the split depends only on the
 * answer); different bytes differ in a stretch or a string, so in the hash.
 */
import { createHash, hash as digest, randomBytes } from 'node:crypto';

/** Strings at least this long (characters) are serialised once and spliced in. */
const LONG = 2048;
/** Bound of the serialised long strings kept (bytes); the least recently used go first. */
const CACHED_BYTES = 16 * 1024 * 1024;
/** Stands in for a long string while the rest is serialised; random per process, so chain data cannot contain it. */
const MARK = `~${randomBytes(12).toString('hex')}~`;

interface Piece {
  bytes: Buffer;
  hash: Buffer;
}
const pieces = new Map<string, Piece>();
let cachedBytes = 0;

function pieceOf(s: string): Piece {
  let p = pieces.get(s);
  if (p) {
    // Most recently used last: Map iteration order is insertion order.
    pieces.delete(s);
    pieces.set(s, p);
    return p;
  }
  const bytes = Buffer.from(JSON.stringify(s));
  p = { bytes, hash: sha1(bytes) };
  if (bytes.length <= CACHED_BYTES / 8) {
    pieces.set(s, p);
    cachedBytes += bytes.length;
    for (const [k, old] of pieces) {
      if (cachedBytes <= CACHED_BYTES) break;
      pieces.delete(k);
      cachedBytes -= old.bytes.length;
    }
  }
  return p;
}

const etagOf = (hash: Buffer) => `"${hash.toString('base64url')}"`;
/** One-shot: the same digest as createHash('sha1'), without a Hash object per answer (~3 µs of a small one). */
const sha1 = (bytes: Buffer): Buffer => digest('sha1', bytes, 'buffer');

/**
 * Whether JSON.stringify would hand a replacer a string of at least LONG characters. A replacer is called from C++
 * for every value, which makes serialising an answer without long strings (a list with `logos=url`, a holder list,
 * an NFT collection without images) about 1.5 × slower; this walk in JS costs a fraction of that and stops at the
 * first long string. A value with its own `toJSON` (a Date, a Buffer) counts as long: the replacer decides.
 */
function hasLongString(v: unknown): boolean {
  if (typeof v === 'string') return v.length >= LONG;
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) {
    for (const x of v) if (hasLongString(x)) return true;
    return false;
  }
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return true;
  for (const k in v) if (hasLongString((v as Record<string, unknown>)[k])) return true;
  return false;
}

export function jsonBytes(body: unknown, spliceLongStrings: boolean): { bytes: Buffer; etag: string } {
  if (!spliceLongStrings || !hasLongString(body)) {
    const bytes = Buffer.from(JSON.stringify(body));
    return { bytes, etag: etagOf(sha1(bytes)) };
  }
  const long: string[] = [];
  const text = JSON.stringify(body, (_key, value: unknown) => {
    if (typeof value !== 'string' || value.length < LONG) return value;
    long.push(value);
    return MARK;
  });
  if (long.length === 0) {
    const bytes = Buffer.from(text);
    return { bytes, etag: etagOf(sha1(bytes)) };
  }
  const marker = `"${MARK}"`;
  const parts: Buffer[] = [];
  const hash = createHash('sha1');
  const length = Buffer.alloc(4);
  let from = 0;
  for (const s of long) {
    const at = text.indexOf(marker, from);
    if (at < 0) throw new Error('jsonBytes: a long string was not found in the serialised answer');
    const stretch = Buffer.from(text.slice(from, at));
    const piece = pieceOf(s);
    length.writeUInt32BE(stretch.length);
    hash.update(length).update(stretch).update(piece.hash);
    parts.push(stretch, piece.bytes);
    from = at + marker.length;
  }
  const tail = Buffer.from(text.slice(from));
  length.writeUInt32BE(tail.length);
  hash.update(length).update(tail);
  parts.push(tail);
  return { bytes: Buffer.concat(parts), etag: etagOf(hash.digest()) };
}
