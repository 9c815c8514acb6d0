/**
 * Security headers on every answer (OWASP REST recommendations), as helmet writes them. With the options the app
 * uses, helmet's headers depend on no request (no CSP nonces, no per-request directives), so they are computed once
 * at start and copied onto each answer: helmet's chain of a dozen middlewares (and koa-helmet's promise around it)
 * does not run per request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type Koa from 'koa';

/** The headers helmet sets for `options`, by name; throws when helmet does not finish synchronously. */
export function helmetHeaders(options: HelmetOptions): [string, string][] {
  const headers = new Map<string, string>();
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.set(name, String(value));
      return res;
    },
    removeHeader(name: string) {
      headers.delete(name);
    },
  };
  let done = false;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error(String(err));
    done = true;
  });
  if (!done) throw new Error('helmet did not set its headers synchronously: they may depend on the request');
  return [...headers];
}

export function securityHeaders(options: HelmetOptions): Koa.Middleware {
  const headers = helmetHeaders(options);
  return (ctx, next) => {
    for (const [name, value] of headers) ctx.res.setHeader(name, value);
    return next();
  };
}
