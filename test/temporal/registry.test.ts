/**
 * Every workflow declares what it reads and writes (issue: "declares what it reads and writes"); the declaration
 * names real collections, so `ops -- jobs` tells an operator which documents a job touches before they retry it.
 */
import assert from 'node:assert/strict';
import { defaultExtensions } from '../../activities/extensions.js';
import { ALL_COLLECTIONS } from '../../mongo/collections/index.js';
import { jobsTable, parseOpsArgs } from '../../temporal/ops.js';
import { SCHEDULES } from '../../temporal/schedules.js';
import { WORKFLOWS } from '../../workflows/registry.js';

const known = new Set(ALL_COLLECTIONS.map((c) => c.name));

describe('workflow registry: declared reads and writes', function () {
  for (const [name, w] of Object.entries(WORKFLOWS)) {
    it(`${name} names only existing collections (or ledger-state queries)`, function () {
      assert.ok(w.writes.length > 0, `${name} declares no writes`);
      for (const c of [...w.reads, ...w.writes])
        assert.ok(known.has(c) || c.startsWith('ledger:') || c.startsWith('http:'), `${name}: unknown collection ${c}`);
    });
  }

  it('the chain sync declares every collection its extensions write', function () {
    for (const ext of defaultExtensions())
      for (const c of ext.collections)
        assert.ok(WORKFLOWS.syncChain.writes.includes(c.name), `syncChain.writes lacks ${c.name} (${ext.name})`);
  });

  it('no two scheduled jobs write the same collection', function () {
    const owner = new Map<string, string>();
    for (const s of SCHEDULES)
      for (const c of WORKFLOWS[s.workflow as keyof typeof WORKFLOWS].writes) {
        assert.equal(owner.get(c) ?? s.id, s.id, `${c} written by ${owner.get(c)} and ${s.id}`);
        owner.set(c, s.id);
      }
  });

  it('`ops -- jobs` lists every schedule with its interval, reads and writes', function () {
    assert.deepEqual(parseOpsArgs(['jobs']), { cmd: 'jobs' });
    const lines = jobsTable(SCHEDULES);
    assert.equal(lines.length, SCHEDULES.length + 2);
    const market = lines.find((l) => l.startsWith('market '));
    assert.ok(market?.includes('20 s') && market.includes('token_stats'), market);
    // The safety job reads the market job's token stats: it runs after it (workflows/derived.ts).
    const [header, , safety] = [lines[0], lines[1], lines.find((l) => l.startsWith('safety '))];
    const after = header!.indexOf('after');
    assert.equal(safety?.slice(after).split(/\s{2,}/)[0], 'market', safety);
  });
});
