/**
 * The account area at `{site_url}/account`: a static page (HTML + one script + one stylesheet, strict CSP with no
 * inline code) and its JSON API under `/account/api`. Sign-in is by wallet (signin.ts); the session travels in an
 * httpOnly, SameSite=Strict cookie scoped to `/account`, and state-changing calls must be `application/json`, so
 * another site can neither read the session nor forge a call without a CORS preflight we never grant.
 */
import { readFileSync } from 'node:fs';
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { Config } from '../../config/index.js';
import { fixedAnswer, sendFixed } from '../compress.js';
import { SignInError } from './cose.js';
import { KeyError, MAX_LIVE_KEYS, type KeyRegistry } from './keys.js';
import { effectivePlan, planLimits, PLAN_NAMES } from './plans.js';
import { SESSION_TTL_MS, type Session, type SignIn } from './signin.js';

const COOKIE = 'cds_session';
const BODY_MAX = 16_384;
const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const asset = (name: string) => readFileSync(new URL(`./page/${name}`, import.meta.url), 'utf8');

/** Parse a small JSON object body; only `application/json` is accepted (see the file comment on forged calls). */
async function readJson(ctx: Context): Promise<Record<string, unknown>> {
  if (!ctx.is('application/json')) throw new KeyError(400, 'send the body as application/json');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_MAX) throw new KeyError(400, 'request body too large');
    chunks.push(chunk);
  }
  try {
    const v: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new KeyError(400, 'the body must be a JSON object');
}

export function createAccountRoutes(deps: {
  config: Config;
  signIn: SignIn;
  registry: KeyRegistry;
  limit: Middleware;
}): Router {
  const { config, signIn, registry } = deps;
  const secure = config.SITE_URL.startsWith('https:');
  const page = { html: asset('account.html'), js: asset('account.js'), css: asset('account.css') };
  const router = new Router();

  const serve = (type: string, body: string): Middleware => {
    const answer = fixedAnswer(body);
    return async (ctx) => {
      ctx.type = type;
      ctx.set('Content-Security-Policy', PAGE_CSP);
      ctx.set('Cache-Control', 'no-cache');
      ctx.set('X-Content-Type-Options', 'nosniff');
      // An ETag to revalidate against (no-cache) and br/gzip like every answer of 1 KB or more.
      sendFixed(ctx, answer);
    };
  };
  router.get('/account', serve('text/html; charset=utf-8', page.html));
  router.get('/account/account.js', serve('text/javascript; charset=utf-8', page.js));
  router.get('/account/account.css', serve('text/css; charset=utf-8', page.css));

  const setCookie = (ctx: Context, value: string, maxAgeSeconds: number) =>
    ctx.append(
      'Set-Cookie',
      `${COOKIE}=${value}; Path=/account; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`,
    );

  /** JSON answers, refusals as `{ error }`, never cached. */
  const api =
    (handler: (ctx: Context) => Promise<unknown>): Middleware =>
    async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      try {
        ctx.body = await handler(ctx);
      } catch (e) {
        if (!(e instanceof SignInError || e instanceof KeyError)) throw e;
        ctx.status = e.status;
        ctx.body = { error: e.message };
      }
    };

  const requireSession = async (ctx: Context): Promise<Session> => {
    const session = await signIn.resolveSession(ctx.cookies.get(COOKIE));
    if (!session) throw new SignInError(401, 'not signed in, or the session has expired; sign in with your wallet');
    return session;
  };

  const limitsOf = (plan: (typeof PLAN_NAMES)[number]) => {
    const applied = effectivePlan(config, plan);
    return { plan, appliedPlan: applied, ...planLimits(config, applied) };
  };

  /** What the page shows of a signed-in session: the account, its plan and the limits that apply. */
  const sessionAnswer = async (session: Session) => {
    const account = await registry.ensureAccount(session.accountId);
    return {
      signedIn: true,
      account: session.accountId,
      address: session.address,
      expiresAt: new Date(session.expiresAt).toISOString(),
      ...limitsOf(account.plan),
    };
  };

  const apiRouter = new Router({ prefix: '/account/api' });
  apiRouter.use(deps.limit);
  apiRouter.get(
    '/limits',
    api(async () => ({
      anonymous: { perMinute: config.RATE_LIMIT_ANON_PER_MIN },
      plans: PLAN_NAMES.map((p) => ({ plan: p, label: p[0]!.toUpperCase() + p.slice(1), ...planLimits(config, p) })),
      plansEnforced: config.PLANS_ENFORCED,
      pnl: { anonymousPerMinute: config.RATE_LIMIT_PNL_ANON_PER_MIN, keyPerMinute: config.RATE_LIMIT_PNL_KEY_PER_MIN },
      rateLimits: config.RATE_LIMITS,
    })),
  );
  apiRouter.post(
    '/nonce',
    api(async (ctx) => signIn.issueNonce((await readJson(ctx)).address)),
  );
  apiRouter.post(
    '/session',
    api(async (ctx) => {
      const { token, session } = await signIn.createSession(await readJson(ctx));
      setCookie(ctx, token, Math.floor(SESSION_TTL_MS / 1000));
      return sessionAnswer(session);
    }),
  );
  apiRouter.post(
    '/logout',
    api(async (ctx) => {
      await signIn.endSession(ctx.cookies.get(COOKIE));
      setCookie(ctx, '', 0);
      return { ok: true };
    }),
  );
  apiRouter.get(
    '/me',
    api(async (ctx) => {
      // Not an error when signed out: the page asks on every load and a 401 would be noise in the console.
      const session = await signIn.resolveSession(ctx.cookies.get(COOKIE));
      if (!session) return { signedIn: false };
      return sessionAnswer(session);
    }),
  );
  apiRouter.get(
    '/keys',
    api(async (ctx) => ({ items: await registry.list((await requireSession(ctx)).accountId) })),
  );
  apiRouter.post(
    '/keys',
    api(async (ctx) => {
      const session = await requireSession(ctx);
      const { key, view } = await registry.create(session.accountId, (await readJson(ctx)).name, MAX_LIVE_KEYS);
      ctx.status = 201;
      return { key, ...view, note: 'Copy the key now: it is shown only once.' };
    }),
  );
  apiRouter.delete(
    '/keys/:id',
    api(async (ctx) => {
      const session = await requireSession(ctx);
      return registry.revoke(String(ctx.params.id), session.accountId);
    }),
  );

  router.use(apiRouter.routes(), apiRouter.allowedMethods());
  return router;
}
