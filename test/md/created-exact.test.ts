/**
 * The pool and token views over a history that starts mid-chain: pools first seen by a swap, not by their creation.
 * The oracle is mainnet block 12069665 (../shared/fixtures, CSL summary): its batches spend the UTxOs of existing
 * Minswap V2 and WingRiders V2 pools (TALOS, JELLY), so those pools were created before it, and the spec's meaning of
 * createdTime (createdExact false: "the first time the pool was seen (it is older)") and of firstPoolTime
 * (firstPoolExact false: "the time a pool was first seen (the token is older than that)").
 */
import assert from 'node:assert/strict';
import { createRecomputeActivities } from '../../activities/recompute/index.js';
import type { Store } from '../../mongo/store.js';
import { serveTestApp, type TestApi } from '../api/seed.js';
import { ChainBuilder, realBlock12069665 } from '../market/chain.js';
import { syncMarket } from '../market/sync.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const TALOS = '97bbb7db0baef89caefce61b8107ac74c7a7340166b39d906f174bec54616c6f73';

/** The value cell of a row of a view's field table. */
const field = (text: string, name: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`| ${name} |`));
  assert.ok(line, `no row ${name} in\n${text}`);
  return line.slice(name.length + 5, -2);
};

/** `2024-…T12:34:56.000Z` as the views write a time: `2024-… 12:34 UTC`. */
const utc = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

describe('Markdown views: pools first seen, not created, in the indexed history', () => {
  let store: Store;
  let api: TestApi;
  before(async () => {
    const b = new ChainBuilder();
    realBlock12069665(b);
    store = await syncMarket(b.clean());
    // The token answer is the market recompute's (token stats), as the scheduled job writes it.
    await createRecomputeActivities({ store, now: () => Date.now() }).recomputeTokenStats();
    api = await serveTestApp(store);
  });
  after(async () => {
    await api?.close();
    await store?.close();
  });

  it('the pool view does not give the time a pool was first seen as its creation time', async () => {
    const json = (await api.get('/api/v1/pools/2')).body as Json;
    assert.equal(json.tokenB.unit, TALOS);
    assert.equal(json.createdExact, false, 'the block spends the pool: it existed before');
    const md = await api.get('/api/md/pool/2');
    assert.equal(md.status, 200, String(md.body));
    // It read "Created (UTC) | <the block's time>": a pool created at the first block of the history.
    const created = field(md.body as string, 'Created (UTC)');
    assert.notEqual(created, utc(json.createdTime));
    assert.equal(created, `before ${utc(json.createdTime)} (first seen then; created before the indexed history)`);
  });

  it("the token view does not give the time its pools were first seen as its first pool's creation", async () => {
    const json = await api.get(`/api/v1/tokens/${TALOS}`);
    assert.equal(json.status, 200, JSON.stringify(json.body));
    const stats = (json.body as Json).stats;
    assert.equal(stats.firstPoolExact, false);
    const md = await api.get(`/api/md/token/${TALOS}`);
    assert.equal(md.status, 200, String(md.body));
    assert.equal(
      field(md.body as string, 'First pool (UTC)'),
      `before ${utc(stats.firstPoolTime)} (a pool of it predates the indexed history)`,
    );
  });
});
