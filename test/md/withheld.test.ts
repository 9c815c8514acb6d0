/**
 * After a deep rollback the sync guard withholds answers built from the abandoned chain until their recompute ran
 * again (api/sync-guard.ts). A Markdown view is withheld exactly when the REST answer it shows is, with the same
 * status and Retry-After: in Markdown to a client asking for it, else with the spec's `{ error }`.
 */
import assert from 'node:assert/strict';
import { DERIVED_RUNS, SYNC_HEALTH, SYNC_HEALTH_ID } from '../../mongo/collections/sync-state.js';
import { put } from '../../mongo/store.js';
import { syncGate } from '../../api/sync-guard.js';
import { startTestApi, type TestApi } from '../api/seed.js';
import { callToolOnce } from '../mcp/call-once.js';

const UNIT = `${'ab'.repeat(28)}534e454b`;
const POOL_ID = 'pool1pu5jlj4q9w9jlxeu370a3c9myx47md5j5m2str0naunn2q3lkdy';
const POLICY = 'cd'.repeat(28);
const WALLET =
  'addr1q8j09rn7jh0guqh73lxsvza8v86dgnq4skwr05kvqka6lr5htec5mfl2namkseag8medrqkdkd52zujahek2ckfyuu5suqvm94';

/**
 * The API over a store whose sync recorded one rollback of 12 blocks (generation 1), with only the recomputes `ran`
 * run on the new chain since.
 */
function apiAfterRollback(ran: readonly string[]): Promise<TestApi> {
  const at = new Date().toISOString();
  const from = { slot: 100, id: 'ee'.repeat(32), height: 10 };
  return startTestApi((store) =>
    store.write([
      put(SYNC_HEALTH, {
        _id: SYNC_HEALTH_ID,
        contactAt: at,
        tip: from,
        failing: null,
        stall: null,
        generation: 1,
        lastDeepRollback: { depth: 12, toHeight: 8, at },
        updatedAt: at,
      }),
      ...ran.map((w) => put(DERIVED_RUNS, { _id: w, generation: 1, from, startedAt: at, finishedAt: at })),
    ]),
  );
}

describe('Markdown views withheld after a deep rollback', () => {
  let api: TestApi;
  // Only the NFT recompute has run on the new chain since.
  before(async () => {
    api = await apiAfterRollback(['recomputeNft']);
  });
  after(async () => api?.close());

  for (const [view, rest, workflow] of [
    [`/api/md/token/${UNIT}`, `/api/v1/tokens/${UNIT}`, 'recomputeMarket'],
    ['/api/md/market', '/api/v1/market/overview', 'recomputeMarket'],
    [`/api/md/stake-pool/${POOL_ID}`, `/api/v1/staking/pools/${POOL_ID}`, 'recomputeStaking'],
    ['/api/md/dashboard', '/api/v1/market/overview', 'recomputeMarket'],
  ] as const)
    it(`${view.replace(/[0-9a-f]{20,}|pool1\w+/, '…')} is withheld in Markdown like ${rest.replace(/[0-9a-f]{20,}|pool1\w+/, '…')}`, async () => {
      const md = await api.get(view, { accept: 'text/markdown' });
      const text = md.body as string;
      assert.equal(md.status, 503);
      assert.match(md.headers.get('content-type') ?? '', /^text\/markdown/);
      assert.equal(md.headers.get('retry-after'), '5');
      assert.match(text, /^# Not ready yet \(HTTP 503\)/);
      assert.match(text, /recomputing after a rollback of 12 blocks/);
      assert.match(text, new RegExp(workflow));
      const json = await api.get(rest);
      assert.equal(json.status, 503);
      assert.match((json.body as { error: string }).error, new RegExp(workflow));
      const plain = await api.get(view);
      assert.equal(plain.status, 503);
      assert.equal(plain.headers.get('retry-after'), '5');
      assert.equal((plain.body as { error: string }).error, (json.body as { error: string }).error);
    });

  it('a path in another case is withheld too (the routers match it as the same answer)', async () => {
    for (const path of ['/api/v1/Market/overview', '/API/V1/MARKET/OVERVIEW', '/api/MD/dashboard', '/api/md/MARKET']) {
      const r = await api.get(path);
      assert.equal(r.status, 503, path);
      const text = typeof r.body === 'string' ? r.body : (r.body as { error: string }).error;
      assert.match(text, /recomputing after a rollback of 12 blocks/, path);
    }
  });

  it('the gate the replay fast path asks withholds a path in any case too, as the middleware does', async () => {
    const gate = syncGate({ store: api.store });
    for (const path of [
      '/api/v1/market/overview',
      '/api/v1/Market/overview',
      '/api/v1/TOKENS/' + UNIT,
      '/api/MD/market',
    ]) {
      const w = await gate.withheldAt(path);
      assert.match(w?.reason ?? 'served', /recomputing after a rollback of 12 blocks/, path);
    }
    assert.equal(await gate.withheldAt(`/api/v1/NFT/collections/${POLICY}`), null);
  });

  it("a wallet portfolio (valued at the market recompute's prices) is withheld on every surface, like its PnL", async () => {
    // Before the fix the portfolio was served from the abandoned chain's token_stats prices while its PnL was 503.
    for (const path of [`/api/v1/wallet/${WALLET}`, `/api/v1/wallet/${WALLET}/pnl`]) {
      const r = await api.get(path);
      assert.equal(r.status, 503, path);
      assert.equal(r.headers.get('retry-after'), '5', path);
      assert.match((r.body as { error: string }).error, /rollback of 12 blocks.*recomputeMarket/, path);
    }
    for (const view of [`/api/md/wallet/${WALLET}`, `/api/md/address/${WALLET}`]) {
      const md = await api.get(view, { accept: 'text/markdown' });
      assert.equal(md.status, 503, view);
      assert.match(md.body as string, /recomputeMarket/, view);
    }
    const { message: rpc } = await callToolOnce(api.url, 'get_wallet', { address: WALLET });
    assert.equal(rpc.result.isError, true);
    assert.match(rpc.result.content[0]?.text ?? '', /rollback of 12 blocks.*recomputeMarket/);
    // The wallet's trades come from the sync alone (exact under rollbacks): served.
    assert.notEqual((await api.get(`/api/v1/wallet/${WALLET}/trades`)).status, 503);
  });

  it("a swap quote (fees and ranking from the market recompute's pool and token stats) is withheld like /tokens", async () => {
    // The quote ranks its routes by the output token's token_stats price less each DEX's typical batcher fee
    // (pool_stats.batcherFeeLovelace), both the market recompute's documents. Before the fix it was served with the
    // abandoned chain's figures (here a 404 of the empty store) while /tokens/{unit} was 503.
    const r = await api.get(`/api/v1/swap/quote?in=lovelace&out=${UNIT}&amount=10`);
    assert.equal(r.status, 503);
    assert.equal(r.headers.get('retry-after'), '5');
    assert.match((r.body as { error: string }).error, /rollback of 12 blocks.*recomputeMarket/);
    const { message: rpc } = await callToolOnce(api.url, 'get_swap_quote', {
      tokenIn: 'lovelace',
      tokenOut: UNIT,
      amount: 10,
    });
    assert.equal(rpc.result.isError, true);
    assert.match(rpc.result.content[0]?.text ?? '', /rollback of 12 blocks.*recomputeMarket/);
  });

  it('a view whose recompute already ran on the new chain is not withheld', async () => {
    assert.notEqual((await api.get(`/api/md/nft/${POLICY}`)).status, 503);
  });
});

describe('a wallet portfolio waits for the NFT recompute after a deep rollback', () => {
  let api: TestApi;
  // The market recompute ran on the new chain, the NFT recompute not yet.
  before(async () => {
    api = await apiAfterRollback(['recomputeMarket']);
  });
  after(async () => api?.close());

  it("its NFTs are valued at the NFT recompute's floors: withheld on every surface until that ran; PnL and trades served", async () => {
    // The portfolio prices each NFT at its collection's floor (nft_collection_stats.floorLovelace, README: wallet
    // totals.nftsAda); before the fix it was served with the abandoned chain's floors while /nft/… was 503.
    const r = await api.get(`/api/v1/wallet/${WALLET}`);
    assert.equal(r.status, 503);
    assert.equal(r.headers.get('retry-after'), '5');
    assert.match((r.body as { error: string }).error, /rollback of 12 blocks.*recomputeNft/);
    assert.equal((await api.get(`/api/v1/nft/collections/${POLICY}`)).status, 503);
    for (const view of [`/api/md/wallet/${WALLET}`, `/api/md/address/${WALLET}`]) {
      const md = await api.get(view, { accept: 'text/markdown' });
      assert.equal(md.status, 503, view);
      assert.match(md.body as string, /recomputeNft/, view);
    }
    const { message: rpc } = await callToolOnce(api.url, 'get_wallet', { address: WALLET });
    assert.equal(rpc.result.isError, true);
    assert.match(rpc.result.content[0]?.text ?? '', /rollback of 12 blocks.*recomputeNft/);
    // The PnL is priced by the market recompute alone (ran), the trades come from the sync: both served.
    assert.notEqual((await api.get(`/api/v1/wallet/${WALLET}/pnl`)).status, 503);
    assert.notEqual((await api.get(`/api/v1/wallet/${WALLET}/trades`)).status, 503);
  });
});

describe('get_nft_listings waits for the search recompute (its rarity ranks) after a deep rollback', () => {
  let api: TestApi;
  // The market and NFT recomputes ran on the new chain, search not yet.
  before(async () => {
    api = await apiAfterRollback(['recomputeMarket', 'recomputeNft']);
  });
  after(async () => api?.close());

  it('the tool is isError naming recomputeSearch; the REST listings (no ranks) are served', async () => {
    // Its rarityRank and rarityRankedOf come from nft_rarity, which the search recompute rebuilds from the NFT assets
    // (README: NFT rarity): a rollback of mints changes the ranks. Before the fix the tool was gated by the REST
    // listings path alone and served the abandoned chain's ranks.
    const { message: rpc } = await callToolOnce(api.url, 'get_nft_listings', { policyId: POLICY });
    assert.equal(rpc.result.isError, true);
    assert.match(rpc.result.content[0]?.text ?? '', /rollback of 12 blocks.*recomputeSearch/);
    assert.notEqual((await api.get(`/api/v1/nft/collections/${POLICY}/listings`)).status, 503);
    const { message: detail } = await callToolOnce(api.url, 'get_nft_collection', { policyId: POLICY });
    assert.doesNotMatch(detail.result.content[0]?.text ?? '', /recomputing after/);
  });
});
