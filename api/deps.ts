/**
 * What the API needs from the rest of the process. Everything is passed in (no singletons), so tests build an app
 * over a temporary store and production wires the real parts in scripts/start.ts.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import type { WorkerDown } from '../mongo/collections/sync-state.js';
import type { Store } from '../mongo/store.js';
import type { Metrics } from './metrics/index.js';

/**
 * Keys, quotas and rate limits (built in api/access/). Each middleware runs before the routes of its surface and
 * either calls `next()` or answers itself (401, or 429 with the spec's `{ error, hint, docs, retryAfter }` body);
 * it may also throw the typed errors of api/errors.ts.
 */
export interface AccessLayer {
  /** REST under /api/v1; on the logo route /api/v1/assets/{unit}/logo it checks a key but never limits. */
  rest: Koa.Middleware;
  /** Markdown views under /api/md. */
  md: Koa.Middleware;
  /** The MCP endpoint /api/mcp. */
  mcp: Koa.Middleware;
  /**
   * The replay fast path (api/fast-replay.ts) for a caller without a key: spends one request of `ip` on `surface`
   * and returns the limit headers its answer carries, or null when the request must take the middleware above.
   */
  anonymous?(surface: 'rest' | 'md' | 'mcp', ip: string, url: string): Promise<[string, string][] | null>;
  /** Whether a caller without a key at `ip` is over its limit on `surface` (its next request is a 429). */
  anonymousSpent?(surface: 'rest' | 'md' | 'mcp', ip: string): boolean;
  /** Whether the per-minute counters are shared through Redis now; null without REDIS_URL (metrics). */
  sharedCounters?(): boolean | null;
  /** Routes of the access layer itself (account area, key management); mounted as given, after the limits. */
  routes?: Router;
}

export interface ApiDeps {
  store: Store;
  config: Pick<Config, 'SITE_URL' | 'CARDANO_NETWORK' | 'TRUST_PROXY'> & Partial<Pick<Config, 'NEWS_FEEDS'>>;
  log: Logger;
  /** Absent in tests and benchmarks that exercise the API without limits. */
  access?: AccessLayer;
  /**
   * How long (ms) a REST answer is served from the micro-cache (api/micro-cache.ts) for its URL and sync checkpoint;
   * absent or 0: every request is answered from the store (tests that rewrite documents between requests).
   */
  cacheMs?: number;
  /** Clock (unix ms); tests pin it. */
  now?: () => number;
  /**
   * Decimals of a native token (`policyId + assetNameHex`) for decimal-adjusted quantities; 0 when unknown.
   * Token metadata (registry, CIP-68) arrives in a later issue and will supply this.
   */
  tokenDecimals?: (unit: string) => Promise<number>;
  /** Prometheus metrics of the process (api/metrics); absent: the app keeps its own (served at /metrics). */
  metrics?: Metrics;
  /**
   * Why the process that runs the sync and the scheduled jobs is not running, or null while it runs: `npm start`'s
   * embedded worker child (temporal/worker-child.ts). /readyz answers 503 with it. Absent where that process is not
   * this service's to watch (a Temporal worker, tests).
   */
  workerDown?: () => WorkerDown | null;
}
