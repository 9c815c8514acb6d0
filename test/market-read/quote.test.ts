import assert from 'node:assert/strict';
import type { Transaction, TxOutput } from '../../cardano/chain/types.js';
import { minswapV2 } from '../../cardano/dex/minswap-v2.js';
import { wingridersV2 } from '../../cardano/dex/wingriders-v2.js';
import { sundaeswapV3, type SundaeV3Pool } from '../../cardano/dex/sundaeswap-v3.js';
import { quotablePool, quoteRoutes, toBaseUnits } from '../../api/read/swap.js';
import { block12069665, irisItems, irisOutput, realTx } from '../dex/fixtures.js';
import { startTestApi, type TestApi } from '../api/seed.js';
import { put } from '../../mongo/store.js';
import { POOL_STATS, TOKEN_STATS } from '../../mongo/collections/market-read.js';
import { NOW_MS, USDM, checkpointOps, meta, pool, poolFromOutput, prepare, putAll, stats, token } from './seed.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const SNEK = '279c909f348e533da5808898f87f9a14bb2c3dfbbacccd631d927a3f534e454b';
/** A token minted inside the indexed range (1,000 units, no decimals), with no pool. */
const MINTED = `${'7e'.repeat(28)}4d494e544544`;

/** Real pool outputs: Minswap V2 ADA/SNEK (mainnet block 12069665) and WingRiders V2 ADA/USDM (iris fixture). */
const snekOut = (block12069665()[6] as Transaction).outputs[1] as TxOutput;
const usdmOut = irisOutput(
  irisItems('wingriders-v2.test.json').filter((i) => i.kind === 'transaction')[0]?.value.outputs[0] as never,
);

const snek = poolFromOutput(1, minswapV2, snekOut);
const usdm = poolFromOutput(2, wingridersV2, usdmOut);
/** A real WingRiders V2 stableswap pool, USDM/USDA (iris fixture): a curve the quote does not price. */
const USDA = 'fe7c786ab321f41c654ef6c1af7b3250a613c24e4213e0425a7ae45655534441';
const stableOut = irisOutput(
  irisItems('wingriders-stable-v2.test.json').filter((i) => i.kind === 'transaction')[0]?.value.outputs[0] as never,
);
const stable = poolFromOutput(4, wingridersV2, stableOut);
/** A real closed SundaeSwap V3 pool, ADA/STARK (iris fixture): only its NFT and the ADA of its protocol fees. */
const STARK = '0196e7016dbb34ac3794912d897fc9529eaa1ddf529483649fbd24c7535441524b';
const closedOut = irisOutput(
  irisItems('sundaeswap-v3.test.json').filter((i) => i.kind === 'transaction')[0]?.value.outputs[0] as never,
);
const closed = poolFromOutput(5, sundaeswapV3, closedOut);
const { poolOutput: _drop, ...snekNoOutput } = { ...snek.doc };
/** An ADA/SNEK pool holding 1/`share` of pool 1's reserves, known only by them and its fee fractions (no output). */
const snekShare = (id: number, share: bigint) =>
  pool({
    ...snekNoOutput,
    id,
    _id: String(id),
    reserveARaw: String(snek.state.reserveA / share),
    reserveBRaw: String(snek.state.reserveB / share),
  });
/** A second ADA/SNEK pool known only by reserves and fee fractions (no stored output): the fallback path. */
const thinSnek = snekShare(3, 10n);

describe('swap quotes: the DEX adapters’ exact integer math', () => {
  it('a pool rebuilt from its stored output is the adapter’s decoded state', () => {
    const q = quotablePool(snek.doc);
    assert.ok(q?.exact);
    assert.deepEqual(q?.state, snek.state);
    const w = quotablePool(usdm.doc);
    assert.deepEqual(w?.state.extra, usdm.state.extra);
  });

  it('without the output, reserves + fee fractions give the same Minswap V2 result (marked inexact)', () => {
    const { poolOutput: _o, ...bare } = snek.doc;
    const q = quotablePool(bare);
    assert.equal(q?.exact, false);
    for (const amount of [1n, 1_000_000n, 123_456_789_000n])
      assert.equal(
        q?.adapter.amountOut(q.state, 'lovelace', amount),
        minswapV2.amountOut(snek.state, 'lovelace', amount),
      );
  });

  it('direct routes equal adapter.amountOut; the deeper pool wins', () => {
    const amount = 100_000_000n;
    const routes = quoteRoutes('lovelace', SNEK, amount, [], [snek.doc, thinSnek]);
    assert.equal(routes.length, 2);
    assert.equal(routes[0]?.amountOut, minswapV2.amountOut(snek.state, 'lovelace', amount));
    assert.deepEqual(
      routes.map((r) => r.hops[0]?.pool.doc.id),
      [1, 3],
    );
    assert.ok((routes[0]?.priceImpact ?? 1) < (routes[1]?.priceImpact ?? 0), 'less impact in the deeper pool');
  });

  it('token → token: each leg uses the pools paying most for this amount, not the deepest three', () => {
    // X has one ADA pool; Y has four, the three deepest at 1 Y per ADA and a shallower one at 2 Y per ADA (a devnet
    // ADA/IAG SundaeSwap pool was 20 % cheaper than the three deeper IAG pools: the best route went through it).
    const X = `${'aa'.repeat(28)}58`;
    const Y = `${'bb'.repeat(28)}59`;
    const xPool = pool({ id: 10, tokenB: X, reserveARaw: '1000000000000', reserveBRaw: '1000000000000' });
    const yPools = [
      pool({ id: 11, tokenB: Y, reserveARaw: '4000000000000', reserveBRaw: '4000000000000' }),
      pool({ id: 12, tokenB: Y, reserveARaw: '3000000000000', reserveBRaw: '3000000000000' }),
      pool({ id: 13, tokenB: Y, reserveARaw: '2000000000000', reserveBRaw: '2000000000000' }),
      pool({ id: 14, tokenB: Y, reserveARaw: '1000000000000', reserveBRaw: '2000000000000' }),
    ];
    const routes = quoteRoutes(X, Y, 1_000_000n, [xPool], yPools);
    // By hand, Minswap V2 with 30 / 10,000: out = ⌊997·in·rOut / (1000·rIn + 997·in)⌋.
    // Hop 1 (pool 10): ⌊997·10^6·10^12 / (10^15 + 997·10^6)⌋ = 996,999 lovelace.
    // Hop 2 via pool 14: ⌊997·996,999·2·10^12 / (10^15 + 997·996,999)⌋ = 1,988,014 Y; via 11, 12 or 13: 994,007 Y.
    assert.deepEqual(
      routes[0]?.hops.map((h) => [h.pool.doc.id, h.amountOut]),
      [
        [10, 996_999n],
        [14, 1_988_014n],
      ],
    );
    assert.equal(routes[0]?.amountOut, 1_988_014n);
    // Still a short list: the best TWO_HOP_POOLS_PER_LEG pools of each leg, combined (1 × 3 here).
    assert.deepEqual(
      routes.map((r) => [r.hops.map((h) => h.pool.doc.id), r.amountOut]),
      [
        [[10, 14], 1_988_014n],
        [[10, 11], 994_007n],
        [[10, 12], 994_007n],
      ],
    );
  });

  it('decimal amounts convert to base units exactly (truncated to the token’s decimals)', () => {
    assert.equal(toBaseUnits('1.5', 6), 1_500_000n);
    assert.equal(toBaseUnits('0.1234567', 6), 123_456n);
    assert.equal(toBaseUnits('1e3', 0), 1000n);
    assert.equal(toBaseUnits('12', 0), 12n);
    // Integers end to end: no digit lost to a float (2^64 − 1, and a 19-digit mantissa in scientific notation).
    assert.equal(toBaseUnits('18446744073709551615', 0), 18_446_744_073_709_551_615n);
    assert.equal(toBaseUnits('1.234567890123456789e18', 0), 1_234_567_890_123_456_789n);
    assert.equal(toBaseUnits('2.5E-3', 6), 2_500n);
    assert.equal(toBaseUnits('1e-7', 6), 0n);
    assert.equal(toBaseUnits('1e+21', 6), 10n ** 27n);
    // Beyond anything on chain, or not a number: refused before any arithmetic.
    assert.equal(toBaseUnits('1e303', 6), null);
    assert.equal(toBaseUnits('Infinity', 6), null);
    assert.equal(toBaseUnits('.', 6), null);
  });
});

describe('GET /swap/quote', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi(
      async (store) => {
        await prepare(store);
        await store.write([
          ...checkpointOps(),
          ...putAll.pools([snek.doc, usdm.doc, thinSnek, stable.doc, closed.doc]),
          ...putAll.tokens([
            token(SNEK, { poolIds: [1, 3], primaryPoolId: 1 }),
            token(USDM, { poolIds: [2, 4], primaryPoolId: 2 }),
            token(USDA, { poolIds: [4] }),
            token(STARK, { poolIds: [5] }),
            token(MINTED, { totalSupplyRaw: '1000', supplyFromMint: true }),
          ]),
          meta(USDM, 'USDM', 6),
          meta(USDA, 'USDA', 6),
        ]);
      },
      { now: () => NOW_MS },
    );
  });
  after(() => api.close());
  const get = async (p: string) => {
    const r = await api.get(`/api/v1${p}&logos=url`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as Json;
  };

  it('ADA → token: every pool of the pair, best first, amounts decimal-adjusted, link to the swap page', async () => {
    const q = await get(`/swap/quote?in=lovelace&out=${SNEK}&amount=100`);
    const expected = minswapV2.amountOut(snek.state, 'lovelace', 100_000_000n) as bigint;
    assert.equal(q.amountIn, 100);
    assert.equal(q.tokenIn.unit, 'lovelace');
    assert.equal(q.tokenOut.unit, SNEK);
    assert.equal(q.routes.length, 2);
    assert.equal(q.best.amountOutRaw, String(expected));
    assert.equal(q.best.amountOut, Number(expected), 'SNEK has 0 decimals');
    // Effective price, by hand: SNEK out per ADA in (100 ADA).
    assert.equal(q.best.effectivePrice, Number(expected) / 100);
    assert.equal(q.best.hops[0].poolId, 1);
    assert.equal(q.best.hops[0].exact, true);
    const fee = Number(snek.state.fee.aToB) / Number(snek.state.fee.denominator);
    assert.equal(q.best.hops[0].feePercent, fee * 100);
    // The pool datum's fee (Minswap V2: 100 / 10,000 on this pool) on 100 ADA: 1 ADA = 1,000,000 lovelace exactly.
    assert.deepEqual([snek.state.fee.aToB, snek.state.fee.denominator], [100n, 10_000n]);
    assert.deepEqual(q.best.fees, [{ poolId: 1, unit: 'lovelace', amount: 1, amountRaw: '1000000', percent: 1 }]);
    assert.ok(q.best.priceImpact > 0 && q.best.priceImpact < 0.01);
    assert.ok(
      Math.abs(q.adaUsd - Number(usdm.state.reserveB) / Number(usdm.state.reserveA)) < 1e-12,
      'from the ADA/USDM pool',
    );
    assert.equal(q.link, `http://api.test/swap?in=lovelace&out=${SNEK}&amount=100`);
  });

  it('the effective price is the exact quotient of the amounts, not float noise (1.2803605500000002)', async () => {
    // By hand: tokenOut base units × 10^decimals(in) over tokenIn base units × 10^decimals(out), both integers below
    // 2^53 here, so one IEEE division gives the double nearest the exact quotient.
    let routes = 0;
    for (const [tokenIn, tokenOut, decIn, decOut] of [
      ['lovelace', USDM, 6, 6],
      ['lovelace', SNEK, 6, 0],
      [SNEK, USDM, 0, 6],
    ] as const)
      for (const amount of ['3', '7', '10', '100', '250', '1000', '12345.678901']) {
        const q = await get(`/swap/quote?in=${tokenIn}&out=${tokenOut}&amount=${amount}`);
        for (const r of q.routes as Json[]) {
          const inRaw = BigInt(r.hops[0].amountInRaw);
          const exact = Number(BigInt(r.amountOutRaw) * 10n ** BigInt(decIn)) / Number(inRaw * 10n ** BigInt(decOut));
          assert.equal(r.effectivePrice, exact, `${amount} ${tokenIn} → ${tokenOut}: ${r.amountOutRaw} for ${inRaw}`);
          routes++;
        }
      }
    assert.ok(routes >= 30, `${routes} routes`);
  });

  it('token → token: two hops through ADA, each hop with its own DEX’s formula', async () => {
    const q = await get(`/swap/quote?in=${SNEK}&out=${USDM}&amount=250000`);
    const hop1 = minswapV2.amountOut(snek.state, SNEK, 250_000n) as bigint;
    const hop2 = wingridersV2.amountOut(usdm.state, 'lovelace', hop1) as bigint;
    const best = q.best as Json;
    assert.deepEqual(
      (best.hops as Json[]).map((h) => [h.poolId, h.dex, h.tokenIn, h.tokenOut, h.amountInRaw, h.amountOutRaw]),
      [
        [1, 'minswap-v2', SNEK, 'lovelace', '250000', String(hop1)],
        [2, 'wingriders-v2', 'lovelace', USDM, String(hop1), String(hop2)],
      ],
    );
    assert.equal(best.amountOutRaw, String(hop2));
    assert.equal(best.amountOut, Number(hop2) / 1e6, 'USDM has 6 decimals');
    // Effective price, by hand: USDM out (6 decimals) per SNEK in (0 decimals).
    assert.equal(best.effectivePrice, Number(hop2) / 250_000_000_000);
    for (const r of q.routes as Json[]) assert.equal(r.effectivePrice, Number(r.amountOutRaw) / 250_000_000_000);
    assert.equal(q.routes.length, 2, 'both SNEK pools × the USDM pool');
  });

  it('computes fees in integers for amounts far beyond 2^53, and refuses more than can exist', async () => {
    // 9,007,199,254.740993 ADA = 2^53 + 1 lovelace: a float of base units would round the fee.
    const q = await get(`/swap/quote?in=lovelace&out=${SNEK}&amount=9007199254.740993`);
    assert.equal(q.best.hops[0].amountInRaw, '9007199254740993');
    // 1 % of 9,007,199,254,740,993 lovelace, rounded down: 90,071,992,547,409 (by hand).
    assert.equal(q.best.fees[0].amountRaw, '90071992547409');
    assert.equal(q.best.fees[0].amount, 90_071_992.547409);
    assert.equal(typeof q.best.fees[0].amount, 'number');
    assert.equal(q.link, `http://api.test/swap?in=lovelace&out=${SNEK}&amount=9007199254.740993`);
    // 2^53 + 1 SNEK (0 decimals): the swap page's link opens on exactly the amount quoted, not on 2^53.
    const big = await get(`/swap/quote?in=${SNEK}&out=lovelace&amount=9007199254740993`);
    assert.equal(big.best.hops[0].amountInRaw, '9007199254740993');
    assert.equal(big.link, `http://api.test/swap?in=${SNEK}&out=lovelace&amount=9007199254740993`);
    for (const [amount, re] of [
      ['45000000000.000001', /more ADA than exists: at most 45000000000, the maximum ADA supply/],
      ['1e303', /amount/],
      ['1e20', /amount/],
    ] as const) {
      const r = await api.get(`/api/v1/swap/quote?in=lovelace&out=${SNEK}&amount=${amount}`);
      assert.equal(r.status, 400, amount);
      assert.match((r.body as Json).error, re, amount);
    }
    // Exactly the whole ADA supply is still a quote (the pools cannot fill it, but it can exist).
    assert.equal((await api.get(`/api/v1/swap/quote?in=lovelace&out=${SNEK}&amount=45000000000`)).status, 200);
    // A token whose mint the index saw: at most its minted supply.
    const over = await api.get(`/api/v1/swap/quote?in=${MINTED}&out=lovelace&amount=1001`);
    assert.equal(over.status, 400);
    assert.match((over.body as Json).error, /at most 1000, its minted supply/);
    assert.equal((await api.get(`/api/v1/swap/quote?in=${MINTED}&out=lovelace&amount=1000`)).status, 200);
    // A token whose mint the index did not see (SNEK, 0 decimals): at most 2^64 − 1, named exactly, not as a double
    // (18446744073709552000).
    const beyond = await api.get(`/api/v1/swap/quote?in=${SNEK}&out=lovelace&amount=18446744073709551616`);
    assert.equal(beyond.status, 400);
    assert.match((beyond.body as Json).error, /at most 18446744073709551615, the largest quantity an output can hold/);
  });

  it('an amount that is not a positive number is a 400 naming the bound exactly (2^64 − 1, not a double)', async () => {
    for (const amount of ['0', '-1', 'NaN', 'Infinity', '1e400', '']) {
      const r = await api.get(`/api/v1/swap/quote?in=lovelace&out=${SNEK}&amount=${amount}`);
      assert.equal(r.status, 400, amount);
      assert.match((r.body as Json).error, /^invalid parameter amount: must be a positive number/, amount);
      assert.doesNotMatch((r.body as Json).error, /18446744073709552000/, amount);
    }
  });

  it('an amount no pool can turn into any output answers no routes and best null, and says why', async () => {
    const q = await get(`/swap/quote?in=${USDM}&out=${SNEK}&amount=0.000001`);
    assert.deepEqual(q.routes, []);
    assert.equal(q.best, null);
    assert.equal(q.amountIn, 0.000001);
    // By hand: 1 base unit of USDM buys at most 1 lovelace (the pool holds under 2 lovelace per USDM base unit), and
    // one SNEK costs more than a lovelace, so the second leg gets nothing: the amount is the problem, not the pair.
    assert.ok(usdm.state.reserveA < usdm.state.reserveB * 2n, 'under 2 lovelace per USDM base unit');
    assert.ok(snek.state.reserveA > snek.state.reserveB, 'over 1 lovelace per SNEK');
    assert.equal(
      q.note,
      'No route: 0.000001 USDM buys less than one base unit of SNEK on every route; quote a larger amount.',
    );
    assert.ok((await get(`/swap/quote?in=${USDM}&out=${SNEK}&amount=1`)).best, 'a route for 1 USDM');
  });

  it('a pair no indexed pool trades: no route, and the note says so (not "amount too small")', async () => {
    const q = await get(`/swap/quote?in=${MINTED}&out=lovelace&amount=10`);
    assert.equal(q.best, null);
    assert.equal(q.note, `No route: no indexed pool trades ${q.tokenIn.displayName} for ADA.`);
  });

  it('a pair held only by a stableswap pool: no route, and the note names the pool the quote left out', async () => {
    assert.equal(stable.state.curve, 'stable');
    const q = await get(`/swap/quote?in=${USDM}&out=${USDA}&amount=100`);
    assert.deepEqual(q.routes, []);
    assert.equal(
      q.note,
      'No route: the pool 4 (wingriders-v2) of this pair is not constant-product (a stable or weighted curve) and is not quoted, and no other pool trades USDM for USDA (directly or through ADA).',
    );
    // A quote with routes leaves the note null when every pool of the pair was priced.
    assert.equal((await get(`/swap/quote?in=lovelace&out=${SNEK}&amount=100`)).note, null);
  });

  it('a pair held only by a closed pool: no route, and the note says it holds no liquidity (not "quote a larger amount")', async () => {
    assert.equal(closed.state.tokenB, STARK);
    assert.equal(closed.state.reserveA, 0n, 'its 3.5 ADA are all protocol fees');
    assert.equal(closed.state.reserveB, 0n);
    for (const amount of ['100', '1000000']) {
      const q = await get(`/swap/quote?in=lovelace&out=${STARK}&amount=${amount}`);
      assert.deepEqual(q.routes, []);
      assert.equal(
        q.note,
        `No route: pool 5 (sundaeswap-v3) of this pair holds no liquidity (emptied or closed), and no other pool trades ADA for ${q.tokenOut.displayName}.`,
      );
    }
  });
});

describe('GET /swap/quote: routes ranked by what they leave after the batcher fee', () => {
  // ADA → SNEK through the deep pool 1 or the pool 3 holding a tenth of its reserves (so paying less), each at its
  // DEX's typical batcher fee as the market recompute writes it (pool_stats).
  const amount = 100_000_000n;
  const out1 = minswapV2.amountOut(snek.state, 'lovelace', amount) as bigint;
  const out3 = quoteRoutes('lovelace', SNEK, amount, [], [thinSnek])[0]?.amountOut as bigint;
  /** SNEK's market price: pool 1's spot price, lovelace per SNEK (0 decimals). */
  const lovelacePerSnek = Number(snek.state.reserveA) / Number(snek.state.reserveB);
  /** Pool 3 pays less; pool 1's order costs 1 ADA more than that difference is worth. */
  const fee3 = 500_000n;
  const fee1 = fee3 + BigInt(Math.ceil(Number(out1 - out3) * lovelacePerSnek)) + 1_000_000n;
  /** A third ADA/SNEK pool with a twentieth of pool 1's reserves: it pays least. */
  const thinnest = snekShare(5, 20n);
  const out5 = quoteRoutes('lovelace', SNEK, amount, [], [thinnest])[0]?.amountOut as bigint;

  const quoteWith = async (fees: { 1: bigint | null; 3: bigint | null; 5?: bigint | null }, ada = '100') => {
    const api = await startTestApi(
      async (store) => {
        await prepare(store);
        await store.write([
          ...checkpointOps(),
          ...putAll.pools([snek.doc, thinSnek, ...(fees[5] === undefined ? [] : [thinnest])]),
          ...putAll.tokens([token(SNEK, { poolIds: [1, 3, 5], primaryPoolId: 1 })]),
          put(TOKEN_STATS, stats(SNEK, { priceAda: lovelacePerSnek / 1e6 })),
          ...([1, 3, 5] as const).map((id) =>
            put(POOL_STATS, {
              _id: String(id),
              poolId: id,
              volume24h: 0,
              txns24h: 0,
              updatedAt: new Date(NOW_MS).toISOString(),
              batcherFeeLovelace: fees[id] == null ? null : String(fees[id]),
            }),
          ),
        ]);
      },
      { now: () => NOW_MS },
    );
    try {
      const r = await api.get(`/api/v1/swap/quote?in=lovelace&out=${SNEK}&amount=${ada}&logos=url`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body as Json;
    } finally {
      await api.close();
    }
  };

  it('the pool paying most is not best when its order costs more than the extra output is worth', async () => {
    assert.ok(out1 > out3, 'pool 1 pays more');
    const q = await quoteWith({ 1: fee1, 3: fee3 });
    assert.deepEqual(
      (q.routes as Json[]).map((r) => [r.hops[0].poolId, r.amountOutRaw, r.batcherFeeLovelace]),
      [
        [3, String(out3), String(fee3)],
        [1, String(out1), String(fee1)],
      ],
    );
    assert.equal(q.best.hops[0].poolId, 3);
    assert.equal(q.best.batcherFee, 0.5);
    // The fee is beside the output, not in it.
    assert.equal(q.best.effectivePrice, Number(out3) / 100);
  });

  it('the published description of GET /swap/quote says the routes carry the batcher fee and are ranked by it', async () => {
    // The answer ranks pool 3 first although pool 1 pays more (by hand: out1 > out3), because pool 1's order costs
    // more: a REST reader told "batcher fees … are not included" would read that order as a mistake.
    assert.ok(out1 > out3);
    assert.equal((await quoteWith({ 1: fee1, 3: fee3 })).best.hops[0].poolId, 3);
    const api = await startTestApi(async () => {});
    try {
      const op = ((await api.get('/api/v1/openapi.json')).body as Json).paths['/swap/quote'].get as Json;
      const description = String(op.description);
      assert.doesNotMatch(description, /batcher fees[^.;]* not included/);
      assert.match(description, /carries batcherFee/);
      assert.match(description, /ranked by what they leave once it is paid/);
    } finally {
      await api.close();
    }
  });

  it('a dust amount whose best route costs more in fees than it yields says so in note', async () => {
    // 0.1 ADA buys about 0.1 ADA of SNEK (less the pool fee) for a 0.5 ADA order: by hand from pool 3's output.
    const q = await quoteWith({ 1: fee1, 3: fee3 }, '0.1');
    const best = q.best as Json;
    assert.equal(best.hops[0].poolId, 3);
    const yields = Number(best.amountOutRaw) * lovelacePerSnek;
    assert.ok(yields < 100_000 && yields > 90_000, String(yields));
    assert.equal(
      q.note,
      `The best route's batcher fees (0.5 ADA) are worth more than what it yields (about ${(Math.round(yields) / 1e6).toString()} ADA at the market price): the swap would cost more than it returns; quote a larger amount.`,
    );
    // 100 ADA yields far more than its fee: no such sentence.
    assert.equal((await quoteWith({ 1: fee1, 3: fee3 })).note, null);
  });

  it('cheap enough orders leave the larger output best', async () => {
    const even = await quoteWith({ 1: fee3, 3: fee3 });
    assert.deepEqual(
      (even.routes as Json[]).map((r) => r.hops[0].poolId),
      [1, 3],
    );
  });

  it('a DEX whose fee is unknown is ranked at the highest known fee, never made best by it; shown as null', async () => {
    // Pool 1 (most output) has no known fee (MuesliSwap's never is: no order bounds it), pool 3 charges 0.5 ADA,
    // pool 5 (least output) the dear fee1. Pool 1 is ranked at fee1, the highest known: by hand, pool 3 leaves 1 ADA
    // more than pool 1 then (fee1's definition), and pool 1 more than pool 5 (same fee, more output).
    assert.ok(out1 > out3 && out3 > out5);
    const q = await quoteWith({ 1: null, 3: fee3, 5: fee1 });
    assert.deepEqual(
      (q.routes as Json[]).map((r) => [r.hops[0].poolId, r.batcherFeeLovelace]),
      [
        [3, String(fee3)],
        [1, null],
        [5, String(fee1)],
      ],
    );
    assert.equal(q.routes[1].batcherFee, null);
    // With no fee known at all, routes are ranked by output.
    const none = await quoteWith({ 1: null, 3: null, 5: null });
    assert.deepEqual(
      (none.routes as Json[]).map((r) => [r.hops[0].poolId, r.batcherFeeLovelace]),
      [
        [1, null],
        [3, null],
        [5, null],
      ],
    );
  });
});

describe('GET /swap/quote: two-hop legs picked by what they leave after the batcher fee', () => {
  // X has one ADA pool (10); Y has four: 11, 12 and 13 pay 1 % more Y per ADA at a 2 ADA batcher fee, 14 pays the
  // market price at 0.5 ADA. For ~10 ADA of X the leg through 14 leaves ~0.5 ADA more than the others although it
  // pays the least Y, so the best route (10 → 14) must be among the routes at all: picking each leg's three pools
  // paying most left it out (seen on the devnet: NIGHT → USDM answered best sundaeswap 26 → minswap 1 at 1.5 ADA of
  // fees, while 26 → sundaeswap 2, at 1 ADA, left 0.5 ADA more and was not listed).
  const X = `${'aa'.repeat(28)}58`;
  const Y = `${'bb'.repeat(28)}59`;
  const xPool = pool({ id: 10, tokenB: X, reserveARaw: '1000000000000', reserveBRaw: '1000000000000' });
  const yPools = [11, 12, 13].map((id) =>
    pool({ id, tokenB: Y, reserveARaw: '1000000000000', reserveBRaw: '1010000000000' }),
  );
  const cheapY = pool({ id: 14, tokenB: Y, reserveARaw: '1000000000000', reserveBRaw: '1000000000000' });
  const fees: Record<number, bigint> = { 10: 500_000n, 11: 2_000_000n, 12: 2_000_000n, 13: 2_000_000n, 14: 500_000n };
  /** Y's market price, lovelace per Y (0 decimals): pool 14's, its primary pool, 1 lovelace per Y. */
  const lovelacePerY = 1;
  const amountX = 10_000_000n;

  it('the route through the pool paying a little less at a lower fee is listed and best', async () => {
    const api = await startTestApi(
      async (store) => {
        await prepare(store);
        await store.write([
          ...checkpointOps(),
          ...putAll.pools([xPool, ...yPools, cheapY]),
          ...putAll.tokens([
            token(X, { poolIds: [10], primaryPoolId: 10 }),
            token(Y, { poolIds: [11, 12, 13, 14], primaryPoolId: 14 }),
          ]),
          put(TOKEN_STATS, stats(Y, { priceAda: lovelacePerY / 1e6 })),
          ...Object.entries(fees).map(([id, fee]) =>
            put(POOL_STATS, {
              _id: id,
              poolId: Number(id),
              volume24h: 0,
              txns24h: 0,
              updatedAt: new Date(NOW_MS).toISOString(),
              batcherFeeLovelace: String(fee),
            }),
          ),
        ]);
      },
      { now: () => NOW_MS },
    );
    let q: Json;
    try {
      const r = await api.get(`/api/v1/swap/quote?in=${X}&out=${Y}&amount=${amountX}&logos=url`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      q = r.body as Json;
    } finally {
      await api.close();
    }
    // By hand, Minswap V2 with 30 / 10,000: out = ⌊997·in·rOut / (1000·rIn + 997·in)⌋.
    // Hop 1 (pool 10): ⌊997·10^7·10^12 / (10^15 + 997·10^7)⌋ = 9,969,900 lovelace.
    // Hop 2 via 14: ⌊997·9,969,900·10^12 / (10^15 + 997·9,969,900)⌋ = 9,939,891 Y, worth 9.939891 ADA less 0.5 + 0.5
    // ADA of fees = 8.939891 ADA; via 11: ⌊997·9,969,900·1.01·10^12 / (10^15 + 997·9,969,900)⌋ = 10,039,290 Y, worth
    // 10.039290 less 0.5 + 2 = 7.539290 ADA.
    const routes = (q.routes as Json[]).map((r) => [
      r.hops.map((h: Json) => h.poolId),
      r.amountOutRaw,
      r.batcherFeeLovelace,
    ]);
    assert.deepEqual(routes[0], [[10, 14], '9939891', '1000000']);
    assert.deepEqual(routes[1], [[10, 11], '10039290', '2500000']);
    assert.equal(q.best.hops[1].poolId, 14);
  });
});

describe('GET /swap/quote: a SundaeSwap V3 pool that does not trade yet', () => {
  // The real pool output of the scoop in mainnet block 11322286 (tx 34), its datum's market_open (POSIX ms: the
  // validator scoops no swap before it) set in the past or two days after the indexed tip (NOW_MS).
  const scoop = realTx(11322286, 34).outputs[0] as TxOutput;
  const real = sundaeswapV3.decodePool(scoop) as SundaeV3Pool;
  const opening = (id: number, marketOpen: bigint) =>
    poolFromOutput(id, sundaeswapV3, {
      ...scoop,
      datum: sundaeswapV3.encodePoolDatum({ ...real, extra: { ...real.extra, marketOpen } }),
    });
  const OPENS_MS = NOW_MS + 2 * 86_400_000;
  const quote = async (marketOpen: bigint) => {
    const p = opening(7, marketOpen);
    const api = await startTestApi(
      async (store) => {
        await prepare(store);
        await store.write([
          ...checkpointOps(),
          ...putAll.pools([p.doc]),
          ...putAll.tokens([token(real.tokenB, { poolIds: [7], primaryPoolId: 7 })]),
        ]);
      },
      { now: () => NOW_MS },
    );
    try {
      const r = await api.get(`/api/v1/swap/quote?in=lovelace&out=${real.tokenB}&amount=100&logos=url`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body as Json;
    } finally {
      await api.close();
    }
  };

  it('the route through it is quoted, and note says when it opens (an order on it waits until then)', async () => {
    assert.equal(real.tokenA, 'lovelace');
    const q = await quote(BigInt(OPENS_MS));
    assert.equal(q.best.hops[0].poolId, 7);
    assert.equal(
      q.best.amountOutRaw,
      String(sundaeswapV3.amountOut(real, 'lovelace', 100_000_000n)),
      'the pool math does not change',
    );
    assert.equal(
      q.note,
      `Not trading yet: pool 7 (sundaeswap-v3) opens for trading at ${new Date(OPENS_MS).toISOString()}; an order through it waits until then.`,
    );
  });

  it('a pool open since before the indexed tip says nothing', async () => {
    assert.ok(real.extra.marketOpen <= BigInt(NOW_MS), 'the real pool opened before NOW_MS');
    assert.equal((await quote(real.extra.marketOpen)).note, null);
    assert.equal((await quote(BigInt(NOW_MS))).note, null, 'opening at the tip itself');
  });
});
