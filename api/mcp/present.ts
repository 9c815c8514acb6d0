/**
 * How a REST body becomes a tool result, one rule set for every tool so the tool schemas and the values they
 * describe are derived together from the REST JSON Schemas (api/schemas/*):
 *
 * - a number the REST schema documents as a **fraction** (price changes, saturation, margin, returns, price impact,
 *   shares) becomes `<name>Pct`, the same figure × 100 (percent), described as a percent;
 * - an integer documented as **unix seconds** (candle buckets, series days) becomes an ISO 8601 UTC string;
 * - everything else is passed through as REST has it (ADA amounts whole ADA, times already ISO).
 *
 * `presentSchema(schema)` rewrites a JSON Schema by these rules; `presentValue(schema, value)` rewrites a value
 * valid under `schema` to one valid under `presentSchema(schema)`.
 */
import { componentName, type JsonSchema } from '../schema.js';

type Json = unknown;

/**
 * REST fields that are fractions: those documented as such, and by name the ones whose shared schema objects carry
 * no description (price changes `change…`, stake-pool saturation, margin and returns, price impact, holder share).
 */
const FRACTION_NAMES = /^(change\w*|floorChange\w*|saturation|margin|roa|estimatedRoa|realisedRoa|priceImpact|share)$/;
const describedPercent = (s: JsonSchema) => typeof s.description === 'string' && /\bpercent\b/i.test(s.description);
const isFraction = (s: JsonSchema, key = ''): boolean =>
  isNumeric(s) &&
  ((typeof s.description === 'string' && /\bfraction\b/i.test(s.description)) ||
    (FRACTION_NAMES.test(key) && !describedPercent(s)));
/**
 * Only fractions are renamed: a `…Pct` field is always the REST fraction × 100. A REST field that already holds a
 * percent keeps its name and value (feePercent, winRatePercent, the governance vote shares `…Pct`).
 */
const renamed = (key: string, s: JsonSchema): string =>
  isFraction(s, key) && !/(Pct|Percent)$/.test(key) ? pctKey(key) : key;
const isUnixSeconds = (s: JsonSchema): boolean =>
  types(s).includes('integer') && typeof s.description === 'string' && /unix seconds/i.test(s.description);

function types(s: JsonSchema): string[] {
  const t = s.type;
  return Array.isArray(t) ? (t as string[]) : typeof t === 'string' ? [t] : [];
}
function isNumeric(s: JsonSchema): boolean {
  const t = types(s);
  return t.includes('number') || t.includes('integer');
}

/** The key a fraction field gets in a tool result (`change24h` → `change24hPct`). */
export const pctKey = (key: string): string => `${key}Pct`;

/** Percent with at most 4 decimals (a fraction has ~15 significant digits; 4 decimals of a percent is plenty). */
export const toPct = (fraction: number): number => Math.round(fraction * 1e6) / 1e4;

const percentDescription = (d: unknown): string =>
  typeof d === 'string' ? d.replace(/\bfractions?\b/gi, 'percent (0-100 scale)') : 'Percent.';

/** Component names (api/schema.ts `component()`) carried over to the presented copies, for `factorSchema`. */
const presentedNames = new WeakMap<object, string>();

/** The tool-facing version of a REST schema (see the module comment). */
export function presentSchema(schema: JsonSchema, key = ''): JsonSchema {
  const out = presentSchemaNode(schema, key);
  const name = schema && typeof schema === 'object' ? componentName(schema) : undefined;
  if (name && out && typeof out === 'object') presentedNames.set(out, name);
  return out;
}

/**
 * A schema with every named REST component that occurs more than once moved to `$defs` and referenced by `$ref`
 * (tokens, assets, trades repeat in many answers): the same JSON Schema 2020-12 meaning, a fraction of the
 * tools/list size.
 */
export function factorSchema(schema: JsonSchema): JsonSchema {
  const counts = new Map<string, number>();
  const count = (s: unknown) => {
    if (Array.isArray(s)) return s.forEach(count);
    if (!s || typeof s !== 'object') return;
    const name = presentedNames.get(s);
    if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
    for (const v of Object.values(s)) count(v);
  };
  count(schema);
  const defs: Record<string, unknown> = {};
  // depth = how many `properties` levels down: field descriptions are kept on the answer's own fields (depth 1)
  // only; nested ones are in the OpenAPI document and would double the tools/list size.
  const rewrite = (s: unknown, depth: number, root = false): unknown => {
    if (Array.isArray(s)) return s.map((x) => rewrite(x, depth));
    if (!s || typeof s !== 'object') return s;
    const name = presentedNames.get(s);
    if (!root && name && (counts.get(name) ?? 0) > 1) {
      if (!(name in defs)) {
        defs[name] = {};
        defs[name] = rewrite(s, 1, true);
      }
      return { $ref: `#/$defs/${name}` };
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(s)) {
      if (k === 'description' && depth > 1) continue;
      if (k === 'properties' && v && typeof v === 'object')
        out[k] = Object.fromEntries(Object.entries(v).map(([pk, pv]) => [pk, rewrite(pv, depth + 1)]));
      else out[k] = rewrite(v, depth);
    }
    return out;
  };
  const out = rewrite(schema, 0, true) as JsonSchema;
  return Object.keys(defs).length ? { ...out, $defs: defs } : out;
}

const UNIX_SECONDS = /unix seconds/gi;
const ISO_TIME = 'ISO 8601 UTC time';

function presentSchemaNode(schema: JsonSchema, key: string): JsonSchema {
  if (!schema || typeof schema !== 'object') return schema;
  // `x-*` keywords are this API's own annotations for ajv messages, not JSON Schema: tool clients never see them.
  const out: JsonSchema = Object.fromEntries(Object.entries(schema).filter(([k]) => !k.startsWith('x-')));
  if (isFraction(schema, key)) {
    out.description = percentDescription(schema.description);
    if (types(schema).includes('integer')) out.type = types(schema).map((t) => (t === 'integer' ? 'number' : t));
    for (const k of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const)
      if (typeof schema[k] === 'number') out[k] = (schema[k] as number) * 100;
    return out;
  }
  if (isUnixSeconds(schema)) {
    return {
      type: types(schema).includes('null') ? ['string', 'null'] : 'string',
      format: 'date-time',
      description: String(schema.description).replace(UNIX_SECONDS, ISO_TIME),
    };
  }
  if (schema.properties && typeof schema.properties === 'object') {
    const props: Record<string, JsonSchema> = {};
    const renames = new Map<string, string>();
    for (const [k, v] of Object.entries(schema.properties as Record<string, JsonSchema>)) {
      const key = renamed(k, v);
      if (key !== k) renames.set(k, key);
      props[key] = presentSchema(v, k);
    }
    out.properties = props;
    if (Array.isArray(schema.required)) out.required = (schema.required as string[]).map((r) => renames.get(r) ?? r);
  }
  if (schema.items && typeof schema.items === 'object') out.items = presentSchema(schema.items as JsonSchema);
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const)
    if (Array.isArray(schema[k])) out[k] = (schema[k] as JsonSchema[]).map((b) => presentSchema(b, key));
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object')
    out.additionalProperties = presentSchema(schema.additionalProperties as JsonSchema);
  // A list's or object's own description may name the unit of a time inside it (the PnL series: "time: unix
  // seconds"); that time is presented as ISO above, so the description says what the result carries.
  if (typeof out.description === 'string') out.description = out.description.replace(UNIX_SECONDS, ISO_TIME);
  return out;
}

/** The tool-facing version of a REST value valid under `schema`. */
export function presentValue(schema: JsonSchema, value: Json, key = ''): Json {
  if (value === null || value === undefined || !schema || typeof schema !== 'object') return value;
  if (isFraction(schema, key)) return typeof value === 'number' ? toPct(value) : value;
  if (isUnixSeconds(schema)) return typeof value === 'number' ? new Date(value * 1000).toISOString() : value;
  if (Array.isArray(value)) {
    const items = (schema.items ?? {}) as JsonSchema;
    return value.map((v) => presentValue(items, v));
  }
  if (typeof value === 'object') {
    const branches = (['anyOf', 'oneOf'] as const).flatMap((k) =>
      Array.isArray(schema[k]) ? (schema[k] as JsonSchema[]) : [],
    );
    const objectBranch = branches.find((b) => b.properties);
    const props = (schema.properties ?? objectBranch?.properties ?? {}) as Record<string, JsonSchema>;
    const extra =
      schema.additionalProperties && typeof schema.additionalProperties === 'object'
        ? (schema.additionalProperties as JsonSchema)
        : null;
    // Keys may be chain data (metadata map keys such as `__proto__` or `constructor`): a key's schema is the
    // properties' own entry only, and fromEntries defines every key as an own property (an assignment
    // `out['__proto__'] = v` would set the prototype and drop the key).
    return Object.fromEntries(
      Object.entries(value as Record<string, Json>).map(([k, v]) => {
        const s = Object.hasOwn(props, k) ? props[k] : extra;
        return s ? [renamed(k, s), presentValue(s, v, k)] : [k, v];
      }),
    );
  }
  return value;
}
