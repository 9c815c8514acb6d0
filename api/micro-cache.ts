/**
 * REST micro-cache: a successful JSON answer is kept as bytes for `ttlMs` of wall-clock time under its URL and the
 * sync checkpoint, and served from there to every identical request in that window. Precomputed snapshots (token
 * stats, rankings, stake pools, …) change at most once per recompute and chain documents once per block, so a hot
 * URL is presented once per window instead of once per request. A new block or a rollback changes the checkpoint
 * and so the key: no answer ever outlives the chain state it was read from; an answer can be at most `ttlMs` older
 * than a recompute that finished meanwhile.
 *
 * Sits after the access layer (limits and quotas count every request, hit or not) and before the routers.
 */
import type Koa from 'koa';
import { checkpointTag } from '../mongo/collections/sync-state.js';
import type { Store } from '../mongo/store.js';
import { sendRepresentation, type Coded } from './compress.js';
import { markReplayable } from './fast-replay.js';
import { ResponseCache } from './response-cache.js';

interface Meta {
  expires: number;
  type: string;
  /** Headers the handler set that a replay must carry (ETag, Cache-Control). */
  headers: [string, string][];
  /** Compressed representations, made on the first request that accepts each coding. */
  coded: Coded;
  /** The route pattern that answered (the router's `_matchedRoute`), so a replay is counted under its route. */
  route: unknown;
}

type RoutedContext = Koa.Context & { _matchedRoute?: unknown };

const REPLAYED = ['etag', 'cache-control'] as const;

export interface MicroCacheOptions {
  store: Store;
  ttlMs: number;
  /** Wall clock (unix ms); not the API's injectable `now`, which tests pin. */
  clock?: () => number;
  maxEntries?: number;
  maxBytes?: number;
}

export function microCache(opts: MicroCacheOptions): Koa.Middleware {
  const clock = opts.clock ?? Date.now;
  const cache = new ResponseCache<Meta>(opts.maxEntries ?? 5_000, opts.maxBytes ?? 64 * 1024 * 1024, clock);

  return async (ctx, next) => {
    // HEAD is answered as GET (the same key, headers and chosen coding; Koa sends no body), so its headers describe
    // the representation a GET would get (RFC 9110 9.3.2).
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const caching = opts.ttlMs > 0;
    const cp = caching ? await checkpointTag(opts.store) : '';
    const key = `${ctx.path}?${ctx.querystring}|${cp}`;
    const now = clock();
    const hit = caching ? cache.entry(key) : undefined;
    if (hit && hit.meta.expires > now) {
      ctx.status = 200;
      (ctx as RoutedContext)._matchedRoute = hit.meta.route;
      ctx.type = hit.meta.type;
      for (const [h, v] of hit.meta.headers) ctx.set(h, v);
      sendRepresentation(ctx, hit.bytes, hit.meta.coded);
      markReplayable(ctx.res, { cp, expires: hit.meta.expires, route: hit.meta.route });
      return;
    }
    await next();
    // Only whole JSON answers: errors, 304s, images and streams pass through untouched.
    const body: unknown = ctx.body;
    if (ctx.status !== 200 || !ctx.response.is('json') || body === null || typeof body !== 'object') return;
    if (typeof (body as { pipe?: unknown }).pipe === 'function') return;
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
    const headers = REPLAYED.flatMap((h): [string, string][] => {
      const v = ctx.response.get(h);
      return v ? [[h, v]] : [];
    });
    const coded: Meta['coded'] = {};
    const route = (ctx as RoutedContext)._matchedRoute;
    // Kept only when no block or rollback landed while it was read: an answer read across a new block carries
    // that block's state under the key of the one before, which a fork rolling the chain back to it (a block that
    // landed and was orphaned within the window) would have served as that block's answer.
    if (caching && (await checkpointTag(opts.store)) === cp) {
      cache.setBytes(key, bytes, { expires: now + opts.ttlMs, type: ctx.response.type, headers, coded, route });
      markReplayable(ctx.res, { cp, expires: now + opts.ttlMs, route });
    }
    sendRepresentation(ctx, bytes, coded);
  };
}
