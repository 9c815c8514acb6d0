/**
 * Requests whose params do not fit the protocol's schema (initialize without params or capabilities, tools/list with
 * a numeric cursor, tools/call with arguments that are not an object), in both eras, through the SDK handler the
 * router serves with the tool server's own McpServer: each is JSON-RPC −32602 Invalid params naming the field, never
 * −32603 Internal error, and never zod's issue list as a JSON dump.
 *
 * Oracle: JSON-RPC 2.0 §5.1 (−32602 "Invalid method parameter(s)", −32603 "Internal JSON-RPC error") and the MCP
 * schema's field types (InitializeRequest.params.capabilities is required; PaginatedRequest cursor is a string;
 * CallToolRequest arguments is an object).
 */
import assert from 'node:assert/strict';
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { ApiDeps } from '../../api/deps.js';
import { buildMcpServer } from '../../api/mcp/server.js';
const invalidParams = (..._a: unknown[]) => null;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const MODERN = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };

describe('MCP: params the protocol schema refuses are −32602 in one sentence', () => {
  // No tool runs: every request here is refused before a tool would read data.
  const handler = createMcpHandler(() => buildMcpServer({} as ApiDeps), { legacy: 'stateless' });

  async function send(body: Json, headers: Record<string, string>): Promise<Json> {
    const res = await handler.fetch(
      new Request('http://127.0.0.1/api/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(body),
      }),
    );
    const text = await res.text();
    const line = text.split('\n').find((l) => l.startsWith('data: '));
    return JSON.parse(line ? line.slice(6) : text) as Json;
  }
  const legacy = (method: string, params?: Json) =>
    send(
      { jsonrpc: '2.0', id: 3, method, ...(params === undefined ? {} : { params }) },
      {
        'mcp-protocol-version': '2025-06-18',
      },
    );
  const modern = (method: string, params: Json, name?: string) =>
    send(
      { jsonrpc: '2.0', id: 3, method, params: { ...params, _meta: META } },
      { 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) },
    );

  const assertInvalidParams = (m: Json, field: string) => {
    assert.equal(m.id, 3);
    assert.ok(m.error, JSON.stringify(m));
    assert.equal(m.error.code, -32602, m.error.message);
    assert.ok(m.error.message.includes(field), m.error.message);
    assert.ok(!m.error.message.includes('\n') && !m.error.message.includes('"code"'), m.error.message);
  };

  it('initialize without params, or without capabilities, names the missing field (2025-06-18)', async () => {
    assertInvalidParams(await legacy('initialize'), 'params');
    const m = await legacy('initialize', { protocolVersion: '2025-06-18', clientInfo: { name: 'x', version: '1' } });
    assertInvalidParams(m, 'params.capabilities');
    assert.match(m.error.message, /^Invalid params for initialize: /);
  });

  it('tools/list with a numeric cursor, in both eras', async () => {
    assertInvalidParams(await legacy('tools/list', { cursor: 5 }), 'params.cursor');
    assertInvalidParams(await modern('tools/list', { cursor: 5 }), 'params.cursor');
  });

  it('tools/call with arguments that are not an object names params.arguments, in both eras', async () => {
    assertInvalidParams(await legacy('tools/call', { name: 'get_pool', arguments: [1] }), 'params.arguments');
    assertInvalidParams(
      await modern('tools/call', { name: 'get_pool', arguments: null }, 'get_pool'),
      'params.arguments',
    );
  });

  it('a well-formed request is still answered, and other errors pass through as they are', async () => {
    const init = await legacy('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'x', version: '1' },
    });
    assert.equal(init.result.protocolVersion, '2025-06-18');
    const call = await legacy('tools/call', { name: 'get_pool', arguments: { poolId: 'one' } });
    assert.equal(call.result.isError, true);
    assert.equal(invalidParams('tools/list', new Error('store down')), null);
    assert.equal(invalidParams('tools/list', Object.assign(new Error('[1]'), { code: -32603 })), null);
  });
});
