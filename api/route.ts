/**
 * Route specs: one object per REST operation holding its path, summary and schemas. The router registers
 * handlers through `register()` (so each route validates its input the same way) and the OpenAPI document is
 * generated from the same specs, so a route cannot exist without being documented (test/api/openapi.test.ts).
 */
import type Router from '@koa/router';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type Koa from 'koa';
import type { ApiDeps } from './deps.js';
import { BadRequestError } from './errors.js';
import { isFresh } from './fresh.js';
import { jsonBytes } from './json-bytes.js';
import { ajv, type JsonSchema, type ObjectSchema } from './schema.js';
import { AsOf } from './schemas/common.js';

/** Query parameters every endpoint accepts (spec, REST conventions). */
export interface CommonQuery {
  /** `url`: send logo URLs instead of inline images in `logo` fields. */
  logos?: 'url';
}

export const LOGOS_PARAM: JsonSchema = {
  type: 'string',
  enum: ['url'],
  description: 'url: send logo URLs instead of inline images in logo fields (recommended).',
};

export interface RouteDef {
  /** Unique; also the Koa route name. */
  operationId: string;
  /** OpenAPI form, relative to /api/v1, e.g. `/explorer/blocks/{id}`. */
  path: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  /** Path parameters (all required, strings before coercion). */
  params?: ObjectSchema;
  /** Query parameters besides the common ones. */
  query?: ObjectSchema;
  /** Body of the 200 answer. */
  response: JsonSchema;
  /** A non-JSON answer carries an ETag and honours If-None-Match with 304 (every JSON answer does: register() and the micro-cache). */
  etag?: boolean;
  /** Media type of the 200 answer when it is not JSON (the logo image: `image/*`). */
  contentType?: string;
  /**
   * For a path parameter that failed validation, a sentence naming the form the route takes when the value given is
   * recognisably another form of the same thing (a stake pool's key hash for its pool1… id), or null.
   */
  paramHints?: Readonly<Record<string, (raw: string) => string | null>>;
}

/**
 * A param hint for a bech32 id in capitals (bech32 has one case; all capitals is how QR codes carry it): the same id
 * in lowercase, which is what the routes take, as for pool ids and addresses. Null when the lowercase text is no id
 * either (`isId`): a mistyped id in capitals is no id in lowercase, and naming it sent the caller on to a second 400.
 */
export function lowercaseIdHint(raw: string, isId: (lower: string) => boolean): string | null {
  const lower = raw.toLowerCase();
  return lower !== raw && isId(lower) ? `write it in lowercase: ${lower}` : null;
}

export interface RouteSpec<P extends object = object, Q extends object = object> extends RouteDef {
  /** The path in Koa router syntax (`/explorer/blocks/:id`). */
  readonly koaPath: string;
  /** Query schema including the common parameters. */
  readonly query: ObjectSchema;
  /** The answer may carry inline logos (a `logo` field in its schema): see api/json-bytes.ts. */
  readonly inlineLogos: boolean;
  /** Validates and coerces copies of the raw parameters; throws BadRequestError naming each bad parameter. */
  parse(params: Record<string, string | undefined>, query: Record<string, unknown>): { params: P; query: Q };
}

export type AnyRouteSpec = RouteSpec<object, object>;

/** Compiles the route's schemas once (call at module scope). */
export function defineRoute<P extends object = Record<string, never>, Q extends object = object>(
  def: RouteDef,
): RouteSpec<P, Q & CommonQuery> {
  const query: ObjectSchema = {
    ...def.query,
    type: 'object',
    properties: { ...def.query?.properties, logos: LOGOS_PARAM },
  };
  const params: ObjectSchema = def.params ?? { type: 'object', properties: {} };
  const checkParams = ajv.compile(params) as ValidateFunction<P>;
  const checkQuery = ajv.compile(query) as ValidateFunction<Q & CommonQuery>;
  const [numericPath, numericQuery] = [numericParams(params), numericParams(query)];
  // Path parameters the query does not also declare (see parse).
  const shadowed = Object.keys(params.properties).filter((k) => !Object.hasOwn(query.properties, k));
  return {
    ...def,
    response: withAsOfField(def.response),
    query,
    inlineLogos: JSON.stringify(def.response).includes('"logo"'),
    koaPath: def.path.replace(/\{(\w+)\}/g, ':$1'),
    parse(rawParams, givenQuery) {
      // A query parameter named as a path parameter is none of the route's: the path says what is asked. Route
      // handlers merge `{ ...params, ...query }`, so `/wallet/$name?address=addr1…` answered for the query's address
      // (past the path's checks: `/explorer/blocks/1?id=1&id=2` reached the store as a list, a 500). Ignored, as any
      // parameter the route does not take.
      let rawQuery = givenQuery;
      if (shadowed.some((k) => Object.hasOwn(givenQuery, k))) {
        rawQuery = { ...givenQuery };
        for (const k of shadowed) delete rawQuery[k];
      }
      const p: unknown = { ...rawParams };
      const q: unknown = { ...rawQuery };
      const problems: string[] = [];
      const check = (
        numeric: NumericParam[],
        validate: ValidateFunction,
        schema: ObjectSchema,
        raw: Record<string, unknown>,
        v: unknown,
        hints: RouteDef['paramHints'] = {},
      ) => {
        const bad = numericTextProblems(numeric, raw);
        // `?a=1&a=2` arrives as a list; ajv would say `must be string` or that 1 is out of range. A parameter the
        // route does not take is ignored however often it comes, as it is once (`?utm=a&utm=b`).
        for (const [name, value] of Object.entries(raw))
          if (Array.isArray(value) && Object.hasOwn(schema.properties, name))
            bad.set(name, `invalid parameter ${name}: given more than once (send it once)`);
        if (!validate(v))
          for (const [name, what] of describeErrorMap(validate.errors)) if (!bad.has(name)) bad.set(name, what);
        for (const [name, what] of bad) {
          const given = raw[name];
          const extra = typeof given === 'string' ? hints[name]?.(given) : null;
          problems.push(extra ? `${what}; ${extra}` : what);
        }
      };
      check(numericPath, checkParams, params, rawParams, p, def.paramHints);
      check(numericQuery, checkQuery, query, rawQuery, q);
      if (problems.length) throw new BadRequestError(problems.join('; '));
      return { params: p as P, query: q as Q & CommonQuery };
    },
  };
}

/**
 * Every JSON answer names the time of the indexed tip block it reflects (api/read/freshness.ts). An answer of
 * either of several objects (oneOf) declares it in each of them (api/schemas/explorer.ts, the address answers).
 */
function withAsOfField(response: JsonSchema): JsonSchema {
  const props = response.properties as Record<string, JsonSchema> | undefined;
  if (response.type !== 'object' || !props || props.asOf) return response;
  return {
    ...response,
    properties: {
      ...props,
      asOf: AsOf,
    },
  };
}

/** Decimal notation of integer and number parameters. */
const INTEGER_TEXT = /^[+-]?[0-9]+$/;
const NUMBER_TEXT = /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$/;

/**
 * Numeric parameters are checked as written before ajv coerces them: its coercion takes whatever `Number()` takes
 * (`0x10`, ` 5`, `Infinity`), and a value coerced to ±Infinity (`1e400`) passes `integer`, `minimum` and `maximum`
 * alike and would reach the store. So an integer must be decimal digits, a number decimal notation, and both finite.
 */
function numericTextProblems(numeric: readonly NumericParam[], raw: Record<string, unknown>): Map<string, string> {
  const bad = new Map<string, string>();
  for (const { name, integer, what } of numeric) {
    const value = raw[name];
    if (typeof value !== 'string') continue;
    if ((integer ? INTEGER_TEXT : NUMBER_TEXT).test(value) && Number.isFinite(Number(value))) continue;
    bad.set(name, `invalid parameter ${name}: must be ${what}`);
  }
  return bad;
}

/** A parameter numericTextProblems checks: its schema takes a number and no string. */
interface NumericParam {
  name: string;
  integer: boolean;
  /** What the 400 says it must be. */
  what: string;
}

/** The numeric parameters of a schema, found once per route rather than per request. */
function numericParams(schema: ObjectSchema): NumericParam[] {
  const out: NumericParam[] = [];
  for (const [name, prop] of Object.entries(schema.properties)) {
    const types = [prop.type].flat();
    if (types.includes('string')) continue;
    const integer = types.includes('integer');
    if (!integer && !types.includes('number')) continue;
    const expected = prop['x-expected'];
    out.push({
      name,
      integer,
      what: typeof expected === 'string' ? expected : integer ? 'an integer' : 'a finite number',
    });
  }
  return out;
}

/** One readable sentence per bad parameter, e.g. `invalid parameter hash: must be 64 hex characters`. */
function describeErrorMap(errors: readonly ErrorObject[] | null | undefined): Map<string, string> {
  const byParam = new Map<string, string>();
  for (const e of errors ?? []) {
    if (e.keyword === 'required') {
      const name = String((e.params as { missingProperty: string }).missingProperty);
      byParam.set(name, `missing parameter ${name}`);
      continue;
    }
    const name = e.instancePath.split('/')[1] ?? '';
    if (byParam.has(name)) continue;
    const expected = (e.parentSchema as JsonSchema | undefined)?.['x-expected'];
    let what: string;
    if (typeof expected === 'string') what = `must be ${expected}`;
    else if (e.keyword === 'enum')
      what = `must be one of ${((e.params as { allowedValues: unknown[] }).allowedValues ?? []).join(', ')}`;
    else what = e.message ?? 'is invalid';
    byParam.set(name, name ? `invalid parameter ${name}: ${what}` : `invalid parameters: ${what}`);
  }
  return byParam;
}

export type RouteHandler<P extends object, Q extends object> = (
  ctx: Koa.ParameterizedContext,
  input: { params: P; query: Q },
) => Promise<unknown>;

/** The Cache-Control of data answers (REST JSON, Markdown views): kept by a cache only to revalidate. */
export const NO_CACHE = 'no-cache';

/** Registers `handler` for GET `spec.koaPath`; the handler returns the body (it may set headers and `ctx.etag`). */
export function register<P extends object, Q extends object>(
  router: Router,
  spec: RouteSpec<P, Q>,
  handler: RouteHandler<P, Q>,
): void {
  router.get(spec.operationId, spec.koaPath, async (ctx) => {
    const input = spec.parse(ctx.params, ctx.query);
    const body = await handler(ctx, input);
    if (spec.contentType === undefined && !Buffer.isBuffer(body) && typeof body !== 'string') {
      // Every JSON answer goes out as bytes with a strong validator of exactly those bytes, so a client (or the
      // micro-cache replaying them) revalidates with If-None-Match and gets a 304 while the answer is unchanged.
      const { bytes, etag } = jsonBytes(body, spec.inlineLogos && (input.query as CommonQuery).logos !== 'url');
      ctx.type = 'application/json; charset=utf-8';
      ctx.etag = etag;
      ctx.body = bytes;
      // A cache may keep the answer but must ask again before each use (a 304 while the ETag holds): it changes with
      // every block, and without an explicit lifetime RFC 9111 lets a cache pick one of its own (Varnish: 120 s).
      ctx.set('Cache-Control', NO_CACHE);
    } else ctx.body = body;
    // A JSON answer's 304 is the micro-cache's to give (api/micro-cache.ts, on every REST path but the logo), once
    // it has chosen the representation: the coding the client takes, with its own ETag and `Vary: Accept-Encoding`.
    // Answered here, a 304 lacked that Vary (RFC 9110 15.4.5: a 304 carries the Vary its 200 would) and named the
    // identity ETag to a client that takes br, which a cached answer would give in br.
    if (spec.contentType !== undefined && ctx.response.etag && isFresh(ctx)) ctx.status = 304;
  });
}

/** One REST resource: its route specs (for the OpenAPI document) and the router that serves them. */
export interface RestModule {
  routes: readonly AnyRouteSpec[];
  router(deps: ApiDeps): Router;
}
