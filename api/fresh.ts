/**
 * `ctx.fresh` (the request's If-None-Match / If-Modified-Since against the answer's ETag / Last-Modified) without
 * its cost on the requests that carry neither: Koa's getter copies every response header into an object
 * (`res.getHeaders()`) before the `fresh` package looks at the request headers and answers false.
 */
import type Koa from 'koa';

export function isFresh(ctx: Koa.Context): boolean {
  const h = ctx.req.headers;
  // The `fresh` package's own first test: without either validator the answer is never fresh.
  if (!h['if-none-match'] && !h['if-modified-since']) return false;
  return ctx.fresh;
}
