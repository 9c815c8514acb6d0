/**
 * The tool server's answer cache, the counterpart of the REST micro-cache (api/micro-cache.ts): the bytes of a
 * successful 2026-07-28 `tools/call` answer are replayed for `deps.cacheMs` (API_CACHE_MS) to a request that is
 * the same in everything the SDK reads (the body but its JSON-RPC id, the MCP and content headers) at the same sync
 * checkpoint, with the caller's id written in. Such a request gets the answer the SDK would give it: the SDK's
 * answer is a function of exactly those inputs and the tool's result, which is reused for the same window and
 * checkpoint anyway (api/mcp/server.ts). A replayed request builds no server; nothing but these public bytes is
 * kept between requests, and a request differing in any input (arguments, `_meta`, headers) is served afresh.
 *
 * Only answers the SDK sent as JSON with HTTP 200 and a result that is not `isError` are kept; access limits and
 * the Origin guard run before the cache, the sync gate on every replay.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { ResponseCache } from '../response-cache.js';

/** The request headers the SDK reads (createMcpHandler and its transports), in a fixed order. */
const KEY_HEADERS = [
  'accept',
  'authorization',
  'content-type',
  'host',
  'last-event-id',
  'mcp-method',
  'mcp-name',
  'mcp-protocol-version',
  'mcp-session-id',
  'origin',
];

export interface ReplayCall {
  /** The tool the body calls. */
  tool: string;
  id: string | number;
  key: string;
}

interface Kept {
  expires: number;
  status: number;
  headers: Record<string, string>;
}

/**
 * The cache key of a body that is one `tools/call` request with an id, or null (batches, notifications, other
 * methods and legacy requests, whose answers are event streams, are never replayed).
 */
export function replayCall(headers: IncomingHttpHeaders, body: unknown, checkpoint: string): ReplayCall | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const m = body as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: { name?: unknown } };
  if (m.jsonrpc !== '2.0' || m.method !== 'tools/call' || typeof m.params?.name !== 'string') return null;
  if (typeof m.id !== 'string' && typeof m.id !== 'number') return null;
  const parts = [checkpoint];
  for (const h of KEY_HEADERS) parts.push(String(headers[h] ?? ''));
  // Per-parameter headers a tool's input schema may declare (`Mcp-Param-*`, SEP-2243).
  for (const h of Object.keys(headers).sort()) if (h.startsWith('mcp-param-')) parts.push(`${h}=${String(headers[h])}`);
  parts.push(JSON.stringify({ ...m, id: null }));
  return { tool: m.params.name, id: m.id, key: parts.join('\n') };
}

/** The end of a JSON-RPC answer as the SDK writes it (`{ result, jsonrpc, id }`): the call's id and the brace. */
export const idTail = (id: string | number): Buffer => Buffer.from(`,"id":${JSON.stringify(id)}}`);

export class ReplayCache {
  private readonly cache = new ResponseCache<Kept>(2_000, 32 * 1024 * 1024);

  constructor(private readonly ttlMs: number) {}

  /** The answer to replay for `call`, its id written in, and the end of its window (unix ms), or undefined. */
  get(
    call: ReplayCall,
    now: number,
  ): { status: number; headers: Record<string, string>; bytes: Buffer; expires: number } | undefined {
    const hit = this.cache.entry(call.key);
    if (!hit || hit.meta.expires <= now) return undefined;
    const bytes = Buffer.concat([hit.bytes, idTail(call.id)]);
    return {
      status: hit.meta.status,
      headers: { ...hit.meta.headers, 'content-length': String(bytes.length) },
      bytes,
      expires: hit.meta.expires,
    };
  }

  /**
   * Keeps the SDK's answer to `call` when it is a 200 JSON result that is not isError and ends with the call's id
   * (the SDK writes `{ result, jsonrpc, id }`), and returns the end of its window (unix ms); anything else is not
   * kept (null).
   */
  offer(call: ReplayCall, status: number, headers: Record<string, string>, bytes: Buffer, now: number): number | null {
    if (status !== 200 || !(headers['content-type'] ?? '').startsWith('application/json')) return null;
    const tail = idTail(call.id);
    if (bytes.length <= tail.length || !bytes.subarray(bytes.length - tail.length).equals(tail)) return null;
    const answer = JSON.parse(bytes.toString('utf8')) as { result?: { isError?: unknown } };
    if (!answer.result || answer.result.isError === true) return null;
    const kept = { ...headers };
    delete kept['content-length'];
    const expires = now + this.ttlMs;
    this.cache.setBytes(call.key, Buffer.from(bytes.subarray(0, bytes.length - tail.length)), {
      expires,
      status,
      headers: kept,
    });
    return expires;
  }
}
