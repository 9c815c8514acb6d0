/**
 * llms-full.txt writes each REST parameter's bounds from the served OpenAPI schema. The swap quote's amount has an
 * exclusive minimum (0 is refused, as any amount at or below it: 400) and a maximum; its row read
 * `number –18446744073709552000`, a dash that reads as a minus sign and no word of the lower bound.
 */
import assert from 'node:assert/strict';
import { siteInfo } from '../../api/discovery/routes.js';
import { buildOpenApi } from '../../api/openapi.js';
import { restRoutes } from '../../api/routes/index.js';
import { loadConfig } from '../../config/index.js';
import { renderLlmsFull, typeOf } from '../../views/discovery/llms.js';

describe('llms-full.txt: parameter bounds', () => {
  const site = 'http://data.test';
  const doc = buildOpenApi(restRoutes(), site);
  const full = renderLlmsFull(
    siteInfo(loadConfig({ SITE_URL: site })),
    doc as Parameters<typeof renderLlmsFull>[1],
    null,
  );

  it('the swap quote amount: above 0 (exclusive), at most the largest output quantity', () => {
    const quote = doc.paths['/swap/quote']!.get as { parameters: { name: string; schema: Record<string, unknown> }[] };
    const amount = quote.parameters.find((p) => p.name === 'amount')!;
    // The oracle is the served schema itself: exclusiveMinimum 0, maximum 2^64 − 1 as a JSON number.
    assert.equal(amount.schema.exclusiveMinimum, 0);
    const line = full.split('\n').find((l) => l.startsWith('| amount (required) | query |'));
    assert.ok(line, 'the amount row');
    assert.match(line, /\| number > 0, ≤ 18446744073709552000 \|/);
    assert.doesNotMatch(line, /\| number –/);
  });

  it('inclusive bounds keep their short form', () => {
    assert.equal(typeOf({ type: 'integer', minimum: 1, maximum: 200 }), 'integer 1–200');
    assert.equal(typeOf({ type: 'integer', minimum: 0 }), 'integer 0–');
    assert.equal(typeOf({ type: 'number', exclusiveMinimum: 0 }), 'number > 0');
    assert.match(full, /\| pageSize \| query \| integer 1–200 \(default 50\) \|/);
  });
});

describe('llms-full.txt: parameters of several forms', () => {
  const site = 'http://data.test';
  const doc = buildOpenApi(restRoutes(), site) as unknown as {
    paths: Record<string, { get: { parameters?: { name: string; in: string; schema: Record<string, unknown> }[] } }>;
  };
  const full = renderLlmsFull(
    siteInfo(loadConfig({ SITE_URL: site })),
    doc as unknown as Parameters<typeof renderLlmsFull>[1],
    null,
  );

  it('a parameter whose schema is a string of one of several forms reads string, not "any or any or …"', () => {
    // The oracle is the served schema: the wallet, explorer address and handle path parameters are
    // `{ type: 'string', anyOf: [{ pattern }, …] }`, each branch a form of the same string.
    const rows = full.split('\n');
    let checked = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const p of item.get.parameters ?? []) {
        const alt = (p.schema.anyOf ?? p.schema.oneOf) as Record<string, unknown>[] | undefined;
        if (p.schema.type !== 'string' || !alt?.every((b) => b.type === undefined)) continue;
        const section = full.slice(full.indexOf(`### GET ${path}\n`));
        const row = section.split('\n').find((l) => l.startsWith(`| ${p.name} (required) | ${p.in} |`));
        assert.ok(row, `${path} ${p.name}`);
        assert.equal(row.split(' | ')[2], 'string', `${path}: ${row.slice(0, 80)}`);
        checked++;
      }
    }
    assert.ok(checked >= 5, `${checked} parameters of several forms`);
    assert.ok(!rows.some((l) => / \| any or any/.test(l)));
  });

  it('branches of their own types are still each named', () => {
    assert.equal(typeOf({ anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string' }] }), 'integer 0– or string');
    assert.equal(typeOf({ anyOf: [{ $ref: '#/components/schemas/Pool' }, { type: 'null' }] }), 'Pool or null');
  });
});
