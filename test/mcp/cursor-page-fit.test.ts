/**
 * get_recent_trades pages with `limit` and `cursor`: each answer's nextCursor continues after the last trade it
 * read. A pool of two tokens with long asset names (32 bytes, the most a name holds) and logos has trades of
 * ~1,900 characters each (two asset references with unit, policy, name hex and two logo URLs), so 50 of them, the
 * tool's largest limit, run past what a tool result may hold (~80,000 characters, api/mcp/fit.ts). An agent paging
 * through such a pool must still see every trade, each once: the oracle is the trade list written here and REST's
 * answer for the same pool.
 */
import assert from 'node:assert/strict';
import { RESULT_MAX_CHARS } from '../../api/mcp/fit.js';
import { put, type Store } from '../../mongo/store.js';
import { TOKEN_META } from '../../mongo/collections/market.js';
import { startTestApi, type TestApi } from '../api/seed.js';
import { NOW_MS, checkpointOps, pool, prepare, putAll, slotAt, token, trade } from '../market-read/seed.js';
import { callTool2026 } from './call-once.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tool results

/** A unit with a 32-byte asset name (64 hex), the longest the ledger allows. */
const longUnit = (policyByte: string, name: string) =>
  policyByte.repeat(28) + Buffer.from(name.padEnd(32, '_'), 'utf8').toString('hex');
const A = longUnit('a1', 'LongNamedTokenAlpha');
const B = longUnit('b2', 'LongNamedTokenBravo');
const POOL = 7;
const TRADES = 130;
const MAKER = 'stake1u8mz6ag6xwnatsv2scevuzuxkan9xndgdwqpel7m5s8a42c2fl3xv';
const MAKER_ADDRESS =
  'addr1q8z9mavq05xxl9wxrk0aldr9cd4yhxdphx8v3g3wt2y9928k94635va86hqc4p3jec9cddmx2dx6s6uqrnlahfq0m24s7ggndd';

/** Trade ids 1…TRADES, one a minute, the newest (id TRADES) a minute before the indexed tip. */
const trades = Array.from({ length: TRADES }, (_, i) =>
  trade({
    id: 10_000 + i,
    poolId: POOL,
    token: B,
    side: null,
    tokenIn: A,
    tokenOut: B,
    amountInRaw: String(1_000_000_007 + i),
    amountOutRaw: String(2_000_000_011 + i),
    priceRaw: 0.123456789,
    valueLovelace: String(123_456_789 + i),
    batcherFeeLovelace: '1000000',
    maker: MAKER,
    makerAddress: MAKER_ADDRESS,
    slot: slotAt(60 * (TRADES - i)),
  }),
);
/** Newest first, as the tool and REST list them. */
const newestFirst = trades.map((t) => t.id).reverse();

const tokenMeta = (unit: string, name: string, ticker: string) =>
  put(TOKEN_META, {
    _id: unit,
    name: `${name} of the long asset names`,
    ticker,
    decimals: 6,
    description: `About ${name}`,
    url: null,
    hasLogo: true,
  });

async function seed(store: Store): Promise<void> {
  await prepare(store);
  await store.write([
    ...checkpointOps(),
    ...putAll.pools([
      pool({ id: POOL, tokenA: A, tokenB: B, reserveARaw: '5000000000000', reserveBRaw: '9000000000000' }),
    ]),
    ...putAll.tokens([
      token(A, { poolIds: [POOL], primaryPoolId: POOL }),
      token(B, { poolIds: [POOL], primaryPoolId: POOL }),
    ]),
    tokenMeta(A, 'Long Named Token Alpha', 'LNTALPHA'),
    tokenMeta(B, 'Long Named Token Bravo', 'LNTBRAVO'),
    ...putAll.trades(trades),
  ]);
}

describe('get_recent_trades: paging through trades too large for 50 in one result skips none', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi(seed, { now: () => NOW_MS });
  });
  after(() => api.close());

  it('REST lists the pool’s trades whole, newest first, and 50 of them are more than a tool result holds', async () => {
    const r = await api.get(`/api/v1/pools/${POOL}/trades?limit=200&logos=url`);
    assert.equal(r.status, 200);
    const items = (r.body as Json).items as Json[];
    assert.deepEqual(
      items.map((t) => t.id),
      newestFirst,
    );
    const fifty = JSON.stringify(items.slice(0, 50)).length;
    assert.ok(fifty > RESULT_MAX_CHARS, `50 trades are ${fifty} characters`);
  });

  it('following nextCursor at limit 50 yields every trade once, in order, each page within the budget', async () => {
    const seen: number[] = [];
    const cuts: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const { text, sc } = await callTool2026(api.url, 'get_recent_trades', { poolId: POOL, limit: 50, cursor });
      assert.ok(text.length <= RESULT_MAX_CHARS, `page ${page}: ${text.length} characters`);
      if (sc.truncated) cuts.push(sc.truncated);
      const items = sc.items as Json[];
      assert.ok(items.length > 0 && items.length <= 50);
      seen.push(...items.map((t) => t.id as number));
      if (!sc.nextCursor) break;
      cursor = sc.nextCursor as string;
    }
    assert.deepEqual(seen, newestFirst);
    // A page cut after it was read would continue (nextCursor) past the trades it left out: pages are read short.
    assert.deepEqual(cuts, []);
  });
});
