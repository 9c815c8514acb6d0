/**
 * Security headers on every answer (OWASP REST recommendations), as helmet writes them; data answers without the
 * headers only a rendered document acts on. With the options the app uses, helmet's headers depend on no request
 * (no CSP nonces, no per-request directives), so they are computed once at start and copied onto each answer:
 * helmet's chain of a dozen middlewares (and koa-helmet's promise around it) does not run per request.
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

/**
 * Headers helmet sets that only a document a browser renders acts on: a process-isolation request
 * (Origin-Agent-Cluster), DNS prefetching of its links, the opener policy of its window, Internet Explorer 8's
 * download prompt, Flash and PDF cross-domain policy files, and the disabled XSS auditor of old browsers. A JSON,
 * Markdown or image answer of the API is never rendered as a page (nosniff, a CSP of 'none' and
 * `frame-ancestors 'none'` see to that), so these are left off its answers, as large JSON APIs leave them off:
 * each costs every answer its bytes and the server its header work. HTML pages keep helmet's whole set.
 */
const DOCUMENT_ONLY = new Set([
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'cross-origin-opener-policy',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
]);

/** Answers under /api/ (REST, Markdown views, tool server) are data, never a page. */
const isApiPath = (path: string) => path.startsWith('/api/');

/** The headers of a data answer (JSON, Markdown, an image): helmet's for `options` less the document-only ones. */
export function dataSecurityHeaders(options: HelmetOptions): [string, string][] {
  return helmetHeaders(options).filter(([name]) => !DOCUMENT_ONLY.has(name.toLowerCase()));
}

export function securityHeaders(options: HelmetOptions): Koa.Middleware {
  const page = helmetHeaders(options);
  const data = dataSecurityHeaders(options);
  return (ctx, next) => {
    for (const [name, value] of isApiPath(ctx.path) ? data : page) ctx.res.setHeader(name, value);
    return next();
  };
}
