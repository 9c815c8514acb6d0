/**
 * A thing a block creates — a DEX pool, an NFT collection, a token (its mint or first pool), an ADA Handle (its
 * mint or its token's latest move) — asked while the index is behind the chain (the first seconds of a start or a
 * resync, a catch-up) or before any block is indexed: it may be created by a block not indexed yet, so its 404 says
 * so on every surface instead of a bare "not found" that reads as "no such thing". Measured on `npm start`:
 * `pool 1 not found` and `NFT collection … not found` seconds before the first write batch committed; at height 976
 * of 3264, GET /pools/92 said it was catching up while its token HONK answered "token … not found (no DEX pool of it
 * is indexed)" (REST, get_token, the Markdown view) and plain "token … not found" (holders, swap quote); handles
 * answered a bare "handle $x not found". Oracle: the store's own state (no block; or a checkpoint 100 blocks below
 * the source's reported tip), as the explorer's 404s already read it.
 */
import assert from 'node:assert/strict';
import { startTestApi, seedChain, seedChainBehind, TIP, type TestApi } from './seed.js';
import { callToolOnce } from '../mcp/call-once.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const POLICY = '3946cd12464cd1219d6453dc1b13dd30fb91ae2808f449ec0d0aef19';
/** A token no block of the seeded chain mints or pools. */
const UNIT = `${'cd'.repeat(28)}484f4e4b`;
/** A well-formed handle no indexed block mints (the seeded mainnet blocks hold other handles). */
const HANDLE = 'not-indexed-yet';

interface Case {
  /** The subject of the 404 sentence. */
  what: string;
  /** REST paths under /api/v1 that answer 404 for it. */
  rest: string[];
  tool?: [name: string, args: Record<string, unknown>];
  /** Its Markdown view. */
  md?: string;
}

const CASES: Case[] = [
  {
    what: 'pool 999999',
    rest: ['/pools/999999', '/pools/999999/trades'],
    tool: ['get_pool', { poolId: 999999 }],
    md: '/api/md/pool/999999',
  },
  {
    what: `NFT collection ${POLICY}`,
    rest: [`/nft/collections/${POLICY}`, `/nft/collections/${POLICY}/sales`],
    tool: ['get_nft_collection', { policyId: POLICY }],
    md: `/api/md/nft/${POLICY}`,
  },
  {
    what: `token ${UNIT}`,
    rest: [
      `/tokens/${UNIT}`,
      `/tokens/${UNIT}/candles`,
      `/tokens/${UNIT}/trades`,
      `/tokens/${UNIT}/holders`,
      `/tokens/${UNIT}/series/holders`,
      `/tokens/${UNIT}/series/liquidity`,
      `/swap/quote?in=lovelace&out=${UNIT}&amount=5`,
    ],
    tool: ['get_token', { unit: UNIT }],
    md: `/api/md/token/${UNIT}`,
  },
  {
    what: `handle $${HANDLE}`,
    rest: [`/handles/%24${HANDLE}`, `/explorer/address/%24${HANDLE}`, `/wallet/%24${HANDLE}`],
    tool: ['resolve_handle', { handle: `$${HANDLE}` }],
    md: `/api/md/wallet/%24${HANDLE}`,
  },
];

/** Every surface's 404 for each case starts with (REST, Markdown) or contains (the tool's sentence) `sentence`. */
async function assertSays(api: TestApi, sentence: (what: string) => string): Promise<void> {
  for (const c of CASES) {
    const expected = sentence(c.what);
    for (const path of c.rest) {
      const r = await api.get(`/api/v1${path}`);
      assert.equal(r.status, 404, path);
      const error = (r.body as Json).error as string;
      assert.ok(error.startsWith(expected), `${path}: ${error}`);
    }
    if (c.tool) {
      const tool = await callToolOnce(api.url, c.tool[0], c.tool[1]);
      assert.equal(tool.message.result.isError, true, c.tool[0]);
      assert.ok(tool.text.includes(expected), `${c.tool[0]}: ${tool.text}`);
    }
    if (c.md) {
      const md = await api.get(c.md, { accept: 'text/markdown' });
      assert.equal(md.status, 404, c.md);
      assert.ok(String(md.body).includes(expected), `${c.md}: ${String(md.body)}`);
    }
  }
}

describe('a pool, NFT collection, token or handle asked before the index reached it', () => {
  describe('no block indexed yet', () => {
    let api: TestApi;
    before(async () => {
      api = await startTestApi(async () => {});
    });
    after(() => api.close());

    it('REST, MCP and Markdown say no block is indexed yet', async () => {
      await assertSays(api, (what) => `${what} not found (no block is indexed yet)`);
    });

    it('the tools say to retry, not to check the identifier or search (no identifier is found yet)', async () => {
      for (const c of CASES) {
        const tool = await callToolOnce(api.url, c.tool![0], c.tool![1]);
        assert.equal(
          (tool.message.result.content as { text: string }[])[0]!.text,
          `Not found yet: ${c.what} not found (no block is indexed yet); retry shortly, with the same arguments.`,
        );
      }
    });
  });

  describe('the index catching up', () => {
    const CHAIN_TIP = TIP.height + 100;
    let api: TestApi;
    before(async () => {
      api = await startTestApi((store) => seedChainBehind(store, CHAIN_TIP));
    });
    after(() => api.close());

    it('REST, MCP and Markdown say the index is catching up, so it may be found later', async () => {
      // (This store's history starts at a mainnet block, which the answer also names after this.)
      await assertSays(
        api,
        (what) =>
          `${what} not found in the indexed chain (the index reaches height ${TIP.height} of the chain's ` +
          `${CHAIN_TIP} and is catching up, so it may be found later`,
      );
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
