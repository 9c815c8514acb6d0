/**
 * The OpenAPI 3.1 document of /api/v1 (spec: Versioning), generated from the route specs, i.e. from the same
 * JSON Schema objects that validate the requests. Schemas named with `component()` are emitted once under
 * `components.schemas` and referenced elsewhere.
 */
import { defineRoute, type AnyRouteSpec } from './route.js';
import { ErrorBody, RateLimitErrorBody } from './schemas/common.js';
import { componentName, type JsonSchema } from './schema.js';

export const OPENAPI_VERSION = '1.0.0';

export const openApiRoute = defineRoute({
  operationId: 'getOpenApi',
  path: '/openapi.json',
  summary: 'This API description (OpenAPI 3.1)',
  tags: ['Meta'],
  response: {
    type: 'object',
    required: ['openapi', 'info', 'paths'],
    properties: {
      openapi: { type: 'string', const: '3.1.0' },
      info: {
        type: 'object',
        required: ['title', 'version'],
        properties: { title: { type: 'string' }, version: { type: 'string' }, description: { type: 'string' } },
      },
      paths: {
        type: 'object',
        additionalProperties: { type: 'object', description: 'Path Item Object (OpenAPI 3.1).' },
      },
    },
    description: 'An OpenAPI 3.1 document.',
  },
  etag: true,
});

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  security: Record<string, string[]>[];
  tags: { name: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
}

const jsonContent = (schema: unknown) => ({ 'application/json': { schema } });
const intHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

/**
 * Headers of a limited answer: the caller's per-minute window (per IP without a key, per key with one) and, with a
 * key, the day's quota. Absent when rate limits are off, and on the logo route without a key.
 */
const RATE_HEADERS = {
  'X-RateLimit-Limit': intHeader('Requests allowed per minute.'),
  'X-RateLimit-Remaining': intHeader('Requests left in the current minute.'),
  'X-RateLimit-Reset': intHeader('When the current minute window ends, unix seconds.'),
  'X-Daily-Remaining': intHeader('Requests left today (keyed requests).'),
};
const REQUEST_ID_HEADER = {
  'X-Request-Id': { description: 'Id of this request in the service logs.', schema: { type: 'string' } },
};

/** Collects named schemas while replacing their uses by `$ref`. */
class SchemaHoister {
  readonly schemas: Record<string, unknown> = {};
  private readonly byName = new Map<string, object>();

  ref(schema: unknown): unknown {
    return this.walk(schema, false);
  }

  private walk(s: unknown, isComponentRoot: boolean): unknown {
    if (Array.isArray(s)) return s.map((x) => this.walk(x, false));
    if (s === null || typeof s !== 'object') return s;
    const name = isComponentRoot ? undefined : componentName(s);
    if (name) {
      this.add(name, s);
      return { $ref: `#/components/schemas/${name}` };
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(s)) out[k] = this.walk(v, false);
    return out;
  }

  private add(name: string, schema: object): void {
    const known = this.byName.get(name);
    if (known === schema) return;
    if (known) throw new Error(`two different schemas are named ${name}`);
    this.byName.set(name, schema);
    this.schemas[name] = this.walk(schema, true);
  }
}

function parametersOf(route: AnyRouteSpec, h: SchemaHoister): unknown[] {
  const out: unknown[] = [];
  const add = (where: 'path' | 'query', props: Record<string, JsonSchema>, required: readonly string[]) => {
    for (const [name, schema] of Object.entries(props)) {
      const description = typeof schema.description === 'string' ? schema.description : undefined;
      out.push({
        name,
        in: where,
        required: where === 'path' || required.includes(name),
        ...(description ? { description } : {}),
        schema: h.ref(schema),
      });
    }
  };
  if (route.params) add('path', route.params.properties, route.params.required ?? []);
  add('query', route.query.properties, route.query.required ?? []);
  return out;
}

/** The document for `routes`, served from `siteUrl + /api/v1`. Throws on duplicate paths or operation ids. */
export function buildOpenApi(routes: readonly AnyRouteSpec[], siteUrl: string): OpenApiDocument {
  const h = new SchemaHoister();
  const paths: Record<string, Record<string, unknown>> = {};
  const operationIds = new Set<string>();
  const tags = new Set<string>();
  for (const route of routes) {
    if (paths[route.path]) throw new Error(`duplicate route ${route.path}`);
    if (operationIds.has(route.operationId)) throw new Error(`duplicate operationId ${route.operationId}`);
    operationIds.add(route.operationId);
    route.tags.forEach((t) => tags.add(t));
    // Every JSON answer carries an ETag of its bytes and honours If-None-Match (register() in api/route.ts; its 304 by api/micro-cache.ts).
    const etag = route.etag || route.contentType === undefined;
    const ok: Record<string, unknown> = {
      description: 'OK',
      headers: {
        ...(etag ? { ETag: { description: 'Version of this answer', schema: { type: 'string' } } } : {}),
        ...RATE_HEADERS,
        ...REQUEST_ID_HEADER,
      },
      content: route.contentType
        ? { [route.contentType]: { schema: h.ref(route.response) } }
        : jsonContent(h.ref(route.response)),
    };
    paths[route.path] = {
      get: {
        operationId: route.operationId,
        summary: route.summary,
        ...(route.description ? { description: route.description } : {}),
        tags: [...route.tags],
        parameters: parametersOf(route, h),
        responses: {
          '200': ok,
          ...(etag ? { '304': { description: 'Not modified (If-None-Match matched the ETag).' } } : {}),
          '400': { $ref: '#/components/responses/BadRequest' },
          '401': { $ref: '#/components/responses/Unauthorized' },
          '404': { $ref: '#/components/responses/NotFound' },
          '429': { $ref: '#/components/responses/TooManyRequests' },
          '503': { $ref: '#/components/responses/ServiceUnavailable' },
        },
      },
    };
  }
  const errorBody = h.ref(ErrorBody);
  const responses = {
    BadRequest: { description: 'Invalid parameters.', content: jsonContent(errorBody) },
    Unauthorized: { description: 'Invalid or revoked API key.', content: jsonContent(errorBody) },
    NotFound: { description: 'Not found.', content: jsonContent(errorBody) },
    TooManyRequests: {
      description: 'Rate limit or daily quota exceeded: wait Retry-After seconds, then continue.',
      headers: { 'Retry-After': intHeader('Seconds to wait.'), ...RATE_HEADERS, ...REQUEST_ID_HEADER },
      content: jsonContent(h.ref(RateLimitErrorBody)),
    },
    ServiceUnavailable: {
      description:
        'Not ready yet: the answer is a precomputed document its recompute has not written (right after start, or for a token newer than the last recompute), or the store does not answer. Retry after Retry-After seconds.',
      headers: { 'Retry-After': intHeader('Seconds to wait.'), ...REQUEST_ID_HEADER },
      content: jsonContent(errorBody),
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Cardano data service',
      version: OPENAPI_VERSION,
      description:
        'Read-only Cardano data: explorer, tokens, pools, wallets, NFTs, staking, governance, handles, the Iagon storage network, market, swap quotes, news. ADA amounts are whole ADA; token amounts are decimal-adjusted. Anonymous access works; an API key (x-api-key header or Authorization: Bearer) raises the limits.',
    },
    servers: [{ url: `${siteUrl.replace(/\/+$/, '')}/api/v1` }],
    // `{}` = anonymous access is allowed.
    security: [{}, { apiKey: [] }, { bearer: [] }],
    tags: [...tags].map((name) => ({ name })),
    paths,
    components: {
      schemas: h.schemas,
      responses,
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        bearer: { type: 'http', scheme: 'bearer', description: 'The API key as a bearer token.' },
      },
    },
  };
}
