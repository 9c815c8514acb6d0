/**
 * Compressed representations of an answer. An answer is compressed once per cached entry (the micro-cache keeps
 * each variant beside the identity bytes), never per request while it is cached. Each variant is a distinct
 * representation, so it carries its own strong ETag (the identity ETag with the coding appended) and every
 * compressible answer says `Vary: Accept-Encoding`.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import Negotiator from 'negotiator';
import type Koa from 'koa';
import { isFresh } from './fresh.js';

export type Coding = 'br' | 'gzip';

/** Below this size a compressed answer saves less than its headers cost. */
export const MIN_COMPRESS_BYTES = 1024;

/** Brotli quality 5 and gzip level 6: a 1 MB JSON answer compresses in ~10 ms to ~10 % of its size. */
export function compress(bytes: Buffer, coding: Coding): Buffer {
  return coding === 'br'
    ? brotliCompressSync(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 5,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      })
    : gzipSync(bytes, { level: 6 });
}

/** The codings an answer is offered in, best first: identity last, so a client taking br or gzip gets it. */
const OFFERED = ['br', 'gzip', 'identity'];

/**
 * The coding the client prefers among br and gzip, br where it takes both as much (a tie in q goes to the order
 * offered, not the client's: a browser (`gzip, deflate, br, zstd`) or `curl --compressed` got gzip from `accepts`,
 * a third larger than br on a large answer), or null for the identity bytes.
 */
export function preferredCodingOf(req: Pick<IncomingMessage, 'headers'>): Coding | null {
  const chosen = new Negotiator(req).encoding(OFFERED, { preferred: OFFERED });
  return chosen === 'br' || chosen === 'gzip' ? chosen : null;
}

/** The same choice for a request Koa serves. */
export const preferredCoding = (ctx: Koa.Context): Coding | null => preferredCodingOf(ctx.req);

/** `"abc"` → `"abc-br"`: the strong validator of the compressed representation. */
export function codedEtag(etag: string, coding: Coding): string {
  return etag.endsWith('"') ? `${etag.slice(0, -1)}-${coding}"` : `${etag}-${coding}`;
}

/** The compressed representations of one answer kept so far, made on the first request that accepts each coding. */
export type Coded = Partial<Record<Coding, Buffer>>;

/**
 * Answers with the identity bytes or the representation the client prefers (compressed into `coded` once, so a
 * cache that keeps `coded` beside the bytes compresses once per entry), with that representation's ETag (the
 * identity ETag the handler set, coding appended); 304 when If-None-Match names it.
 */
export function sendRepresentation(ctx: Koa.Context, bytes: Buffer, coded: Coded): void {
  const coding = bytes.length >= MIN_COMPRESS_BYTES ? preferredCoding(ctx) : null;
  if (bytes.length >= MIN_COMPRESS_BYTES) ctx.vary('Accept-Encoding');
  const etag = ctx.response.get('ETag');
  if (coding && etag) ctx.set('ETag', codedEtag(etag, coding));
  if (ctx.response.etag && isFresh(ctx)) {
    ctx.status = 304;
    return;
  }
  if (!coding) {
    ctx.body = bytes;
    return;
  }
  const body = (coded[coding] ??= compress(bytes, coding));
  ctx.set('Content-Encoding', coding);
  ctx.body = body;
}

/** A fixed answer (a page, its script or stylesheet, a discovery file, an index): bytes, strong ETag, compressed forms. */
export interface FixedAnswer {
  bytes: Buffer;
  etag: string;
  coded: Coded;
}

export function fixedAnswer(body: string): FixedAnswer {
  const bytes = Buffer.from(body, 'utf8');
  return { bytes, etag: createHash('sha1').update(bytes).digest('base64url'), coded: {} };
}

/**
 * Sends a fixed answer as every answer of 1 KB or more is sent (br/gzip when accepted, compressed once per answer),
 * with its ETag; 304 when If-None-Match names the representation. Type and caching headers are the caller's.
 */
export function sendFixed(ctx: Koa.Context, answer: FixedAnswer): void {
  ctx.etag = answer.etag;
  ctx.status = 200;
  sendRepresentation(ctx, answer.bytes, answer.coded);
}
