/**
 * A DEX pool or an NFT collection asked while the index is behind the chain (the first seconds of a start or a
 * resync, a catch-up): it may be created by a block not indexed yet, so the 404 says so instead of a bare "not
 * found" that reads as "no such pool" (measured on `npm start`: `pool 1 not found` and `NFT collection … not found`
 * for ids the devnet's blocks create, seconds before the first write batch committed, while an address or a
 * transaction said "(no block is indexed yet)"). Oracle: the store's own state (no block; or a checkpoint 100 blocks
 * below the source's reported tip), as the explorer's 404s already read it.
 */
import assert from 'node:assert/strict';
import { startTestApi, seedChainBehind, TIP, type TestApi } from './seed.js';
import { callToolOnce } from '../mcp/call-once.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const POLICY = '3946cd12464cd1219d6453dc1b13dd30fb91ae2808f449ec0d0aef19';

describe('a pool or NFT collection asked before the index reached it', () => {
  describe('no block indexed yet', () => {
    let api: TestApi;
    before(async () => {
      api = await startTestApi(async () => {});
    });
    after(() => api.close());

    it('REST, MCP and Markdown say no block is indexed yet', async () => {
      for (const path of [
        '/pools/1',
        '/pools/1/trades',
        `/nft/collections/${POLICY}`,
        `/nft/collections/${POLICY}/sales`,
      ]) {
        const r = await api.get(`/api/v1${path}`);
        assert.equal(r.status, 404, path);
        assert.match((r.body as Json).error, /not found \(no block is indexed yet\)$/, path);
      }
      const tool = await callToolOnce(api.url, 'get_pool', { poolId: 1 });
      assert.match(tool.text, /pool 1 not found \(no block is indexed yet\)/, tool.text);
      const md = await api.get(`/api/md/nft/${POLICY}`, { accept: 'text/markdown' });
      assert.equal(md.status, 404);
      assert.match(String(md.body), /no block is indexed yet/);
    });
  });

  describe('the index catching up', () => {
    const CHAIN_TIP = TIP.height + 100;
    let api: TestApi;
    before(async () => {
      api = await startTestApi((store) => seedChainBehind(store, CHAIN_TIP));
    });
    after(() => api.close());

    it('says the index is catching up, so the pool may be found later', async () => {
      const r = await api.get('/api/v1/pools/999999');
      assert.equal(r.status, 404);
      // (This store's history starts at a mainnet block, which the answer also names.)
      assert.ok(
        ((r.body as Json).error as string).startsWith(
          `pool 999999 not found in the indexed chain (the index reaches height ${TIP.height} of the chain's ` +
            `${CHAIN_TIP} and is catching up, so it may be found later`,
        ),
        (r.body as Json).error,
      );
    });
  });
});
