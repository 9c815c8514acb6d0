/**
 * One `tools/call` as a single JSON-RPC POST to the tool server, without a session (the short form the older
 * protocol revisions allow): for tests that check one answer of a tool beside REST, without a client.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON-RPC bodies

/** The JSON-RPC answer (sent as JSON or as the data line of one server-sent event), and its text for messages. */
export async function callToolOnce(
  baseUrl: string,
  name: string,
  args: Record<string, unknown>,
): Promise<{ message: Json; text: string }> {
  const res = await fetch(`${baseUrl}/api/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const text = await res.text();
  return { message: JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? text) as Json, text };
}
