/**
 * The replay fast path. A GET that the REST micro-cache (api/micro-cache.ts) or the Markdown views' cache
 * (api/md/respond.ts) answered with 200 is kept as the whole HTTP answer it became — status, headers, bytes — for
 * the rest of that cache window, and an identical later request from a caller without a key is answered from it
 * at node:http, before Koa builds a context and runs the middleware chain. That chain costs several times what the
 * answer itself costs for a small cached answer (request id, security headers, metrics, access log, CORS, limits,
 * sync gate, negotiation, the cache's own lookup, each a promise deep).
 *
 * What a replay still does per request, the same way the chain does it:
 * - the sync checkpoint is read and must be the one the answer was read at (a new block or a rollback changes it:
 *   no answer outlives the chain state it came from), and the sync gate must not withhold the path;
 * - the anonymous per-minute limit of the surface is counted in the same window (AccessLayer.anonymous); the last
 *   requests of a window, every 429, the wallet PnL call and Redis-shared counters take the full chain;
 * - a fresh X-Request-Id (or the caller's sane one), the HTTP metric under the route pattern, the access log line.
 *
 * "Identical" means every request header that chooses the answer: the URL, Accept (Markdown negotiation),
 * Accept-Encoding (the compressed representation) and Origin (CORS). Requests with a key (x-api-key,
 * Authorization), a condition (If-None-Match, If-Modified-Since), or any other method take the full chain.
 *
 * The tool server's replayed answers (api/mcp/replay.ts) take the same path: a 2026-07-28 `tools/call` POST from a
 * caller without a key is read here, and when its tool-server cache key (the body but its JSON-RPC id, the headers
 * the SDK reads, the sync checkpoint) has a kept answer, that answer goes out with the caller's id written in, after
 * the same checks (the sync gate of the tool's documents, the anonymous limit of the tool server). The Origin guard
 * needs no rerun: Origin is part of the key, and an answer kept for an origin passed the guard, which depends on the
 * configuration only. The wallet PnL tool (its own limit) and legacy revisions (streamed answers) take the full
 * chain, which then reads the body already read here (api/mcp/body.ts).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { checkpointTag } from '../mongo/collections/sync-state.js';
import type { Store } from '../mongo/store.js';
import { requestIp } from './access/limits.js';
import type { AccessLayer } from './deps.js';
import type { Metrics } from './metrics/index.js';
import { SANE_REQUEST_ID } from './middleware.js';
import { MODERN_REVISION, parseMcpJson, readMcpBytes } from './mcp/body.js';
import { idTail, replayCall, type ReplayCall } from './mcp/replay.js';
import { answerWithTail, type TailCoded } from './compress-tail.js';
import { preferredCodingOf } from './compress.js';
import { gatedPath } from './mcp/server.js';
import { ResponseCache } from './response-cache.js';
import type { SyncGate } from './sync-guard.js';
import { isLogoPath } from './logo-path.js';

/** What the answering cache says about an answer it served: replayable until `expires`, read at checkpoint `cp`. */
export interface ReplayMark {
  cp: string;
  /** Wall-clock unix ms: the answering cache's own window end. */
  expires: number;
  /** The route pattern that answered (`_matchedRoute`), for the HTTP metric of each replay. */
  route: unknown;
  /**
   * A tool-server answer: its bytes without the JSON-RPC id of the call it answered (`,"id":…}`) and their
   * compressed forms (api/compress-tail.ts). The answer sent may be compressed; it is kept as these, without its
   * Content-Length and Content-Encoding, and each replay writes in its caller's id in the coding that caller takes.
   */
  tool?: { kept: Buffer; coded: TailCoded };
}

const marks = new WeakMap<ServerResponse, ReplayMark>();

/** Called by a cache that answered 200 from bytes it keeps for a window; the fast path may then keep the answer. */
export function markReplayable(res: ServerResponse, mark: ReplayMark): void {
  marks.set(res, mark);
}

interface Kept extends ReplayMark {
  /** The answer's headers as a flat name/value list, without the per-request ones. */
  headers: string[];
}

/** Headers each answer has its own of: set again per replay (or by node: Date, Connection, Keep-Alive). */
const PER_REQUEST = new Set([
  'x-request-id',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-daily-remaining',
  'retry-after',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

export interface FastReplayDeps {
  store: Store;
  log: Logger;
  gate: SyncGate;
  metrics: Metrics;
  access?: AccessLayer;
  trustProxy: boolean;
  clock?: () => number;
  maxEntries?: number;
  maxBytes?: number;
}

const JSON_TYPE = /^application\/json\s*(?:;|$)/i;

/**
 * The largest tool-server body the fast path reads (a replayable call is one small `tools/call`, a few hundred
 * bytes). It reads a body before the limit counts the request, so a burst from one IP had every body of up to 4 MiB
 * parsed before its window refused any; larger bodies, and those of unstated length, take the middleware chain,
 * which reads a body only once the limits let it through.
 */
const REPLAY_MAX_BODY = 16 * 1024;

/**
 * A tool-server POST the fast path may replay: revision 2026-07-28 (whose `tools/call` answers are JSON, the only
 * ones kept), no key, a JSON body of a stated length up to REPLAY_MAX_BODY, and a tool other than the wallet PnL
 * (its own limit, counted by the full chain).
 */
function mcpReplayable(req: IncomingMessage): boolean {
  if (req.method !== 'POST' || (req.url !== '/api/mcp' && req.url !== '/api/mcp/')) return false;
  const h = req.headers;
  if (h['x-api-key'] || h.authorization || h['mcp-protocol-version'] !== MODERN_REVISION) return false;
  if (!(Number(h['content-length']) <= REPLAY_MAX_BODY)) return false;
  const tool = h['mcp-name'];
  if (typeof tool !== 'string' || tool === 'get_wallet_pnl') return false;
  // The media type readMcpBody reads (Koa's `is('application/json')`); any other is left unread for the SDK.
  return JSON_TYPE.test(h['content-type'] ?? '');
}

/**
 * The tool-server cache key of a body (api/mcp/replay.ts), or null: not JSON (the full chain answers the parse
 * error), not one `tools/call`, or its Mcp-Name header names another tool (the SDK refuses it, -32020).
 */
function mcpCallOf(req: IncomingMessage, bytes: Buffer, checkpoint: string): ReplayCall | null {
  // Not JSON, or nested too deep to key: the full chain answers its 400.
  const json = parseMcpJson(bytes);
  if (!('value' in json)) return null;
  const call = replayCall(req.headers, json.value, checkpoint);
  return call && call.tool === req.headers['mcp-name'] ? call : null;
}

/** Which anonymous limit a request counts against, or null when it cannot be replayed at all. */
function replayableSurface(req: IncomingMessage): 'rest' | 'md' | null {
  if (req.method !== 'GET') return null;
  const h = req.headers;
  if (h['x-api-key'] || h.authorization || h['if-none-match'] || h['if-modified-since']) return null;
  const url = req.url ?? '';
  if (url.startsWith('/api/v1/')) return isLogoPath(url) ? null : 'rest';
  if (url.startsWith('/api/md/')) return 'md';
  return null;
}

/** Wraps the Koa app's request handler: replays what it can, hands everything else to `full` (and learns from it). */
export function fastReplay(deps: FastReplayDeps, full: Handler): Handler {
  const clock = deps.clock ?? Date.now;
  const cache = new ResponseCache<Kept>(deps.maxEntries ?? 5_000, deps.maxBytes ?? 64 * 1024 * 1024, clock);

  /**
   * Answers from `kept` and returns true, or returns false having sent nothing and counted nothing. `mcp`: the
   * tool called and the caller's JSON-RPC id tail (its answer's checkpoint is part of the cache key).
   */
  const replay = async (
    req: IncomingMessage,
    res: ServerResponse,
    surface: 'rest' | 'md' | 'mcp',
    url: string,
    kept: { bytes: Buffer; meta: Kept },
    started: number,
    mcp?: { tool: string; tail: Buffer },
  ): Promise<boolean> => {
    const { meta } = kept;
    if (meta.expires <= clock() || (await checkpointTag(deps.store)) !== meta.cp) return false;
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (await (mcp ? deps.gate.withheld(gatedPath(mcp.tool)) : deps.gate.withheldAt(path))) return false;
    let limits: [string, string][] = [];
    if (deps.access) {
      // An access layer that cannot count a request here (no `anonymous`) has every request take its middleware.
      const spent = await deps.access.anonymous?.(surface, requestIp(req, deps.trustProxy) || 'unknown', url);
      if (!spent) return false;
      limits = spent;
    }
    const inbound = req.headers['x-request-id'];
    const reqId = typeof inbound === 'string' && SANE_REQUEST_ID.test(inbound) ? inbound : randomUUID();
    const headers = meta.headers.concat('X-Request-Id', reqId);
    for (const [name, value] of limits) headers.push(name, value);
    let bytes = kept.bytes;
    if (mcp) {
      const sent = answerWithTail(bytes, meta.tool?.coded ?? {}, mcp.tail, preferredCodingOf(req));
      bytes = sent.bytes;
      headers.push('Content-Length', String(bytes.length));
      if (sent.coding) headers.push('Content-Encoding', sent.coding);
    }
    res.writeHead(200, headers);
    res.end(bytes);
    const seconds = (performance.now() - started) / 1000;
    const method = mcp ? 'POST' : 'GET';
    deps.metrics.answered(path, meta.route, method, 200, seconds);
    deps.log.info({ reqId, method, path, status: 200, ms: Math.round(seconds * 100_000) / 100 }, 'request');
    return true;
  };

  /** Keeps the answer the full chain sends, when the cache that produced it marked it replayable. */
  const learn = (res: ServerResponse, key: string) => {
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.end = ((...args: unknown[]) => {
      const mark = marks.get(res);
      const body = args[0];
      if (mark && res.statusCode === 200 && Buffer.isBuffer(body) && !res.hasHeader('set-cookie')) {
        const headers: string[] = [];
        for (const name of (res as ServerResponse & { getRawHeaderNames(): string[] }).getRawHeaderNames()) {
          const value = res.getHeader(name);
          const lower = name.toLowerCase();
          if (value === undefined || PER_REQUEST.has(lower)) continue;
          if (mark.tool && (lower === 'content-length' || lower === 'content-encoding')) continue;
          for (const v of Array.isArray(value) ? value : [value]) headers.push(name, String(v));
        }
        cache.setBytes(key, mark.tool ? mark.tool.kept : body, { ...mark, headers });
      }
      return end(...args);
    }) as ServerResponse['end'];
  };

  /** A kept answer exists: replay it, or (stale, withheld, near a limit, failed) answer in full and learn. */
  const replayOrFull = async (
    req: IncomingMessage,
    res: ServerResponse,
    surface: 'rest' | 'md',
    key: string,
    kept: { bytes: Buffer; meta: Kept },
    started: number,
  ) => {
    try {
      if (await replay(req, res, surface, req.url ?? '', kept, started)) return;
    } catch (err) {
      // Nothing was sent (every await precedes writeHead): the full chain answers, errors included.
      deps.log.warn({ err }, 'replay failed; answering in full');
      if (res.headersSent) return;
    }
    learn(res, key);
    await full(req, res);
  };

  /**
   * A tool call: its body read, then replayed when its cache key has a kept answer, else answered in full (the full
   * chain takes the body read here) and learned from.
   */
  const mcpCall = async (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    // A caller over its limit: the full chain answers its 429 without the body being read.
    if (deps.access?.anonymousSpent?.('mcp', requestIp(req, deps.trustProxy) || 'unknown')) return full(req, res);
    let bytes: Buffer | null;
    try {
      bytes = await readMcpBytes(req);
    } catch {
      // The client's stream broke before its body ended: there is no request to answer.
      req.destroy();
      return;
    }
    try {
      const call = bytes && mcpCallOf(req, bytes, await checkpointTag(deps.store));
      if (call) {
        const key = `mcp\n${call.key}`;
        const kept = cache.peek(key);
        const mcp = { tool: call.tool, tail: idTail(call.id) };
        if (kept && (await replay(req, res, 'mcp', req.url ?? '', kept, started, mcp))) return;
        learn(res, key);
      }
    } catch (err) {
      // Nothing was sent (every await precedes writeHead): the full chain answers, errors included.
      deps.log.warn({ err }, 'replay failed; answering in full');
      if (res.headersSent) return;
    }
    return full(req, res);
  };

  // No closure is made per request on this path: under tsx each one is also named at creation (keepNames).
  return (req, res) => {
    if (mcpReplayable(req)) return mcpCall(req, res);
    const surface = replayableSurface(req);
    if (!surface) return full(req, res);
    const started = performance.now();
    const h = req.headers;
    const key = `${req.url ?? ''}\n${h.accept ?? ''}\n${h['accept-encoding'] ?? ''}\n${h.origin ?? ''}`;
    const kept = cache.peek(key);
    if (kept) return replayOrFull(req, res, surface, key, kept, started);
    learn(res, key);
    return full(req, res);
  };
}
