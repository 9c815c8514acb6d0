/**
 * /llms.txt (llmstxt.org: an H1 title, a blockquote summary, notes, then H2 sections of links) and /llms-full.txt
 * (the whole API and tool reference in one Markdown file), both generated from the OpenAPI document and the MCP
 * tool list, so they can never drift from what is served.
 */
import type { JsonSchemaLike, OpenApiDoc, SiteInfo, ToolDef, ViewDef } from './types.js';

const cell = (v: string) => v.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
const row = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;

/**
 * The bounds of a number: `1–200` (both inclusive), `0–` (a minimum only). A bound that excludes its value
 * (`exclusiveMinimum: 0`, the swap quote's amount) is written `> 0`: left out, the maximum alone read
 * `number –18446744073709552000`, whose leading dash reads as a minus sign (a negative bound) and says nothing of 0
 * being refused.
 */
function range(s: JsonSchemaLike): string {
  if (s.exclusiveMinimum === undefined && s.exclusiveMaximum === undefined)
    return s.minimum === undefined && s.maximum === undefined ? '' : ` ${s.minimum ?? ''}–${s.maximum ?? ''}`;
  const lo =
    s.minimum !== undefined ? `≥ ${s.minimum}` : s.exclusiveMinimum !== undefined ? `> ${s.exclusiveMinimum}` : '';
  const hi =
    s.maximum !== undefined ? `≤ ${s.maximum}` : s.exclusiveMaximum !== undefined ? `< ${s.exclusiveMaximum}` : '';
  return ` ${[lo, hi].filter(Boolean).join(', ')}`;
}

/** A short type string of a JSON Schema: `integer 1–200 (default 50)`, `one of a, b`, `Pool[]`. */
export function typeOf(s: JsonSchemaLike | undefined): string {
  if (!s) return 'any';
  if (s.$ref) return s.$ref.split('/').pop() ?? 'object';
  if (s.enum) return `one of ${s.enum.map((v) => (v === null ? 'null' : String(v))).join(', ')}`;
  const alt = s.anyOf ?? s.oneOf;
  if (alt) {
    // A branch naming no type of its own narrows the schema's type (the address and handle path parameters are
    // `{ type: 'string', anyOf: [{ pattern }, …] }`: a string of one of several forms), so it is of that type; read
    // alone it was `any`, and the address parameter's row said `any or any or any or any`.
    const { anyOf: _anyOf, oneOf: _oneOf, ...outer } = s;
    const own = (b: JsonSchemaLike) => b.type ?? b.$ref ?? b.enum ?? b.anyOf ?? b.oneOf;
    return [...new Set(alt.map((b) => typeOf(own(b) ? b : { ...outer, ...b })))].join(' or ');
  }
  const types = [s.type ?? 'any'].flat();
  let t = types.map((x) => (x === 'array' ? `${typeOf(s.items)}[]` : x)).join(' or ');
  t += range(s);
  if (s.format) t += ` (${s.format})`;
  return t;
}

/**
 * A table of an object schema's fields. `defaults`: say each field's default, for arguments (a tool's limit: what a
 * call without it gets, as tools/list publishes it and the REST parameter rows say theirs); not for result fields.
 */
function schemaFields(s: JsonSchemaLike | undefined, defaults = false): string {
  if (!s?.properties) return '';
  const req = new Set(s.required ?? []);
  const dflt = (v: JsonSchemaLike) => (defaults && v.default !== undefined ? ` (default ${String(v.default)})` : '');
  return [
    row(['Field', 'Type', 'Description']),
    '|---|---|---|',
    ...Object.entries(s.properties).map(([k, v]) =>
      row([`${k}${req.has(k) ? '' : '?'}`, typeOf(v) + dflt(v), v.description ?? '']),
    ),
  ].join('\n');
}

/**
 * One Markdown view of the list. A view taking an id (`/token/{unit}`) is its URL template as code, not a link: there
 * is no page at the template (the literal `{unit}` is a 400), so a crawler or an agent following the links would
 * only meet errors; the views without one are links. As the /api/md index and /docs name them.
 */
const viewItem = (site: string, v: ViewDef) =>
  v.path.includes('{')
    ? `- \`${site}/api/md${v.path}\`: ${v.title}`
    : `- [${v.path}](${site}/api/md${v.path}): ${v.title}`;

export function renderLlmsTxt(info: SiteInfo, hasTools: boolean): string {
  const s = info.site;
  const l = info.limits;
  return `# ${info.title}

> ${info.summary}

Read-only: no endpoint builds, accepts or submits a transaction. ADA amounts are whole ADA, token amounts are decimal-adjusted, REST fields named change* are fractions (0.05 = +5 %). Prices come from on-chain DEX pools: read them with the pool liquidity. No key is needed: ${l.enforced ? `anonymous callers get ${l.anonPerMinute} requests per minute per IP on each surface; a key (header \`x-api-key\`) raises the limits` : 'this instance limits no request (rate limits off)'}. Every Markdown and tool answer carries an as-of time.

## Markdown views

${info.views.map((v) => viewItem(s, v)).join('\n')}

## REST API

- [OpenAPI 3.1 document](${s}/api/v1/openapi.json): every endpoint, parameter and response schema of ${s}/api/v1
- [Full API and tool reference](${s}/llms-full.txt): this site's whole reference in one Markdown file
- Swap quote: \`${s}/api/v1/swap/quote?in=lovelace&out={unit}&amount=100\`: best route estimate with a link to the swap page

## Tool server (MCP)

- [MCP endpoint](${s}/api/mcp): Streamable HTTP, stateless JSON-RPC; ${hasTools ? 'tools listed in llms-full.txt and by tools/list' : 'tools listed by tools/list'}
- [MCP server card](${s}/api/mcp/server-card): name, endpoint, transport, supported protocol revisions and the optional key header of the tool server

## Optional

- [Docs: limits, keys, surfaces](${s}/docs)
- [Swap page](${s}/swap): review and sign a quoted trade in your own wallet
- [Account and API keys](${s}/account)
- [AI catalog](${s}/.well-known/ai-catalog.json)
- [Sitemap](${s}/sitemap.xml)
`;
}

/**
 * The "Result fields" line of a tool. A result of one of several shapes (`oneOf`/`anyOf`: get_address answers a
 * payment or a stake address) has its fields in the shapes, and at the top only those every shape shares (the
 * as-of fields the server adds): each shape is listed with its fields, named by the constant field that tells it
 * (`type "payment"`), else by its number. Listing the top alone told an agent the result held nothing but asOf.
 */
function resultFields(s: JsonSchemaLike | undefined): string | null {
  const own = Object.keys(s?.properties ?? {});
  const shapes = s?.oneOf ?? s?.anyOf;
  if (!shapes?.length) return own.length ? `Result fields: ${own.join(', ')}` : null;
  const lines = shapes.map((shape, i) => {
    const props = Object.entries(shape.properties ?? {});
    const tag = props.find(([, v]) => v.const !== undefined);
    const label = tag ? `${tag[0]} ${JSON.stringify(tag[1].const)}` : `shape ${i + 1}`;
    return `- ${label}: ${[...new Set([...props.map(([k]) => k), ...own])].join(', ')}`;
  });
  return `Result fields (the result is one of ${shapes.length} shapes):\n\n${lines.join('\n')}`;
}

/** A tool call as revision 2026-07-28 makes it: what the server refuses a request without (400 −32020, −32602). */
const EXAMPLE_TOOL = 'get_market_overview';
const EXAMPLE_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

/**
 * How to call the tool server over plain HTTP, for a reader with no MCP client (an agent with an HTTP tool): the
 * 2026-07-28 headers and `_meta` keys the server requires, with a request it answers, and the older revisions' forms.
 */
function howToCall(s: string): string[] {
  const body = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: EXAMPLE_TOOL, arguments: {}, _meta: EXAMPLE_META },
  };
  return [
    'How to call (revision 2026-07-28: no initialize, no session, every request stands alone): POST a JSON-RPC 2.0 request with the headers `Content-Type: application/json`, `Accept: application/json, text/event-stream`, `MCP-Protocol-Version: 2026-07-28`, `Mcp-Method` (the method: `tools/list`, `tools/call`) and, on `tools/call`, `Mcp-Name` (the tool); its `params._meta` carries `io.modelcontextprotocol/protocolVersion` (the same revision) and `io.modelcontextprotocol/clientCapabilities` (`{}` will do). The answer is JSON; `tools/list` gives every tool with its input and output schemas. A missing or mismatched header is a 400 naming it. Clients of the older revisions (2025-11-25, 2025-06-18, 2025-03-26) initialize as usual, or send a single `tools/call` with only `Content-Type` and `Accept`; those answers come as an event stream.',
    '',
    '```http',
    `POST ${s}/api/mcp`,
    'Content-Type: application/json',
    'Accept: application/json, text/event-stream',
    'MCP-Protocol-Version: 2026-07-28',
    'Mcp-Method: tools/call',
    `Mcp-Name: ${EXAMPLE_TOOL}`,
    '',
    JSON.stringify(body),
    '```',
    '',
  ];
}

export function renderLlmsFull(info: SiteInfo, doc: OpenApiDoc, tools: ToolDef[] | null): string {
  const s = info.site;
  const out: string[] = [];
  out.push(`# ${info.title}: full reference`, '', `> ${info.summary}`, '');
  out.push(
    `Generated from the OpenAPI document (${s}/api/v1/openapi.json, version ${doc.info.version})${tools ? ' and the tool server’s tool list' : ''}.`,
    '',
    doc.info.description ?? '',
    '',
  );
  out.push('## Access and limits', '', accessText(info), '');

  out.push(
    '## Markdown views',
    '',
    `Each is a GET under ${s} answering \`text/markdown\` with units, an as-of time and links. Every REST GET with a matching view also answers \`Accept: text/markdown\` with it.`,
    '',
  );
  out.push(row(['Path', 'Content']), '|---|---|', ...info.views.map((v) => row([`/api/md${v.path}`, v.title])), '');

  out.push(
    '## REST endpoints',
    '',
    `Base URL: ${doc.servers?.[0]?.url ?? `${s}/api/v1`}. Every endpoint is a GET; errors are \`{ "error": "…" }\` with 400, 401, 404 or 429.`,
    '',
  );
  const used = new Set<string>();
  /** Inline response schemas: the component schemas they refer to are listed below. */
  const inline: JsonSchemaLike[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      out.push(`### ${method.toUpperCase()} ${path}`, '');
      if (op.summary) out.push(op.summary, '');
      if (op.description) out.push(op.description, '');
      const params = op.parameters ?? [];
      if (params.length) {
        out.push(row(['Parameter', 'In', 'Type', 'Description']), '|---|---|---|---|');
        for (const p of params) {
          const d = p.schema?.default === undefined ? '' : ` (default ${String(p.schema.default)})`;
          out.push(
            row([
              `${p.name}${p.required ? ' (required)' : ''}`,
              p.in,
              typeOf(p.schema) + d,
              p.description ?? p.schema?.description ?? '',
            ]),
          );
        }
        out.push('');
      }
      const ok = op.responses?.['200'];
      const media = ok?.content ? Object.keys(ok.content)[0] : undefined;
      const schema = media ? ok?.content?.[media]?.schema : undefined;
      if (schema) {
        const name = schema.$ref?.split('/').pop();
        if (name) {
          out.push(`Response 200 (${media}): ${name}`, '');
          used.add(name);
        } else {
          out.push(`Response 200 (${media}):`, '', schemaFields(schema) || `Type: ${typeOf(schema)}`, '');
          inline.push(schema);
        }
      }
    }
  }

  const schemas = doc.components?.schemas ?? {};
  const refsOf = (x: unknown, acc: Set<string>) => {
    if (!x || typeof x !== 'object') return;
    for (const [k, v] of Object.entries(x)) {
      if (k === '$ref' && typeof v === 'string') {
        const n = v.split('/').pop() as string;
        if (!acc.has(n)) {
          acc.add(n);
          refsOf(schemas[n], acc);
        }
      } else refsOf(v, acc);
    }
  };
  for (const n of [...used]) refsOf(schemas[n], used);
  for (const sch of inline) refsOf(sch, used);
  out.push('## Schemas', '');
  for (const [name, sch] of Object.entries(schemas)) {
    if (!used.has(name)) continue;
    out.push(`### ${name}`, '');
    if (sch.description) out.push(sch.description, '');
    const fields = schemaFields(sch);
    out.push(fields || `Type: ${typeOf(sch)}`, '');
  }

  out.push('## Tool server (MCP)', '');
  out.push(
    `Endpoint ${s}/api/mcp (Streamable HTTP, JSON-RPC 2.0, stateless; protocol revisions 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26). Server card: ${s}/api/mcp/server-card. A key may be sent in \`X-API-Key\`. Results carry the data as JSON text and as \`structuredContent\`; a problem the caller can fix returns \`isError: true\` with a sentence saying what to do.`,
    '',
  );
  out.push(...howToCall(s));
  if (!tools) out.push(`The tool list is served by \`tools/list\` at ${s}/api/mcp.`, '');
  for (const t of tools ?? []) {
    out.push(`### ${t.name}`, '');
    if (t.description) out.push(t.description, '');
    const args = schemaFields(t.inputSchema, true);
    out.push(args ? `Arguments:\n\n${args}` : 'Arguments: none', '');
    const fields = resultFields(t.outputSchema);
    if (fields) out.push(fields, '');
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}

/**
 * How the tool server counts a JSON-RPC batch (api/access/limits.ts messagesOf): an agent that batches learns it
 * here rather than from a 429 after one request.
 */
export const BATCH_RULE =
  'A tool-server JSON-RPC batch (older protocol revisions, up to 100 messages) counts each message as a request, per minute and per day; a batch larger than what is left is refused whole and spends what was left of the minute (a single call then waits for the next window too).';

/** Said first wherever the limits are listed, on an instance that runs without them (RATE_LIMITS=false). */
export const LIMITS_OFF =
  'This instance runs with rate limits off: no request is limited here. The limits below are those of the service as published.';

export function accessText(info: SiteInfo): string {
  const l = info.limits;
  const plans = l.plans
    .map((p) => `${p.name} ${p.perMinute}/min and ${p.perDay.toLocaleString('en-US')}/day`)
    .join('; ');
  return [
    ...(l.enforced ? [] : [`- ${LIMITS_OFF}`]),
    `- No key: ${l.anonPerMinute} requests per minute per IP address, on each surface (REST, Markdown views, tool server), no daily cap.`,
    `- Keys: header \`x-api-key: <key>\` (or \`Authorization: Bearer <key>\` on REST and Markdown; \`X-API-Key\` on the tool server). Create one at ${info.site}/account by signing in with a Cardano wallet. Plans: ${plans}.${l.plansEnforced ? '' : ' Plans are not enforced yet: every key gets the Free limits.'}`,
    `- Wallet profit and loss is an expensive call: ${l.pnlAnonPerMinute} per minute without a key, ${l.pnlKeyPerMinute} with one.`,
    `- ${BATCH_RULE}`,
    '- Keyed answers carry `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-Daily-Remaining`. Over a limit: HTTP 429 with `Retry-After` (seconds) and `{ error, hint, docs, retryAfter }`; wait that long, then continue. An invalid or revoked key: 401.',
    '- The logo endpoint is never rate limited. Paging: pageSize at most 200; cursor lists take limit 1–200 (default 50); the Markdown token table takes limit 1–100.',
  ].join('\n');
}
