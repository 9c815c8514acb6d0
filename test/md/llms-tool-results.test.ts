/**
 * llms-full.txt names each tool's result fields. get_address answers one of two shapes (a payment address or a stake
 * address: its published outputSchema is a `oneOf` whose branches hold the fields, with only the as-of fields the
 * server adds at the top); its entry read "Result fields: asOf, lagSeconds, truncated", as if the answer held
 * nothing but its time. Oracle: the tool list as tools/list publishes it (`TOOLS`): every field a published schema
 * requires of a result, of each shape, is named in that tool's entry.
 */
import assert from 'node:assert/strict';
import { siteInfo } from '../../api/discovery/routes.js';
import { buildOpenApi } from '../../api/openapi.js';
import { restRoutes } from '../../api/routes/index.js';
import { TOOLS } from '../../api/mcp/tools.js';
import { loadConfig } from '../../config/index.js';
import { renderLlmsFull } from '../../views/discovery/llms.js';
import type { ToolDef } from '../../views/discovery/types.js';

type Schema = { properties?: Record<string, unknown>; required?: string[]; oneOf?: Schema[]; anyOf?: Schema[] };

describe('llms-full.txt: the result fields of every tool', () => {
  const site = 'http://data.test';
  const doc = buildOpenApi(restRoutes(), site);
  const full = renderLlmsFull(
    siteInfo(loadConfig({ SITE_URL: site })),
    doc as Parameters<typeof renderLlmsFull>[1],
    TOOLS as unknown as ToolDef[],
  );
  const entry = (name: string) => {
    const from = full.indexOf(`### ${name}\n`);
    assert.ok(from >= 0, name);
    const to = full.indexOf('\n### ', from + 1);
    return full.slice(from, to < 0 ? undefined : to);
  };
  const resultPart = (name: string) => entry(name).split('Result fields')[1] ?? '';

  it('names every field the published schema requires, of every shape of the result', () => {
    for (const t of TOOLS) {
      const s = t.outputSchema as Schema;
      const shapes = s.oneOf ?? s.anyOf ?? [s];
      const text = resultPart(t.name);
      for (const shape of shapes)
        for (const field of [...(shape.required ?? []), ...(s.required ?? [])])
          assert.match(text, new RegExp(`\\b${field}\\b`), `${t.name}: ${field}`);
    }
  });

  it('get_address: a payment address’s balance and assets, a stake address’s stake account, by shape', () => {
    const text = resultPart('get_address');
    for (const field of ['address', 'type', 'balance', 'assets', 'stakeAddress', 'stakeAccount', 'asOf'])
      assert.match(text, new RegExp(`\\b${field}\\b`), field);
    assert.match(text, /type "payment"/);
    assert.match(text, /type "stake"/);
  });

  /**
   * A tool argument's default (list_tokens: limit 20, sort rank) is what a call without it gets: tools/list publishes
   * it, the REST parameters of llms-full.txt show theirs, and the tool arguments left it out, so a reader could not
   * tell how many items a call returns. Oracle: the published input schemas.
   */
  it('shows the default of every tool argument that has one, as tools/list publishes it', () => {
    let defaults = 0;
    for (const t of TOOLS) {
      const args = entry(t.name).split('Result fields')[0] as string;
      for (const [name, p] of Object.entries(t.inputSchema.properties)) {
        if (p.default === undefined) continue;
        defaults++;
        const line = args.split('\n').find((l) => l.startsWith(`| ${name}? |`));
        assert.ok(line, `${t.name}.${name}`);
        assert.ok(line.includes(`(default ${String(p.default)})`), `${t.name}.${name}: ${line}`);
      }
    }
    assert.ok(defaults >= 20, `${defaults} defaults`);
    const limit = entry('list_tokens')
      .split('\n')
      .find((l) => l.startsWith('| limit? |'));
    assert.match(limit ?? '', /\| integer 1–40 \(default 20\) \|/);
  });
});
