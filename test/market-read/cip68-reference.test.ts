/**
 * A CIP-68 fungible token asked for by its reference NFT's unit (r25-tokens). CIP-67/68: the fungible token is
 * `policy ‖ 0014df10 ‖ name` (label 333) and its metadata datum sits with the reference NFT `policy ‖ 000643b0 ‖ name`
 * (label 100), which a mint transaction and the metadata address show beside it. On the devnet, AERIE's reference
 * unit (fa514ac1…000643b04145524945) answered GET /tokens/{unit}, get_token and /api/md/token 404 "not found (no DEX
 * pool of it is indexed)" and search had no hit for it, while AERIE (…0014df104145524945) trades in two pools: a
 * dead end for a caller holding the unit the chain showed. The units below are written from the CIP-67 labels by
 * hand; the seeded token trades in one ADA pool.
 */
import assert from 'node:assert/strict';
import { createRecomputeActivities } from '../../activities/recompute/index.js';
import { createSearchActivities } from '../../activities/search/index.js';
import { startTestApi, type TestApi } from '../api/seed.js';
import { callToolOnce } from '../mcp/call-once.js';
import { NOW_MS, pool, putAll, token } from './seed.js';
import { seedScenario } from './scenario.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const POLICY = '7c'.repeat(28);
const NAME = Buffer.from('CIPT').toString('hex');
/** Label 333: the fungible token. */
const FT = `${POLICY}0014df10${NAME}`;
/** Label 100: its reference NFT, holding the metadata datum. */
const REF = `${POLICY}000643b0${NAME}`;
/** A reference NFT whose fungible token the index does not hold. */
const LONE_REF = `${'7d'.repeat(28)}000643b0${NAME}`;

describe('a CIP-68 token asked for by its reference NFT (label 100)', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi(
      async (store) => {
        await seedScenario(store);
        await store.write([
          ...putAll.pools([pool({ id: 9, tokenB: FT, reserveARaw: '50000000000', reserveBRaw: '2500000000' })]),
          ...putAll.tokens([
            token(FT, {
              poolIds: [9],
              primaryPoolId: 9,
              totalSupplyRaw: '10000000000',
              cip68: { name: 'Cip Token', ticker: 'CIPT', decimals: 2, description: null, url: null, logo: null },
            }),
          ]),
        ]);
        const acts = createRecomputeActivities({ store, now: () => NOW_MS });
        await acts.recomputeTokenStats();
        await acts.recomputeRankings();
        await createSearchActivities({ store }).recomputeSearchIndex();
      },
      { now: () => NOW_MS },
    );
  });
  after(() => api.close());

  it('REST and the Markdown view answer 404 naming the token, and the unit they name answers', async () => {
    for (const p of [
      `/tokens/${REF}`,
      `/tokens/${REF}/candles`,
      `/tokens/${REF}/trades`,
      `/tokens/${REF.toUpperCase()}`,
    ]) {
      const r = await api.get(`/api/v1${p}`);
      assert.equal(r.status, 404, p);
      assert.match((r.body as Json).error as string, new RegExp(`reference NFT \\(label 100\\).*token ${FT}`), p);
    }
    const view = await api.get(`/api/md/token/${REF}`, { accept: 'text/markdown' });
    assert.equal(view.status, 404);
    assert.ok(String(view.body).includes(FT), String(view.body));
    // The named unit is the token: its answer carries the reference datum's metadata (name, decimals).
    const t = await api.get(`/api/v1/tokens/${FT}`);
    assert.equal(t.status, 200);
    assert.equal((t.body as Json).asset.name, 'Cip Token');
    assert.equal((t.body as Json).asset.decimals, 2);
    // 0.002 ADA per CIPT: 50,000 ADA against 25,000,000 CIPT (2,500,000,000 base units at 2 decimals) in its pool.
    assert.ok(Math.abs((t.body as Json).stats.priceAda - 0.002) < 1e-12, String((t.body as Json).stats.priceAda));
  });

  it('get_token names the token; search finds the token by the reference unit, in either case', async () => {
    const { message } = await callToolOnce(api.url, 'get_token', { unit: REF });
    assert.equal(message.result.isError, true);
    assert.ok((message.result.content[0].text as string).includes(FT), message.result.content[0].text);
    for (const query of [REF, REF.toUpperCase()]) {
      const s = (await callToolOnce(api.url, 'search', { query })).message.result;
      assert.ok(!s.isError, JSON.stringify(s));
      const [hit] = s.structuredContent.hits as Json[];
      assert.deepEqual(
        hit && { kind: hit.kind, id: hit.id, tool: hit.tool, arguments: hit.arguments },
        { kind: 'token', id: FT, tool: 'get_token', arguments: { unit: FT } },
        query,
      );
      assert.match(hit!.detail, /reference NFT \(label 100\)/);
    }
  });

  it('a reference NFT of no indexed token is a plain not found, and no search hit', async () => {
    const r = await api.get(`/api/v1/tokens/${LONE_REF}`);
    assert.equal(r.status, 404);
    // A plain not found: no CIP-68 hint. (This store's checkpoint is 2 blocks below the source's tip, so the 404 also
    // says the block creating it may not be indexed yet, as a pool's does.)
    assert.ok(
      ((r.body as Json).error as string).startsWith(
        `token ${LONE_REF} not found in the indexed chain (the index reaches height 11500000 of the chain's 11500002`,
      ),
      (r.body as Json).error,
    );
    assert.doesNotMatch((r.body as Json).error, /CIP-68|reference NFT/);
    const s = (await callToolOnce(api.url, 'search', { query: LONE_REF })).message.result;
    assert.deepEqual(s.structuredContent.hits, []);
  });
});
