/**
 * The floor of the tool server's design, measured beside the service in the same run (`npm run bench:mcp`): a bare
 * node:http server in its own process (no Koa, no store, no limits) whose every request gets a fresh McpServer from
 * `createMcpHandler` with one tool returning the service's own get_token result (text + structuredContent), served
 * through `api/mcp/node-adapter.ts` and through the SDK's `toNodeHandler`; and the same answer's bytes written raw.
 * What the service spends above the adapter row is the Koa chain and the tool call; what the adapter row spends
 * above the raw row is the SDK's per-request exchange.
 */
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { McpServer, createMcpHandler, fromJsonSchema, type jsonSchemaValidator } from '@modelcontextprotocol/server';
import { nodeMcpHandler } from '../api/mcp/node-adapter.js';
import { procCpuMs } from './http.js';

const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
};

export interface FloorRow {
  name: string;
  rps: number;
  p99: number;
  non2xx: number;
  /** CPU time of the server process (all its threads) per answered request. */
  cpuMsPerRequest: number;
}

/** The child: serve `answerFile` (a tools/call JSON-RPC answer) raw and through the SDK. */
function serveFloor(answerFile: string): void {
  const answer = readFileSync(answerFile);
  const structured = (JSON.parse(answer.toString('utf8')) as { result: { structuredContent: Record<string, unknown> } })
    .result.structuredContent;
  const text = JSON.stringify(structured);
  const pass: jsonSchemaValidator = {
    getValidator: () => (input: unknown) => ({ valid: true, data: input as never, errorMessage: undefined }),
  };
  const input = fromJsonSchema({ type: 'object', properties: { unit: { type: 'string' } } }, pass);
  const output = fromJsonSchema({ type: 'object', additionalProperties: true }, pass);
  const handler = createMcpHandler(
    () => {
      const server = new McpServer({ name: 'floor', version: '1' });
      server.registerTool('get_token', { description: 'd', inputSchema: input, outputSchema: output }, () => ({
        content: [{ type: 'text', text }],
        structuredContent: structured,
      }));
      return server;
    },
    { legacy: 'stateless', responseMode: 'auto' },
  );
  const adapter = nodeMcpHandler(handler);
  const sdk = toNodeHandler(handler);
  createServer((req, res) => {
    if (req.url === '/raw') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length }).end(answer);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      void (req.url === '/sdk' ? sdk(req, res, value) : adapter(req, res, { value }));
    });
  }).listen(0, '127.0.0.1', function (this: { address(): AddressInfo }) {
    process.send?.(this.address().port);
  });
}

const cpuMs = (pid: number) => procCpuMs(`/proc/${pid}/stat`);

/** Measures the three rows against the recorded `answer` (a 2026-07-28 get_token answer of the service). */
export async function benchMcpFloor(answer: string, dir: string, seconds: number): Promise<FloorRow[]> {
  const file = join(dir, 'floor-answer.json');
  writeFileSync(file, answer);
  const child = fork(new URL(import.meta.url).pathname, [file], {
    env: { ...process.env, MCP_FLOOR_CHILD: '1' },
    execArgv: ['--import', 'tsx'],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (m) => resolve(m as number));
      child.once('exit', (code) => reject(new Error(`floor server exited with ${code}`)));
    });
    const call = {
      method: 'POST' as const,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': 'get_token',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_token', arguments: { unit: 'x' }, _meta: META },
      }),
    };
    const rows: FloorRow[] = [];
    for (const [name, path, req] of [
      ['same answer bytes, raw', '/raw', {}],
      ['SDK per-request server + toNodeHandler', '/sdk', call],
      ['SDK per-request server + api/mcp/node-adapter.ts', '/adapter', call],
    ] as const) {
      const url = `http://127.0.0.1:${port}${path}`;
      await autocannon({ url, ...req, duration: 1, connections: 32 }); // warm-up
      const c0 = cpuMs(child.pid!);
      const r = await autocannon({ url, ...req, duration: seconds, connections: 32 });
      rows.push({
        name,
        rps: r.requests.average,
        p99: r.latency.p99,
        non2xx: r.non2xx + r.errors,
        cpuMsPerRequest: (cpuMs(child.pid!) - c0) / Math.max(1, r.requests.total),
      });
    }
    return rows;
  } finally {
    child.kill();
  }
}

if (process.env.MCP_FLOOR_CHILD && process.argv[2]) serveFloor(process.argv[2]);
