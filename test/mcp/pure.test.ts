/**
 * The tool server's pure pieces against hand-computed figures: the presenter rules (fraction → percent, unix
 * seconds → ISO), native-script mint deadlines and the safety levels, rarity ranks from trait frequencies, search
 * terms, the server card's reverse-DNS name, the cut of a result too large for an agent.
 */
import assert from 'node:assert/strict';
import { mintDeadline, assessSafety, type NativeScript } from '../../activities/safety/assess.js';
import { rarityRanks } from '../../activities/search/rarity.js';
import { termsOf } from '../../activities/search/index.js';
import { fitResult } from '../../api/mcp/fit.js';
import { presentSchema, presentValue } from '../../api/mcp/present.js';
import { reverseDns } from '../../api/mcp/server-card.js';
import { legacyToolCalls } from '../../api/mcp/body.js';
import { idTail, ReplayCache, replayCall } from '../../api/mcp/replay.js';
import { singleToolCall } from '../../api/mcp/router.js';
import { adviceFor } from '../../api/mcp/server.js';
import { netChanges, TOOL_DEFINITIONS, TOOL_SET } from '../../api/mcp/tools.js';
import { AppError, BadRequestError } from '../../api/errors.js';
import { routeSpec } from '../../api/mcp/reads.js';
import { restRoutes } from '../../api/routes/index.js';

describe('MCP pure pieces', () => {
  describe('fitResult: a result over the budget loses the tails of its longest lists, and says which', () => {
    /** An output of `n` assets, each 100 characters of JSON or so. */
    const output = (i: number, n: number) => ({
      address: `addr1${String(i).padStart(98, 'q')}`,
      assets: Array.from({ length: n }, (_, k) => ({ unit: `${'ab'.repeat(28)}${String(k).padStart(8, '0')}`, n: k })),
    });
    const fitted = (r: Record<string, unknown>, max: number) => {
      const { result, cuts } = fitResult(r, max);
      const text = JSON.stringify(cuts.length ? { ...result, truncated: cuts } : result);
      return { result: result as { outputs: ReturnType<typeof output>[] }, cuts, text };
    };

    it('a result within the budget is the same object, uncut', () => {
      const r = { outputs: [output(0, 3)] };
      assert.deepEqual(fitResult(r, 10_000), { result: r, cuts: [] });
      assert.equal(fitResult(r, 10_000).result, r);
    });

    it('cuts the inner lists evenly and keeps every outer item; the kept items are the first ones', () => {
      const r = { outputs: Array.from({ length: 20 }, (_, i) => output(i, 40)), fee: 0.17 };
      assert.ok(JSON.stringify(r).length > 3 * 20_000);
      const before = structuredClone(r);
      const { result, cuts, text } = fitted(r, 20_000);
      assert.deepEqual(r, before, 'the input is not changed');
      assert.ok(text.length <= 20_000, `${text.length}`);
      assert.equal(result.outputs.length, 20);
      assert.equal(cuts.length, 20);
      const shown = cuts[0]!.shown;
      for (const [i, c] of cuts.entries()) {
        assert.deepEqual(c, { path: `outputs[${i}].assets`, shown, total: 40 });
        assert.deepEqual(result.outputs[i]!.assets, r.outputs[i]!.assets.slice(0, shown));
      }
      // As much as fits: one more asset in every list would be over the budget.
      assert.ok(text.length + 20 * JSON.stringify(r.outputs[0]!.assets[shown]).length + 20 > 20_000);
    });

    it('a short list stays whole while the long ones are cut to its length', () => {
      const r = { outputs: [output(0, 300), output(1, 10), output(2, 300)] };
      const { result, cuts, text } = fitted(r, 30_000);
      assert.ok(text.length <= 30_000);
      assert.deepEqual(
        result.outputs.map((o) => o.assets.length),
        [cuts[0]!.shown, 10, cuts[0]!.shown],
      );
      assert.deepEqual(
        cuts.map((c) => [c.path, c.total]),
        [
          ['outputs[0].assets', 300],
          ['outputs[2].assets', 300],
        ],
      );
    });

    it('cuts an outer list only once its inner lists are down to one item', () => {
      const r = { outputs: Array.from({ length: 400 }, (_, i) => output(i, 5)) };
      const { result, cuts, text } = fitted(r, 20_000);
      assert.ok(text.length <= 20_000);
      assert.ok(result.outputs.length < 400);
      for (const o of result.outputs) assert.equal(o.assets.length, 1);
      const outer = cuts.find((c) => c.path === 'outputs')!;
      assert.deepEqual(outer, { path: 'outputs', shown: result.outputs.length, total: 400 });
      // The cuts of inner lists of outputs that were cut away are not reported.
      assert.deepEqual(
        cuts.filter((c) => c.path !== 'outputs').map((c) => c.path),
        result.outputs.map((_, i) => `outputs[${i}].assets`),
      );
    });
  });

  it('presents fractions as *Pct percent and unix seconds as ISO, schema and value alike', () => {
    const schema = {
      type: 'object',
      required: ['change24h', 'time', 'saturation', 'volume'],
      properties: {
        change24h: { type: ['number', 'null'] },
        time: { type: 'integer', description: 'Bucket start, unix seconds.' },
        saturation: { type: 'number', description: 'Live stake / saturation point; 1 = saturated.' },
        impact: { type: 'number', description: 'Price impact, fraction.' },
        volume: { type: 'number', description: 'Whole ADA.' },
      },
    };
    const out = presentSchema(schema) as { required: string[]; properties: Record<string, { type: unknown }> };
    assert.deepEqual(out.required, ['change24hPct', 'time', 'saturationPct', 'volume']);
    assert.deepEqual(out.properties.time, {
      type: 'string',
      format: 'date-time',
      description: 'Bucket start, ISO 8601 UTC time.',
    });
    assert.deepEqual(
      presentValue(schema, { change24h: -0.0525, time: 1_795_582_800, saturation: 0.92, impact: 0.00125, volume: 7 }),
      {
        change24hPct: -5.25,
        time: '2026-11-25T05:00:00.000Z',
        saturationPct: 92,
        impactPct: 0.125,
        volume: 7,
      },
    );
    assert.deepEqual(presentValue(schema, { change24h: null }), { change24hPct: null });
  });

  it('get_wallet: a position’s REST change24h fraction becomes change24hPct, × 100 like every other change', () => {
    const wallet = routeSpec('getWallet').response;
    const position = { asset: {}, balance: 1, balanceRaw: '1', priceAda: 2, valueAda: 2, valueUsd: 1 };
    const out = presentValue(wallet, {
      positions: [
        { ...position, change24h: 0.0525 },
        { ...position, change24h: null },
      ],
    });
    const positions = (out as { positions: Record<string, unknown>[] }).positions;
    assert.equal(positions[0]!.change24hPct, 5.25);
    assert.equal(positions[1]!.change24hPct, null);
    assert.ok(!('change24h' in positions[0]!));
  });

  it('every REST field that becomes a …Pct is documented as a fraction, never as a percent', () => {
    // A …Pct field is the REST value × 100, so a REST field fed into one must hold a fraction: a description saying
    // "percent" on such a field is either a wrong description or a field that would be shown 100 × too large/small.
    const problems: string[] = [];
    const walk = (s: unknown, path: string): void => {
      if (Array.isArray(s)) return s.forEach((x) => walk(x, path));
      if (!s || typeof s !== 'object') return;
      const o = s as Record<string, unknown>;
      const props = (o.properties ?? {}) as Record<string, Record<string, unknown>>;
      const presented = (presentSchema(o).properties ?? {}) as Record<string, unknown>;
      for (const [k, v] of Object.entries(props)) {
        const d = typeof v.description === 'string' ? v.description : '';
        if (`${k}Pct` in presented && /\bpercent\b/i.test(d)) problems.push(`${path}.${k}: ${d}`);
        const numeric = [v.type].flat().some((t) => t === 'number' || t === 'integer');
        if (numeric && /^change/.test(k) && !(`${k}Pct` in presented))
          problems.push(`${path}.${k} is not presented as a percent`);
        walk(v, `${path}.${k}`);
      }
      for (const [k, v] of Object.entries(o)) if (k !== 'properties') walk(v, path);
    };
    for (const r of restRoutes()) walk(r.response, r.operationId);
    assert.deepEqual(problems, []);
  });

  it('no tool result carries a unix-seconds time: every integer time field of a REST answer becomes ISO UTC', () => {
    // Spec: tool-server times are UTC (the instructions promise ISO 8601). A REST integer `time` (candles, series
    // points, the PnL series) is unix seconds; presented, it must be a date-time string, whatever the REST schema's
    // wording around it.
    const problems: string[] = [];
    const walk = (s: unknown, path: string): void => {
      if (Array.isArray(s)) return s.forEach((x) => walk(x, path));
      if (!s || typeof s !== 'object') return;
      const o = s as Record<string, unknown>;
      for (const [k, v] of Object.entries((o.properties ?? {}) as Record<string, Record<string, unknown>>)) {
        if (/^time$|Time$/.test(k) && [v.type].flat().includes('integer')) problems.push(`${path}.${k}`);
        walk(v, `${path}.${k}`);
      }
      for (const [k, v] of Object.entries(o)) if (k !== 'properties') walk(v, path);
    };
    for (const t of TOOL_DEFINITIONS) walk(t.outputSchema, t.name);
    assert.deepEqual(problems, []);
    const pnl = presentValue(routeSpec('getWalletPnl').response, { series: [{ time: 1_795_582_800, value: -1.5 }] });
    assert.deepEqual((pnl as { series: unknown[] }).series, [{ time: '2026-11-25T05:00:00.000Z', value: -1.5 }]);
  });

  it('no tools/list description calls a time unix seconds: the results carry them as ISO strings', () => {
    // get_wallet_pnl's series said "Cumulative realised PnL in ADA (time: unix seconds)" in tools/list while each
    // point's time is an ISO string (the point's own description, which said so, is one tools/list leaves out).
    const pnl = presentValue(routeSpec('getWalletPnl').response, { series: [{ time: 1_795_582_800, value: 2 }] });
    assert.equal((pnl as { series: { time: unknown }[] }).series[0]!.time, '2026-11-25T05:00:00.000Z');
    const problems: string[] = [];
    const walk = (s: unknown, path: string): void => {
      if (Array.isArray(s)) return s.forEach((x) => walk(x, path));
      if (!s || typeof s !== 'object') return;
      for (const [k, v] of Object.entries(s)) {
        if (k === 'description' && typeof v === 'string' && /unix|epoch seconds/i.test(v))
          problems.push(`${path}: ${v}`);
        walk(v, `${path}.${k}`);
      }
    };
    for (const t of TOOL_DEFINITIONS) walk(t.outputSchema, t.name);
    assert.deepEqual(problems, []);
    const series = (TOOL_DEFINITIONS.find((t) => t.name === 'get_wallet_pnl')!.outputSchema.properties.series ??
      {}) as {
      description?: string;
    };
    assert.match(series.description ?? '', /ISO 8601/);
  });

  it('a volume whose field description tools/list leaves out is named in ADA by its tool’s description', () => {
    // tools/list keeps field descriptions on a result's own fields only (factorSchema): a nested `volume24h` (a
    // token's stats, a DEX row, a collection row) reaches the agent as a bare number. REST documents it as whole ADA
    // (TokenStats, TokenWindowStats, the overview's DEX rows, NftCollectionRow); the tool's description must say so,
    // or an agent reads a token's 24 h volume as USD.
    const rest = JSON.stringify(routeSpec('getToken').response);
    assert.match(rest, /"volume24h":\{[^}]*Whole ADA/, 'REST: TokenStats.volume24h is whole ADA');
    const problems: string[] = [];
    for (const t of TOOL_DEFINITIONS) {
      const defs = ((t.outputSchema as Record<string, unknown>).$defs ?? {}) as Record<string, unknown>;
      const bare = new Set<string>();
      const seen = new Set<string>();
      const walk = (s: unknown): void => {
        if (Array.isArray(s)) return s.forEach(walk);
        if (!s || typeof s !== 'object') return;
        const o = s as Record<string, unknown>;
        const ref = typeof o.$ref === 'string' ? o.$ref.split('/').pop()! : null;
        if (ref && !seen.has(ref)) {
          seen.add(ref);
          walk(defs[ref]);
        }
        for (const [k, v] of Object.entries((o.properties ?? {}) as Record<string, Record<string, unknown>>))
          if (/^volume/i.test(k) && !/(Ada|Usd|Lovelace)$/.test(k) && !v.description && !v.$ref) bare.add(k);
        for (const [k, v] of Object.entries(o)) if (k !== '$defs') walk(v);
      };
      walk(t.outputSchema);
      if (bare.size && !/volume[^,.;]*\bADA\b/i.test(t.description))
        problems.push(`${t.name}: ${[...bare].join(', ')} without a unit`);
    }
    assert.deepEqual(problems, []);
  });

  it('every amount tools/list shows without its unit is given one by its tool’s description', () => {
    // The oracle is the REST schema: a field REST documents as "Whole ADA" or "Decimal-adjusted" whose description
    // tools/list leaves out (factorSchema keeps the answer's own fields' descriptions only) and whose name says no
    // unit reaches the agent as a bare number: a trade's batcherFee, amountIn and amountOut, a position's balance, a
    // collection's sale price, a stake pool's delegated stake. The tool's description must name the unit, or an
    // agent reads a fee of 2 as lovelace or a token amount as base units.
    const unitInName = /(Ada|Usd|Lovelace|Pct|Percent|Raw)$/;
    const adaWords = /\bwhole ADA\b|\bin ADA\b|\(ADA\b/;
    const problems: string[] = [];
    for (const tool of TOOL_SET) {
      const published = TOOL_DEFINITIONS.find((d) => d.name === tool.name)!.outputSchema;
      // Every field description tools/list publishes, whatever the field's depth or $defs entry.
      const kept = new Set<string>();
      const collect = (s: unknown): void => {
        if (Array.isArray(s)) return s.forEach(collect);
        if (!s || typeof s !== 'object') return;
        for (const [k, v] of Object.entries(((s as Record<string, unknown>).properties ?? {}) as object))
          if (typeof (v as { description?: unknown }).description === 'string') kept.add(`${k}|${v.description}`);
        Object.values(s).forEach(collect);
      };
      collect(published);
      const ada = new Set<string>();
      const decimal = new Set<string>();
      const walk = (s: unknown): void => {
        if (Array.isArray(s)) return s.forEach(walk);
        if (!s || typeof s !== 'object') return;
        for (const [k, v] of Object.entries(((s as Record<string, unknown>).properties ?? {}) as object)) {
          const d = (v as { description?: unknown }).description;
          if (typeof d !== 'string' || unitInName.test(k) || kept.has(`${k}|${d}`)) continue;
          if (/whole ADA/i.test(d)) ada.add(k);
          if (/decimal-adjusted/i.test(d)) decimal.add(k);
        }
        Object.values(s).forEach(walk);
      };
      walk(tool.outputSchema);
      if (ada.size && !adaWords.test(tool.description))
        problems.push(`${tool.name}: ${[...ada].join(', ')} in ADA, not said`);
      if (decimal.size && !/decimal-adjusted/i.test(tool.description))
        problems.push(`${tool.name}: ${[...decimal].join(', ')} decimal-adjusted, not said`);
    }
    assert.deepEqual(problems, []);
  });

  it('list_governance_actions: its status argument says which value holds ratified and enacted proposals', () => {
    // An agent asked "which proposals were ratified?" tried status ratified (or enacted) and was told only "must be
    // one of active, expired, removed". The spec's and the ledger's meaning: a ratified proposal is enacted and
    // leaves the ledger's proposal state before its last epoch, as a dropped one does (status removed).
    const gov = TOOL_DEFINITIONS.find((t) => t.name === 'list_governance_actions')!;
    const status = gov.inputSchema.properties.status as { description: string; enum: string[] };
    assert.deepEqual(status.enum, ['active', 'expired', 'removed']);
    assert.match(status.description, /\bratified\b/);
    assert.match(status.description, /removed: left the ledger before expiring \(ratified and enacted, or dropped\)/);
    assert.match(status.description, /active: open for votes/);
  });

  it('list_nft_collections: its sort argument says the ranking starts from the largest (highest floor first)', () => {
    // The REST ranking (api/read/nft.ts, spec: ranked collections) is descending; 'Ranking.' did not say which end
    // came first, so "the cheapest collections" read sort floor as lowest floor first.
    const nft = TOOL_DEFINITIONS.find((t) => t.name === 'list_nft_collections')!;
    const sort = nft.inputSchema.properties.sort as { description: string };
    assert.match(sort.description, /largest first/);
    assert.match(sort.description, /floor: highest floor first; collections without a floor last/);
  });

  it('list_tokens: its sort argument says gainers and losers rank the USD change, not the ADA change', () => {
    // The tool reads GET /tokens with its default quote, USD: on the devnet with ADA/USD falling, sort gainers listed
    // TIDE (change24hPct +2.89, change24hUsdPct -0.62) as a gainer, in change24hUsdPct order, while 'Ranking.' and
    // the tool's 'price changes in percent' led an agent to read change24hPct as what was ranked.
    const tokens = TOOL_DEFINITIONS.find((t) => t.name === 'list_tokens')!;
    const sort = tokens.inputSchema.properties.sort as { description: string };
    assert.match(sort.description, /gainers and losers by the 24 h price change in USD \(change24hUsdPct/);
    assert.match(sort.description, /largest first/);
    assert.match(sort.description, /trending \(trades in the last hour\)/);
  });

  it('REST parameter names in error texts become the tool’s argument names', () => {
    const advice = (tool: string, message: string) =>
      adviceFor(tool, new BadRequestError(message), TOOL_SET.find((t) => t.name === tool)!.restArgs);
    assert.equal(
      advice('get_nft_collection', 'invalid parameter policy: must be a policy id (56 hex characters)'),
      'Invalid argument policyId: must be a policy id (56 hex characters); correct it and call get_nft_collection again.',
    );
    assert.equal(
      advice('get_pool', 'invalid parameter id: must be an integer'),
      'Invalid argument poolId: must be an integer; correct it and call get_pool again.',
    );
    assert.equal(
      advice('get_swap_quote', 'invalid parameters: in and out must differ'),
      'Invalid arguments: tokenIn and tokenOut must differ; correct it and call get_swap_quote again.',
    );
    assert.equal(
      advice('list_tokens', 'invalid parameter minLiquidity: must be >= 0'),
      'Invalid argument minLiquidityAda: must be >= 0; correct it and call list_tokens again.',
    );
    // A parameter the tool passes under its own name is named as it is.
    assert.equal(
      advice('get_token', 'invalid parameter unit: must be a policy id (56 hex) followed by an asset name'),
      'Invalid argument unit: must be a policy id (56 hex) followed by an asset name; correct it and call get_token again.',
    );
  });

  it('a not-found that says to retry (not computed or indexed yet) is not told to check the identifier', () => {
    // The read layer's own messages (api/read/staking.ts, api/read/freshness.ts): the id is right, the figures late.
    const pool = 'pool1pu5jlj4q9w9jlxeu370a3c9myx47md5j5m2str0naunn2q3lkdy';
    assert.equal(
      adviceFor(
        'get_stake_pool',
        new AppError(
          404,
          `stake pool ${pool} not found: the stake pool figures are not computed yet (the staking recompute runs every 5 minutes); retry in a few minutes`,
        ),
      ),
      `Not found yet: stake pool ${pool} not found: the stake pool figures are not computed yet (the staking recompute runs every 5 minutes); retry in a few minutes, with the same arguments.`,
    );
    const late =
      "block 37 is not indexed yet (the index reaches height 12 of the chain's 40 and is catching up; retry shortly)";
    assert.equal(
      adviceFor('get_transaction', new AppError(404, late)),
      `Not found yet: ${late}, with the same arguments.`,
    );
    // Before any block is indexed, the identifier is not the problem: the advice is to retry, not to check it.
    assert.equal(
      adviceFor('get_wallet', new AppError(404, 'handle $alice not found (no block is indexed yet)')),
      'Not found yet: handle $alice not found (no block is indexed yet); retry shortly, with the same arguments.',
    );
    assert.equal(
      adviceFor('get_pool', new AppError(404, 'pool 999 not found')),
      'Not found: pool 999 not found; check the identifier, or call search to find the right one.',
    );
  });

  it('mint deadlines of native scripts: signature never expires, before S locks at S, all/any/some combine', () => {
    const sig: NativeScript = { clause: 'signature', from: 'ab' };
    const before = (slot: number): NativeScript => ({ clause: 'before', slot });
    assert.equal(mintDeadline(sig), Infinity);
    assert.equal(mintDeadline({ clause: 'all', from: [sig, before(500)] }), 500);
    assert.equal(mintDeadline({ clause: 'any', from: [before(100), before(900)] }), 900);
    assert.equal(mintDeadline({ clause: 'any', from: [before(100), sig] }), Infinity);
    assert.equal(mintDeadline({ clause: 'some', atLeast: 2, from: [before(100), before(300), before(200)] }), 200);
    assert.equal(mintDeadline({ clause: 'all', from: [sig, { clause: 'after', slot: 50 }] }), Infinity);
  });

  it('safety: a locked policy is low risk, two high factors make the token high risk', () => {
    const locked = JSON.stringify({
      clause: 'all',
      from: [
        { clause: 'signature', from: 'ab' },
        { clause: 'before', slot: 1000 },
      ],
    });
    const safe = assessSafety({
      tipSlot: 2000,
      policy: { language: 'native', script: locked },
      top10Share: 0.1,
      liquidityAda: 500_000,
      poolAgeHours: 24 * 30,
      topLpShare: 0.2,
    });
    assert.equal(safe.level, 'low');
    assert.deepEqual(safe.factors[0], {
      name: 'mintPolicy',
      unit: null,
      value: 'locked since slot 1000',
      risk: 'low',
      detail: 'The native policy’s time lock has passed: no more tokens can be minted.',
    });
    const open = assessSafety({
      tipSlot: 500,
      policy: { language: 'native', script: locked },
      top10Share: 0.8,
      liquidityAda: 2_000,
      poolAgeHours: 3,
      topLpShare: 0.99,
    });
    assert.equal(open.level, 'high');
    assert.equal(open.factors[0]!.value, 'can mint until slot 1000');
    assert.deepEqual(
      open.factors.map((f) => [f.name, f.value, f.risk]),
      [
        ['mintPolicy', 'can mint until slot 1000', 'medium'],
        ['holderConcentration', 80, 'high'],
        ['liquidityDepth', 2000, 'high'],
        ['poolAge', 3, 'high'],
        ['topHolderLpShare', 99, 'high'],
      ],
    );
    const one = assessSafety({
      tipSlot: 0,
      policy: null,
      top10Share: 0.3,
      liquidityAda: 5_000,
      poolAgeHours: 500,
      topLpShare: null,
    });
    assert.equal(one.level, 'medium');
    // A first pool older than the indexed chain: its age is a lower bound, low past 7 days, else unknown (not new).
    const bound = (hours: number) =>
      assessSafety({
        tipSlot: 0,
        policy: null,
        top10Share: null,
        liquidityAda: null,
        poolAgeHours: hours,
        poolAgeExact: false,
        topLpShare: null,
      }).factors.find((f) => f.name === 'poolAge')?.risk;
    assert.deepEqual([bound(3), bound(100), bound(24 * 7 + 1)], ['unknown', 'unknown', 'low']);
  });

  it('rarity: Σ N / count per trait type, missing traits count as "none", ties share a rank', () => {
    const t = (o: Record<string, string>) => new Map(Object.entries(o));
    const ranks = rarityRanks([
      { unit: 'a', traits: t({ hat: 'red', eyes: 'blue' }) },
      { unit: 'b', traits: t({ hat: 'red', eyes: 'blue' }) },
      { unit: 'c', traits: t({ hat: 'red', eyes: 'green' }) },
      { unit: 'd', traits: t({ eyes: 'blue' }) },
    ]);
    // N = 4. hat: red×3, none×1; eyes: blue×3, green×1.
    // a, b: 4/3 + 4/3 = 2.667; c: 4/3 + 4 = 5.333; d: 4 + 4/3 = 5.333.
    assert.deepEqual(Object.fromEntries([...ranks].map(([u, r]) => [u, r.rank])), { c: 1, d: 1, a: 3, b: 3 });
    assert.equal(ranks.get('c')!.score, 5.333333333);
    assert.equal(
      rarityRanks([
        { unit: 'x', traits: t({}) },
        { unit: 'y', traits: t({}) },
      ]).size,
      0,
    );
  });

  it('search terms cover every word start; the card name is reverse DNS; legacy calls name their tool', () => {
    assert.deepEqual(termsOf('Chain  Golems', null, 'CG'), ['chain golems', 'golems', 'cg']);
    assert.equal(reverseDns('cds.example'), 'example.cds');
    assert.equal(reverseDns('data.cardano.example.org'), 'org.example.cardano.data');
    assert.equal(reverseDns('localhost'), 'localhost');
    assert.deepEqual(legacyToolCalls({ method: 'tools/call', params: { name: 'get_token' } }), {
      name: 'get_token',
      pnlCalls: 0,
    });
    const pnl = { method: 'tools/call', params: { name: 'get_wallet_pnl' } };
    assert.deepEqual(legacyToolCalls([{ method: 'tools/call', params: { name: 'search' } }, pnl, pnl]), {
      name: 'get_wallet_pnl',
      pnlCalls: 2,
    });
    assert.equal(legacyToolCalls({ method: 'initialize', params: {} }), null);
    const modern = {
      method: 'tools/call',
      params: { name: 'x', _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
    };
    assert.equal(legacyToolCalls(modern), null);
  });

  it('replay keys: the id is left out, every other input counts; only 200 JSON results are kept, id written in', () => {
    const h = { 'content-type': 'application/json', 'mcp-name': 'get_token', 'mcp-protocol-version': '2026-07-28' };
    const body = (id: unknown, unit = 'a') => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'get_token', arguments: { unit } },
    });
    const k = (headers: Record<string, string>, b: unknown, cp = '1:x') => replayCall(headers, b, cp)?.key;
    assert.equal(k(h, body(1)), k(h, body('z')));
    assert.notEqual(k(h, body(1)), k(h, body(1, 'b')));
    assert.notEqual(k(h, body(1)), k({ ...h, 'mcp-name': 'get_pool' }, body(1)));
    assert.notEqual(k(h, body(1)), k({ ...h, 'mcp-param-unit': 'a' }, body(1)));
    assert.notEqual(k(h, body(1)), k(h, body(1), '2:y'));
    assert.equal(replayCall(h, [body(1)], '1:x'), null, 'batches are never replayed');
    assert.equal(replayCall(h, { ...body(1), method: 'tools/list' }, '1:x'), null);
    assert.equal(replayCall(h, { ...body(1), id: undefined }, '1:x'), null, 'notifications');

    const cache = new ReplayCache(1_000);
    const first = replayCall(h, body(1), '1:x')!;
    const json = { 'content-type': 'application/json' };
    const answer = (result: unknown, id: unknown) => Buffer.from(JSON.stringify({ result, jsonrpc: '2.0', id }));
    cache.offer(first, 200, json, answer({ isError: true, content: [] }, 1), 0);
    assert.equal(cache.get(first, 1), undefined, 'isError results are not kept');
    cache.offer(first, 400, json, answer({ content: [] }, 1), 0);
    cache.offer(first, 200, json, answer({ content: [] }, 2), 0);
    cache.offer(first, 200, { 'content-type': 'text/event-stream' }, answer({ content: [] }, 1), 0);
    assert.equal(cache.get(first, 1), undefined, 'errors, another id and event streams are not kept');
    cache.offer(first, 200, json, answer({ content: [{ type: 'text', text: '"id":1}' }] }, 1), 0);
    const again = replayCall(h, body('two'), '1:x')!;
    const hit = cache.get(again, 999)!;
    assert.deepEqual(JSON.parse(Buffer.concat([hit.kept, idTail(again.id)]).toString()), {
      result: { content: [{ type: 'text', text: '"id":1}' }] },
      jsonrpc: '2.0',
      id: 'two',
    });
    assert.equal(hit.headers['content-length'], undefined, 'each replay states its own length');
    assert.equal(cache.get(again, 1_000), undefined, 'expired after the window');
  });

  it('a single tools/call names its tool; batches and other methods do not', () => {
    assert.equal(
      singleToolCall({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_pool' } }),
      'get_pool',
    );
    assert.equal(singleToolCall([{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_pool' } }]), null);
    assert.equal(singleToolCall({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), null);
    assert.equal(singleToolCall(null), null);
  });

  describe('netChanges: the token change per address is the exact sum scaled by the token decimals', () => {
    // A devnet transaction's change came out as -457626.01474799996 for -457626014748 base units at 6 decimals: the
    // sum was scaled by a ratio of two doubles. Expected values are the base units with the
    // decimal point moved by hand.
    const INDY = `${'53'.repeat(28)}494e4459`;
    const IAG = `${'5d'.repeat(28)}494147`;
    const SHARES = `${'f5'.repeat(28)}4c50`;
    const asset = (unit: string, raw: string, decimals: number, quantity: number) => ({
      unit,
      policyId: unit.slice(0, 56),
      quantity,
      quantityRaw: raw,
      decimals,
    });
    const payer = 'addr1payer';
    const pool = 'addr1pool';
    const tx = {
      valid: true,
      inputs: [
        {
          address: payer,
          lovelace: '5000000',
          assets: [
            asset(INDY, '457626014748', 6, 457626.014748),
            asset(IAG, '1319604694', 6, 1319.604694),
            asset(SHARES, '9223372036166189232', 0, Number(9223372036166189232n)),
          ],
        },
      ],
      outputs: [
        { address: payer, lovelace: '1317339', assets: [] },
        {
          address: pool,
          lovelace: '3500000',
          assets: [
            asset(INDY, '457626014748', 6, 457626.014748),
            asset(IAG, '1319604694', 6, 1319.604694),
            asset(SHARES, '9223372036166189232', 0, Number(9223372036166189232n)),
          ],
        },
      ],
      collaterals: [],
      collateralReturn: null,
    };

    it('prints each change as its base units over 10^decimals, also past 2^53 base units', () => {
      const { changes, note } = netChanges(tx);
      assert.equal(note, null);
      assert.deepEqual(changes, [
        {
          address: payer,
          ada: -3.682661,
          lovelace: '-3682661',
          assets: [
            { unit: INDY, quantity: -457626.014748, quantityRaw: '-457626014748' },
            { unit: IAG, quantity: -1319.604694, quantityRaw: '-1319604694' },
            { unit: SHARES, quantity: -Number(9223372036166189232n), quantityRaw: '-9223372036166189232' },
          ],
        },
        {
          address: pool,
          ada: 3.5,
          lovelace: '3500000',
          assets: [
            { unit: INDY, quantity: 457626.014748, quantityRaw: '457626014748' },
            { unit: IAG, quantity: 1319.604694, quantityRaw: '1319604694' },
            { unit: SHARES, quantity: Number(9223372036166189232n), quantityRaw: '9223372036166189232' },
          ],
        },
      ]);
    });
  });
});
