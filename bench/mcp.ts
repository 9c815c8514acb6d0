/**
 * The tool server's row of the bench: `tools/call` of a document-read tool (get_token) in the 2026-07-28 form and
 * in the legacy short form, against the same answer from the REST route (GET /tokens/{unit}), in the same run;
 * then the size of the tools/list answer and of each tool's typical result in tokens (≈ characters / 4, the usual
 * estimate for JSON text; budget: every result under 25,000).
 * Budget (issue): modern tools/call ≥ 3,000 req/s on 2 cores and ≥ 0.5 × the REST route.
 */
import autocannon from 'autocannon';
import type { LoadResult } from './http.js';

const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
};
const BASE_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

export interface McpSamples {
  unit: string;
  wallet: string;
  policy: string;
  txHash: string;
}

const toolCall = (name: string, args: unknown, modern: boolean) => ({
  headers: modern
    ? { ...BASE_HEADERS, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name }
    : BASE_HEADERS,
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: args, ...(modern ? { _meta: META } : {}) },
  }),
});

async function post(url: string, req: { headers: Record<string, string>; body: string }): Promise<string> {
  const res = await fetch(url, { method: 'POST', headers: req.headers, body: req.body });
  const text = await res.text();
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) return text;
  const line = text.split('\n').find((l) => l.startsWith('data: '));
  return line ? line.slice(6) : text;
}

async function loadPost(url: string, seconds: number, req: { headers: Record<string, string>; body: string }) {
  const r = await autocannon({
    url,
    method: 'POST',
    duration: seconds,
    connections: 32,
    pipelining: 1,
    headers: req.headers,
    body: req.body,
  });
  return {
    rps: r.requests.average,
    p99: r.latency.p99,
    p50: r.latency.p50,
    errors: r.errors,
    non2xx: r.non2xx,
    total: r.requests.total,
  };
}

const tokens = (chars: number) => Math.round(chars / 4);

/**
 * The bytes of one answer on the wire in each coding (identity, br, gzip): its Content-Length, which fetch leaves
 * as sent although it decodes the body.
 */
async function wireBytes(url: string, req: { headers: Record<string, string>; body: string }): Promise<string> {
  const sizes: string[] = [];
  for (const coding of ['identity', 'br', 'gzip']) {
    const res = await fetch(url, {
      method: 'POST',
      headers: { ...req.headers, 'accept-encoding': coding },
      body: req.body,
    });
    await res.arrayBuffer();
    sizes.push(res.headers.get('content-length') ?? '?');
  }
  return sizes.join(' / ');
}

export async function benchMcp(
  base: string,
  s: McpSamples,
  opts: {
    seconds: number;
    load: (url: string) => Promise<LoadResult>;
    row: (n: string, r: LoadResult, b?: LoadResult) => string;
    /** CPU milliseconds the service process has used so far (all threads), when the caller knows its pid. */
    cpuMs?: () => number;
  },
): Promise<{ modernAnswer: string }> {
  const mcp = `${base}/api/mcp`;
  const restUrl = `${base}/api/v1/tokens/${s.unit}?logos=url`;
  const restBody = await (await fetch(restUrl)).text();
  const modern = toolCall('get_token', { unit: s.unit }, true);
  const legacy = toolCall('get_token', { unit: s.unit }, false);
  const modernAnswer = await post(mcp, modern);
  console.log(
    `\n| tool server vs REST (same answer: token ${s.unit.slice(0, 12)}…) | req/s | p50 ms | p99 ms | non-2xx | ratio to REST |\n|---|---|---|---|---|---|`,
  );
  // Service CPU per answered request beside each row: unlike req/s it barely moves with other load on the machine.
  const cpu: string[] = [];
  const measured = async <T extends LoadResult & { total?: number }>(name: string, run: () => Promise<T>) => {
    const c0 = opts.cpuMs?.();
    const r = await run();
    const total = r.total ?? r.rps * opts.seconds;
    if (c0 !== undefined && opts.cpuMs && total > 0) cpu.push(`${name} ${((opts.cpuMs() - c0) / total).toFixed(3)} ms`);
    return r;
  };
  const rest = await measured('REST', () => opts.load(restUrl));
  console.log(opts.row(`GET /tokens/{unit} (${restBody.length} B)`, rest));
  const m = await measured('MCP 2026-07-28', () => loadPost(mcp, opts.seconds, modern));
  console.log(opts.row(`MCP tools/call get_token, 2026-07-28 (${modernAnswer.length} B)`, m, rest));
  const l = await measured('MCP legacy', () => loadPost(mcp, opts.seconds, legacy));
  console.log(opts.row('MCP tools/call get_token, legacy short form (SSE)', l, rest));
  console.log(
    `modern tools/call budget ≥ 3000 req/s: ${Math.round(m.rps)} (ratio ${(m.rps / 3000).toFixed(2)}); ≥ 0.5 × REST: ${(m.rps / rest.rps).toFixed(2)}`,
  );
  if (cpu.length) console.log(`service CPU per request: ${cpu.join('; ')}`);

  const listCall = {
    headers: { ...BASE_HEADERS, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } }),
  };
  const list = await post(mcp, listCall);
  console.log(
    `\n| tool | typical arguments | result tokens (≈ chars/4) | bytes on the wire: identity / br / gzip |\n|---|---|---|---|`,
  );
  console.log(`| tools/list | — | ${tokens(list.length)} | ${await wireBytes(mcp, listCall)} |`);
  const typical: [string, Record<string, unknown>][] = [
    ['search', { query: 'usd' }],
    ['list_tokens', {}],
    ['get_token', { unit: s.unit }],
    ['get_token_candles', { unit: s.unit }],
    ['get_pool', { poolId: 1 }],
    ['get_recent_trades', { unit: s.unit }],
    ['get_market_overview', {}],
    ['get_wallet', { address: s.wallet }],
    ['get_wallet_pnl', { address: s.wallet }],
    ['get_swap_quote', { tokenIn: 'lovelace', tokenOut: s.unit, amount: 100 }],
    ['list_nft_collections', {}],
    ['get_nft_collection', { policyId: s.policy }],
    ['get_nft_listings', { policyId: s.policy }],
    ['list_stake_pools', {}],
    ['get_stake_pool', { poolId: '' }],
    ['list_governance_actions', {}],
    ['get_transaction', { hash: s.txHash }],
    ['get_address', { address: s.wallet }],
    ['resolve_handle', { handle: '' }],
    ['get_news', {}],
  ];
  const pools = JSON.parse(await post(mcp, toolCall('list_stake_pools', { limit: 1 }, true))) as {
    result: { structuredContent: { items: { id: string }[] } };
  };
  let handle = '$none';
  for (const letter of 'abcdefghijklmnopqrstuvwxyz') {
    const found = JSON.parse(await post(mcp, toolCall('search', { query: letter, limit: 50 }, true))) as {
      result: { structuredContent: { hits: { kind: string; arguments: { handle?: string } }[] } };
    };
    const hit = found.result.structuredContent.hits.find((h) => h.kind === 'handle');
    if (hit?.arguments.handle) {
      handle = hit.arguments.handle;
      break;
    }
  }
  for (const [name, args] of typical) {
    if (name === 'get_stake_pool') args.poolId = pools.result.structuredContent.items[0]?.id ?? 'none';
    if (name === 'resolve_handle') args.handle = handle;
    const answer = await post(mcp, toolCall(name, args, true));
    const result = (JSON.parse(answer) as { result?: { content?: { text: string }[]; isError?: boolean } }).result;
    const text = result?.content?.map((c) => c.text).join('') ?? answer;
    const bytes = await wireBytes(mcp, toolCall(name, args, true));
    console.log(
      `| ${name} | ${JSON.stringify(args).slice(0, 60)} | ${tokens(text.length)}${result?.isError ? ' (isError)' : ''} | ${bytes} |`,
    );
  }
  return { modernAnswer };
}
