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
import type { TailCoded } from '../compress-tail.js';
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

/** A kept answer: its bytes without the id tail, their compressed forms, and the end of its window (unix ms). */
export interface KeptAnswer {
  expires: number;
  status: number;
  /** The SDK's headers but Content-Length. */
  headers: Record<string, string>;
  kept: Buffer;
  /** The kept bytes compressed so far (api/compress-tail.ts): once per entry and coding, never per replay. */
  coded: TailCoded;
}

/** What the cache keeps beside the bytes. */
type Kept = Omit<KeptAnswer, 'kept'>;

/**
 * The cache key of a body that is one `tools/call` request with an id, or null (batches, notifications, other
 * methods and legacy requests, whose answers are event streams, are never replayed).
 */
export function replayCall(headers: IncomingHttpHeaders, body: unknown, checkpoint: string): ReplayCall | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const m = body as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: { name?: unknown } };
  if (m.jsonrpc !== '2.0' || m.method !== 'tools/call' || typeof m.params?.name !== 'string') return null;
  // Only an id the SDK takes (a string or a safe integer: its RequestIdSchema is string | int). It answers 400 to
  // any other (1.5, 1e21, 2^53 + 1, which parses to 2^53): replaying a kept answer under such an id answered 200 to
  // a request that, asked afresh, is refused, so the same request got 200 or 400 by whether another caller had just
  // asked the same.
  if (typeof m.id !== 'string' && !Number.isSafeInteger(m.id)) return null;
  const parts = [checkpoint];
  for (const h of KEY_HEADERS) parts.push(String(headers[h] ?? ''));
  // Per-parameter headers a tool's input schema may declare (`Mcp-Param-*`, SEP-2243).
  for (const h of Object.keys(headers).sort()) if (h.startsWith('mcp-param-')) parts.push(`${h}=${String(headers[h])}`);
  parts.push(JSON.stringify({ ...m, id: null }));
  return { tool: m.params.name, id: m.id as string | number, key: parts.join('\n') };
}

/** The end of a JSON-RPC answer as the SDK writes it (`{ result, jsonrpc, id }`): the call's id and the brace. */
export const idTail = (id: string | number): Buffer => Buffer.from(`,"id":${JSON.stringify(id)}}`);

export class ReplayCache {
  private readonly cache = new ResponseCache<Kept>(2_000, 32 * 1024 * 1024);

  constructor(private readonly ttlMs: number) {}

  /** The answer to replay for `call` (the caller's id tail is written in by the sender), or undefined. */
  get(call: ReplayCall, now: number): KeptAnswer | undefined {
    const hit = this.cache.entry(call.key);
    if (!hit || hit.meta.expires <= now) return undefined;
    return { ...hit.meta, kept: hit.bytes };
  }

  /**
   * Keeps the SDK's answer to `call` when it is a 200 JSON result that is not isError and ends with the call's id
   * (the SDK writes `{ result, jsonrpc, id }`), and returns what it keeps; anything else is not kept (null).
   */
  offer(
    call: ReplayCall,
    status: number,
    headers: Record<string, string>,
    bytes: Buffer,
    now: number,
  ): KeptAnswer | null {
    if (status !== 200 || !(headers['content-type'] ?? '').startsWith('application/json')) return null;
    const tail = idTail(call.id);
    if (bytes.length <= tail.length || !bytes.subarray(bytes.length - tail.length).equals(tail)) return null;
    const answer = JSON.parse(bytes.toString('utf8')) as { result?: { isError?: unknown } };
    if (!answer.result || answer.result.isError === true) return null;
    const kept = { ...headers };
    delete kept['content-length'];
    const meta: Kept = { expires: now + this.ttlMs, status, headers: kept, coded: {} };
    const keptBytes = Buffer.from(bytes.subarray(0, bytes.length - tail.length));
    this.cache.setBytes(call.key, keptBytes, meta);
    return { ...meta, kept: keptBytes };
  }
}
