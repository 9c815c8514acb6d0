/**
 * JSON Schema 2020-12 is the one schema language of the API: the same objects validate requests (ajv, compiled
 * once at module scope), describe responses, and generate the OpenAPI 3.1 document (api/openapi.ts). Schemas
 * registered with `component()` appear once under `components.schemas` and are referenced by `$ref` there; ajv
 * sees them inline, so no `$ref` resolution is needed at validation time.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export type JsonSchema = { [keyword: string]: unknown };

export interface ObjectSchema extends JsonSchema {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required?: readonly string[];
}

/**
 * Shared validator. `coerceTypes` turns query strings into the declared numbers and booleans, `useDefaults`
 * fills declared defaults, `allErrors` reports every bad parameter at once, `verbose` keeps the failing schema so
 * messages can use its `x-expected` wording.
 */
export const ajv = new Ajv2020({
  allErrors: true,
  coerceTypes: true,
  useDefaults: true,
  strict: true,
  allowUnionTypes: true,
  verbose: true,
});
addFormats.default(ajv);
/** Human wording of what a parameter must be ("64 hex characters"), used in 400 messages. */
ajv.addKeyword({ keyword: 'x-expected', schemaType: 'string' });

const componentNames = new WeakMap<object, string>();

/** Names a schema as an OpenAPI component (`#/components/schemas/<name>`); returns it unchanged. */
export function component<S extends JsonSchema>(name: string, schema: S): S {
  componentNames.set(schema, name);
  return schema;
}

export const componentName = (schema: object): string | undefined => componentNames.get(schema);

/** `T | null` in 2020-12 form. */
export const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
