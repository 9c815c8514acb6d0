/**
 * Cross-cutting middleware of the Koa app, in mount order: request id → access log → error answers. Each is a
 * small factory so the app (api/app.ts) reads as the list of what runs on a request.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type Koa from 'koa';
import type { Logger } from 'pino';
import { AppError, answerableError } from './errors.js';
import { safeError } from './log.js';

/** Inbound ids we echo: long enough to be unique, short and plain enough to log safely. */
export const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Keeps a sane inbound X-Request-Id (a proxy's or the caller's), else mints a UUID; echoes it on every answer. */
export function requestId(): Koa.Middleware {
  return async (ctx, next) => {
    const inbound = ctx.get('X-Request-Id');
    const id = SANE_REQUEST_ID.test(inbound) ? inbound : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    await next();
  };
}

/** The per-request logger (`reqId` bound) set by `accessLog`; the app logger before it runs. */
export const requestLog = (ctx: Koa.Context, fallback: Logger): Logger =>
  (ctx.state.log as Logger | undefined) ?? fallback;

/**
 * The process probes (/healthz, /healthz/*, /readyz; api/routes/health.ts). Their 503 is an answer, not a failure of
 * the service: a monitor polling through an outage must not fill the error log.
 */
const PROBE_PATH = /^\/(healthz|readyz)(\/|$)/;
const isProbe503 = (ctx: Koa.Context, status: number) => status === 503 && PROBE_PATH.test(ctx.path);

/**
 * One structured line per request: method, path, status, duration in ms. Errors at 5xx log at error level, except
 * a probe's 503 (warn: the probe answered what it was asked).
 */
export function accessLog(log: Logger): Koa.Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    const reqLog = log.child({ reqId: ctx.state.requestId as string });
    ctx.state.log = reqLog;
    try {
      await next();
    } finally {
      const status = ctx.status;
      const line = {
        method: ctx.method,
        path: ctx.path,
        status,
        ms: Math.round((performance.now() - started) * 100) / 100,
      };
      if (isProbe503(ctx, status)) reqLog.warn(line, 'request');
      else if (status >= 500) reqLog.error(line, 'request');
      else reqLog.info(line, 'request');
    }
  };
}

/** Headers describing a representation that an error answer must not inherit from the failed handler. */
const REPRESENTATION_HEADERS = [
  'etag',
  'last-modified',
  'cache-control',
  'content-disposition',
  'content-encoding',
  'content-language',
  'content-location',
  'location',
];

interface HttpLikeError {
  status?: unknown;
  expose?: unknown;
  message?: unknown;
  headers?: unknown;
}

/**
 * Turns thrown errors into the spec's `{ error }` bodies: typed AppErrors and exposed 4xx http-errors (ctx.throw)
 * keep their status and message; anything else is a 500 `{ error: "internal error" }`, logged with its stack, which
 * never reaches the caller. Also gives bodies to answers no route produced (404 unknown route, 405 wrong method).
 *
 * A method no router knows at all (TRACE, QUERY, …) is the router's 501, a server-side failure to dashboards; it is
 * a client's mistake like any other unsupported method, so it becomes 405 with the path's `Allow`, or 404 when no
 * route has the path.
 */
export function errorAnswers(fallbackLog: Logger): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 501 && ctx.body == null) {
        if (ctx.response.get('Allow')) ctx.status = 405;
        else {
          ctx.remove('Allow');
          ctx.status = 404;
        }
      }
      const { status } = ctx;
      if (ctx.respond !== false && ctx.body == null && status >= 400) {
        // Koa's implicit 404 becomes 200 when a body is set, unless the status is set explicitly first.
        ctx.status = status;
        ctx.body = {
          error:
            status === 404
              ? `no route ${ctx.method} ${ctx.path}`
              : status === 405
                ? `method ${ctx.method} not allowed on ${ctx.path}`
                : ctx.message,
        };
      }
    } catch (thrown) {
      const log = requestLog(ctx, fallbackLog);
      const err = answerableError(thrown, log);
      const e = (err ?? {}) as HttpLikeError;
      let status = 500;
      let body: Record<string, unknown> = { error: 'internal error' };
      if (err instanceof AppError) {
        status = err.status;
        body = err.body();
        if (status >= 500 && !isProbe503(ctx, status)) log.warn({ status, error: err.message }, 'service error');
      } else if (typeof e.status === 'number' && e.status >= 400 && e.status < 500 && e.expose === true) {
        status = e.status;
        body = { error: String(e.message) };
      } else if (ctx.req.destroyed && !ctx.req.complete) {
        // The client closed its connection while its body was being read (Node's 'aborted', ECONNRESET): nothing
        // failed here and no answer can reach it (the request line logs 400). Not an error-level line: any client
        // could fill the error log.
        ctx.status = status = 400;
        body = { error: 'the request was closed by the client before its body arrived' };
      } else {
        log.error({ err: safeError(err) }, 'unhandled error');
      }
      if (ctx.headerSent || !ctx.writable) return;
      for (const h of REPRESENTATION_HEADERS) ctx.remove(h);
      // The error's own headers (@koa/cors puts its `Vary: Origin` there) must not drop what the answer already
      // varies on: a REST answer is JSON or Markdown by Accept, its error too.
      const vary = ctx.response.get('Vary');
      if (e.headers && typeof e.headers === 'object') ctx.set(e.headers as Record<string, string>);
      for (const field of vary.split(',')) if (field.trim()) ctx.vary(field.trim());
      ctx.status = status;
      ctx.body = body;
    } finally {
      // An error answer is about this moment (a token not indexed yet, a limit): never kept by a shared cache.
      if (ctx.status >= 400 && !ctx.headerSent && ctx.respond !== false) ctx.set('Cache-Control', 'no-store');
    }
  };
}

/** Runs `mw` only for request paths that `match`; other requests pass straight through. */
export function forPaths(match: (path: string) => boolean, mw: Koa.Middleware): Koa.Middleware {
  return (ctx, next) => (match(ctx.path) ? mw(ctx, next) : next());
}
