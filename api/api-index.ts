/**
 * GET /api/v1: what a caller finds at the API's root (spec: `{base_url}` ends in /api/v1) — its version, where its
 * description, documentation and other surfaces are, and every operation with its path. Built once from the same
 * route list as the OpenAPI document, so it never names a route that is not served.
 */
import { OPENAPI_VERSION } from './openapi.js';
import { defineRoute, type AnyRouteSpec } from './route.js';

const url = { type: 'string', format: 'uri' } as const;

export const apiIndexRoute = defineRoute({
  operationId: 'getApiIndex',
  path: '/',
  summary: 'This API: its version, where its description and documentation are, and every operation',
  tags: ['Meta'],
  response: {
    type: 'object',
    required: ['name', 'version', 'openapi', 'docs', 'toolServer', 'markdown', 'llms', 'operations'],
    properties: {
      name: { type: 'string', description: 'The API’s name.' },
      version: { type: 'string', description: 'Version of the OpenAPI document (info.version).' },
      openapi: { ...url, description: 'The OpenAPI 3.1 description of every operation.' },
      docs: { ...url, description: 'Human-readable documentation: limits, keys, errors.' },
      toolServer: { ...url, description: 'The MCP tool server (JSON-RPC over HTTP POST).' },
      markdown: { ...url, description: 'The index of the Markdown views.' },
      llms: { ...url, description: 'llms.txt: the service described for language models.' },
      operations: {
        type: 'array',
        description: 'Every operation of this API, in the OpenAPI document’s order.',
        items: {
          type: 'object',
          required: ['operationId', 'method', 'path', 'summary'],
          properties: {
            operationId: { type: 'string' },
            method: { type: 'string', const: 'GET' },
            path: { type: 'string', description: 'Absolute path, with {parameters} as in the OpenAPI document.' },
            summary: { type: 'string' },
          },
        },
      },
    },
  },
  etag: true,
});

/** The index's body for a deployment at `siteUrl`, over the documented `routes` under `prefix`. */
export function buildApiIndex(routes: readonly AnyRouteSpec[], siteUrl: string, prefix: string) {
  const site = siteUrl.replace(/\/+$/, '');
  return {
    name: 'Cardano data service REST API',
    version: OPENAPI_VERSION,
    openapi: `${site}${prefix}/openapi.json`,
    docs: `${site}/docs`,
    toolServer: `${site}/api/mcp`,
    markdown: `${site}/api/md`,
    llms: `${site}/llms.txt`,
    operations: routes.map((r) => ({
      operationId: r.operationId,
      method: 'GET' as const,
      path: r.path === '/' ? prefix : `${prefix}${r.path}`,
      summary: r.summary,
    })),
  };
}
