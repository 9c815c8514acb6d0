/**
 * A token asked while the index is behind the chain (a first sync, a resync, a catch-up): the block minting it or
 * creating its first pool may not be indexed yet, so its 404 says so, as the 404 of that pool already did. Measured
 * on `npm start` at height 976 of 3264: GET /pools/92 answered "pool 92 not found in the indexed chain (… catching
 * up, so it may be found later)" while its token HONK answered "token … not found (no DEX pool of it is indexed)"
 * (REST, get_token, the Markdown view) and plain "token … not found" (holders, swap quote), which read as "this
 * token has no DEX pool" / "does not exist". Oracle: the store's own state (no block; or a checkpoint 100 blocks
 * below the source's reported tip), as the pool and explorer 404s read it.
 */
import assert from 'node:assert/strict';
import { startTestApi, seedChain, seedChainBehind, TIP, type TestApi } from './seed.js';
import { callToolOnce } from '../mcp/call-once.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

/** A token no block of the seeded chain mints or pools. */
const UNIT = `${'cd'.repeat(28)}484f4e4b`;

/** Every REST answer that 404s for an unknown token. */
const PATHS = [
  `/tokens/${UNIT}`,
  `/tokens/${UNIT}/candles`,
  `/tokens/${UNIT}/trades`,
  `/tokens/${UNIT}/holders`,
  `/tokens/${UNIT}/series/holders`,
  `/tokens/${UNIT}/series/liquidity`,
  `/swap/quote?in=lovelace&out=${UNIT}&amount=5`,
];

describe('a token asked before the index reached it', () => {
  describe('no block indexed yet', () => {
    let api: TestApi;
    before(async () => {
      api = await startTestApi(async () => {});
    });
    after(() => api.close());

    it('REST, MCP and Markdown say no block is indexed yet', async () => {
      for (const path of PATHS) {
        const r = await api.get(`/api/v1${path}`);
        assert.equal(r.status, 404, path);
        assert.equal((r.body as Json).error, `token ${UNIT} not found (no block is indexed yet)`, path);
      }
      const tool = await callToolOnce(api.url, 'get_token', { unit: UNIT });
      assert.match(tool.text, /not found \(no block is indexed yet\)/, tool.text);
      const md = await api.get(`/api/md/token/${UNIT}`, { accept: 'text/markdown' });
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

    it('says the index is catching up, so the token may be found later', async () => {
      const behind =
        `token ${UNIT} not found in the indexed chain (the index reaches height ${TIP.height} of the chain's ` +
        `${CHAIN_TIP} and is catching up, so it may be found later`;
      for (const path of PATHS) {
        const r = await api.get(`/api/v1${path}`);
        assert.equal(r.status, 404, path);
        // (This store's history starts at a mainnet block, which the answer also names.)
        assert.ok(((r.body as Json).error as string).startsWith(behind), `${path}: ${(r.body as Json).error}`);
      }
      const tool = await callToolOnce(api.url, 'get_token', { unit: UNIT });
      assert.ok(tool.text.includes(behind), tool.text);
    });
  });

  describe('the index at the tip', () => {
    let api: TestApi;
    before(async () => {
      api = await startTestApi((store) => seedChain(store));
    });
    after(() => api.close());

    it('a token no indexed block mints or pools is not found, as before', async () => {
      const r = await api.get(`/api/v1/tokens/${UNIT}`);
      assert.equal(r.status, 404);
      assert.equal((r.body as Json).error, `token ${UNIT} not found (no DEX pool of it is indexed)`);
      const holders = await api.get(`/api/v1/tokens/${UNIT}/holders`);
      assert.equal((holders.body as Json).error, `token ${UNIT} not found`);
    });
  });
});
