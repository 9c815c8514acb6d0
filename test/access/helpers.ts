/**
 * Shared pieces of the access tests: a minimal Koa app with the access layer in front of dummy routes of each
 * surface (so these tests do not depend on the real routers), a log capture, a wallet that signs CIP-30 `signData`
 * with a real Ed25519 key, and a tiny HTTP client.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Router from '@koa/router';
import { ed25519 } from '@noble/curves/ed25519.js';
import { bech32, hex } from '@scure/base';
import Koa from 'koa';
import { pino, type Logger } from 'pino';
import { createAccess, REDACT_HEADERS, type Access, type AccessDeps } from '../../api/access/index.js';
import { encodeCbor } from '../../api/access/cbor.js';
import { baseAddress, enterpriseAddress, keyHash, rewardAddress } from '../../cardano/address.js';
import { loadConfig, type Config } from '../../config/index.js';
import type { Store } from '../../mongo/store.js';

export const SITE = 'http://data.test';

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ SITE_URL: SITE, LOG_LEVEL: 'silent', ...env });
}

/** A logger whose lines (including every header-bearing object) are kept for assertions. */
export function captureLog(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString('utf8'));
      cb();
    },
  });
  const log = pino({ level: 'trace', redact: REDACT_HEADERS.map((h) => `req.headers["${h}"]`) }, sink);
  return { log, lines };
}

/** The app the access layer sits in, with one dummy route per surface, listening on a loopback port. */
export async function startTestApp(
  store: Store,
  config: Config,
  opts: { log?: Logger; now?: () => number; redis?: AccessDeps['redis'] } = {},
): Promise<{ url: string; access: Access; close(): Promise<void> }> {
  const log = opts.log ?? captureLog().log;
  const access = await createAccess({
    store,
    config,
    log,
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.redis ? { redis: opts.redis } : {}),
  });
  const app = new Koa();
  app.proxy = config.TRUST_PROXY;
  // The access log a real app writes: one line per request with the request headers (redacted by the logger).
  app.use(async (ctx, next) => {
    await next();
    log.info({ req: { method: ctx.method, url: ctx.url, headers: ctx.headers }, status: ctx.status }, 'request');
  });
  app.use(async (ctx, next) => {
    const p = ctx.path;
    // As in api/app.ts: the REST middleware sees the logo too (it checks a key there but never counts it).
    if (p.startsWith('/api/v1/')) return access.rest(ctx, next);
    if (p.startsWith('/api/md/')) return access.md(ctx, next);
    if (p === '/api/mcp') return access.mcp(ctx, next);
    return next();
  });
  const r = new Router();
  r.get('/api/v1/ping', (ctx) => {
    ctx.body = { ok: true };
  });
  r.get('/api/v1/wallet/:address/pnl', (ctx) => {
    ctx.body = { address: ctx.params.address, tradeCount: 0 };
  });
  r.get('/api/v1/assets/:unit/logo', (ctx) => {
    ctx.type = 'image/png';
    ctx.body = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
  });
  r.get('/api/md/x', (ctx) => {
    ctx.type = 'text/markdown';
    ctx.body = '# x\n';
  });
  r.post('/api/mcp', (ctx) => {
    ctx.body = { jsonrpc: '2.0', id: 1, result: {} };
  });
  app.use(r.routes());
  app.use(access.routes.routes()).use(access.routes.allowedMethods());
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    access,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await access.close();
    },
  };
}

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

export async function request(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body, text };
}

/** Fire `n` requests at once and return the answers. */
export const burst = (n: number, make: (i: number) => Promise<Answer>) =>
  Promise.all(Array.from({ length: n }, (_, i) => make(i)));

export const statuses = (answers: Answer[]) =>
  answers.reduce<Record<number, number>>((acc, a) => ({ ...acc, [a.status]: (acc[a.status] ?? 0) + 1 }), {});

/**
 * A CIP-30 wallet in miniature: real Ed25519 keys for the payment and stake parts of a mainnet base address, and
 * a `signData` that answers exactly as wallets do (COSE_Sign1 + COSE_Key, hex).
 */
export class TestWallet {
  readonly paymentSk = ed25519.utils.randomSecretKey();
  readonly stakeSk = ed25519.utils.randomSecretKey();
  readonly paymentVk = hex.encode(ed25519.getPublicKey(this.paymentSk));
  readonly stakeVk = hex.encode(ed25519.getPublicKey(this.stakeSk));
  readonly address = baseAddress('mainnet', keyHash(this.paymentVk), keyHash(this.stakeVk));
  readonly stakeAddress = rewardAddress('mainnet', keyHash(this.stakeVk));
  readonly enterprise = enterpriseAddress('mainnet', keyHash(this.paymentVk));

  static addressHex(bech: string): string {
    return hex.encode(bech32.fromWords(bech32.decode(bech as `${string}1${string}`, 1023).words));
  }

  /**
   * CIP-30 `signData(addr, payload)`: signs with the payment key for addr… and the stake key for stake…
   * `opts` bends the answer for the refusal tests (another key, another address in the header).
   */
  signData(
    addressHexOrBech: string,
    payloadHex: string,
    opts: { sk?: Uint8Array; headerAddressHex?: string; hashed?: boolean } = {},
  ): { signature: string; key: string } {
    const addrHex = /^[0-9a-f]+$/i.test(addressHexOrBech) ? addressHexOrBech : TestWallet.addressHex(addressHexOrBech);
    const isStake = (parseInt(addrHex.slice(0, 1), 16) & 0xe) === 0xe;
    const sk = opts.sk ?? (isStake ? this.stakeSk : this.paymentSk);
    const vk = ed25519.getPublicKey(sk);
    const protectedBytes = encodeCbor(
      new Map<string | number, number | Uint8Array>([
        [1, -8],
        ['address', hex.decode(opts.headerAddressHex ?? addrHex)],
      ]),
    );
    const payload = hex.decode(payloadHex);
    const sigStructure = encodeCbor(['Signature1', protectedBytes, new Uint8Array(0), payload]);
    const signature = ed25519.sign(sigStructure, sk);
    const sign1 = encodeCbor([protectedBytes, new Map([['hashed', opts.hashed ?? false]]), payload, signature]);
    const key = encodeCbor(
      new Map<number, number | Uint8Array>([
        [1, 1],
        [3, -8],
        [-1, 6],
        [-2, vk],
      ]),
    );
    return { signature: hex.encode(sign1), key: hex.encode(key) };
  }
}

/** Sign in through the HTTP API; returns the session cookie. */
export async function signInOverHttp(url: string, wallet: TestWallet, address = wallet.address): Promise<string> {
  const nonce = await request(`${url}/account/api/nonce`, { method: 'POST', body: { address } });
  if (nonce.status !== 200) throw new Error(`nonce: ${nonce.status} ${nonce.text}`);
  const n = nonce.body as { payload: string; nonce: string };
  const signed = wallet.signData(address, n.payload);
  const res = await fetch(`${url}/account/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ address, ...signed }),
  });
  if (res.status !== 200) throw new Error(`session: ${res.status} ${await res.text()}`);
  const cookie = res.headers.get('set-cookie') ?? '';
  return cookie.split(';')[0]!;
}
