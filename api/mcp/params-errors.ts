/**
 * JSON-RPC params the SDK's wire schemas refuse, answered as what they are: −32602 Invalid params, in one sentence.
 *
 * The SDK checks the params of a spec request (initialize, tools/list, server/discover, …) against its wire schema
 * and, when they do not fit, throws a plain Error whose message is zod's issue list as JSON: the request was answered
 * −32603 "Internal error" with a multi-line JSON dump as the message (`initialize` without params, or without
 * `capabilities`; `tools/list` with a numeric cursor), which tells a client the server failed, not that its request
 * is wrong. Its tools/call check does answer −32602, but with the same dump ("Invalid tools/call request: [\n {…").
 *
 * `answerBadParams` wraps every request handler of one server: an error that is such a schema refusal (a zod issue
 * list, with or without the SDK's "Invalid … request:" prefix) becomes −32602 naming each field and what it must be.
 * Every other error passes through unchanged.
 */
import { ProtocolError, ProtocolErrorCode, type McpServer } from '@modelcontextprotocol/server';

interface Issue {
  path: (string | number)[];
  message: string;
}

/** The issues of a zod issue list as JSON, else null. */
function issuesOf(text: string): Issue[] | null {
  if (!text.startsWith('[')) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return null;
  const ok = parsed.every(
    (i: unknown) =>
      !!i && typeof i === 'object' && Array.isArray((i as Issue).path) && typeof (i as Issue).message === 'string',
  );
  return ok ? (parsed as Issue[]) : null;
}

const PREFIXED = /^(Invalid [\w/]+ request): (\[[\s\S]*\])$/;

/** The −32602 error a schema refusal of `method`'s params stands for; null for any other error. */
export function invalidParams(method: string, e: unknown): ProtocolError | null {
  if (!(e instanceof Error)) return null;
  const code = (e as { code?: unknown }).code;
  let prefix = `Invalid params for ${method}`;
  let list = e.message;
  if (Number.isSafeInteger(code)) {
    const m = code === ProtocolErrorCode.InvalidParams ? PREFIXED.exec(e.message) : null;
    if (!m) return null;
    prefix = m[1] as string;
    list = m[2] as string;
  }
  const issues = issuesOf(list);
  if (!issues) return null;
  const parts = issues.map(
    (i) =>
      `${i.path.length ? i.path.join('.') : 'params'}: ${i.message.replace(/[.\s]+$/, '').replace(/\bexpected record\b/, 'expected object')}`,
  );
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `${prefix}: ${[...new Set(parts)].join('; ')}; correct the request as the MCP schema for ${method} says.`,
  );
}

type Handler = (request: { method: string }, ctx: unknown) => Promise<unknown>;

/** Wraps every request handler `server` has (call after its tools are registered). */
export function answerBadParams(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, Handler> })._requestHandlers;
  if (!(handlers instanceof Map)) return;
  for (const [method, handler] of handlers)
    handlers.set(method, async (request, ctx) => {
      try {
        return await handler(request, ctx);
      } catch (e) {
        throw invalidParams(method, e) ?? e;
      }
    });
}
