/**
 * Reads the JSON body of a POST to the tool server before the access layer runs, for one reason: the expensive-call
 * limit of `get_wallet_pnl` is applied by the access layer from the `Mcp-Name` header, which revision 2026-07-28
 * requires but the older revisions' clients (and the short form) never send. For a legacy request (no 2026-07-28
 * version in the header or `_meta`) whose body calls a tool, the header is set from the body (a header the caller
 * sent is replaced: the older revisions never check it), so the limit applies to every revision alike. Of a modern
 * request only a header in SEP-2243's Base64 form is replaced, by the name it encodes (as the SDK reads it); a
 * missing or mismatched header there is the caller's error (-32020), reported by the SDK.
 *
 * The parsed body is kept in `ctx.state.mcpBody` and handed to the SDK, so the stream is read once. A body that is
 * not JSON gets the JSON-RPC parse error (-32700) here; a non-JSON content type is left for the SDK (415).
 */
import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';

export const MODERN_REVISION = '2026-07-28';
const MAX_BODY = 4 * 1024 * 1024;
/**
 * Nesting levels a message may have. A JSON-RPC message with tool arguments and `_meta` nests a few levels; a body
 * like `[[[…]]]` 100,000 deep parses, but every later walk of it (the answer cache's key, the SDK's copies) overflows
 * the stack, after the request was handed to the SDK's raw response: the caller got no answer at all.
 */
export const MAX_DEPTH = 100;

/** Whether a parsed JSON value nests deeper than `max` arrays/objects (walked without recursion). */
export function nestsDeeper(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [v, depth] = next;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** A body's JSON value; null when it is not JSON or nests deeper than MAX_DEPTH (`deep` says which). */
export function parseMcpJson(bytes: Buffer): { value: unknown } | { deep: boolean } {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return { deep: false };
  }
  return nestsDeeper(value, MAX_DEPTH) ? { deep: true } : { value };
}
const VERSION_META = 'io.modelcontextprotocol/protocolVersion';

const BASE64_SENTINEL = /^=\?base64\?(.*)\?=$/;
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * A 2026-07-28 header value as the SDK reads it (SEP-2243): `=?base64?…?=` stands for the UTF-8 text of its canonical
 * Base64 payload, any other value for itself. null when the payload is not canonical Base64 of UTF-8 text (the SDK
 * refuses such a request).
 */
export function decodeHeaderValue(value: string): string | null {
  const sentinel = BASE64_SENTINEL.exec(value);
  if (!sentinel) return value;
  const b64 = sentinel[1] as string;
  if (!CANONICAL_BASE64.test(b64)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(b64, 'base64'));
  } catch {
    return null;
  }
}

interface RpcMessage {
  method?: unknown;
  params?: { name?: unknown; _meta?: Record<string, unknown> };
}

/**
 * The tool a legacy message list calls (get_wallet_pnl first, as the one with its own limit) and how many of its
 * calls are get_wallet_pnl (a batch may hold several); null when it calls none or is a 2026-07-28 message.
 */
export function legacyToolCalls(body: unknown): { name: string; pnlCalls: number } | null {
  const messages = (Array.isArray(body) ? body : [body]) as RpcMessage[];
  let name: string | null = null;
  let pnlCalls = 0;
  for (const m of messages) {
    if (!m || typeof m !== 'object') continue;
    if (m.params?._meta?.[VERSION_META] !== undefined) return null;
    if (m.method !== 'tools/call' || typeof m.params?.name !== 'string') continue;
    if (m.params.name === 'get_wallet_pnl') pnlCalls++;
    if (name === null || m.params.name === 'get_wallet_pnl') name = m.params.name;
  }
  return name === null ? null : { name, pnlCalls };
}

/**
 * Bodies the replay fast path (api/fast-replay.ts) read from the stream before handing the request to Koa: the
 * bytes, or null when they passed MAX_BODY. `readMcpBody` takes them from here instead of the spent stream.
 */
const preRead = new WeakMap<IncomingMessage, Buffer | null>();

/** The request's body, read once: by the fast path before Koa runs, or by `readMcpBody`. */
export async function readMcpBytes(req: IncomingMessage): Promise<Buffer | null> {
  const kept = preRead.get(req);
  if (kept !== undefined) return kept;
  const bytes = await readBody(req, MAX_BODY);
  preRead.set(req, bytes);
  return bytes;
}

/**
 * The request body, or null past `max` bytes: at once when its stated length is past it (as the SDK refuses one,
 * nothing read), else once that much has arrived. The rest is left unread (the 413 closes the connection).
 */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | null> {
  if (Number(req.headers['content-length']) > max) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > max) {
        done();
        resolve(null);
      } else chunks.push(c);
    };
    const onEnd = () => {
      done();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (e: Error) => {
      done();
      reject(e);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

export function readMcpBody(): Koa.Middleware {
  return async (ctx, next) => {
    // Read already (the access layer reads it after its limits; the app's own reader follows it).
    if (ctx.state.mcpBody !== undefined) return next();
    if (ctx.method !== 'POST' || !ctx.is('application/json')) return next();
    // A compressed body (Content-Encoding: gzip, br, …) is JSON this server does not decode: read as is, it was
    // answered "the body is not JSON" (−32700), which sent the caller looking for a fault in JSON it had right.
    // As RFC 9110 15.5.16 says for a content coding not supported: 415, with the codings taken (Accept-Encoding).
    const coding = ctx.get('content-encoding').trim().toLowerCase();
    if (coding !== '' && coding !== 'identity') {
      ctx.status = 415;
      ctx.set('Accept-Encoding', 'identity');
      ctx.body = {
        jsonrpc: '2.0',
        error: {
          code: -32000,
          message: `Unsupported Media Type: the body is sent with Content-Encoding ${coding}, which the tool server does not decode; send it uncompressed.`,
        },
        id: null,
      };
      return;
    }
    const bytes = await readMcpBytes(ctx.req);
    if (!bytes) {
      // As the SDK answers a body over its 4 MiB (its toNodeHandler; api/mcp/node-adapter.ts for the bodies the SDK
      // reads itself): a JSON-RPC error a client can read, and the connection closed rather than the rest of the body
      // read and discarded. A bare `{ error }` here made the same endpoint answer the same mistake in two forms by
      // Content-Type, the JSON one without the `error.message` a JSON-RPC client reads.
      ctx.status = 413;
      ctx.set('Connection', 'close');
      ctx.body = {
        jsonrpc: '2.0',
        error: { code: -32000, message: `Payload Too Large: Request body must not exceed ${MAX_BODY} bytes` },
        id: null,
      };
      return;
    }
    const json = parseMcpJson(bytes);
    if (!('value' in json)) {
      // As the SDK answers it (JSON-RPC parse error); the stream is consumed, so it cannot be handed on.
      ctx.status = 400;
      ctx.body = {
        jsonrpc: '2.0',
        error: json.deep
          ? { code: -32600, message: `Invalid Request: the body nests deeper than ${MAX_DEPTH} levels.` }
          : { code: -32700, message: 'Parse error: the body is not JSON.' },
        id: null,
      };
      return;
    }
    const parsed = json.value;
    ctx.state.mcpBody = parsed;
    // The older revisions neither need nor check Mcp-Name: the body, not a header the caller sent, says which tool
    // a legacy request calls (a header naming another tool must not slip a PnL call past its limit).
    if (ctx.get('mcp-protocol-version') !== MODERN_REVISION) {
      const calls = legacyToolCalls(parsed);
      if (calls) {
        ctx.req.headers['mcp-name'] = calls.name;
        ctx.state.mcpPnlCalls = calls.pnlCalls;
      }
    } else {
      // A 2026-07-28 client may send Mcp-Name in its Base64 form, which the SDK decodes before matching it with the
      // body: the access layer reads the name it stands for (`=?base64?Z2V0X3dhbGxldF9wbmw=?=` is get_wallet_pnl,
      // and its limit applies). A value that does not decode is left for the SDK to refuse (−32020).
      const name = ctx.get('mcp-name');
      const plain = decodeHeaderValue(name);
      if (plain !== null && plain !== name) ctx.req.headers['mcp-name'] = plain;
    }
    return next();
  };
}
