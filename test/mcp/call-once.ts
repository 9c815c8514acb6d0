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

/**
 * One `tools/call` in the 2026-07-28 form (stateless: the `Mcp-*` headers and the `_meta` revision keys), expected to
 * succeed: its JSON text and its `structuredContent`.
 */
export async function callTool2026(
  baseUrl: string,
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; sc: Json }> {
  const res = await fetch(`${baseUrl}/api/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  if (res.status !== 200) throw new Error(`tools/call ${name}: HTTP ${res.status} ${await res.text()}`);
  const result = ((await res.json()) as Json).result as Json;
  if (result.isError === true) throw new Error(`tools/call ${name}: ${JSON.stringify(result.content)}`);
  return { text: result.content[0].text as string, sc: result.structuredContent as Json };
}
