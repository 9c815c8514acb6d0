/**
 * One MCP server instance per request (`buildMcpServer`), holding the 20 tools of api/mcp/tools.ts. Nothing is
 * shared between instances but immutable schema objects built once at module scope (building them per request
 * would cost most of the throughput, reference §1.6).
 *
 * Argument checking is ours, not the SDK's: the SDK would answer bad arguments with its own "Input validation
 * error" text; the spec wants one sentence telling the caller what to do next. So the SDK gets the published JSON
 * Schemas with a pass-through validator, and each call is checked here with ajv against the same schema.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { McpServer, fromJsonSchema, type CallToolResult, type jsonSchemaValidator } from '@modelcontextprotocol/server';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ApiDeps } from '../deps.js';
import { AppError, NotReadyError } from '../errors.js';
import type { SyncGate } from '../sync-guard.js';
import { ResponseCache } from '../response-cache.js';
import { CHECKPOINTS } from '../../mongo/collections/sync-state.js';
import { readFreshness } from '../read/freshness.js';
import { fitResult, RESULT_MAX_CHARS } from './fit.js';
import { answerBadParams } from './params-errors.js';
import { publishedOutputSchema, TOOL_SET, type Tool } from './tools.js';

export const SERVER_NAME = 'cardano-data-service';
export const SERVER_VERSION = '1.0.0';

/**
 * The protocol revisions the tool server serves (spec: Versioning), newest first: the one list the server instances
 * and the server card report. The unsupported-version error (-32022) of a 2026-07-28-style request lists the modern
 * entry only, as the SDK answers it (mcp-koa-temporal.md). The SDK's own default for the
 * initialize path also offers 2024-11-05 and 2024-10-07, which the service does not promise; with this list an
 * initialize naming an older revision gets the SDK's counter-offer, 2025-11-25 (the first 2025-era entry).
 * server/discover lists the entries a 2026-07-28-style request (per-request `_meta`) can name, 2026-07-28 only:
 * the SDK answers it from this list's modern subset, as its contract says (2025-era revisions are negotiated through
 * initialize, not chosen from discover).
 */
export const PROTOCOL_REVISIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'] as const;

export const INSTRUCTIONS =
  'Read-only Cardano data: tokens and DEX pools, swaps, wallets and PnL, NFT collections, stake pools, governance, ' +
  'explorer (transactions, addresses, blocks), handles and news. Start with search when you have a name or id. ' +
  'ADA amounts are whole ADA; *Pct fields are percent; times are ISO 8601 UTC; every result has asOf.';

/** Accepts anything: the SDK must not rewrite or reject arguments or results (we check them ourselves). */
const passThrough: jsonSchemaValidator = {
  getValidator: () => (input: unknown) => ({ valid: true, data: input as never, errorMessage: undefined }),
};

// `verbose` keeps the failing schema, so a message can use its `x-expected` wording (as the REST 400s do).
const ajv = new Ajv2020({ allErrors: true, useDefaults: true, strict: false, verbose: true });
addFormats.default(ajv);

interface Registered {
  tool: Tool;
  input: ReturnType<typeof fromJsonSchema>;
  output: ReturnType<typeof fromJsonSchema>;
  check: ValidateFunction;
}

/** A schema as published: without the `x-expected` wording, which only the argument errors use. */
function published<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(published) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).flatMap(([k, v]) => (k === 'x-expected' ? [] : [[k, published(v)]])),
  ) as T;
}

const REGISTERED: readonly Registered[] = TOOL_SET.map((tool) => ({
  tool,
  input: fromJsonSchema(published(tool.inputSchema), passThrough),
  output: fromJsonSchema(publishedOutputSchema(tool), passThrough),
  check: ajv.compile(tool.inputSchema),
}));

function describeArgErrors(errors: readonly ErrorObject[] | null | undefined): string {
  const parts = new Set<string>();
  for (const e of errors ?? []) {
    const name = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
    if (e.keyword === 'required') parts.add(`${String(e.params.missingProperty)} is required`);
    else if (e.keyword === 'additionalProperties') parts.add(`unknown argument ${String(e.params.additionalProperty)}`);
    else if (e.keyword === 'enum')
      parts.add(`${name} must be one of ${(e.params.allowedValues as unknown[]).join(', ')}`);
    else if (typeof e.parentSchema?.['x-expected'] === 'string')
      parts.add(`${name} must be ${e.parentSchema['x-expected']}`);
    else parts.add(`${name || 'arguments'} ${e.message ?? 'is invalid'}`);
  }
  return [...parts].join('; ');
}

const failure = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

/**
 * A REST error text in the tool's terms: the REST parameters it names become the tool's arguments (`restArgs`,
 * REST parameter → argument: `invalid parameter id: …` → `invalid argument poolId: …`, `invalid parameters: in and out
 * must differ` → `invalid arguments: tokenIn and tokenOut must differ`). Only the parameter names of those forms
 * are rewritten: after `invalid parameter` / `missing parameter`, and in the text of an `invalid parameters:`
 * sentence (whole words), which the read layer uses only to name the parameters that conflict.
 */
export function inToolTerms(message: string, restArgs: Readonly<Record<string, string>> = {}): string {
  const arg = (name: string) => (Object.hasOwn(restArgs, name) ? (restArgs[name] as string) : name);
  const one = /^(invalid|missing) parameter ([A-Za-z_][\w]*)/.exec(message);
  if (one) return `${one[1]} argument ${arg(one[2] as string)}${message.slice(one[0].length)}`;
  const many = /^invalid parameters: /.exec(message);
  if (!many) return message;
  const names = Object.keys(restArgs);
  const rest = message.slice(many[0].length);
  const renamed = names.length ? rest.replace(new RegExp(`\\b(${names.join('|')})\\b`, 'g'), (n) => arg(n)) : rest;
  return `invalid arguments: ${renamed}`;
}

/** The one-sentence advice for a caller mistake or an unavailable source, in the tool's argument names. */
export function adviceFor(tool: string, e: unknown, restArgs?: Readonly<Record<string, string>>): string | null {
  if (e instanceof AppError || (e instanceof Error && e.name === 'BadRequestError')) {
    const status = e instanceof AppError ? e.status : 400;
    const msg = inToolTerms(e.message.replace(/[.\s]+$/, ''), restArgs);
    // A 404 that says to retry (figures not computed yet, a block not indexed yet) is about time, not the id.
    if (status === 404 && /\bretry\b/.test(msg)) return `Not found yet: ${msg}, with the same arguments.`;
    // Asked before the index holds any block (the first seconds of a start or a resync): every identifier is
    // unknown, the right one too, and search finds nothing either. It read "check the identifier, or call search".
    if (status === 404 && /\(no block is indexed yet\)$/.test(msg))
      return `Not found yet: ${msg}; retry shortly, with the same arguments.`;
    // Figures a recompute has not written yet (REST's 503 with Retry-After): the call is right, the data early. It
    // read "The data source did not answer", and was logged as a tool failure.
    if (e instanceof NotReadyError) return `Not ready yet: ${msg}, with the same arguments.`;
    if (status === 404) return `Not found: ${msg}; check the identifier, or call search to find the right one.`;
    if (status === 400)
      return /^(invalid|missing) arguments?\b/.test(msg)
        ? `${msg[0]!.toUpperCase()}${msg.slice(1)}; correct it and call ${tool} again.`
        : `Invalid argument: ${msg}; correct it and call ${tool} again.`;
  }
  return null;
}

/**
 * Tool results reused for the REST micro-cache's window (`deps.cacheMs`, API_CACHE_MS) under the tool, its
 * arguments and the sync checkpoint, as REST answers are (api/micro-cache.ts): public chain data, the same for every
 * caller, never older than the chain state it was read from. Per app (deps), never shared across deployments.
 */
const caches = new WeakMap<
  ApiDeps,
  ResponseCache<{ expires: number; text: string; structured: Record<string, unknown> }>
>();

/**
 * The sync checkpoint (`height:blockId`) a tool result was read at, set by the tool call for the request it runs in:
 * the router (api/mcp/router.ts) keeps the answer for replay only when it is the checkpoint it keyed the answer by.
 * '' when the checkpoint moved while the result was read (a block or a rollback landed): such a result carries the
 * new block's state and is kept nowhere, or a fork rolling the chain back within the window would replay it as the
 * earlier block's.
 */
export const resultCheckpoint = new AsyncLocalStorage<{ tag: string | null }>();

const tagOf = (cp: { height: number; id: string } | null) => (cp ? `${cp.height}:${cp.id}` : '-');

/**
 * The REST path whose data each tool reads, for the sync gate (api/sync-guard.ts): while the sync is stalled on an
 * abandoned chain, or a recompute has not yet run on the chain after a deep rollback, the tool answers isError with
 * the gate's reason, as REST answers 503.
 */
const GATED_PATH: Record<string, string> = {
  search: '/mcp/search',
  list_tokens: '/mcp/tokens',
  get_token: '/mcp/tokens',
  get_token_candles: '/tokens/t/candles',
  get_pool: '/pools/p',
  get_recent_trades: '/tokens/t/trades',
  get_market_overview: '/market/overview',
  get_wallet: '/wallet/w',
  get_wallet_pnl: '/wallet/w/pnl',
  get_swap_quote: '/swap/quote',
  list_nft_collections: '/nft/collections',
  get_nft_collection: '/nft/collections/c',
  // Its listings are the sync's; their rarity ranks come from the search recompute (nft_rarity).
  get_nft_listings: '/mcp/nft-listings',
  list_stake_pools: '/staking/pools',
  get_stake_pool: '/staking/pools/p',
  list_governance_actions: '/governance/proposals',
  get_transaction: '/explorer/tx/t',
  get_address: '/explorer/address/a',
  resolve_handle: '/handles/h',
  get_news: '/news',
};

/** The REST path a tool's answers are gated by (api/sync-guard.ts). */
export const gatedPath = (tool: string): string => GATED_PATH[tool] ?? '/tokens';

async function callTool(deps: ApiDeps, r: Registered, raw: unknown, gate?: SyncGate): Promise<CallToolResult> {
  const args = structuredClone((raw ?? {}) as Record<string, unknown>);
  if (!r.check(args))
    return failure(
      `Invalid arguments for ${r.tool.name}: ${describeArgErrors(r.check.errors)}; fix them as its inputSchema says and call it again.`,
    );
  const ttl = deps.cacheMs ?? 0;
  let cache = caches.get(deps);
  if (ttl > 0 && !cache) caches.set(deps, (cache = new ResponseCache(2_000, 32 * 1024 * 1024)));
  let key: string | null = null;
  try {
    const held = gate ? await gate.withheld(gatedPath(r.tool.name)) : null;
    if (held)
      return failure(`${held.reason.replace(/[.\s]+$/, '')}; retry ${r.tool.name} in ${held.retryAfterSeconds} s.`);
    const checkpoint = async () => tagOf(await deps.store.collection(CHECKPOINTS).get('sync'));
    const before = cache ? await checkpoint() : null;
    if (cache) {
      key = `${r.tool.name}|${JSON.stringify(args)}|${before}`;
      const hit = cache.entry(key);
      if (hit && hit.meta.expires > Date.now()) {
        const scope = resultCheckpoint.getStore();
        if (scope) scope.tag = before;
        return {
          content: [{ type: 'text', text: hit.meta.text }],
          structuredContent: hit.meta.structured,
        };
      }
    }
    let runArgs = args;
    let structured: Record<string, unknown>;
    let text: string;
    for (let reads = 1; ; reads++) {
      const [data, fresh] = await Promise.all([r.tool.run(deps, runArgs), readFreshness(deps)]);
      structured = {
        ...data,
        asOf: typeof data.asOf === 'string' ? data.asOf : fresh.asOf,
        lagSeconds: fresh.lagSeconds,
      };
      text = JSON.stringify(structured);
      if (text.length <= RESULT_MAX_CHARS) break;
      const { result, cuts } = fitResult(structured, RESULT_MAX_CHARS, new Set(r.tool.newestLast));
      // A page read by cursor keeps whole: its nextCursor continues after the last item read, so a cut would skip
      // the items it left out. The page is read again as long as what fitted, and its nextCursor follows on from it.
      const page = r.tool.cursorList === undefined ? undefined : cuts.find((c) => c.path === r.tool.cursorList);
      if (page && reads < 3) {
        runArgs = { ...runArgs, limit: page.shown };
        continue;
      }
      structured = cuts.length ? { ...result, truncated: cuts } : result;
      text = JSON.stringify(structured);
      break;
    }
    if (cache && key) {
      // Kept only when no block or rollback landed while it was read (resultCheckpoint says why).
      const settled = (await checkpoint()) === before;
      const scope = resultCheckpoint.getStore();
      if (scope) scope.tag = settled ? before : '';
      // The bytes count the entry against the cache's size bound; a hit answers with the kept string, not a decode.
      if (settled) cache.setBytes(key, Buffer.from(text), { expires: Date.now() + ttl, text, structured });
    }
    return { content: [{ type: 'text', text }], structuredContent: structured };
  } catch (e) {
    const advice = adviceFor(r.tool.name, e, r.tool.restArgs);
    if (advice) return failure(advice);
    deps.log.error({ err: e, tool: r.tool.name }, 'tool failed');
    return failure(`The data source did not answer (${r.tool.name}); retry in a minute.`);
  }
}

/**
 * A fresh server for one request. `only`: the tool a request that is one `tools/call` (either era; the router
 * reads it from the body) calls, so that request's server registers just that tool; every other request
 * (tools/list, discover, initialize, batches) gets all of them. An unknown name registers all, so the SDK answers
 * the unknown tool as it would anyway.
 */
export function buildMcpServer(deps: ApiDeps, only?: string | null, gate?: SyncGate): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION, title: 'Cardano data service' },
    {
      instructions: INSTRUCTIONS,
      supportedProtocolVersions: [...PROTOCOL_REVISIONS],
      // The tool list changes only with a deployment, never while a client is connected: no list_changed is ever
      // sent. Advertised as such (the SDK's default says true), a subscriptions/listen is acknowledged and closed
      // at once instead of holding an event stream that never carries anything (up to the SDK's 1,024 per process,
      // ~80 KB each, after which every other client's listen was refused).
      capabilities: { tools: { listChanged: false } },
      // Clients may cache the list for an hour, shared between users.
      cacheHints: { 'tools/list': { ttlMs: 3_600_000, cacheScope: 'public' } },
    },
  );
  const one = only ? REGISTERED.find((r) => r.tool.name === only) : undefined;
  for (const r of one ? [one] : REGISTERED) {
    server.registerTool(
      r.tool.name,
      {
        title: r.tool.title,
        description: r.tool.description,
        inputSchema: r.input,
        outputSchema: r.output,
        annotations: {
          title: r.tool.title,
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
        },
      },
      (args: unknown) => callTool(deps, r, args, gate),
    );
  }
  // Params the SDK's wire schemas refuse are −32602 in one sentence, not −32603 with a JSON dump (params-errors.ts).
  answerBadParams(server);
  return server;
}
