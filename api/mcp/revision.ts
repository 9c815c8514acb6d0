/**
 * The protocol-revision rules the tool server checks itself, before the SDK classifies a request: what the
 * `MCP-Protocol-Version` header a POST carries allows, where the SDK's own answer is wrong or unclear.
 *
 * - JSON-RPC batches: revision 2025-03-26 allows a POST body that is an array of messages; 2025-06-18 removed
 *   batching ("The body of the POST request MUST be a single JSON-RPC request, notification, or response"), and
 *   2025-11-25 and 2026-07-28 kept it out. The SDK's stateless legacy leg serves a batch under any header, so a
 *   client naming 2025-06-18 or later got an answer its revision does not define. A POST without the header is
 *   taken as 2025-03-26 (the 2025-06-18 transport: "the server SHOULD assume protocol version 2025-03-26"), so its
 *   batch is still served.
 * - An unsupported revision in the header of a request whose body names none (no `_meta` protocolVersion): the SDK
 *   orders revisions as strings, so a header sorting after 2026-07-28 ("2027-01-01", "latest", any word) was taken
 *   for a modern request and answered that the request lacks its `_meta` envelope, never that the revision is not
 *   served. Every unsupported header now gets one answer: 400, JSON-RPC −32022 (UnsupportedProtocolVersion, the
 *   2026-07-28 code), the supported revisions in the message and in `data.supported`. A body that names a revision in
 *   `_meta` is left to the SDK, which answers a header/body mismatch (−32020) or an unsupported revision (−32022).
 */
import { PROTOCOL_REVISIONS } from './server.js';

/** The one revision whose POST body may be a JSON-RPC batch. */
export const BATCH_REVISION = '2025-03-26';
const VERSION_META = 'io.modelcontextprotocol/protocolVersion';

/** A JSON-RPC error answer the tool server sends as it is (HTTP status and body). */
export interface Refusal {
  status: number;
  body: { jsonrpc: '2.0'; error: { code: number; message: string; data?: unknown }; id: string | number | null };
}

const served = new Set<string>(PROTOCOL_REVISIONS);

/** The id of a body that is one request (echoed by an error answer), else null. */
function requestId(body: unknown): string | number | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const id = (body as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** Whether any message of the body names a revision in its `_meta` (a 2026-07-28-style request). */
function namesRevisionInMeta(body: unknown): boolean {
  return (Array.isArray(body) ? body : [body]).some((m) => {
    const meta = (m as { params?: { _meta?: unknown } } | null)?.params?._meta;
    return !!meta && typeof meta === 'object' && (meta as Record<string, unknown>)[VERSION_META] !== undefined;
  });
}

/**
 * The answer to a POST whose `MCP-Protocol-Version` header (`header`, undefined when absent) does not allow its
 * parsed `body`; null when the request goes on to the SDK.
 */
export function revisionRefusal(header: string | undefined, body: unknown): Refusal | null {
  if (header === undefined || header === '') return null;
  const id = requestId(body);
  if (!served.has(header)) {
    if (namesRevisionInMeta(body)) return null;
    const supported = [...PROTOCOL_REVISIONS];
    return {
      status: 400,
      body: {
        jsonrpc: '2.0',
        error: {
          code: -32022,
          message:
            `Bad Request: Unsupported protocol version: ${header} (supported versions: ${supported.join(', ')}); ` +
            'send one of them in the MCP-Protocol-Version header.',
          data: { supported, requested: header },
        },
        id,
      },
    };
  }
  if (Array.isArray(body) && header !== BATCH_REVISION)
    return {
      status: 400,
      body: {
        jsonrpc: '2.0',
        error: {
          code: -32600,
          message:
            `Invalid Request: protocol revision ${header} takes one JSON-RPC message per POST (batches were removed ` +
            `in 2025-06-18; only ${BATCH_REVISION} allows them); send each message in its own request.`,
        },
        id: null,
      },
    };
  return null;
}
