/**
 * The swap page at `{site_url}/swap?in=…&out=…&amount=…` (the quote's `link`): static HTML and CSS, and one script
 * bundled from swap.js, order.ts and quote-time.ts by esbuild on first request (kept in memory; a few dozen KB: the
 * project's CBOR, Minswap V2 and SundaeSwap V3 encoders, @noble/hashes and @scure/base, no serialization library).
 * Strict CSP, no inline code.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { fixedAnswer, sendFixed, type FixedAnswer } from '../../compress.js';

const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const here = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));

let bundle: Promise<string> | null = null;
/** The page script with its imports, as one IIFE for a plain `<script defer>`. */
export function swapBundle(): Promise<string> {
  bundle ??= import('esbuild')
    .then((esbuild) =>
      esbuild.build({
        entryPoints: [here('swap.js')],
        bundle: true,
        format: 'iife',
        platform: 'browser',
        target: 'es2020',
        minify: true,
        write: false,
        legalComments: 'none',
        logLevel: 'silent',
      }),
    )
    .then((r) => (r.outputFiles[0] as { text: string }).text)
    .catch((e: unknown) => {
      bundle = null;
      throw e;
    });
  return bundle;
}

export function swapRouter(): Router {
  const html = readFileSync(here('swap.html'), 'utf8');
  const css = readFileSync(here('swap.css'), 'utf8');
  const router = new Router();
  const serve = (type: string, body: () => Promise<string> | string): Middleware => {
    let answer: { text: string; fixed: FixedAnswer } | null = null;
    return async (ctx) => {
      const text = await body();
      if (answer?.text !== text) answer = { text, fixed: fixedAnswer(text) };
      ctx.type = type;
      ctx.set('Content-Security-Policy', PAGE_CSP);
      ctx.set('Cache-Control', 'no-cache');
      ctx.set('X-Content-Type-Options', 'nosniff');
      // The bundle is ~55 KB of minified script: br/gzip like every answer of 1 KB or more.
      sendFixed(ctx, answer.fixed);
    };
  };
  router.get(
    '/swap',
    serve('text/html; charset=utf-8', () => html),
  );
  router.get(
    '/swap/swap.css',
    serve('text/css; charset=utf-8', () => css),
  );
  router.get('/swap/swap.js', serve('text/javascript; charset=utf-8', swapBundle));
  return router;
}
