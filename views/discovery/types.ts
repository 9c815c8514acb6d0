/** What the discovery files are generated from: the OpenAPI document, the MCP tool list, the views and the limits. */
export interface JsonSchemaLike {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: JsonSchemaLike;
  properties?: Record<string, JsonSchemaLike>;
  required?: string[];
  $ref?: string;
  anyOf?: JsonSchemaLike[];
  oneOf?: JsonSchemaLike[];
  format?: string;
}

export interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchemaLike;
}

export interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: OpenApiParameter[];
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: JsonSchemaLike }> }>;
}

export interface OpenApiDoc {
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchemaLike> };
}

/** One MCP tool as `tools/list` publishes it (api/mcp/tools.ts `TOOLS`). */
export interface ToolDef {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: JsonSchemaLike;
  outputSchema?: JsonSchemaLike;
}

export interface ViewDef {
  path: string;
  title: string;
}

export interface SiteLimits {
  /** false: this instance runs with RATE_LIMITS=false (a self-hosted one, say): no request is limited. */
  enforced: boolean;
  anonPerMinute: number;
  pnlAnonPerMinute: number;
  pnlKeyPerMinute: number;
  plans: { name: string; perMinute: number; perDay: number }[];
  plansEnforced: boolean;
}

export interface SiteInfo {
  site: string;
  title: string;
  summary: string;
  views: ViewDef[];
  limits: SiteLimits;
}
