/**
 * Bench hook: the access layer in the three modes `npm run bench` compares beside the bare baseline.
 *   off        RATE_LIMITS=false (keys are still checked; no limiter runs)
 *   anonymous  limits on, anonymous allowance raised so no request is refused: the per-IP limiter's cost
 *   keyed      limits on, a fresh key on an account whose plan limits are raised: key lookup (cached),
 *              per-key limiter and daily quota on every request
 * Send `headers` with every request of the run. From the environment the same modes are RATE_LIMITS=false,
 * RATE_LIMIT_ANON_PER_MIN=1000000, and PLAN_LIMITS=free=1000000/1000000000,… plus a key from
 * `npm run ops -- keys create <account>`.
 */
import type { Logger } from 'pino';
import type { Config } from '../../config/index.js';
import type { Store } from '../../mongo/store.js';
import { createAccess, type Access } from './index.js';

export type BenchAccessMode = 'off' | 'anonymous' | 'keyed';

const HIGH = { perMinute: 1_000_000, perDay: 1_000_000_000 };

export async function benchAccess(
  mode: BenchAccessMode,
  deps: { store: Store; config: Config; log: Logger },
): Promise<{ access: Access; config: Config; headers: Record<string, string> }> {
  const config: Config = {
    ...deps.config,
    RATE_LIMITS: mode !== 'off',
    RATE_LIMIT_ANON_PER_MIN: 1_000_000,
    PLAN_LIMITS: { free: HIGH, plus: HIGH, pro: HIGH },
  };
  const access = await createAccess({ store: deps.store, config, log: deps.log });
  if (mode !== 'keyed') return { access, config, headers: {} };
  const { key } = await access.registry.create('bench', 'bench');
  return { access, config, headers: { 'x-api-key': key } };
}

/**
 * CPU microseconds per request that the REST access middleware adds in `mode`, measured in process with
 * `process.cpuUsage` over `n` synthetic requests (a loaded machine stretches wall-clock figures, CPU time much
 * less). The baseline is the same loop with a pass-through middleware; the result is the difference.
 */
export async function accessCostPerRequest(
  mode: BenchAccessMode,
  deps: { store: Store; config: Config; log: Logger },
  n = 20_000,
): Promise<{ mode: BenchAccessMode; cpuMicros: number; baselineMicros: number }> {
  const { default: Koa } = await import('koa');
  const http = await import('node:http');
  const net = await import('node:net');
  const app = new Koa();
  const b = await benchAccess(mode, deps);
  const make = () => {
    const req = new http.IncomingMessage(new net.Socket());
    req.url = '/api/v1/ping';
    req.method = 'GET';
    req.headers = { host: 'bench', ...b.headers };
    return app.createContext(req, new http.ServerResponse(req));
  };
  const noop = async () => {};
  const pass = async (_ctx: unknown, next: () => Promise<void>) => next();
  const cpu = async (mw: (ctx: ReturnType<typeof make>, next: () => Promise<void>) => Promise<unknown>) => {
    for (let i = 0; i < Math.min(2000, n); i++) await mw(make(), noop);
    const c0 = process.cpuUsage();
    for (let i = 0; i < n; i++) await mw(make(), noop);
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / n;
  };
  try {
    const baselineMicros = await cpu(pass);
    const total = await cpu(b.access.rest);
    return { mode, cpuMicros: Math.max(0, total - baselineMicros), baselineMicros };
  } finally {
    await b.access.close();
  }
}
