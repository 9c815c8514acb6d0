/**
 * The tool server at `{site_url}/api/mcp` (Streamable HTTP, stateless) and its card at `/api/mcp/server-card`.
 *
 * - One `createMcpHandler` serves revision 2026-07-28 (per-request `_meta` envelope, MCP-Protocol-Version,
 *   Mcp-Method and Mcp-Name headers, server/discover) and, through its stateless legacy fallback, 2025-11-25,
 *   2025-06-18 and 2025-03-26 (initialize, or the short form: a single tools/call). Its factory builds a fresh
 *   McpServer for every request: no server instance, session or result is shared between callers.
 * - Koa hands the raw Node request/response to the SDK (`ctx.respond = false`), so headers set by the middleware
 *   before (request id, CORS, rate-limit headers) are kept and SSE answers are never buffered or compressed.
 * - DNS-rebinding guard: a request carrying an `Origin` header must come from the site itself or from a loopback
 *   origin; other browser origins get 403 (non-browser clients send no Origin and are unaffected).
 */
import Router from '@koa/router';
import { createMcpHandler, localhostAllowedOrigins, validateOriginHeader } from '@modelcontextprotocol/server';
import type Koa from 'koa';
import type { ApiDeps } from '../deps.js';
import { syncGate } from '../sync-guard.js';
import { CHECKPOINTS } from '../../mongo/collections/sync-state.js';
import { nodeMcpHandler } from './node-adapter.js';
import { markReplayable } from '../fast-replay.js';
import { idTail, ReplayCache, replayCall, type KeptAnswer, type ReplayCall } from './replay.js';
import { compress, MIN_COMPRESS_BYTES, preferredCoding } from '../compress.js';
import { answerWithTail } from '../compress-tail.js';
import { withoutCancelledRequests } from './cancel.js';
import { legacyAccept } from './accept.js';
import { MODERN_REVISION } from './body.js';
import { revisionRefusal } from './revision.js';
import { buildMcpServer, gatedPath, resultCheckpoint } from './server.js';
import { serverCard } from './server-card.js';

export const MCP_PATH = '/api/mcp';

/**
 * The DNS-rebinding guard's test of a browser's `Origin`: the site itself or a loopback origin. The tool server
 * answers other origins 403, and its CORS preflight grants them nothing, so a browser is not told it may send what
 * the endpoint then refuses.
 */
export function mcpOriginAllowed(siteUrl: string): (origin: string) => boolean {
  const allowed = [...localhostAllowedOrigins(), new URL(siteUrl).hostname];
  return (origin) => validateOriginHeader(origin, allowed).ok;
}

/** The tool name of a body that is one `tools/call` request (not a batch), else null. */
export function singleToolCall(body: unknown): string | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const m = body as { method?: unknown; params?: { name?: unknown } };
  return m.method === 'tools/call' && typeof m.params?.name === 'string' ? m.params.name : null;
}

/**
 * The answer about to be sent is one the tool-server cache keeps (or replays) until `expires`: the node:http fast
 * path (api/fast-replay.ts) may keep it too (its bytes but the JSON-RPC id, and their compressed forms), for its
 * anonymous callers.
 */
function fastReplayable(ctx: Koa.Context, cp: string, answer: KeptAnswer): void {
  markReplayable(ctx.res, {
    cp,
    expires: answer.expires,
    route: ctx._matchedRoute,
    tool: { kept: answer.kept, coded: answer.coded },
  });
}

type Sent = { headers: Record<string, string>; bytes: Buffer };

/**
 * A kept answer with the caller's id written in, in the coding the caller prefers: the kept part is compressed once
 * per entry (api/compress-tail.ts), and only the id is added per request.
 */
function keptRepresentation(ctx: Koa.Context, answer: KeptAnswer, call: ReplayCall): Sent {
  if (answer.kept.length >= MIN_COMPRESS_BYTES) ctx.vary('Accept-Encoding');
  const { bytes, coding } = answerWithTail(answer.kept, answer.coded, idTail(call.id), preferredCoding(ctx));
  const headers: Record<string, string> = { ...answer.headers, 'content-length': String(bytes.length) };
  if (coding) headers['content-encoding'] = coding;
  return { headers, bytes };
}

/**
 * A JSON answer no cache keeps (tools/list, an error, a call with the cache window off), compressed for this
 * request when it is 1 KB or more and the client accepts br or gzip; undefined: sent as it is.
 */
function wholeRepresentation(ctx: Koa.Context, headers: Record<string, string>, bytes: Buffer): Sent | undefined {
  if (bytes.length < MIN_COMPRESS_BYTES || !(headers['content-type'] ?? '').startsWith('application/json')) return;
  ctx.vary('Accept-Encoding');
  const coding = preferredCoding(ctx);
  if (!coding) return;
  const body = compress(bytes, coding);
  return {
    headers: { ...headers, 'content-encoding': coding, 'content-length': String(body.length) },
    bytes: body,
  };
}

const UNFETCHABLE_METHODS = new Set(['CONNECT', 'TRACE']);

export function mcpRouter(deps: ApiDeps): Router {
  const gate = syncGate({ store: deps.store });
  const onerror = (e: Error) => deps.log.debug({ err: e }, 'mcp request rejected');
  // The tool a request's body calls when it is a single tools/call (either era), by the Request the SDK hands the
  // factory: that request's server registers just that tool.
  const calls = new WeakMap<object, string>();
  const handler = createMcpHandler(
    ({ requestInfo }) => buildMcpServer(deps, requestInfo ? calls.get(requestInfo) : null, gate),
    {
      legacy: 'stateless',
      responseMode: 'auto',
      onerror,
    },
  );
  const node = nodeMcpHandler(
    {
      fetch: (request, options) => {
        const name = singleToolCall(options?.parsedBody);
        if (name) calls.set(request, name);
        return handler.fetch(request, options);
      },
    },
    onerror,
  );
  const ttl = deps.cacheMs ?? 0;
  const replay = ttl > 0 ? new ReplayCache(ttl) : null;
  const checkpoints = deps.store.collection(CHECKPOINTS);
  const originAllowed = mcpOriginAllowed(deps.config.SITE_URL);
  const card = serverCard(deps.config.SITE_URL);

  const router = new Router();
  const serve = async (ctx: Koa.Context) => {
    // Methods a fetch Request cannot carry (the SDK's transport is built on one): 405 like any other method the
    // endpoint does not take, never the adapter's 500.
    if (UNFETCHABLE_METHODS.has(ctx.method)) {
      ctx.status = 405;
      ctx.set('Allow', 'POST');
      ctx.body = { error: `method ${ctx.method} is not allowed on the tool server: send JSON-RPC with POST` };
      return;
    }
    const origin = ctx.get('origin');
    if (origin && !originAllowed(origin)) {
      ctx.status = 403;
      ctx.body = { error: `Origin ${origin} is not allowed to call the tool server.` };
      return;
    }
    const body: unknown = ctx.state.mcpBody;
    // What the MCP-Protocol-Version header allows (a batch; a revision not served), where the SDK's answer is wrong
    // or unclear (api/mcp/revision.ts).
    const refusal = body === undefined ? null : revisionRefusal(ctx.get('mcp-protocol-version') || undefined, body);
    if (refusal) {
      ctx.status = refusal.status;
      ctx.body = refusal.body;
      return;
    }
    // An older revision's Accept that takes both answer types by HTTP's rules, in the literal form the SDK reads.
    if (ctx.get('mcp-protocol-version') !== MODERN_REVISION) {
      const accept = legacyAccept(ctx.get('accept') || undefined);
      if (accept) ctx.req.headers.accept = accept;
    }
    let call: ReplayCall | null = null;
    let tag = '-';
    if (replay && body !== undefined) {
      const cp = await checkpoints.get('sync');
      tag = cp ? `${cp.height}:${cp.id}` : '-';
      call = replayCall(ctx.req.headers, body, tag);
      const hit = call && replay.get(call, Date.now());
      if (call && hit && !(await gate.withheld(gatedPath(call.tool)))) {
        fastReplayable(ctx, tag, hit);
        const sent = keptRepresentation(ctx, hit, call);
        ctx.respond = false;
        ctx.res.writeHead(hit.status, sent.headers).end(sent.bytes);
        return;
      }
    }
    const kept = call;
    // Only from here does the SDK write the raw response: anything thrown before is Koa's error answer, never a
    // request left without one.
    ctx.respond = false;
    // The checkpoint the tool's result was read at (api/mcp/server.ts): kept for replay under `tag` only when it is
    // that checkpoint.
    const read: { tag: string | null } = { tag: null };
    await resultCheckpoint.run(read, () =>
      node(
        ctx.req,
        ctx.res,
        // A request a cancellation of its own batch names is dropped, or the SDK never ends the batch's stream.
        body === undefined ? undefined : { value: withoutCancelledRequests(body) },
        (status, headers, bytes) => {
          const answer =
            replay && kept && read.tag === tag ? replay.offer(kept, status, headers, bytes, Date.now()) : null;
          if (!answer || !kept) return wholeRepresentation(ctx, headers, bytes);
          fastReplayable(ctx, tag, answer);
          return keptRepresentation(ctx, answer, kept);
        },
      ),
    );
  };
  router.all(MCP_PATH, serve);
  router.all(`${MCP_PATH}/`, serve);
  router.get(`${MCP_PATH}/server-card`, (ctx) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Cache-Control', 'public, max-age=300'); // as every discovery file
    ctx.etag = card.etag;
    ctx.type = 'application/mcp-server-card+json';
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = card.body;
  });
  return router;
}
