/**
 * Serves the SDK's web-standard handler (`createMcpHandler(...).fetch`) on Node's request and response, as
 * `toNodeHandler` of `@modelcontextprotocol/node` does, with two costs of the per-request path left out:
 *
 * - The body was read and parsed once before the access layer (api/mcp/body.ts) and goes to the SDK as
 *   `parsedBody`, which the SDK then never reads from the Request (classification, both eras' transports). So the
 *   Request is built without a body, instead of re-serialising the parsed body into it. A request whose body was
 *   not read here (a GET, DELETE or non-JSON POST) is converted by `toWebRequest` with its body, as before.
 * - A JSON answer (every 2026-07-28 result that streams nothing) is written as one buffer with Content-Length, not
 *   chunk by chunk from the Response stream. Event streams (SSE) are relayed chunk by chunk with backpressure.
 *
 * Client disconnects abort the Request's signal (the SDK tears the exchange down) and stop a relayed stream.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toWebRequest } from '@modelcontextprotocol/node';

export interface WebHandler {
  fetch(request: Request, options?: { parsedBody?: unknown }): Promise<Response>;
}

/** The body already read and parsed (`value` may be any JSON value, null included). */
export interface ParsedBody {
  value: unknown;
}

/**
 * Sees each answer the SDK sends as one JSON buffer, just before it is sent (api/mcp/replay.ts keeps some), and may
 * send another representation of it instead (compressed: Content-Encoding and Content-Length in `headers`).
 */
export type JsonAnswerHook = (
  status: number,
  headers: Record<string, string>,
  bytes: Buffer,
) => { headers: Record<string, string>; bytes: Buffer } | void;

export type NodeMcpHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  body?: ParsedBody,
  onJson?: JsonAnswerHook,
) => Promise<void>;

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The Request the SDK reads when it is given the parsed body: method, URL, headers and the abort signal. */
function bodylessRequest(req: IncomingMessage, signal: AbortSignal): Request {
  // As toWebRequest does: from the parsed headers (which the access layer may have completed, api/mcp/body.ts),
  // HTTP/2 pseudo-headers (a leading colon) left out. A record is cheaper for undici to take than a Headers.
  const headers: Record<string, string> = {};
  for (const name in req.headers) {
    const value = req.headers[name];
    if (value === undefined || name.charCodeAt(0) === 58) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const host = one(req.headers.host) ?? one(req.headers[':authority']) ?? 'localhost';
  return new Request(`http://${host}${req.url ?? '/'}`, { method: req.method ?? 'POST', headers, signal });
}

/** The JSON-RPC id an adapter-level 500 echoes: the request's id when the body is one request, else null. */
function echoableId(body: ParsedBody | undefined): string | number | null {
  const v = body?.value as { method?: unknown; id?: unknown } | null | undefined;
  if (!v || typeof v !== 'object' || Array.isArray(v) || typeof v.method !== 'string') return null;
  return typeof v.id === 'string' || typeof v.id === 'number' ? v.id : null;
}

export function nodeMcpHandler(handler: WebHandler, onerror?: (e: Error) => void): NodeMcpHandler {
  return async (req, res, body, onJson) => {
    let finished = false;
    const abort = new AbortController();
    res.on('close', () => {
      if (!finished) abort.abort();
    });
    let response: Response;
    try {
      response = body
        ? await handler.fetch(bodylessRequest(req, abort.signal), { parsedBody: body.value })
        : await handler.fetch(await toWebRequest(req, undefined, { signal: abort.signal }));
    } catch (e) {
      if (e instanceof Error && e.name === 'RequestBodyTooLargeError') {
        // A body over the SDK's 4 MiB that toWebRequest refused (a POST of another media type, a DELETE: a JSON body
        // is read, and refused 413, by api/mcp/body.ts): the caller's error, 413 as the SDK's own toNodeHandler
        // answers it, and the connection closed rather than the rest of the body read. It was answered 500
        // "Internal server error", an error-level line for any client sending 5 MB of text/plain.
        response = Response.json(
          { jsonrpc: '2.0', error: { code: -32000, message: e.message }, id: null },
          { status: 413, headers: { connection: 'close' } },
        );
      } else {
        onerror?.(e instanceof Error ? e : new Error(String(e)));
        response = Response.json(
          { jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: echoableId(body) },
          { status: 500 },
        );
      }
    }
    let headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    // The SDK's own errors (405 to GET/DELETE, 400 to bad JSON, 406, 415) say nothing on caching: like every error
    // the middleware answers (api/middleware.ts), none is to be kept by a cache.
    if (response.status >= 400 && !headers['cache-control']) headers['cache-control'] = 'no-store';
    if (response.body === null) {
      finished = true;
      res.writeHead(response.status, headers).end();
      return;
    }
    if (!(headers['content-type'] ?? '').startsWith('text/event-stream')) {
      let bytes: Buffer = Buffer.from(await response.arrayBuffer());
      headers['content-length'] = String(bytes.length);
      finished = true;
      // Before the answer is sent: a hook that keeps it may mark it for the replay fast path, which learns at `end`.
      try {
        const sent = onJson?.(response.status, headers, bytes);
        if (sent) ({ headers, bytes } = sent);
      } catch (e) {
        onerror?.(e instanceof Error ? e : new Error(String(e)));
      }
      res.writeHead(response.status, headers).end(bytes);
      return;
    }
    res.writeHead(response.status, headers);
    const closed = new Promise<void>((resolve) =>
      abort.signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    let drained: (() => void) | undefined;
    res.on('drain', () => drained?.());
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await Promise.race([
          reader.read(),
          closed.then(() => ({ done: true, value: undefined })),
        ]);
        if (done || abort.signal.aborted) break;
        if (!res.write(value)) await Promise.race([new Promise<void>((resolve) => (drained = resolve)), closed]);
      }
    } catch {
      // The stream failed or the client left: end what was sent.
    } finally {
      finished = true;
      if (abort.signal.aborted) void reader.cancel().catch(() => {});
      res.end();
    }
  };
}
