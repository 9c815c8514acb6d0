/**
 * Typed errors for the HTTP layer. Handlers and middleware throw these; the error middleware (api/middleware.ts)
 * turns them into the spec's body `{ error: "…" }` with their status. Their messages are written for the caller
 * and are always shown; any other thrown value is an internal error, logged and answered with a generic 500.
 */

import type { Logger } from 'pino';
import { isStoreUnavailable } from '../mongo/adapters/mongodb.js';
import { safeError } from './log.js';

export class AppError extends Error {
  override name = 'AppError';
  /** Extra response headers (Retry-After, WWW-Authenticate). */
  readonly headers: Record<string, string>;
  constructor(
    readonly status: number,
    message: string,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.headers = headers;
  }
  /** The JSON body sent to the caller. */
  body(): Record<string, unknown> {
    return { error: this.message };
  }
}

/** 400: a parameter is malformed or out of range. */
export class BadRequestError extends AppError {
  override name = 'BadRequestError';
  constructor(message: string) {
    super(400, message);
  }
}

/**
 * 503: the answer is a precomputed document that its recompute has not written yet (right after the first start,
 * or for an entity newer than the last run). The request path never computes it instead; the caller retries.
 */
export class NotReadyError extends AppError {
  override name = 'NotReadyError';
  constructor(message: string, retryAfterSeconds: number) {
    super(503, message, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/** 401: an API key was sent but is unknown or revoked (anonymous calls never get 401). */
export class UnauthorizedError extends AppError {
  override name = 'UnauthorizedError';
  constructor(message = 'invalid or revoked API key') {
    super(401, message);
  }
}

/** 404: a well-formed identifier that the index does not know, or an unknown route. */
export class NotFoundError extends AppError {
  override name = 'NotFoundError';
  constructor(message: string) {
    super(404, message);
  }
}

export interface TooManyRequestsDetails {
  /** Defaults to "rate limit exceeded". */
  message?: string;
  /** What the caller can do, e.g. "send an API key for higher limits". */
  hint?: string;
  /** Absolute link to the limits documentation (the caller knows SITE_URL). */
  docs: string;
  /** Extra headers such as X-RateLimit-Limit / X-RateLimit-Remaining / X-Daily-Remaining. */
  headers?: Record<string, string>;
}

/** 429: the spec's richer body `{ error, hint, docs, retryAfter }` plus a `Retry-After` header (seconds). */
export class TooManyRequestsError extends AppError {
  override name = 'TooManyRequestsError';
  readonly retryAfter: number;
  readonly hint: string;
  readonly docs: string;
  constructor(retryAfterSeconds: number, details: TooManyRequestsDetails) {
    const retryAfter = Math.max(1, Math.ceil(retryAfterSeconds));
    super(429, details.message ?? 'rate limit exceeded', {
      ...details.headers,
      'Retry-After': String(retryAfter),
    });
    this.retryAfter = retryAfter;
    this.hint = details.hint ?? `wait ${retryAfter} s, then retry; an API key raises the limits`;
    this.docs = details.docs;
  }
  override body(): Record<string, unknown> {
    return { error: this.message, hint: this.hint, docs: this.docs, retryAfter: this.retryAfter };
  }
}

/** Retry-After of an answer the store could not give (it does not answer): a restart or failover takes seconds. */
const STORE_DOWN_RETRY_SECONDS = 5;

/**
 * The 503 of a store that does not answer (MongoDB down or unreachable: a part that is down, not a fault of ours),
 * or null for any other error. The driver's reason goes to the log only.
 */
export function storeDownError(e: unknown): AppError | null {
  return isStoreUnavailable(e)
    ? new AppError(503, 'the store does not answer; retry shortly', {
        'Retry-After': String(STORE_DOWN_RETRY_SECONDS),
      })
    : null;
}

/**
 * `thrown` as it is answered: a store that does not answer becomes its 503 (the driver's reason logged at warn, reduced
 * by safeError), anything else stays as thrown. The error middleware and the Markdown views' own errors both use it.
 */
export function answerableError(thrown: unknown, log: Logger): unknown {
  const down = storeDownError(thrown);
  if (down) log.warn({ err: safeError(thrown) }, 'store unavailable');
  return down ?? thrown;
}
