/**
 * Cancellations inside one JSON-RPC batch (revision 2025-03-26, the one with batches; api/mcp/revision.ts).
 *
 * The server keeps no session, so a `notifications/cancelled` can only name a request of its own POST. The SDK
 * honours it as the MCP cancellation rules ask ("SHOULD … not send a response for the cancelled request"), but its
 * stateless legacy transport ends the event stream only once every request of the batch has its answer: the
 * cancelled one never gets one, so the POST was held open with keep-alives until the client hung up (a batch
 * `[cancel 9, call 9]`, in either order, never ended; any other request of the batch was answered but its stream
 * never closed either).
 *
 * So a request that a cancellation of the same batch names is taken out before the SDK sees the batch: it is not
 * run and not answered, as cancelled; the cancellation itself stays (the SDK ignores one naming no request it
 * knows), and the other messages are answered as before. A batch left with notifications only is the SDK's 202.
 */

interface Message {
  id?: unknown;
  method?: unknown;
  params?: { requestId?: unknown };
}

const CANCELLED = 'notifications/cancelled';

/** A JSON-RPC id as a key that keeps its type: 9 and "9" are different requests. */
const idKey = (id: unknown): string | null =>
  typeof id === 'number' || typeof id === 'string' ? `${typeof id}:${String(id)}` : null;

/** `body` without the requests a cancellation in the same batch names; any other body as it is. */
export function withoutCancelledRequests(body: unknown): unknown {
  if (!Array.isArray(body)) return body;
  const cancelled = new Set<string>();
  for (const m of body as (Message | null)[]) {
    if (!m || typeof m !== 'object' || m.method !== CANCELLED || 'id' in m) continue;
    const key = idKey(m.params?.requestId);
    if (key) cancelled.add(key);
  }
  if (cancelled.size === 0) return body;
  return (body as (Message | null)[]).filter((m) => {
    if (!m || typeof m !== 'object' || typeof m.method !== 'string' || m.method === CANCELLED) return true;
    const key = idKey(m.id);
    return key === null || !cancelled.has(key);
  });
}
