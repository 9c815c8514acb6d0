/**
 * A handle asked while the index is behind the chain (a first sync, a resync catching up) or before any block is
 * indexed: the handle is known only from indexed blocks (its mint, its token's latest move), so it may be minted or
 * moved in a block not indexed yet. The 404 says so, as a block's, a transaction's or an address's does, on every
 * surface that takes a handle (GET /handles, the explorer address and wallet routes, resolve_handle, the Markdown
 * wallet view) instead of a bare "handle $x not found" that reads as "no such handle". Oracle: the store's own state
 * (no block; or a checkpoint 100 blocks below the source's reported tip), as the explorer's 404s read it.
 */
import assert from 'node:assert/strict';
import { startTestApi, seedChainBehind, TIP, type TestApi } from '../api/seed.js';
import { callToolOnce } from '../mcp/call-once.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

/** A well-formed handle no indexed block mints (the seeded mainnet blocks hold other handles). */
const NAME = 'not-indexed-yet';

describe('a handle asked before the index reached it', () => {
  describe('no block indexed yet', () => {
    let api: TestApi;
    before(async () => {
      api = await startTestApi(async () => {});
    });
    after(() => api.close());

    it('REST, MCP and Markdown say no block is indexed yet', async () => {
      for (const path of [`/handles/$${NAME}`, `/explorer/address/$${NAME}`, `/wallet/$${NAME}`]) {
        const r = await api.get(`/api/v1${path.replace('$', '%24')}`);
        assert.equal(r.status, 404, path);
        assert.equal((r.body as Json).error, `handle $${NAME} not found (no block is indexed yet)`, path);
      }
      const tool = await callToolOnce(api.url, 'resolve_handle', { handle: `$${NAME}` });
      assert.equal(tool.message.result.isError, true);
      assert.match(tool.text, /handle \$not-indexed-yet not found \(no block is indexed yet\)/, tool.text);
      const md = await api.get(`/api/md/wallet/%24${NAME}`, { accept: 'text/markdown' });
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

    it('says the index is catching up, so the handle may be found later', async () => {
      const expected =
        `handle $${NAME} not found in the indexed chain (the index reaches height ${TIP.height} of the chain's ` +
        `${CHAIN_TIP} and is catching up, so it may be found later`;
      for (const path of [`/handles/$${NAME}`, `/explorer/address/$${NAME}`, `/wallet/$${NAME}`]) {
        const r = await api.get(`/api/v1${path.replace('$', '%24')}`);
        assert.equal(r.status, 404, path);
        assert.ok(((r.body as Json).error as string).startsWith(expected), `${path}: ${(r.body as Json).error}`);
      }
      const tool = await callToolOnce(api.url, 'resolve_handle', { handle: NAME });
      assert.equal(tool.message.result.isError, true);
      assert.ok(tool.text.includes('and is catching up, so it may be found later'), tool.text);
    });
  });
});
