/**
 * GET /tokens/{unit}/holders and /tokens/{unit}/series/holders over a synced chain with forks (default extensions:
 * market + holders), and TokenStats.holders after the token-stats recompute.
 */
import assert from 'node:assert/strict';
import { createHoldersActivities } from '../../activities/holders/series.js';
import { defaultExtensions } from '../../activities/extensions.js';
import { createRecomputeActivities } from '../../activities/recompute/index.js';
import {
  HOLDER_COUNTS,
  HOLDERS,
  quantityOfSortKey,
  quantitySortKey,
  topHolderQuantities,
} from '../../mongo/collections/holders.js';
import { TOKEN_STATS } from '../../mongo/collections/market-read.js';
import { POOLS, TOKENS, TOKEN_META } from '../../mongo/collections/market.js';
import { put } from '../../mongo/store.js';
import { startTestApi, type TestApi } from '../api/seed.js';
import { pool, token } from '../market-read/seed.js';
import { buildChain } from '../sync/build-chain.js';
import { memoryChain, TEST_TIME } from '../sync/memory-chain.js';
import { recomputedHolders, syncWith, utxoSupply } from './sync-holders.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

describe('holders REST and TokenStats.holders', function () {
  this.timeout(60_000);
  const { events, canonical } = buildChain({ blocks: 40, forkEvery: 6 });
  const mint = canonical[0]!.transactions![0]!.mint!;
  const policy = Object.keys(mint)[0]!;
  const unit = policy + Object.keys(mint[policy]!)[0]!;
  const tip = canonical[canonical.length - 1]!;
  const tipMs = TEST_TIME.startTimeMs + (tip.slot ?? 0) * 1000;
  let api: TestApi;

  before(async () => {
    api = await startTestApi(
      async (store) => {
        await syncWith(store, memoryChain(events), defaultExtensions());
        // Two decimals from the registry; a pool so the token-stats recompute covers the token.
        await store.write([
          put(TOKEN_META, {
            _id: unit,
            name: 'Token',
            ticker: 'TKN',
            decimals: 2,
            description: null,
            url: null,
            hasLogo: false,
          }),
          put(POOLS, pool({ id: 1, tokenB: unit, reserveARaw: '1000000000', reserveBRaw: '100000' })),
        ]);
        const t = await store.collection(TOKENS).get(unit);
        await store.write([put(TOKENS, { ...(t ?? token(unit)), poolIds: [1], primaryPoolId: 1 })]);
        await createRecomputeActivities({ store, now: () => tipMs }).recomputeTokenStats();
        await createHoldersActivities({ store, now: () => tipMs }).snapshotHolderSeries();
      },
      { now: () => tipMs },
    );
  });
  after(() => api?.close());

  const get = async (p: string, status = 200) => {
    const r = await api.get(`/api/v1${p}`);
    assert.equal(r.status, status, `${p}: ${JSON.stringify(r.body)}`);
    return r.body as Json;
  };

  it('top holders: stake addresses, decimal-adjusted quantities, shares, exact total, the tip time', async () => {
    const r = await get(`/tokens/${unit.toUpperCase()}/holders`);
    const expected = (await recomputedHolders(api.store)).filter(([id]) => id.startsWith(`${unit}|`));
    assert.equal(r.total, expected.length);
    assert.equal(r.partial, false);
    assert.equal(r.fetchedAt, new Date(tipMs).toISOString());
    assert.equal(r.items.length, expected.length);
    const byHolder = new Map(expected.map(([id, q]) => [id.split('|')[1], q]));
    let prev = Infinity;
    let raw = 0n;
    for (const h of r.items) {
      assert.match(h.address, /^stake1/);
      assert.equal(h.quantityRaw, byHolder.get(h.address));
      assert.equal(h.quantity, Number(h.quantityRaw) / 100);
      assert.ok(h.quantity <= prev, 'quantity descending');
      prev = h.quantity;
      raw += BigInt(h.quantityRaw);
      assert.ok(Math.abs(h.share - Number(h.quantityRaw) / 3_000_000) < 1e-12);
    }
    assert.equal(raw, (await utxoSupply(api.store)).get(unit), 'Σ holders = the quantity in unspent outputs');
    assert.equal(r.onChainQuantityRaw, raw.toString(), 'the answer names the quantity its shares are of');
    assert.equal(r.onChainQuantity, Number(raw) / 100);
    assert.equal(r.circulatingSupply, undefined, "not the token's circulating supply (that is less locked holdings)");
  });

  it('top holders read from the index entries alone are the holder documents: holder and quantity, in order', async () => {
    const units: string[] = [];
    for await (const c of api.store.collection(HOLDER_COUNTS).scan()) units.push(c._id);
    assert.ok(units.includes(unit));
    for (const u of units)
      for (const limit of [1, 3, 100]) {
        // The holder documents themselves, through the same index.
        const docs = await api.store.collection(HOLDERS).find('byQuantity', { eq: [u], reverse: true, limit });
        const fromIndex = await topHolderQuantities(api.store, u, limit);
        assert.deepEqual(
          fromIndex,
          docs.map((d) => ({ holder: d.holder, quantityRaw: d.quantityRaw })),
        );
      }
    assert.equal(quantityOfSortKey(quantitySortKey('0')), '0');
    assert.equal(quantityOfSortKey(quantitySortKey('1000')), '1000');
    assert.equal(quantityOfSortKey(quantitySortKey('9'.repeat(45))), '9'.repeat(45));
  });

  it('TokenStats.holders is the holder count after the token-stats recompute', async () => {
    const stats = await api.store.collection(TOKEN_STATS).get(unit);
    const count = await api.store.collection(HOLDER_COUNTS).get(unit);
    assert.ok(count && count.count > 0);
    assert.equal(stats?.holders, count.count);
    assert.equal(stats?.holdersCapped, false);
    const detail = await get(`/tokens/${unit}`);
    assert.equal(detail.stats.holders, count.count);
  });

  it('daily series: the snapshot of today', async () => {
    const s = await get(`/tokens/${unit}/series/holders?days=7`);
    const day = Math.floor(tipMs / 1000 / 86_400) * 86_400;
    const count = await api.store.collection(HOLDER_COUNTS).get(unit);
    assert.deepEqual(s, {
      metric: 'holders',
      points: [{ time: day, value: count?.count }],
      asOf: s.asOf,
      coverageFrom: s.coverageFrom,
    });
  });

  it('400 for a malformed unit, 404 for an unknown token', async () => {
    const bad = await get('/tokens/xyz/holders', 400);
    assert.match(bad.error, /unit/);
    const unknown = await get(`/tokens/${'cd'.repeat(28)}41/holders`, 404);
    assert.match(unknown.error, /not found/);
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = await get('/openapi.json');
    const op = doc.paths['/tokens/{unit}/holders']?.get;
    assert.equal(op?.operationId, 'getTokenHolders');
    assert.match(op.summary, /top 100/);
  });
});
