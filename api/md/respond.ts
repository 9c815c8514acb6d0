/**
 * Answers a request with a Markdown view: `text/markdown; charset=utf-8`, an ETag (304 on If-None-Match), br or
 * gzip when the client accepts it (compressed once per cached view, like REST answers), the
 * approximate token count (`x-markdown-tokens`), and — for a problem the caller can fix — the REST status (400/404)
 * with the spec's `{ "error" }` body, or a short Markdown error for a client whose Accept names text/markdown. A
 * rendered view is kept for the API's micro-cache window under its URL and the sync checkpoint, like REST answers: a
 * new block or a rollback is seen at once.
 */
import { hash } from 'node:crypto';
import type Koa from 'koa';
import { checkpointTag } from '../../mongo/collections/sync-state.js';
import { approxTokens, errorView } from '../../views/md/format.js';
import type { ApiDeps } from '../deps.js';
import { sendRepresentation, type Coded } from '../compress.js';
import { AppError, answerableError } from '../errors.js';
import { NO_CACHE } from '../route.js';
import { markReplayable } from '../fast-replay.js';
import { ResponseCache } from '../response-cache.js';
import { readFreshness } from '../read/freshness.js';
import { renderMd, type MdRequest } from './render.js';
import type { MdSource } from './source.js';

export const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';

/**
 * The two media types a negotiated answer can be, as they are sent (charset included). `accepts` (negotiator) matches
 * an Accept entry's parameters against the offered type's: offered bare, `Accept: text/markdown; charset=utf-8` (the
 * exact type the views send) matched neither and got JSON, and `application/json; charset=utf-8, text/markdown;q=0.5`
 * matched only Markdown and got it despite preferring JSON. Offered with their charset, both follow the client's
 * order; an entry without parameters still matches them.
 */
export const NEGOTIATED_TYPES = { json: 'application/json; charset=utf-8', markdown: MARKDOWN_TYPE } as const;

/** Whether the Accept header puts Markdown above JSON (REST negotiation and Markdown error answers). */
export function prefersMarkdown(ctx: Koa.Context): boolean {
  return ctx.accepts(NEGOTIATED_TYPES.json, NEGOTIATED_TYPES.markdown) === NEGOTIATED_TYPES.markdown;
}

interface Meta {
  expires: number;
  etag: string;
  tokens: number;
  /** Compressed representations of the view (compress.ts), made once per cached view. */
  coded: Coded;
}

export interface MdResponder {
  respond(ctx: Koa.Context, r: MdRequest): Promise<void>;
  /** A Markdown error answer (unknown view path). */
  error(ctx: Koa.Context, status: number, message: string): Promise<void>;
}

/**
 * Whether an error goes out in Markdown: to a client that prefers it over JSON (Accept names text/markdown above
 * JSON, or takes text only: `text/*`, which a JSON body is not), the test REST's negotiation makes for the view
 * itself (negotiate.ts), so a client gets its errors in the type it gets the answer in. Every other client (no
 * Accept, any type, a browser, a JSON client) gets the spec's `{ "error" }` body, as on every surface.
 */
export function wantsMarkdown(ctx: Koa.Context): boolean {
  ctx.vary('Accept');
  return prefersMarkdown(ctx);
}

export function mdResponder(deps: ApiDeps, src: () => MdSource): MdResponder {
  const site = deps.config.SITE_URL.replace(/\/+$/, '');
  const ttl = deps.cacheMs ?? 0;
  const cache = new ResponseCache<Meta>(2_000, 32 * 1024 * 1024);

  const send = (ctx: Koa.Context, status: number, bytes: Buffer, etag: string, tokens: number, coded: Coded) => {
    ctx.status = status;
    ctx.type = MARKDOWN_TYPE;
    ctx.set('x-markdown-tokens', String(tokens));
    ctx.etag = etag;
    // As REST answers (api/route.ts): revalidated before each use, never reused on a cache's own heuristic.
    if (status === 200) ctx.set('Cache-Control', NO_CACHE);
    if (status === 200) sendRepresentation(ctx, bytes, coded);
    else ctx.body = bytes;
  };

  return {
    async error(ctx, status, message) {
      if (!wantsMarkdown(ctx)) throw new AppError(status, message);
      const text = errorView(site, status, message);
      ctx.status = status;
      ctx.type = MARKDOWN_TYPE;
      ctx.set('x-markdown-tokens', String(approxTokens(text)));
      ctx.body = text;
    },
    async respond(ctx, r) {
      // A store that does not answer fails the render below as well, which answers its 503 (nothing cached).
      const cp = ttl > 0 ? await checkpointTag(deps.store).catch(() => null) : '';
      const key = `${r.view}|${r.id ?? ''}|${JSON.stringify(r.query ?? {})}|${cp}`;
      const now = Date.now();
      const hit = ttl > 0 && cp !== null ? cache.entry(key) : undefined;
      const route = (ctx as Koa.Context & { _matchedRoute?: unknown })._matchedRoute;
      if (hit && cp !== null && hit.meta.expires > now) {
        markReplayable(ctx.res, { cp, expires: hit.meta.expires, route });
        return send(ctx, 200, hit.bytes, hit.meta.etag, hit.meta.tokens, hit.meta.coded);
      }
      let text: string;
      let status = 200;
      try {
        text = await renderMd(src(), { site, fresh: await readFreshness(deps) }, r);
      } catch (thrown) {
        // The read layer's own answers (400, 404, 503 before a first recompute, with Retry-After) and a store that
        // does not answer (503) in Markdown to a client asking for it; else `{ error }` from the error middleware,
        // as is anything unexpected (a 500).
        if (!wantsMarkdown(ctx)) throw thrown;
        const e = answerableError(thrown, deps.log);
        if (!(e instanceof AppError)) throw e;
        status = e.status;
        for (const [h, v] of Object.entries(e.headers)) ctx.set(h, v);
        text = errorView(site, e.status, e.message);
      }
      const bytes = Buffer.from(text, 'utf8');
      const etag = `"${hash('sha1', bytes, 'base64url')}"`;
      const tokens = approxTokens(text);
      const coded: Coded = {};
      // Kept only when no block or rollback landed while it was rendered (api/micro-cache.ts says why).
      const kept =
        status === 200 && ttl > 0 && cp !== null && (await checkpointTag(deps.store).catch(() => null)) === cp;
      if (kept) {
        cache.setBytes(key, bytes, { expires: now + ttl, etag, tokens, coded });
        markReplayable(ctx.res, { cp, expires: now + ttl, route });
      }
      send(ctx, status, bytes, etag, tokens, coded);
    },
  };
}
