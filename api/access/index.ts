/**
 * The access layer of the API: API keys, wallet sign-in and the account area, per-IP and per-key limits and daily
 * quotas. `createAccess` returns one middleware per surface (mounted by the app in front of REST, Markdown and the
 * tool server), the account area's router (mounted at the site root) and `close()` (flushes daily counts; call it
 * on shutdown).
 */
import type Router from '@koa/router';
import type { Redis } from 'ioredis';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { Config } from '../../config/index.js';
import type { AccessLayer } from '../deps.js';
import { ACCESS_COLLECTIONS } from '../../mongo/collections/access.js';
import type { Store } from '../../mongo/store.js';
import { createAccountRoutes } from './account-routes.js';
import { KeyCache, KeyRegistry } from './keys.js';
import { createSurfaceLimits, pruneMemory } from './limits.js';
import { DailyQuota } from './quota.js';
import { SharedCounters, redisClient } from './shared-counters.js';
import { SignIn } from './signin.js';

export type { AccessState, Surface } from './limits.js';

export interface AccessDeps {
  store: Store;
  config: Config;
  log: Logger;
  /** Shared per-minute counters; when absent and REDIS_URL is set, a connection is opened (and closed by close()). */
  redis?: Redis;
  /** Clock of keys, nonces, sessions and daily quotas (tests move it); per-minute windows use the real clock. */
  now?: () => number;
}

/** The app's AccessLayer contract (api/deps.ts) plus what the process and the operator command need. */
export interface Access extends AccessLayer {
  rest: Middleware;
  md: Middleware;
  mcp: Middleware;
  routes: Router;
  /** Keys and plans (the operator command and tests use it). */
  registry: KeyRegistry;
  /** Write pending daily counts and key usage, stop timers, close an owned Redis connection. */
  close(): Promise<void>;
}

/** Header values an access log must never record (keys, sessions); defined with the logger's options. */
export { REDACT_HEADERS } from '../log.js';

export async function createAccess(deps: AccessDeps): Promise<Access> {
  const { store, config } = deps;
  const now = deps.now ?? Date.now;
  const log = deps.log.child({ module: 'access' });
  await store.ensureIndexes([...ACCESS_COLLECTIONS]);

  const ownsRedis = !deps.redis && !!config.REDIS_URL;
  const redis = deps.redis ?? (config.REDIS_URL ? redisClient(config.REDIS_URL) : undefined);
  // Whether Redis answers now: a lost connection or an unanswered command counts in this process (logged once).
  const shared = redis ? new SharedCounters(redis, log, config.REDIS_URL ?? '') : undefined;

  let keys: KeyCache | null = null;
  const registry = new KeyRegistry(store, now, (hash) => keys?.invalidate(hash));
  keys = new KeyCache(registry, now);
  const quota = new DailyQuota(store, now);
  const signIn = new SignIn(store, {
    siteUrl: config.SITE_URL,
    network: config.CARDANO_NETWORK,
    nonceTtlSeconds: config.ACCOUNT_NONCE_TTL_SECONDS,
    now,
    ...(shared ? { shared } : {}),
  });
  const memory = new Map<string, { reset: number }>();
  const limits = createSurfaceLimits({ config, keys, quota, memory, ...(shared ? { shared } : {}) });

  await quota.prune();
  await signIn.prune();
  quota.start(1000, (e) => log.warn({ err: e }, 'daily quota flush failed; retrying'));
  const housekeeping = setInterval(() => {
    pruneMemory(memory);
    Promise.all([signIn.prune(), keys.flushUsage(), quota.prune()]).catch((e: Error) =>
      log.warn({ err: e }, 'access housekeeping failed'),
    );
  }, 60_000);
  housekeeping.unref();

  log.info(
    {
      rateLimits: config.RATE_LIMITS,
      counters: redis ? 'redis' : 'memory',
      plansEnforced: config.PLANS_ENFORCED,
      trustProxy: config.TRUST_PROXY,
    },
    'access layer ready',
  );

  return {
    anonymous: limits.anonymous,
    anonymousSpent: limits.anonymousSpent,
    sharedCounters: () => (shared ? shared.up() : null),
    rest: limits.rest,
    md: limits.md,
    mcp: limits.mcp,
    routes: createAccountRoutes({ config, signIn, registry, limit: limits.account }),
    registry,
    async close() {
      shared?.close();
      clearInterval(housekeeping);
      await quota.close();
      await keys.flushUsage();
      if (ownsRedis) await redis?.quit();
    },
  };
}
