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
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, localhostAllowedOrigins, validateOriginHeader } from '@modelcontextprotocol/server';
import type Koa from 'koa';
import type { ApiDeps } from '../deps.js';
import { syncGate } from '../sync-guard.js';
import { buildMcpServer } from './server.js';
import { serverCard } from './server-card.js';

export const MCP_PATH = '/api/mcp';

export function mcpRouter(deps: ApiDeps): Router {
  const gate = syncGate({ store: deps.store });
  const handler = createMcpHandler(
    ({ era, requestInfo }) =>
      buildMcpServer(
        deps,
        era === 'modern' && requestInfo?.headers.get('mcp-method') === 'tools/call'
          ? requestInfo.headers.get('mcp-name')
          : null,
        gate,
      ),
    {
      legacy: 'stateless',
      responseMode: 'auto',
      onerror: (e) => deps.log.debug({ err: e.message }, 'mcp request rejected'),
    },
  );
  const node = toNodeHandler(handler);
  const allowedOrigins = [...localhostAllowedOrigins(), new URL(deps.config.SITE_URL).hostname];
  const card = serverCard(deps.config.SITE_URL);

  const router = new Router();
  const serve = async (ctx: Koa.Context) => {
    const origin = ctx.get('origin');
    if (origin && !validateOriginHeader(origin, allowedOrigins).ok) {
      ctx.status = 403;
      ctx.body = { error: `Origin ${origin} is not allowed to call the tool server.` };
      return;
    }
    ctx.respond = false;
    const body: unknown = ctx.state.mcpBody;
    await (body === undefined ? node(ctx.req, ctx.res) : node(ctx.req, ctx.res, body));
  };
  router.all(MCP_PATH, serve);
  router.all(`${MCP_PATH}/`, serve);
  router.get(`${MCP_PATH}/server-card`, (ctx) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Cache-Control', 'public, max-age=3600');
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
