/**
 * Compressed representations of an answer whose last few bytes differ per request: a tool-server answer kept
 * without its JSON-RPC id (api/mcp/replay.ts, api/fast-replay.ts) and replayed with each caller's id. The kept part
 * is compressed once per coding and kept beside it; a request adds only its tail, as a literal block that ends the
 * stream. The result is one ordinary br or gzip stream, which any decoder reads as the identity body:
 *
 * - gzip (RFC 1952 around RFC 1951 DEFLATE): the header, the kept part as raw DEFLATE ended by a sync flush (its
 *   blocks are not final and end on a byte boundary), a final stored block holding the tail, then the CRC-32 and
 *   length (mod 2^32) of the whole identity body.
 * - br (RFC 7932): the kept part compressed with a flush (byte aligned, no last meta-block), an uncompressed
 *   meta-block holding the tail, then an empty last meta-block.
 */
import { brotliCompressSync, constants, crc32, deflateRawSync } from 'node:zlib';
import { MIN_COMPRESS_BYTES, type Coding } from './compress.js';

/** The compressed forms of one kept part made so far, each made on the first request that accepts its coding. */
export interface TailCoded {
  br?: Buffer;
  /** The gzip header and raw DEFLATE of the kept part, and the kept part's CRC-32 (the trailer covers the tail too). */
  gzip?: { head: Buffer; crc: number };
}

/**
 * The longest tail one literal block holds: a stored DEFLATE block's LEN is 16 bits, and an uncompressed brotli
 * meta-block with four length nibbles holds up to 65,536 bytes. A longer tail (an id of 64 KB) goes uncompressed.
 */
const MAX_TAIL = 65_535;

/** A gzip member header: magic, DEFLATE, no flags, no time, no extra flags, OS unknown (255). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/** Brotli at the quality the whole-answer coding uses (api/compress.ts). */
function brotliHead(kept: Buffer): Buffer {
  return brotliCompressSync(kept, {
    finishFlush: constants.BROTLI_OPERATION_FLUSH,
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 5,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: kept.length,
    },
  });
}

function brotliTail(tail: Buffer): Buffer {
  // Meta-block header, bits from the least significant: ISLAST 0, MNIBBLES 0 (four nibbles), MLEN−1 in 16 bits,
  // ISUNCOMPRESSED 1, then zero padding to the byte boundary; the tail's bytes; then ISLAST 1, ISLASTEMPTY 1.
  const header = ((tail.length - 1) << 3) | (1 << 19);
  return Buffer.concat([Buffer.from([header & 0xff, (header >>> 8) & 0xff, header >>> 16]), tail, Buffer.from([3])]);
}

function gzipTail(kept: Buffer, crc: number, tail: Buffer): Buffer {
  // A final stored block: BFINAL 1, BTYPE 00 (byte aligned after the sync flush), LEN and its one's complement.
  const out = Buffer.alloc(5 + tail.length + 8);
  out[0] = 1;
  out.writeUInt16LE(tail.length, 1);
  out.writeUInt16LE(~tail.length & 0xffff, 3);
  tail.copy(out, 5);
  out.writeUInt32LE(crc32(tail, crc) >>> 0, 5 + tail.length);
  out.writeUInt32LE((kept.length + tail.length) % 2 ** 32, 9 + tail.length);
  return out;
}

/**
 * The body `kept` + `tail` in `coding`, its kept part compressed into `coded` on first use; null when the tail is
 * too long for one literal block (the caller sends the identity bytes).
 */
export function codedWithTail(kept: Buffer, coded: TailCoded, tail: Buffer, coding: Coding): Buffer | null {
  if (tail.length === 0 || tail.length > MAX_TAIL) return null;
  if (coding === 'br') return Buffer.concat([(coded.br ??= brotliHead(kept)), brotliTail(tail)]);
  const gzip = (coded.gzip ??= {
    head: Buffer.concat([GZIP_HEADER, deflateRawSync(kept, { level: 6, finishFlush: constants.Z_SYNC_FLUSH })]),
    crc: crc32(kept),
  });
  return Buffer.concat([gzip.head, gzipTail(kept, gzip.crc, tail)]);
}

/**
 * The answer `kept` + `tail` as sent to a client preferring `coding` (null: identity): compressed when the kept
 * part is at least MIN_COMPRESS_BYTES (such an answer says `Vary: Accept-Encoding` whatever the coding), with the
 * coding it is in, or null for the identity bytes.
 */
export function answerWithTail(
  kept: Buffer,
  coded: TailCoded,
  tail: Buffer,
  coding: Coding | null,
): { bytes: Buffer; coding: Coding | null } {
  const bytes = coding && kept.length >= MIN_COMPRESS_BYTES ? codedWithTail(kept, coded, tail, coding) : null;
  return bytes ? { bytes, coding } : { bytes: Buffer.concat([kept, tail]), coding: null };
}
