/**
 * The tool server through the official TypeScript client (`@modelcontextprotocol/client`), in both eras: the
 * 2026-07-28 era (`versionNegotiation: auto`: server/discover, then per-request _meta and headers) and the legacy
 * era (initialize, 2025-11-25), against a devnet-synced store with every recompute run (world.ts).
 *
 * Oracles: the REST answers of the same app for the same entity (REST itself is checked against the chain by the
 * REST tests), the published output schemas (ajv, 2020-12), hand-derived values (percent = fraction × 100, ISO of
 * unix seconds), and the devnet's own handles.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/client';
import { bech32, hex } from '@scure/base';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createApp } from '../../api/app.js';
import { RESULT_MAX_CHARS } from '../../api/mcp/fit.js';
import { poolHashFromId, stakeAddressOf } from '../../cardano/address.js';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import { HANDLES } from '../../mongo/collections/index.js';
import { acquireWorld, allListedTokens, connect, releaseWorld, type World } from './world.js';

const TOOL_NAMES = [
  'search',
  'list_tokens',
  'get_token',
  'get_token_candles',
  'get_pool',
  'get_recent_trades',
  'get_market_overview',
  'get_wallet',
  'get_wallet_pnl',
  'get_swap_quote',
  'list_nft_collections',
  'get_nft_collection',
  'get_nft_listings',
  'list_stake_pools',
  'get_stake_pool',
  'list_governance_actions',
  'get_transaction',
  'get_address',
  'resolve_handle',
  'get_news',
];

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Samples {
  unit: string;
  poolId: number;
  stake: string;
  address: string;
  txHash: string;
  policy: string;
  stakePool: string;
  handle: string;
  otherUnit: string;
}

const text = (r: Json) => (r.content as { type: string; text: string }[]).map((c) => c.text).join('');

describe('MCP tools through the official client on the devnet', function () {
  this.timeout(300_000);
  let world: World;
  let server: Server;
  let base = '';
  let s: Samples;
  const rest = async (path: string): Promise<Json> => {
    const res = await fetch(`${base}/api/v1${path}${path.includes('?') ? '&' : '?'}logos=url`);
    assert.equal(res.status, 200, `${path}: ${res.status}`);
    return (await res.json()) as Json;
  };

  before(async () => {
    world = await acquireWorld();
    server = createServer(createApp(world.deps).callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const tokens = await rest('/tokens?sort=liquidity&pageSize=5');
    const unit = tokens.items[0].asset.unit as string;
    const trades = await rest(`/tokens/${unit}/trades?limit=20`);
    const trade = trades.items.find((t: Json) => t.maker?.startsWith('stake1'));
    const collections = await rest('/nft/collections?pageSize=1&sort=listings');
    const pools = await rest('/staking/pools?pageSize=1');
    let handle = '';
    for await (const h of world.store.collection(HANDLES).scan())
      if (h.address && h.kind !== 'virtual') {
        handle = h._id;
        break;
      }
    s = {
      unit,
      poolId: tokens.items[0].primaryPoolId,
      stake: trade.maker,
      address: trade.makerAddress,
      txHash: trade.txHash,
      policy: collections.items[0].policyId,
      stakePool: pools.items[0].id,
      handle,
      otherUnit: tokens.items[1].asset.unit,
    };
  });
  after(async () => {
    server?.close();
    await releaseWorld();
  });

  const mcpUrl = () => `${base}/api/mcp`;

  /** Valid arguments for every tool, from the samples. */
  const validArgs = (): Record<string, Json> => ({
    search: { query: 'usd' },
    list_tokens: { limit: 5 },
    get_token: { unit: s.unit },
    get_token_candles: { unit: s.unit, interval: '1h', limit: 24 },
    get_pool: { poolId: s.poolId },
    get_recent_trades: { unit: s.unit, limit: 5 },
    get_market_overview: {},
    get_wallet: { address: s.stake, limit: 10 },
    get_wallet_pnl: { address: s.stake },
    get_swap_quote: { tokenIn: 'lovelace', tokenOut: s.unit, amount: 100 },
    list_nft_collections: { limit: 5 },
    get_nft_collection: { policyId: s.policy },
    get_nft_listings: { policyId: s.policy, limit: 5 },
    list_stake_pools: { limit: 5 },
    get_stake_pool: { poolId: s.stakePool },
    list_governance_actions: { limit: 5 },
    get_transaction: { hash: s.txHash },
    get_address: { address: s.address },
    resolve_handle: { handle: `$${s.handle}` },
    get_news: { limit: 3 },
  });

  /** Arguments a caller could get wrong: a missing or malformed one, or an unknown id. */
  const invalidArgs = (): Record<string, Json> => ({
    search: {},
    list_tokens: { sort: 'cheapest' },
    get_token: { unit: 'ff'.repeat(30) },
    get_token_candles: { unit: s.unit, interval: '2h' },
    get_pool: { poolId: 999_999 },
    get_recent_trades: { unit: s.unit, poolId: s.poolId },
    get_market_overview: { extra: 1 },
    get_wallet: { address: 'addr1notanaddress' },
    get_wallet_pnl: {},
    get_swap_quote: { tokenIn: 'lovelace', tokenOut: s.unit, amount: -5 },
    list_nft_collections: { limit: 0 },
    get_nft_collection: { policyId: 'ab'.repeat(28) },
    get_nft_listings: { policyId: 'xyz' },
    list_stake_pools: { maxMarginPct: 150 },
    get_stake_pool: { poolId: `pool1${'q'.repeat(51)}` },
    list_governance_actions: { status: 'open' },
    get_transaction: { hash: '00'.repeat(32) },
    get_address: { address: 12 },
    resolve_handle: { handle: '$no-such-handle-here' },
    get_news: { limit: 1000 },
  });

  for (const era of ['modern', 'legacy'] as const) {
    describe(`${era} era`, () => {
      let client: Client;
      let tools: Json[];
      before(async () => {
        client = await connect(mcpUrl(), era);
        tools = (await client.listTools()).tools as Json[];
      });
      after(async () => client?.close());

      it('negotiates the expected revision', () => {
        assert.equal(client.getProtocolEra(), era);
        assert.equal(client.getNegotiatedProtocolVersion(), era === 'modern' ? '2026-07-28' : '2025-11-25');
      });

      it('lists the 20 tools in the spec order, read-only, with object-rooted input and output schemas', async () => {
        assert.deepEqual(
          tools.map((t) => t.name),
          TOOL_NAMES,
        );
        for (const t of tools) {
          assert.equal(t.annotations?.readOnlyHint, true, t.name);
          assert.equal(t.inputSchema.type, 'object', t.name);
          assert.equal(t.outputSchema.type, 'object', t.name);
          assert.ok(t.outputSchema.required.includes('asOf'), t.name);
        }
        // Deterministic: a second listing is identical.
        assert.deepEqual((await client.listTools()).tools, tools);
      });

      it('answers every tool with JSON text and structuredContent valid under its output schema', async () => {
        const ajv = new Ajv2020({ strict: false, allErrors: true });
        addFormats.default(ajv);
        const args = validArgs();
        for (const t of tools) {
          const r = (await client.callTool({ name: t.name, arguments: args[t.name] })) as Json;
          assert.notEqual(r.isError, true, `${t.name}: ${text(r)}`);
          const sc = r.structuredContent as Json;
          assert.deepEqual(JSON.parse(text(r)), sc, `${t.name}: text and structuredContent agree`);
          const validate = ajv.compile(t.outputSchema);
          assert.ok(validate(sc), `${t.name}: ${ajv.errorsText(validate.errors)}`);
          assert.match(sc.asOf, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/, `${t.name}: asOf`);
          assert.equal(typeof sc.lagSeconds, 'number', `${t.name}: lagSeconds`);
          assert.ok(text(r).length / 4 < 25_000, `${t.name}: under 25,000 tokens`);
        }
      });

      it('answers caller mistakes with isError and one sentence saying what to do', async () => {
        const args = invalidArgs();
        for (const t of tools) {
          const r = (await client.callTool({ name: t.name, arguments: args[t.name] })) as Json;
          assert.equal(r.isError, true, `${t.name} should fail: ${JSON.stringify(r).slice(0, 300)}`);
          const msg = text(r);
          assert.match(msg, /(correct|fix|check|call search|pass exactly)/i, `${t.name}: ${msg}`);
          assert.ok(!/\n/.test(msg) && msg.length < 600, `${t.name}: one sentence: ${msg}`);
        }
      });
    });
  }

  describe('results match the REST answers', () => {
    let client: Client;
    before(async () => {
      client = await connect(mcpUrl(), 'modern');
    });
    after(async () => client?.close());
    const call = async (name: string, args: Json) => {
      const r = (await client.callTool({ name, arguments: args })) as Json;
      assert.notEqual(r.isError, true, text(r));
      return r.structuredContent as Json;
    };
    const allTokens = () => allListedTokens(call);

    it('get_token: percent changes are REST fractions × 100, prices equal, safety factors carry values', async () => {
      const [tool, body] = await Promise.all([call('get_token', { unit: s.unit }), rest(`/tokens/${s.unit}`)]);
      assert.equal(tool.stats.priceAda, body.stats.priceAda);
      for (const k of ['change1h', 'change24h', 'change7d', 'change1hUsd']) {
        const f = body.stats[k] as number | null;
        if (f === null) assert.equal(tool.stats[`${k}Pct`], null);
        else assert.ok(Math.abs(tool.stats[`${k}Pct`] - f * 100) < 1e-3, k);
        assert.ok(!(k in tool.stats), `${k} renamed`);
      }
      assert.ok(tool.safety, 'a pooled token has a safety assessment');
      assert.deepEqual(
        tool.safety.factors.map((f: Json) => f.name),
        ['mintPolicy', 'holderConcentration', 'liquidityDepth', 'poolAge', 'topHolderLpShare'],
      );
      const liq = tool.safety.factors.find((f: Json) => f.name === 'liquidityDepth');
      assert.equal(liq.value, Math.round(body.stats.liquidityAda));
      assert.equal(
        liq.risk,
        body.stats.liquidityAda >= 100_000 ? 'low' : body.stats.liquidityAda >= 10_000 ? 'medium' : 'high',
      );
    });

    it('get_token names the largest holders and their shares as the devnet ledger holds the token', async () => {
      // Oracle: the ledger's UTxO set (queryLedgerState/utxo), summed per holder (stake key, else address).
      const chain = await connectOgmios(world.devnet.url);
      let utxos: { address: string; value: Record<string, Record<string, bigint>> }[];
      try {
        utxos = await chain.query('queryLedgerState/utxo', {});
      } finally {
        await chain.close();
      }
      let checked = 0;
      for (const unit of [s.unit, s.otherUnit]) {
        const [policy, name] = [unit.slice(0, 56), unit.slice(56)];
        const held = new Map<string, bigint>();
        for (const u of utxos) {
          const q = u.value[policy]?.[name];
          if (!q) continue;
          const holder = stakeAddressOf(u.address) ?? u.address;
          held.set(holder, (held.get(holder) ?? 0n) + BigInt(q));
        }
        const onChain = [...held.values()].reduce((a, b) => a + b, 0n);
        const ranked = [...held.entries()].sort((a, b) => (b[1] > a[1] ? 1 : b[1] < a[1] ? -1 : 0));
        const tool = await call('get_token', { unit });
        assert.equal(tool.stats.holders, held.size, unit);
        assert.equal(tool.topHolders.length, Math.min(10, held.size));
        for (const [i, h] of (tool.topHolders as Json[]).entries()) {
          assert.equal(BigInt(h.quantityRaw), (ranked[i] as [string, bigint])[1], `${unit} holder ${i + 1}`);
          assert.equal(held.get(h.address), BigInt(h.quantityRaw), `${h.address} holds ${h.quantityRaw}`);
          // Percent to 4 decimals, as every *Pct of the tools.
          const pct = (Number(h.quantityRaw) / Number(onChain)) * 100;
          assert.ok(Math.abs(h.sharePct - pct) <= 0.00005 + 1e-9, `share ${h.sharePct} % of ${pct} %`);
          assert.ok(!('share' in h), 'share renamed sharePct');
          checked++;
        }
      }
      assert.ok(checked >= 10, `${checked} holders checked`);
    });

    it('safety: the devnet’s witnessed mint policies (single-signature native scripts, no time lock) can mint', async () => {
      const mints = await Promise.all(
        (await allTokens()).map(async (t) => {
          const tok = await call('get_token', { unit: t.asset.unit });
          return tok.safety?.factors.find((f: Json) => f.name === 'mintPolicy') as Json | undefined;
        }),
      );
      const values = new Set(mints.map((m) => m?.value ?? null));
      assert.ok(values.has('can mint (no time lock)'), [...values].join(', '));
      for (const m of mints) if (m?.value === 'can mint (no time lock)') assert.equal(m.risk, 'medium');
      assert.ok(![...values].some((v) => typeof v === 'string' && v.startsWith('locked')));
    });

    it('get_token_candles: compact rows, ISO times, newest last, the REST candles', async () => {
      const [tool, body] = await Promise.all([
        call('get_token_candles', { unit: s.unit, interval: '1h', limit: 5 }),
        rest(`/tokens/${s.unit}/candles?interval=1h&pool=all`),
      ]);
      assert.equal(tool.poolId, null, 'all pools by default');
      const last = (body.candles as Json[]).slice(-5);
      assert.equal(tool.candles.length, last.length);
      tool.candles.forEach((row: unknown[], i: number) => {
        const c = last[i]!;
        assert.deepEqual(row, [
          new Date(c.time * 1000).toISOString(),
          c.open,
          c.high,
          c.low,
          c.close,
          c.volume,
          c.trades,
        ]);
      });
      const primary = await call('get_token_candles', { unit: s.unit, interval: '1h', limit: 5, allPools: false });
      const primaryRest = await rest(`/tokens/${s.unit}/candles?interval=1h`);
      assert.equal(primary.poolId, s.poolId);
      assert.equal(primary.candles.at(-1)[4], (primaryRest.candles as Json[]).at(-1)!.close);
      const times = tool.candles.map((r: string[]) => Date.parse(r[0]!));
      assert.deepEqual(
        times,
        [...times].sort((a: number, b: number) => a - b),
      );
    });

    it('get_token_candles: says where the indexed history starts when its rows reach back to it, as REST does', async () => {
      // Oracle: REST's candles of the same token from 0 (every one it holds) and their coverageFrom, the time of the
      // first indexed block (the devnet's history is 6 h, the token trades from its start).
      const body = await rest(`/tokens/${s.unit}/candles?interval=1h&pool=all&from=0`);
      const all = (body.candles as Json[]).length;
      assert.ok(all > 2 && typeof body.coverageFrom === 'string', `${all} candles, coverageFrom ${body.coverageFrom}`);
      const whole = await call('get_token_candles', { unit: s.unit, interval: '1h', limit: 500 });
      assert.equal(whole.candles.length, all);
      assert.equal(whole.coverageFrom, body.coverageFrom, 'the rows go back to the start of the indexed history');
      const cut = await call('get_token_candles', { unit: s.unit, interval: '1h', limit: 2 });
      assert.equal(cut.candles.length, 2);
      assert.equal(cut.coverageFrom, null, 'older candles exist: the rows stop short of the indexed history');
    });

    it('get_token_candles: read two days after the indexed tip, the latest 1m candles, as REST’s default range', async () => {
      // The same store read two days after its tip (an index behind the clock): the last 1,000 minutes before now hold
      // none of its candles; REST's default range ends at the indexed tip instead (ca0070a), and the tool's too.
      const later = createServer(createApp({ ...world.deps, now: () => Date.now() + 2 * 86_400_000 }).callback());
      await new Promise<void>((r) => later.listen(0, '127.0.0.1', r));
      const laterBase = `http://127.0.0.1:${(later.address() as AddressInfo).port}`;
      const laterClient = await connect(`${laterBase}/api/mcp`, 'modern');
      try {
        const quiet = (await (
          await fetch(`${laterBase}/api/v1/tokens/${s.unit}/candles?interval=1m&pool=all`)
        ).json()) as Json;
        const r = (await laterClient.callTool({
          name: 'get_token_candles',
          arguments: { unit: s.unit, interval: '1m', limit: 7 },
        })) as Json;
        assert.notEqual(r.isError, true, text(r));
        // Oracle: REST over the whole history (from 0), its last 7 candles.
        const all = await rest(`/tokens/${s.unit}/candles?interval=1m&pool=all&from=0`);
        const last = (all.candles as Json[]).slice(-7);
        assert.equal(last.length, 7, 'the token traded in at least 7 minutes');
        assert.deepEqual(
          r.structuredContent.candles.map((row: unknown[]) => [row[0], row[4], row[6]]),
          last.map((c) => [new Date(c.time * 1000).toISOString(), c.close, c.trades]),
        );
        assert.deepEqual((quiet.candles as Json[]).slice(-7), last);
      } finally {
        await laterClient.close();
        await new Promise<void>((r) => later.close(() => r()));
      }
    });

    it('get_swap_quote: swapUrl on the site and the smallest pool TVL on the route', async () => {
      const tool = await call('get_swap_quote', { tokenIn: 'lovelace', tokenOut: s.unit, amount: 250 });
      assert.equal(tool.swapUrl, `https://cds.example/swap?in=lovelace&out=${s.unit}&amount=250`);
      const tvls = await Promise.all(tool.best.hops.map(async (h: Json) => (await rest(`/pools/${h.poolId}`)).tvlAda));
      assert.equal(tool.minPoolLiquidityAda, Math.min(...tvls));
      // Oracle for the impact, by hand from the pool's reserves: what the input would buy at the spot price after
      // the pool fee, against what the route gives (a direct route from ADA: the best pool of the token).
      assert.equal(tool.best.hops.length, 1, 'a direct route');
      const pool = await rest(`/pools/${tool.best.hops[0].poolId}`);
      const [rIn, rOut] =
        pool.tokenA.unit === 'lovelace' ? [pool.reserveA, pool.reserveB] : [pool.reserveB, pool.reserveA];
      const ideal = (250 * (1 - pool.feePercent / 100) * rOut) / rIn;
      const impactPct = 100 * (1 - tool.best.amountOut / ideal);
      assert.ok(impactPct > 0, `250 ADA moves the price of a pool of ${rIn} ADA`);
      assert.ok(Math.abs(tool.best.priceImpactPct - impactPct) < 1e-3, `${tool.best.priceImpactPct} vs ${impactPct}`);
    });

    it('get_swap_quote: routes carry their batcher fees, ranked by output less them; the description says so', async () => {
      // A 10 ADA quote's largest output can be the dearest once the DEX's per-order fee (0.5 to 2 ADA) is paid: an
      // agent must not read the effective price as "all fees included", and best must be the cheapest to use.
      const published = (await client.listTools()).tools.find((t) => t.name === 'get_swap_quote')!;
      const description = published.description ?? '';
      assert.match(description, /pool fees and price impact included/);
      assert.doesNotMatch(description, /(?<!pool )fees and price impact included/);
      assert.match(description, /best\.batcherFee is what the route’s orders likely cost in ADA besides the amount/);
      const [overview, token] = await Promise.all([rest('/market/overview'), rest(`/tokens/${s.unit}`)]);
      // An amount small enough that the per-order fee reorders the routes: the largest output is not ranked first.
      // Which amount does depends on the devnet's pools as this run generated them (10 ADA on most runs).
      let tool: Json | null = null;
      for (const amount of [10, 5, 3, 2, 1, 20, 50]) {
        const q = await call('get_swap_quote', { tokenIn: 'lovelace', tokenOut: s.unit, amount });
        const outputs = (q.routes as Json[]).map((r) => Number(r.amountOut));
        if (outputs.some((o, i) => i > 0 && o > outputs[i - 1]!)) {
          tool = q;
          break;
        }
      }
      assert.ok(tool, 'an amount whose routes are not ranked by their output alone');
      const dexFee = new Map((overview.dexes as Json[]).map((d) => [d.dex, d.batcherFeeLovelace]));
      // Each DEX's figure is a fee its batchers took: one of those its pool's completed trades show.
      const dex = tool.best.hops[0].dex as string;
      const trades = await call('get_recent_trades', { poolId: tool.best.hops[0].poolId, limit: 50 });
      const charged = (trades.items as Json[]).filter((t) => t.status === 'complete').map((t) => t.batcherFee);
      assert.ok(charged.length > 0, 'the pool has completed trades');
      assert.ok(charged.includes(Number(dexFee.get(dex)) / 1e6), `${dex} ${dexFee.get(dex)} among ${charged}`);
      // Every route: one order per hop at its DEX's fee; ranked by the output at the token's price less that fee.
      const routes = tool.routes as Json[];
      assert.ok(routes.length > 1, 'several pools of the pair');
      const net = (r: Json) => Number(r.amountOut) * token.stats.priceAda - Number(r.batcherFeeLovelace) / 1e6;
      for (const [i, r] of routes.entries()) {
        assert.equal(r.batcherFeeLovelace, dexFee.get(r.hops[0].dex), `route ${i}`);
        if (i > 0) assert.ok(net(routes[i - 1] as Json) >= net(r) - 1e-9, `route ${i - 1} leaves at least route ${i}`);
      }
      assert.deepEqual(tool.best, routes[0]);
    });

    it('get_swap_quote: with no route, note says why (one lovelace buys no base unit), as REST says it', async () => {
      const [tool, body] = await Promise.all([
        call('get_swap_quote', { tokenIn: 'lovelace', tokenOut: s.unit, amount: 0.000001 }),
        rest(`/swap/quote?in=lovelace&out=${s.unit}&amount=0.000001`),
      ]);
      // By hand: every pool of the pair holds more lovelace than token base units, so 1 lovelace buys none.
      for (const p of (await rest(`/tokens/${s.unit}`)).pools as Json[])
        if (p.tokenA.unit === 'lovelace') assert.ok(BigInt(p.reserveARaw) > BigInt(p.reserveBRaw), `pool ${p.id}`);
      assert.equal(body.best, null);
      assert.equal(tool.best, null);
      assert.match(tool.note, /^No route: 0\.000001 ADA buys less than one base unit of .+; quote a larger amount\.$/);
      assert.equal(tool.note, body.note);
    });

    it('get_swap_quote: swapUrl names the trade quoted (unit in lower case, amount cut to the decimals), as REST link does', async () => {
      // ADA has 6 decimals: 250.0000009 ADA is quoted as 250 ADA (amountIn); the page must open on that same trade.
      const tool = await call('get_swap_quote', {
        tokenIn: 'lovelace',
        tokenOut: s.unit.toUpperCase(),
        amount: 250.0000009,
      });
      assert.equal(tool.amountIn, 250);
      assert.equal(tool.swapUrl, `https://cds.example/swap?in=lovelace&out=${s.unit}&amount=250`);
      assert.equal(tool.swapUrl, tool.link);
    });

    it('get_swap_quote: the effective price is amountOut / amount, as REST gives it', async () => {
      const amount = 250;
      const [tool, body] = await Promise.all([
        call('get_swap_quote', { tokenIn: 'lovelace', tokenOut: s.unit, amount }),
        rest(`/swap/quote?in=lovelace&out=${s.unit}&amount=${amount}`),
      ]);
      assert.ok(tool.best, 'a route');
      // By hand: tokenOut (decimal-adjusted) per ADA put in, the exact quotient of the base units (one IEEE division
      // of two integers below 2^53).
      const perAda = (r: Json) => Number(r.amountOutRaw) / (amount * 10 ** body.tokenOut.decimals);
      assert.equal(tool.best.effectivePrice, perAda(tool.best));
      assert.equal(tool.best.effectivePrice, body.best.effectivePrice);
      for (const r of tool.routes as Json[]) assert.equal(r.effectivePrice, perAda(r));
      const published = (await client.listTools()).tools.find((t) => t.name === 'get_swap_quote')!;
      assert.match(published.description ?? '', /effective price/);
    });

    it('get_stake_pool takes the pool’s 56-hex key hash as its schema says, with the pool1… answer', async () => {
      const hash = poolHashFromId(s.stakePool);
      const [byHex, byHexUpper, byBech32] = await Promise.all([
        call('get_stake_pool', { poolId: hash }),
        call('get_stake_pool', { poolId: hash.toUpperCase() }),
        rest(`/staking/pools/${s.stakePool}`),
      ]);
      assert.equal(byHex.id, s.stakePool);
      assert.equal(byHexUpper.id, s.stakePool);
      assert.equal(byHex.liveStake, byBech32.liveStake);
    });

    it('list_stake_pools finds a pool by its 56-hex key hash, as get_stake_pool and search take it', async () => {
      // The key hash is the pool1… id's bech32 payload (CIP-5), decoded here by the bech32 rule itself.
      const hash = hex.encode(bech32.decodeToBytes(s.stakePool).bytes);
      assert.equal(hash.length, 56);
      for (const query of [hash, hash.toUpperCase()]) {
        const tool = await call('list_stake_pools', { query });
        assert.equal(tool.total, 1, `${query}: ${JSON.stringify(tool.items.map((p: Json) => p.id))}`);
        assert.equal(tool.items[0].id, s.stakePool);
      }
    });

    it('token tools do not offer lovelace in their schema, the swap quote does', async () => {
      const ajv = new Ajv2020({ strict: false });
      const tools = (await client.listTools()).tools as Json[];
      const unitOk = (name: string, prop: string) =>
        ajv.validate(tools.find((t) => t.name === name)!.inputSchema.properties[prop], 'lovelace');
      assert.equal(unitOk('get_token', 'unit'), false);
      assert.equal(unitOk('get_recent_trades', 'unit'), false);
      assert.equal(unitOk('get_token_candles', 'unit'), false);
      assert.equal(unitOk('get_swap_quote', 'tokenIn'), true);
      const r = (await client.callTool({ name: 'get_token', arguments: { unit: 'lovelace' } })) as Json;
      assert.equal(r.isError, true);
      assert.match(text(r), /get_token: unit /);
    });

    it('list_tokens publishes the liquidity floor’s upper bound the REST parameter enforces', async () => {
      // Liquidity is a pool's two sides valued in ADA, each at most the 45 billion ADA supply: at most 9·10^10 ADA.
      // The schema said only minimum 0, so a client checking it sent 10^15 and got a refusal it could not foresee.
      const ajv = new Ajv2020({ strict: false });
      const tools = (await client.listTools()).tools as Json[];
      const floor = tools.find((t) => t.name === 'list_tokens')!.inputSchema.properties.minLiquidityAda;
      assert.equal(ajv.validate(floor, 90_000_000_000), true);
      assert.equal(ajv.validate(floor, 90_000_000_001), false);
      const r = (await client.callTool({ name: 'list_tokens', arguments: { minLiquidityAda: 1e15 } })) as Json;
      assert.equal(r.isError, true);
      assert.equal(
        text(r),
        'Invalid arguments for list_tokens: minLiquidityAda must be a number of ADA from 0 to 90000000000 (twice the 45 billion ADA maximum supply); fix them as its inputSchema says and call it again.',
      );
    });

    it('error texts name the tool’s own arguments, not the REST parameters', async () => {
      const fail = async (name: string, args: Json) => {
        const r = (await client.callTool({ name, arguments: args })) as Json;
        assert.equal(r.isError, true, name);
        return text(r);
      };
      const pool = await fail('get_stake_pool', { poolId: `pool1${'q'.repeat(51)}` });
      assert.match(pool, /^Invalid argument poolId: must be a bech32 pool id/);
      assert.doesNotMatch(pool, /parameter|argument id\b/);
      const same = await fail('get_swap_quote', { tokenIn: s.unit, tokenOut: s.unit, amount: 1 });
      assert.match(same, /^Invalid arguments: tokenIn and tokenOut must differ; correct it and call get_swap_quote/);
      const huge = await fail('get_swap_quote', { tokenIn: 'lovelace', tokenOut: s.unit, amount: 1e12 });
      assert.match(huge, /^Invalid argument amount: more ADA than exists/);
    });

    it('an identifier argument given as a name or ticker is refused saying what it must be and how to find it', async () => {
      const fail = async (name: string, args: Json) => {
        const r = (await client.callTool({ name, arguments: args })) as Json;
        assert.equal(r.isError, true, name);
        return text(r);
      };
      assert.equal(
        await fail('get_token', { unit: 'NIGHT' }),
        'Invalid arguments for get_token: unit must be a token unit, policy id (56 hex) + asset name hex, not a name, ticker or asset1… fingerprint (call search with it to get its unit); ADA itself (lovelace) has no token answer; fix them as its inputSchema says and call it again.',
      );
      // A CIP-14 fingerprint, as Cardanoscan shows mainnet SNEK (whose unit a devnet token carries), is named as such,
      // and search, called with it as the message says, answers that token's unit.
      const snek = '279c909f348e533da5808898f87f9a14bb2c3dfbbacccd631d927a3f534e454b';
      const fingerprint = 'asset108xu02ckwrfc8qs9d97mgyh4kn8gdu9w8f5sxk';
      for (const name of ['get_token', 'get_token_candles'])
        assert.match(
          await fail(name, { unit: fingerprint }),
          /unit must be a token unit, .*not a name, ticker or asset1… fingerprint \(call search with it to get its unit\)/,
        );
      const found = (await client.callTool({ name: 'search', arguments: { query: fingerprint } })) as Json;
      assert.equal(((found.structuredContent as Json).hits as Json[])[0]?.arguments?.unit, snek);
      assert.match(
        await fail('get_swap_quote', { tokenIn: 'ADA', tokenOut: s.unit, amount: 1 }),
        /tokenIn must be lovelace \(ADA\) or a token unit, .*call search with it to get its unit\); fix them/,
      );
      // One sentence for the two rules the id breaks (length and form).
      assert.match(
        await fail('get_stake_pool', { poolId: 'CRANE' }),
        /^Invalid arguments for get_stake_pool: poolId must be a pool1… id \(lowercase\) or the pool’s key hash \(56 hex\), not a ticker \(call search with the ticker to find it\); fix them/,
      );
      // A pool1… id in capitals (valid Bech32, as get_address takes too) is told what is wrong with it.
      assert.match(
        await fail('get_stake_pool', { poolId: s.stakePool.toUpperCase() }),
        /poolId must be a pool1… id \(lowercase\)/,
      );
      assert.match(await fail('get_nft_collection', { policyId: 'Chain Golems' }), /call list_nft_collections/);
      // The wording is the errors', not the published schema's.
      const listed = JSON.stringify((await client.listTools()).tools);
      assert.ok(!listed.includes('x-expected'), 'tools/list publishes standard JSON Schema only');
    });

    it('an empty or blank query is refused alike by every tool that takes one, saying to leave it out', async () => {
      for (const name of [
        'list_tokens',
        'list_nft_collections',
        'list_stake_pools',
        'list_governance_actions',
        'get_news',
      ])
        for (const query of ['', '  ']) {
          const r = (await client.callTool({ name, arguments: { query } })) as Json;
          assert.equal(r.isError, true, `${name} ${JSON.stringify(query)}: ${JSON.stringify(r).slice(0, 200)}`);
          assert.match(
            text(r),
            /query must be a search text of 1 to 100 characters, not only spaces \(leave query out to list everything\)/,
            name,
          );
        }
      const r = (await client.callTool({ name: 'search', arguments: { query: ' ' } })) as Json;
      assert.equal(r.isError, true);
      assert.match(text(r), /query must be a search text of 1 to 1023 characters, not only spaces/);
    });

    it('list_stake_pools: filters by maxMarginPct and maxSaturationPct, sorts, reports blocks this epoch', async () => {
      const all = await rest('/staking/pools?pageSize=200');
      const cap = 50;
      const tool = await call('list_stake_pools', { maxSaturationPct: cap, sort: 'blocks', limit: 200 });
      // Retired pools are left out of a capped list (staking-devnet test, on a devnet where one retired).
      const expected = (all.items as Json[]).filter((p) => p.saturation * 100 <= cap && p.status !== 'retired');
      assert.equal(tool.total, expected.length);
      assert.ok(tool.items.every((p: Json) => p.status !== 'retired'));
      for (const p of tool.items) assert.ok(p.saturationPct <= cap);
      const blocks = tool.items.map((p: Json) => p.blocksThisEpoch);
      assert.deepEqual(
        blocks,
        [...blocks].sort((a: number, b: number) => b - a),
      );
    });

    it('every list a tool cuts at its limit pages to its end, item for item the REST list', async () => {
      // Each tool at a small limit, followed page by page (page or nextCursor) until it says there is no more; the
      // oracle is the whole list REST gives in one answer. Before, list_stake_pools, list_nft_collections,
      // list_governance_actions, get_wallet (positions) and get_wallet_pnl (tokens) answered their first `limit`
      // items with no way to reach the rest, and get_news answered a nextCursor it took no argument for.
      const follow = async (tool: string, args: Json, list: string, by: 'page' | 'cursor') => {
        const seen: Json[] = [];
        let first: Json | null = null;
        let next: Json = {};
        for (let i = 0; i < 100; i++) {
          const r = await call(tool, { ...args, ...next });
          first ??= r;
          seen.push(...(r[list] as Json[]));
          if (by === 'cursor' ? r.nextCursor === null : (r[list] as Json[]).length < args.limit) break;
          next = by === 'cursor' ? { cursor: r.nextCursor } : { page: i + 2 };
        }
        return { first: first as Json, seen };
      };
      const ids = (xs: Json[], key: (x: Json) => string) => xs.map(key);

      const pools = (await rest('/staking/pools?pageSize=200')).items as Json[];
      const sp = await follow('list_stake_pools', { limit: 5 }, 'items', 'page');
      assert.ok(pools.length > 5, 'the devnet has more stake pools than one page');
      assert.equal(sp.first.total, pools.length);
      assert.deepEqual(ids(sp.seen, (p) => p.id).sort(), ids(pools, (p) => p.id).sort());
      assert.equal(new Set(ids(sp.seen, (p) => p.id)).size, pools.length, 'no pool on two pages');

      const colls = (await rest('/nft/collections?pageSize=200')).items as Json[];
      const nft = await follow('list_nft_collections', { limit: 2 }, 'items', 'page');
      assert.ok(colls.length > 2);
      assert.deepEqual(
        ids(nft.seen, (c) => c.policyId),
        ids(colls, (c) => c.policyId),
      );

      const props = (await rest('/governance/proposals?pageSize=200')).items as Json[];
      const gov = await follow('list_governance_actions', { limit: 3 }, 'items', 'page');
      assert.ok(props.length > 3);
      assert.deepEqual(
        ids(gov.seen, (p) => p.id),
        ids(props, (p) => p.id),
      );

      const news = (await rest('/news?limit=200')).items as Json[];
      const feed = await follow('get_news', { limit: 2 }, 'items', 'cursor');
      assert.ok(news.length > 2);
      assert.deepEqual(
        ids(feed.seen, (n) => n.id),
        ids(news, (n) => n.id),
      );

      // A maker who holds more than one page of tokens and traded more than one: the devnet's chain follows the
      // clock, so the sample wallet of the other tests may have traded a single token.
      let stake = '';
      for (const t of ((await rest('/tokens?sort=liquidity&pageSize=5')).items as Json[]).map((x) => x.asset.unit)) {
        for (const tr of (await rest(`/tokens/${t}/trades?limit=50`)).items as Json[]) {
          if (!tr.maker?.startsWith('stake1')) continue;
          const [held, traded] = [await rest(`/wallet/${tr.maker}`), await rest(`/wallet/${tr.maker}/pnl`)];
          if (held.positions.length > 2 && traded.tokens.length > 1) stake = tr.maker as string;
          if (stake) break;
        }
        if (stake) break;
      }
      assert.ok(stake, 'a maker of a recent trade holds more than 2 tokens and traded more than 1');
      const wallet = await rest(`/wallet/${stake}`);
      const w = await follow('get_wallet', { address: stake, limit: 2 }, 'positions', 'page');
      assert.ok(wallet.positions.length > 2, 'the sample wallet holds more than one page of tokens');
      assert.equal(w.first.positionsTotal, wallet.positions.length);
      assert.deepEqual(
        ids(w.seen, (p) => p.asset.unit),
        ids(wallet.positions, (p) => p.asset.unit),
      );

      const pnl = await rest(`/wallet/${stake}/pnl`);
      const p = await follow('get_wallet_pnl', { address: stake, limit: 1 }, 'tokens', 'page');
      assert.ok(pnl.tokens.length > 1, 'the sample wallet traded more than one token');
      assert.equal(p.first.tokensTotal, pnl.tokens.length);
      assert.deepEqual(
        ids(p.seen, (t) => t.asset.unit),
        ids(pnl.tokens, (t) => t.asset.unit),
      );
    });

    it('search names the next tool for tokens, stake pools, transactions, addresses, blocks, handles and proposals', async () => {
      const token = await rest(`/tokens/${s.unit}`);
      const ticker = token.asset.ticker as string;
      const byTicker = await call('search', { query: ticker });
      assert.deepEqual(byTicker.hits[0].arguments, { unit: s.unit });
      assert.equal(byTicker.hits[0].tool, 'get_token');
      const tx = await call('search', { query: s.txHash });
      assert.equal(tx.hits[0].kind, 'transaction');
      assert.equal(tx.hits[0].tool, 'get_transaction');
      const addr = await call('search', { query: s.stake });
      assert.equal(addr.hits[0].tool, 'get_address');
      const block = await call('search', { query: '5' });
      assert.ok(block.hits.some((h: Json) => h.kind === 'block' && h.label === 'block 5'));
      const pool = await call('search', { query: s.stakePool });
      assert.equal(pool.hits[0].tool, 'get_stake_pool');
      const handle = await call('search', { query: `$${s.handle}` });
      assert.deepEqual(handle.hits[0].arguments, { handle: `$${s.handle}` });
      // A proposal by its CIP-129 id or as txId#index: list_governance_actions filtered by the id lists exactly it.
      const proposal = (await rest('/governance/proposals?pageSize=1')).items[0] as Json;
      assert.ok(proposal, 'the devnet has a governance proposal');
      for (const query of [proposal.govActionId, proposal.id, `${proposal.txId}:${proposal.index}`]) {
        const hit = (await call('search', { query })).hits[0] as Json;
        assert.deepEqual(
          [hit.kind, hit.id, hit.tool],
          ['proposal', proposal.govActionId, 'list_governance_actions'],
          query,
        );
        const listed = await call(hit.tool, hit.arguments);
        assert.deepEqual(
          (listed.items as Json[]).map((i) => i.id),
          [proposal.id],
        );
      }
      // A handle pasted with spaces around it (search takes it so) resolves as written without them. lagSeconds is
      // left out: it counts from the clock (now − the tip block's time), so two calls a second apart differ by one.
      const { lagSeconds: _l, ...padded } = await call('resolve_handle', { handle: ` $${s.handle} ` });
      const { lagSeconds: _m, ...plain } = await call('resolve_handle', { handle: `$${s.handle}` });
      assert.deepEqual(padded, plain);
    });

    it('an address pasted with spaces or a line break around it answers as written without them', async () => {
      for (const address of [s.address, s.stake]) {
        const padded = ` ${address}\n`;
        const { asOf: _a, lagSeconds: _l, ...plain } = await call('get_address', { address });
        const { asOf: _b, lagSeconds: _m, ...trimmed } = await call('get_address', { address: padded });
        assert.equal(plain.address, address);
        assert.deepEqual(trimmed, plain, `get_address ${JSON.stringify(padded)}`);
        // `call` fails on an isError result: the wallet tools take it too.
        const wallet = await call('get_wallet', { address: padded });
        assert.equal(wallet.positionsTotal, (await call('get_wallet', { address })).positionsTotal);
        await call('get_recent_trades', { address: padded });
      }
    });

    it('get_transaction: net changes balance to minus the fee, carries its swap and its NFT sale', async () => {
      const tx = await call('get_transaction', { hash: s.txHash });
      const trades = await rest(`/tokens/${s.unit}/trades?limit=20`);
      const ours = (trades.items as Json[]).filter((t) => t.txHash === s.txHash).map((t) => t.id);
      assert.ok(ours.length > 0);
      assert.deepEqual(
        tx.swaps.map((w: Json) => w.tradeId).filter((id: number) => ours.includes(id)),
        ours.sort((a: number, b: number) => a - b),
      );
      // Its amounts as the REST trade gives them: decimal-adjusted (spec: Units), named, the base units beside.
      for (const t of (trades.items as Json[]).filter((x) => x.txHash === s.txHash)) {
        const w = (tx.swaps as Json[]).find((x) => x.tradeId === t.id) as Json;
        assert.deepEqual(
          [w.amountIn, w.amountOut, w.tokenInName, w.tokenOutName],
          [t.amountIn, t.amountOut, t.tokenIn.displayName, t.tokenOut.displayName],
        );
        assert.equal(w.amountInRaw, String(BigInt(Math.round(t.amountIn * 10 ** t.tokenIn.decimals))));
      }
      if (tx.valid && tx.certificates.length === 0 && tx.withdrawals.length === 0) {
        const net = (tx.netChanges as Json[]).reduce((a, c) => a + BigInt(c.lovelace), 0n);
        assert.equal(net, -BigInt(tx.feeLovelace));
      }
      const sales = await rest(`/nft/collections/${s.policy}/sales?limit=1`);
      const sale = sales.items[0] as Json | undefined;
      if (sale) {
        const saleTx = await call('get_transaction', { hash: sale.txHash ?? sale.txId });
        assert.equal(saleTx.nftSales.length >= 1, true);
        assert.ok(saleTx.nftSales.some((x: Json) => Math.abs(x.priceAda - sale.price) < 1e-6));
      }
    });

    it('get_nft_listings: rarity ranks within the collection size', async () => {
      const tool = await call('get_nft_listings', { policyId: s.policy, limit: 20 });
      // Every devnet NFT is minted with traits (CIP-25 attributes or CIP-68 datum fields): all of them are ranked.
      const collection = await rest(`/nft/collections/${s.policy}`);
      assert.equal(tool.rarityRankedOf, collection.supply);
      assert.ok(tool.items.length > 0);
      for (const l of tool.items) assert.ok(l.rarityRank >= 1 && l.rarityRank <= tool.rarityRankedOf, l.id);
    });

    it('every result stays under the size tool results are cut at (20,000 tokens) at the largest limit its schema allows, whatever the list holds', async () => {
      const tools = (await client.listTools()).tools as Json[];
      const max = (name: string) => tools.find((t) => t.name === name)!.inputSchema.properties.limit.maximum as number;
      const tokens = (v: unknown) => JSON.stringify(v).length / 4; // ≈ characters / 4, as the bench counts them
      // The busiest subjects: the deepest token (s.unit) and its pool, the collection with most listings (s.policy),
      // the wallet with the most of the token's latest trades.
      const trades = await rest(`/tokens/${s.unit}/trades?limit=200`);
      const makers = new Map<string, number>();
      for (const t of trades.items as Json[]) if (t.maker) makers.set(t.maker, (makers.get(t.maker) ?? 0) + 1);
      const wallet = [...makers].sort((a, b) => b[1] - a[1])[0]![0];
      // Each tool at its largest limit, with its lists and how many items each may hold at that limit.
      const calls: [string, Json, [string, (limit: number) => number][]][] = [
        ['search', { query: 'a' }, [['hits', (l) => l]]],
        ['list_tokens', {}, [['items', (l) => l]]],
        ['get_token_candles', { unit: s.unit, interval: '1m' }, [['candles', (l) => l]]],
        ['get_recent_trades', { unit: s.unit }, [['items', (l) => l]]],
        ['get_recent_trades', { poolId: s.poolId }, [['items', (l) => l]]],
        [
          'get_wallet',
          { address: wallet },
          [
            ['positions', (l) => l],
            ['trades24h.items', () => 20],
          ],
        ],
        ['get_wallet_pnl', { address: wallet }, [['tokens', (l) => l]]],
        ['list_nft_collections', {}, [['items', (l) => l]]],
        ['get_nft_listings', { policyId: s.policy }, [['items', (l) => l]]],
        ['list_stake_pools', {}, [['items', (l) => l]]],
        ['list_governance_actions', {}, [['items', (l) => l]]],
        ['get_news', {}, [['items', (l) => l]]],
      ];
      for (const [name, args, lists] of calls) {
        const limit = max(name);
        const r = (await client.callTool({ name, arguments: { ...args, limit } })) as Json;
        assert.notEqual(r.isError, true, `${name}: ${text(r)}`);
        // Oracle: this answer with every list filled to what the limit lets it hold, each with copies of its largest
        // item here (a mainnet list is longer than the devnet's, its items alike).
        let projected = text(r).length / 4;
        for (const [path, cap] of lists) {
          const items = path.split('.').reduce((v: Json, k) => v[k], r.structuredContent as Json) as unknown[];
          assert.ok(items.length > 0, `${name} ${path}: the devnet gives at least one item`);
          projected += (cap(limit) - items.length) * Math.max(...items.map(tokens));
        }
        // Under the size past which fit.ts cuts lists (RESULT_MAX_CHARS), not only under the 25,000 tokens agents
        // take: a result between the two would go out cut, its paging skipping what was cut.
        assert.ok(
          projected < RESULT_MAX_CHARS / 4,
          `${name} at limit ${limit}: ${Math.round(projected)} tokens with full lists (cut past ${RESULT_MAX_CHARS / 4})`,
        );
      }
    });

    it('two concurrent callers never see each other’s results', async () => {
      const a = await connect(mcpUrl(), 'modern');
      const b = await connect(mcpUrl(), 'legacy');
      try {
        const calls = Array.from({ length: 12 }, (_, i) => {
          const [c, unit] = i % 2 ? [a, s.unit] : [b, s.otherUnit];
          return c
            .callTool({ name: 'get_token', arguments: { unit } })
            .then((r) => ({ unit, got: (r.structuredContent as Json).asset.unit as string }));
        });
        for (const { unit, got } of await Promise.all(calls)) assert.equal(got, unit);
      } finally {
        await a.close();
        await b.close();
      }
    });
  });
});
