/**
 * Compressed representations of an answer. An answer is compressed once per cached entry (the micro-cache keeps
 * each variant beside the identity bytes), never per request while it is cached. Each variant is a distinct
 * representation, so it carries its own strong ETag (the identity ETag with the coding appended) and every
 * compressible answer says `Vary: Accept-Encoding`.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import accepts from 'accepts';
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
 * The client's q for `coding` in an Accept-Encoding header: its own entry's, else `*`'s, else 0 (RFC 9110 12.5.3).
 */
function qualityOf(header: string, coding: Coding): number {
  let own: number | null = null;
  let star = 0;
  for (const entry of header.split(',')) {
    const [name = '', ...params] = entry.split(';').map((p) => p.trim());
    const qParam = params.find((p) => /^q=/i.test(p));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q)) continue;
    const n = name.toLowerCase();
    if (n === coding) own = Math.max(own ?? 0, q);
    else if (n === '*') star = Math.max(star, q);
  }
  return own ?? star;
}

/**
 * The coding `accepts` chose, br where the client takes br as much as gzip: `accepts` (negotiator) breaks a tie in q
 * by the client's order, so a browser (`gzip, deflate, br, zstd`) or `curl --compressed` got gzip, a third larger
 * than br on a large answer, though br is offered first.
 */
function codingOf(chosen: string | false, header: string | string[] | undefined): Coding | null {
  if (chosen === 'gzip' && typeof header === 'string' && qualityOf(header, 'br') === qualityOf(header, 'gzip'))
    return 'br';
  return chosen === 'br' || chosen === 'gzip' ? chosen : null;
}

/** The coding the client prefers among br and gzip (br on a tie), or null for the identity bytes. */
export function preferredCoding(ctx: Koa.Context): Coding | null {
  return codingOf(ctx.acceptsEncodings(OFFERED), ctx.req.headers['accept-encoding']);
}

/**
 * The same choice for a request outside Koa (the node:http fast path, api/fast-replay.ts): Koa's `acceptsEncodings`
 * is this `accepts`.
 */
export function preferredCodingOf(req: IncomingMessage): Coding | null {
  return codingOf(accepts(req).encoding(OFFERED), req.headers['accept-encoding']);
}

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
