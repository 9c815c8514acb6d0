/**
 * Bad input generated from the OpenAPI document itself (fast-check): for every documented path and every one of its
 * parameters, values that break that parameter's published schema — wrong type, out of the chain's bounds, outside
 * the enum, not matching the pattern, too long, control characters — are answered 4xx with exactly `{ error }`,
 * never a 5xx and never a 200 that ignored the parameter. The oracle for "breaks the schema" is the published
 * schema (ajv over the document's own parameter schema), not the route's validation code.
 */
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { buildOpenApi } from '../../api/openapi.js';
import { restRoutes } from '../../api/routes/index.js';
import { seedChain, startTestApi, TIP, type TestApi } from './seed.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- OpenAPI document

/** Well-formed values for path parameters, so the broken parameter is the only thing wrong with a request. */
const VALID: Record<string, string> = {
  unit: `${'ab'.repeat(28)}4c4f474f`,
  metric: 'price',
  id: String(TIP.height),
  hash: TIP.id,
  address: 'stake1uyehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gh6ffgw',
  policy: 'ab'.repeat(28),
  handle: '$abc',
};

/** A validator of one parameter against its published schema, with `$ref`s resolved from the document. */
function parameterValidator(doc: Json, schema: Json): (value: string) => boolean {
  const ajv = new Ajv2020({ strict: false, coerceTypes: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
  const rewritten = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')) as Json;
  const check = ajv.compile({ type: 'object', properties: { v: rewritten } });
  const integer = [rewritten.type].flat().includes('integer');
  const number = [rewritten.type].flat().includes('number');
  return (value) => {
    // Query text of a number is decimal notation (what a client serialising the number would send).
    if (integer && !/^[+-]?[0-9]+$/.test(value)) return false;
    if (number && !/^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(value)) return false;
    if ((integer || number) && !Number.isFinite(Number(value))) return false;
    return check({ v: value });
  };
}

/** Candidate bad values for a parameter schema: families that break each kind of constraint, plus noise. */
function candidates(schema: Json): fc.Arbitrary<string> {
  const s = schema;
  const families: fc.Arbitrary<string>[] = [
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }),
    fc.constantFrom('', ' ', '%00', '\u0000', '../', 'null', 'undefined', '[]', '{}', "'", '"', '<script>'),
    fc.constantFrom('NaN', 'Infinity', '-Infinity', '1e400', '-1e400', '0x10', ' 5', '5 ', '1.5', '-1', '1e20'),
    fc.bigInt({ min: 10n ** 16n, max: 10n ** 40n }).map(String),
  ];
  if (typeof s.maximum === 'number') families.push(fc.constant(String(s.maximum * 10 + 1)));
  if (typeof s.minimum === 'number') families.push(fc.constant(String(s.minimum - 1)));
  if (typeof s.maxLength === 'number') families.push(fc.constant('a'.repeat(s.maxLength + 1)));
  if (Array.isArray(s.enum)) families.push(fc.constantFrom(...s.enum.map((e: unknown) => `${String(e)}x`)));
  if (typeof s.pattern === 'string') families.push(fc.stringMatching(new RegExp(s.pattern)).map((v) => `${v}!`));
  return fc.oneof(...families);
}

describe('OpenAPI-generated bad input (fast-check): every parameter of every path', function () {
  this.timeout(300_000);
  let api: TestApi;
  let doc: Json;
  before(async () => {
    api = await startTestApi(seedChain);
    doc = buildOpenApi(restRoutes(), 'http://api.test') as unknown as Json;
  });
  after(() => api.close());

  it('answers 4xx { error } to values that break a parameter’s published schema, never 5xx', async () => {
    let requests = 0;
    const paths = Object.entries(doc.paths as Json);
    assert.ok(paths.length > 30);
    for (const [path, item] of paths) {
      const params = ((item as Json).get.parameters as Json[]).filter((p) => p.in === 'path' || p.in === 'query');
      for (const param of params) {
        const schema = (
          param.schema.$ref ? doc.components.schemas[param.schema.$ref.split('/').pop()] : param.schema
        ) as Json;
        const valid = parameterValidator(doc, param.schema as Json);
        const bad = candidates(schema).filter((v) => !valid(v) && !(param.in === 'path' && v === ''));
        await fc.assert(
          fc.asyncProperty(bad, async (value) => {
            let url = path.replace(/\{(\w+)\}/g, (_m, name: string) =>
              encodeURIComponent(name === param.name ? value : (VALID[name] ?? 'x')),
            );
            if (param.in === 'query') url += `?${param.name}=${encodeURIComponent(value)}`;
            requests++;
            const res = await fetch(`${api.url}/api/v1${url}`);
            const text = await res.text();
            const where = `${param.in} ${param.name}=${JSON.stringify(value)} on ${url}: ${res.status} ${text.slice(0, 200)}`;
            assert.ok(res.status >= 400 && res.status < 500, where);
            const body = JSON.parse(text) as Json;
            assert.deepEqual(Object.keys(body), ['error'], where);
            assert.equal(typeof body.error, 'string', where);
          }),
          { numRuns: 12, seed: 20_261_125, endOnFailure: true },
        );
      }
    }
    assert.ok(requests > 300, `${requests} requests`);
  });
});
