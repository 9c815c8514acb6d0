/**
 * The access middleware of each surface (REST, Markdown, tool server): key check, then the limits.
 *
 * - No key: `RATE_LIMIT_ANON_PER_MIN` per client IP, counted separately on each surface (the spec: "each of the
 *   three paths carries it"); no daily cap.
 * - A key: its plan's per-minute limit, counted per key across all three surfaces (one key is one caller), then its
 *   plan's daily quota (quota.ts). Answers carry X-RateLimit-Limit, X-RateLimit-Remaining, X-Daily-Remaining.
 * - Wallet PnL (the expensive call, `GET /api/v1/wallet/{address}/pnl`, and `get_wallet_pnl` on the tool server
 *   when the client names it in `Mcp-Name`): on top of the above, `RATE_LIMIT_PNL_ANON_PER_MIN` (20) per IP without
 *   a key, `RATE_LIMIT_PNL_KEY_PER_MIN` (60) per key with one. 60 is our choice where the spec says "not shown":
 *   three times the anonymous allowance (a key is worth having) yet half the Free per-minute limit, so PnL calls
 *   cannot take all of a key's budget of the heavier work.
 * - An invalid or revoked key is always 401 (the spec), never charged to the anonymous allowance of its IP; key
 *   guessing has its own per-IP budget of failed keys (`RATE_LIMIT_ANON_PER_MIN` a minute), past which it is 429.
 * - Logos are never limited, but a key sent with one is checked: an invalid key is 401, a valid one sees its
 *   limit headers (read, not spent). `RATE_LIMITS=false` switches every limit off (keys are still checked).
 *
 * Per-minute counters are koa-ratelimit's: the memory driver (fixed one-minute window) in one process, the redis
 * driver (sliding one-minute window) over ioredis when REDIS_URL is set, so replicas share them.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { createRequire } from 'node:module';
import type { Context, Middleware, Next } from 'koa';
import ratelimit from 'koa-ratelimit';
import RedisLimiter from 'async-ratelimiter';
import type { Config } from '../../config/index.js';
import type { PlanName } from '../../mongo/collections/access.js';
import type { KeyCache, KeyPrincipal } from './keys.js';
import { effectivePlan, planLimits, PLAN_NAMES } from './plans.js';
import type { DailyQuota } from './quota.js';
import type { SharedCounters } from './shared-counters.js';
import { isLogoPath } from '../logo-path.js';
import { readMcpBody } from '../mcp/body.js';

export type Surface = 'rest' | 'md' | 'mcp';

const MINUTE_MS = 60_000;
// Case-insensitive as the router matches paths: /wallet/{a}/PNL is the same call.
const PNL_URL = /\/wallet\/[^/?#]+\/pnl\/?(?:[?#]|$)/i;
const RATE_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

/** koa-ratelimit's own memory counter (the one its middleware runs), for the replay fast path's anonymous spend. */
const MemoryLimiter = createRequire(import.meta.url)('koa-ratelimit/limiter/memory.js') as new (opts: {
  id: string;
  db: Map<string, unknown>;
  max: number;
  duration: number;
  namespace: string;
}) => { get(): Promise<{ remaining: number; reset: number; total: number }> };

/**
 * Requests left in an anonymous window at or below which the fast path hands the request to the full chain, so the
 * last requests of a window and every 429 (with its body, Retry-After and metrics) take one code path.
 */
const FAST_SPEND_FLOOR = 2;

/** What the access layer records about the caller for the rest of the request (logs): never the key itself. */
export interface AccessState {
  keyId: string | null;
  accountId: string | null;
}

/** The key a request presents on a surface, or null. The tool server takes only `X-API-Key` (the spec). */
export function presentedKey(ctx: Context, surface: Surface): string | null {
  const header = ctx.get('x-api-key').trim();
  if (header) return header;
  if (surface === 'mcp') return null;
  // The Bearer scheme presents a key whatever follows it (RFC 6750): `Bearer a b` or a bare `Bearer` is a malformed
  // key, answered 401, not an anonymous call. Another scheme (Basic …) is not ours and presents none.
  const m = /^Bearer(?:\s+(.*))?$/i.exec(ctx.get('authorization').trim());
  return m ? (m[1] ?? '').trim() : null;
}

/**
 * The client's IP. With TRUST_PROXY the address our proxy appended to X-Forwarded-For (the last entry: earlier
 * entries are whatever the client sent and would let anyone pick their own IP); otherwise the socket peer.
 */
export function clientIp(ctx: Context, trustProxy: boolean): string {
  return requestIp(ctx.req, trustProxy) || ctx.ip || 'unknown';
}

/** `clientIp` of a request before Koa saw it (the replay fast path); '' for a socket already closed. */
export function requestIp(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const xff = req.headers['x-forwarded-for'];
    const last = (Array.isArray(xff) ? xff.join(',') : (xff ?? '')).split(',').pop()?.trim();
    if (last) return limitAddress(withoutPort(last));
  }
  // A socket closed before this point has no address any more; such callers share one bucket.
  return limitAddress(req.socket.remoteAddress ?? '');
}

/**
 * An X-Forwarded-For entry without the client's source port some proxies append (`203.0.113.7:51234`,
 * `[2001:db8::1]:51234`; Azure Application Gateway does): with it, every connection of one client was a new IP with a
 * fresh anonymous allowance. An entry of another form is returned as is.
 */
export function withoutPort(entry: string): string {
  if (isIP(entry)) return entry;
  const m = /^(?:\[([^\]]+)\]|(\d+\.\d+\.\d+\.\d+)):\d{1,5}$/.exec(entry);
  const ip = m?.[1] ?? m?.[2];
  return ip && isIP(ip) ? ip : entry;
}

/**
 * The address a per-IP limit counts: an IPv6 client by its /64, an IPv4-mapped IPv6 address as the IPv4 address.
 * A /64 is one subscriber's network (the smallest a provider assigns, RFC 6177) whose host picks any of its 2^64
 * addresses at will (privacy extensions rotate them): counted per address, one IPv6 client had an unbounded
 * number of anonymous allowances. Anything else (IPv4, '') is returned as is.
 */
export function limitAddress(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1] as string;
  const [head = '', tail] = (ip.split('%')[0] as string).split('::');
  const groups = head ? head.split(':') : [];
  if (tail !== undefined) {
    const rest = tail ? tail.split(':') : [];
    // A dotted IPv4 tail (::ffff:…, 64:ff9b::…) stands for two groups.
    const size = rest.length + (rest.at(-1)?.includes('.') ? 1 : 0);
    groups.push(...Array<string>(8 - groups.length - size).fill('0'), ...rest);
  }
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** A window of koa-ratelimit's memory driver: its limit, what is left before the next request, its end (unix s). */
interface MemoryWindow {
  total: number;
  remaining: number;
  reset: number;
}

/**
 * Give an open memory-driver window the limit `max` when it was opened under another one, keeping the requests it
 * counted. The driver fixes a window's limit when the window opens; a key's plan limiters share its window
 * (namespace `key`), so after an upgrade the key kept its old per-minute limit (and X-RateLimit-Limit) until the
 * window ended: up to a minute after this process learnt of the plan, itself up to 30 s (the key cache) after the
 * change, where the spec says "within a minute". The redis driver takes `max` on every call already.
 */
function fitWindow(entry: MemoryWindow | undefined, max: number): void {
  if (!entry || entry.total === max) return;
  entry.remaining = Math.max(0, entry.remaining + max - entry.total);
  entry.total = max;
}

export interface LimitDeps {
  config: Config;
  keys: KeyCache;
  quota: DailyQuota;
  /** Redis, when REDIS_URL is set, and whether it answers now. */
  shared?: SharedCounters;
  /** The memory driver's counters, shared by every limiter of this process (pruned by `pruneMemory`). */
  memory: Map<string, { reset: number }>;
}

type Limited = 'anon' | 'key' | 'pnl-anon' | 'pnl-key' | 'bad-key' | 'account';

export function createSurfaceLimits(deps: LimitDeps) {
  const { config, keys, quota, shared: link } = deps;
  const redis = link?.redis;
  // The 429's `docs`: the docs page's section on limits (what each caller gets, the headers, Retry-After).
  const docs = `${config.SITE_URL}/docs#limits`;
  // Where a key is made (sign in with a wallet); the docs page only describes keys.
  const accountPage = `${config.SITE_URL}/account`;
  const limitsOn = config.RATE_LIMITS;

  const writeTooMany = (ctx: Context, error: string, hint: (s: number) => string, retryAfter: number) => {
    ctx.status = 429;
    ctx.set('Retry-After', String(retryAfter));
    ctx.body = { error, hint: hint(retryAfter), docs, retryAfter };
  };

  /** Whole seconds until the window of the limit just hit resets (from the limiter's own reset header). */
  const retryAfterFromReset = (ctx: Context): number => {
    const reset = Number(ctx.response.get('X-RateLimit-Reset'));
    if (!Number.isFinite(reset) || reset <= 0) return 60;
    // The redis driver floors the reset to whole seconds: add one so the caller never comes back too early.
    const wait = Math.ceil(reset - Date.now() / 1000) + (redis ? 1 : 0);
    return Math.min(60, Math.max(1, wait));
  };

  // What a higher plan would do for a key over its limit. Until plans are enforced every key has the Free limits
  // whatever its account's plan (the spec), so pointing to a higher plan promised a raise no upgrade gives.
  const planHint = (what: string) =>
    config.PLANS_ENFORCED
      ? `a higher plan raises ${what} (see ${docs})`
      : `plans are not enforced yet: every key has the Free limits (see ${docs})`;

  const messages: Record<Limited, (max: number) => [string, (s: number) => string]> = {
    anon: (max) => [
      `Rate limit exceeded: ${max} requests per minute per IP address without an API key.`,
      (s) =>
        `Wait ${s} s and retry, or send an API key (x-api-key header) for higher limits; create one at ${accountPage}.`,
    ],
    key: (max) => [
      `Rate limit exceeded: ${max} requests per minute for this API key.`,
      (s) => `Wait ${s} s and retry; ${planHint('the per-minute limit')}.`,
    ],
    'pnl-anon': (max) => [
      `Rate limit exceeded for wallet profit and loss: ${max} calls per minute per IP address without an API key.`,
      (s) =>
        `Wait ${s} s and retry, or send an API key (x-api-key header): keyed callers get ${config.RATE_LIMIT_PNL_KEY_PER_MIN} per minute.`,
    ],
    'pnl-key': (max) => [
      `Rate limit exceeded for wallet profit and loss: ${max} calls per minute for this API key.`,
      (s) => `Wait ${s} s and retry; other endpoints are not affected.`,
    ],
    // The account area (sign-in, keys) reads no API key: the anonymous 429's "send an API key for higher limits"
    // offered a way past this limit that does not exist.
    account: (max) => [
      `Rate limit exceeded: ${max} requests per minute per IP address to the account area.`,
      (s) => `Wait ${s} s and retry; an API key does not raise this limit.`,
    ],
    'bad-key': (max) => [
      `Too many invalid or revoked API keys from this IP address: ${max} per minute.`,
      (s) => `Wait ${s} s, then send a valid key (create one at ${accountPage}) or no key for anonymous access.`,
    ],
  };

  /** The end of a shared (redis) window in whole unix seconds, from the driver's floored reset (see wholeReset). */
  const sharedWindowEnd = (flooredReset: number) => Math.floor(flooredReset) + 1;

  /**
   * X-RateLimit-Reset as whole unix seconds that are never early, so a caller waiting for it is not refused again.
   * koa-ratelimit's memory driver writes the reset as fractional unix seconds (rounded up here). The redis driver
   * (async-ratelimiter) writes it already floored: its window ends when the oldest request counted is 60 s old,
   * somewhere within the second after the value it gives, so the end is the next whole second (`floored`).
   */
  const wholeReset = (ctx: Context, floored: boolean) => {
    const reset = Number(ctx.response.get('X-RateLimit-Reset'));
    if (ctx.response.get('X-RateLimit-Reset') !== '' && Number.isFinite(reset))
      ctx.set('X-RateLimit-Reset', String(floored ? sharedWindowEnd(reset) : Math.ceil(reset)));
  };

  const namespaced = (namespace: string) => (redis ? `cds:rl:${namespace}` : namespace);
  /**
   * Whether the shared counters answer. While Redis is down, restarting or unreachable, each limit counts in this
   * process's memory instead (each replica then lets up to its own limit through) rather than holding every request
   * until the Redis client gives up and answering 500: seen with Redis stopped, every REST request was a 500 after
   * 10-15 s. A command that fails or goes unanswered while the connection stays open falls back the same way, and
   * so do the requests after it until Redis answers a PING (shared-counters.ts).
   */
  const sharedUp = () => link?.up() ?? false;

  const limiter = (kind: Limited, namespace: string, max: number, id: (ctx: Context) => string): Middleware => {
    const counting = (shared: boolean) =>
      ratelimit({
        driver: shared ? 'redis' : 'memory',
        db: shared ? redis : (deps.memory as Map<string, unknown>),
        namespace: shared ? namespaced(namespace) : namespace,
        duration: MINUTE_MS,
        max,
        id,
        onLimited: (ctx: Context) => {
          const [error, hint] = messages[kind](max);
          writeTooMany(ctx, error, hint, retryAfterFromReset(ctx));
          wholeReset(ctx, shared);
        },
      } as ratelimit.MiddlewareOptions);
    const local = counting(false);
    const shared = redis ? counting(true) : null;
    return async (ctx, next) => {
      let passed = false;
      const pass = (floored: boolean) => async () => {
        passed = true;
        wholeReset(ctx, floored);
        await next();
      };
      if (shared && sharedUp()) {
        try {
          return await shared(ctx, pass(true));
        } catch (e) {
          if (passed) throw e; // the request's own failure, after the limit let it through
          link?.failed(e);
        }
      }
      // Redis does not answer: this replica counts alone (see sharedUp).
      fitWindow(deps.memory.get(`${namespace}:${id(ctx)}`) as MemoryWindow | undefined, max);
      return local(ctx, pass(false));
    };
  };

  /**
   * The per-minute window of a key as it stands, without spending a request (the logo route): what
   * X-RateLimit-Remaining would say before this request, and when the window resets.
   */
  const peekKey = async (hash: string, max: number): Promise<{ remaining: number; reset: number }> => {
    if (redis && sharedUp()) {
      const status = await new RedisLimiter({ db: redis, namespace: namespaced('key'), max, duration: MINUTE_MS })
        .get({ id: hash, peek: true })
        .catch((e: unknown) => {
          link?.failed(e);
          return null; // not answering: the window this replica counts in meanwhile
        });
      if (status) return { remaining: Math.max(0, status.remaining), reset: sharedWindowEnd(status.reset) };
    }
    const entry = deps.memory.get(`key:${hash}`) as MemoryWindow | undefined;
    fitWindow(entry, max);
    const nowS = Date.now() / 1000;
    if (!entry || entry.reset < nowS) return { remaining: max, reset: Math.ceil(nowS + MINUTE_MS / 1000) };
    // The memory driver's `remaining` is one above what its last answer reported (it reports remaining − 1).
    return { remaining: Math.max(0, entry.remaining - 1), reset: Math.ceil(entry.reset) };
  };

  const ipOf = (ctx: Context) => clientIp(ctx, config.TRUST_PROXY);
  const keyOf = (ctx: Context) => ctx.state.accessKeyHash as string;

  const anon: Record<Surface, Middleware> = {
    rest: limiter('anon', 'anon-rest', config.RATE_LIMIT_ANON_PER_MIN, ipOf),
    md: limiter('anon', 'anon-md', config.RATE_LIMIT_ANON_PER_MIN, ipOf),
    mcp: limiter('anon', 'anon-mcp', config.RATE_LIMIT_ANON_PER_MIN, ipOf),
  };
  // One limiter per plan over the same counters (namespace `key`): a plan change applies to the open window as soon
  // as this process knows the plan (the redis driver takes `max` on every call; memory windows are refitted).
  const perKey = Object.fromEntries(
    PLAN_NAMES.map((p) => [p, limiter('key', 'key', planLimits(config, p).perMinute, keyOf)]),
  ) as Record<PlanName, Middleware>;
  const pnlAnon = limiter('pnl-anon', 'pnl-anon', config.RATE_LIMIT_PNL_ANON_PER_MIN, ipOf);
  const pnlKey = limiter('pnl-key', 'pnl-key', config.RATE_LIMIT_PNL_KEY_PER_MIN, keyOf);
  // Failed keys only pass through this limiter, so it counts guesses per IP, apart from the anonymous allowance.
  const badKey = limiter('bad-key', 'bad-key', config.RATE_LIMIT_ANON_PER_MIN, ipOf);

  /**
   * The wallet PnL calls a request makes: REST by its URL; the tool server by its `Mcp-Name` (for the older revisions
   * set from the body by api/mcp/body.ts, with the number of PnL calls of a batch in `ctx.state.mcpPnlCalls`).
   */
  const pnlCalls = (ctx: Context, surface: Surface): number => {
    if (surface === 'rest') return PNL_URL.test(ctx.originalUrl) ? 1 : 0;
    if (surface !== 'mcp' || ctx.get('mcp-name') !== 'get_wallet_pnl') return 0;
    const n = ctx.state.mcpPnlCalls as number | undefined;
    return n !== undefined && n > 1 ? n : 1;
  };

  /**
   * Run the expensive-call limiter, one call of its window per PnL call of the request (a legacy batch may hold
   * several), while keeping the headers of the main limit on a passing answer.
   */
  const withPnl = (pnl: Middleware, calls: number) => async (ctx: Context, next: Next) => {
    const saved = RATE_HEADERS.map((h) => [h, ctx.response.get(h)] as const);
    for (let i = 1; i < calls; i++) {
      let passed = false;
      await pnl(ctx, async () => {
        passed = true;
      });
      if (!passed) return;
    }
    await pnl(ctx, async () => {
      for (const [h, v] of saved) if (v !== '') ctx.set(h, v);
      await next();
    });
  };

  /**
   * Requests a tool-server body stands for: each JSON-RPC message of a batch (the 2025-03-26 form the server takes,
   * up to 100 messages) is a call of its own. Counted as one, a batch of 100 tool calls cost one request: an
   * anonymous caller made 6,000 calls a minute under the limit of 60, a key 1,000,000 a day under its 10,000.
   */
  const messagesOf = (ctx: Context, surface: Surface): number => {
    const body: unknown = ctx.state.mcpBody;
    return surface === 'mcp' && Array.isArray(body) ? Math.max(1, body.length) : 1;
  };

  /**
   * Spend `n` more requests of a per-minute limit's window after the one its middleware counted; false when one is
   * refused (its 429 written). A batch larger than what is left is refused whole, and spends what was left.
   */
  const spendMore = async (limit: Middleware, ctx: Context, n: number): Promise<boolean> => {
    for (let i = 0; i < n; i++) {
      let passed = false;
      await limit(ctx, async () => {
        passed = true;
      });
      if (!passed) return false;
    }
    return true;
  };

  /**
   * The tool server's JSON body (up to 4 MiB) is read and parsed only once the key check and the per-minute limit
   * let the request through, then the PnL limit reads the tool a legacy body calls (api/mcp/body.ts). Read before
   * them, any number of bodies were parsed (~0.5 s of the event loop for a 4 MiB one) before a refusal: a burst
   * from one IP before its window counted any of them, and every request with an invalid key, which never met a
   * limit before its body was in.
   */
  const readBody = readMcpBody();
  const afterBody = (ctx: Context, surface: Surface, then: () => Promise<unknown>) =>
    surface === 'mcp' ? readBody(ctx, then) : then();

  const unauthorized = (ctx: Context) => {
    // The failed-key budget's headers are not the caller's request limits: a 401 carries none.
    for (const h of RATE_HEADERS) ctx.remove(h);
    ctx.status = 401;
    // RFC 9110: a 401 names how to authenticate. A scheme of its own, not Bearer: an MCP client takes Bearer for
    // OAuth and would start a discovery this service does not serve.
    ctx.set('WWW-Authenticate', 'ApiKey realm="api", header="x-api-key"');
    ctx.body = { error: 'Invalid or revoked API key. Send a valid key in x-api-key, or no key for anonymous access.' };
  };

  /** The logo is never limited or counted; a key sent with it is checked and shown its standing. */
  const logo = async (ctx: Context, next: Next, principal: KeyPrincipal | null) => {
    if (principal && limitsOn) {
      const plan = planLimits(config, effectivePlan(config, principal.accountPlan));
      const window = await peekKey(principal.hash, plan.perMinute);
      ctx.set('X-RateLimit-Limit', String(plan.perMinute));
      ctx.set('X-RateLimit-Remaining', String(window.remaining));
      ctx.set('X-RateLimit-Reset', String(window.reset));
      ctx.set('X-Daily-Remaining', String(await quota.remaining(principal.hash, plan.perDay)));
    }
    await next();
  };

  const keyed = async (ctx: Context, next: Next, principal: KeyPrincipal, surface: Surface) => {
    const plan = planLimits(config, effectivePlan(config, principal.accountPlan));
    ctx.state.accessKeyHash = principal.hash;
    // A request the per-minute limits refuse (the key's, or the PnL call's) is not charged to the daily quota.
    let charged = false;
    const dailyTooMany = (retryAfter: number) =>
      writeTooMany(
        ctx,
        `Daily quota exceeded: ${plan.perDay} requests per UTC day for this API key.`,
        (s) => `The quota starts again at 00:00 UTC, in ${s} s; ${planHint('it')}.`,
        retryAfter,
      );
    const charge = async () => {
      charged = true;
      const day = await quota.take(principal.hash, plan.perDay, messagesOf(ctx, surface));
      ctx.set('X-Daily-Remaining', String(day.remaining));
      if (!day.allowed) return dailyTooMany(day.retryAfter);
      await next();
    };
    const minute = perKey[effectivePlan(config, principal.accountPlan)];
    await minute(ctx, () =>
      afterBody(ctx, surface, async () => {
        if (!(await spendMore(minute, ctx, messagesOf(ctx, surface) - 1))) return;
        const pnl = pnlCalls(ctx, surface);
        return pnl ? withPnl(pnlKey, pnl)(ctx, charge) : charge();
      }),
    );
    if (charged) return;
    const left = await quota.remaining(principal.hash, plan.perDay);
    ctx.set('X-Daily-Remaining', String(left));
    // Refused by a per-minute limit while the day's quota is spent too: the wait that ends the refusals is the
    // quota's. A Retry-After of the minute's reset would only earn the daily 429 (spec Errors 1: the caller waits
    // Retry-After seconds, then continues).
    if (ctx.status === 429 && left === 0) dailyTooMany(quota.secondsToReset());
  };

  /**
   * An answer to a keyed request carries that key's limit and quota headers (spec Limits 4). A shared cache (a CDN)
   * keeps a `public` answer — openapi.json and the indexes for 5 minutes, a logo for a week — with its headers and
   * serves it to every caller, who would then read this key's remaining minute and day as their own: to a keyed
   * caller such an answer is `private` (kept by its own client only). So is a data answer (`no-cache`): a shared
   * cache revalidates it before each use, but a 304 only replaces the headers it carries (RFC 9111 4.3.4), and an
   * anonymous caller's 304 has no `X-Daily-Remaining`, so the key's day stayed on the kept answer for every caller.
   */
  const privateToKey = async (ctx: Context, run: () => Promise<unknown>) => {
    try {
      await run();
    } finally {
      const cc = ctx.response.get('Cache-Control');
      if (/\bpublic\b/i.test(cc)) ctx.set('Cache-Control', cc.replace(/\bpublic\b/gi, 'private'));
      else if (cc && !/\b(private|no-store)\b/i.test(cc)) ctx.set('Cache-Control', `private, ${cc}`);
    }
  };

  const surfaceMiddleware =
    (surface: Surface): Middleware =>
    async (ctx, next) => {
      const presented = presentedKey(ctx, surface);
      let principal: KeyPrincipal | null = null;
      if (presented !== null) {
        principal = await keys.resolve(presented);
        if (!principal) {
          if (limitsOn) return badKey(ctx, async () => unauthorized(ctx));
          return unauthorized(ctx);
        }
      }
      ctx.state.access = {
        keyId: principal?.keyId ?? null,
        accountId: principal?.accountId ?? null,
      } satisfies AccessState;
      if (surface === 'rest' && isLogoPath(ctx.path))
        return principal ? privateToKey(ctx, () => logo(ctx, next, principal)) : logo(ctx, next, principal);
      if (!limitsOn) return afterBody(ctx, surface, next);
      if (principal) return privateToKey(ctx, () => keyed(ctx, next, principal, surface));
      return anon[surface](ctx, () =>
        afterBody(ctx, surface, async () => {
          if (!(await spendMore(anon[surface], ctx, messagesOf(ctx, surface) - 1))) return;
          const pnl = pnlCalls(ctx, surface);
          return pnl ? withPnl(pnlAnon, pnl)(ctx, next) : next();
        }),
      );
    };

  /** The account area's JSON endpoints: anonymous-style per-IP limit, so nonces cannot be minted in bulk. */
  const account = limitsOn ? limiter('account', 'account', config.RATE_LIMIT_ANON_PER_MIN, ipOf) : null;

  /**
   * The replay fast path's anonymous spend (api/fast-replay.ts): counts one request of `ip` on `surface` in the same
   * per-minute window the surface's middleware counts in, and returns the limit headers that middleware would set;
   * null, counting nothing, when the request must take the full chain: near or over its limit, the wallet PnL
   * call (its own second limit: REST by its URL here; the tool server's fast path never offers get_wallet_pnl), or
   * counters shared through Redis (an asynchronous round trip either way).
   */
  const anonymous = async (surface: Surface, ip: string, url: string): Promise<[string, string][] | null> => {
    if (!limitsOn) return [];
    if (redis || (surface === 'rest' && PNL_URL.test(url))) return null;
    const namespace = `anon-${surface}`;
    const open = deps.memory.get(`${namespace}:${ip}`) as { reset: number; remaining: number } | undefined;
    if (open && open.reset * 1000 >= Date.now() && open.remaining <= FAST_SPEND_FLOOR) return null;
    const max = config.RATE_LIMIT_ANON_PER_MIN;
    const limit = await new MemoryLimiter({ id: ip, db: deps.memory, max, duration: MINUTE_MS, namespace }).get();
    // As koa-ratelimit's middleware reports them, the reset rounded up to whole seconds (wholeReset).
    return [
      ['X-RateLimit-Remaining', String(limit.remaining > 0 ? limit.remaining - 1 : 0)],
      ['X-RateLimit-Reset', String(Math.ceil(limit.reset))],
      ['X-RateLimit-Limit', String(limit.total)],
    ];
  };

  /**
   * Whether the anonymous window of `ip` on `surface` is spent, so its next request is a 429. The replay fast path
   * asks before reading a tool-server body (up to 4 MiB): a caller over its limit gets its 429 with nothing read or
   * parsed (the middleware above reads it only after its limit passed). Memory
   * counters only (koa-ratelimit's memory entry holds what is left before the next request is counted, and a
   * request passes while that is above 1); with Redis the answer would cost a round trip, so the body is read.
   */
  const anonymousSpent = (surface: Surface, ip: string): boolean => {
    if (!limitsOn || redis) return false;
    const open = deps.memory.get(`anon-${surface}:${ip}`) as { reset: number; remaining: number } | undefined;
    return open !== undefined && open.reset * 1000 >= Date.now() && open.remaining <= 1;
  };

  return {
    anonymous,
    anonymousSpent,
    rest: surfaceMiddleware('rest'),
    md: surfaceMiddleware('md'),
    mcp: surfaceMiddleware('mcp'),
    account: (account ?? (async (_ctx, next) => next())) as Middleware,
  };
}

/** Drop memory-driver windows that have ended (the driver itself never deletes them). */
export function pruneMemory(memory: Map<string, { reset: number }>, nowMs = Date.now()): void {
  for (const [k, v] of memory) if (v.reset * 1000 < nowMs) memory.delete(k);
}
