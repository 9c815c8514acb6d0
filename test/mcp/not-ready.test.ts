/**
 * Figures a recompute has not written yet, asked for through the tool server: the caller is told they are not ready
 * and to call again (the read layer's reason, as REST's 503 says it), not that the data source failed, and
 * list_tokens does not pass an unwritten ranking off as a chain without tokens. Oracle: an empty store, in which no
 * recompute has run.
 */
import assert from 'node:assert/strict';
import { startTestApi, type TestApi } from '../api/seed.js';
import { callToolOnce } from './call-once.js';
import { JOB_HEALTH } from '../../mongo/collections/sync-state.js';
import { put } from '../../mongo/store.js';

describe('tool server: figures not computed yet', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi(async () => {});
  });
  after(() => api.close());

  const call = async (name: string) => {
    const { message } = await callToolOnce(api.url, name, {});
    assert.equal(message.result?.isError, true, JSON.stringify(message));
    return String(message.result.content[0].text);
  };

  it('list_tokens before the first market recompute: not ready, not an empty list', async () => {
    assert.equal(
      await call('list_tokens'),
      'Not ready yet: the token rankings are not computed yet (the market recompute runs every 20 s); retry shortly, with the same arguments.',
    );
    // REST keeps its list shape: no ranking written says updatedAt null.
    const rest = (await api.get('/api/v1/tokens')).body as { total: number; updatedAt: string | null };
    assert.equal(rest.total, 0);
    assert.equal(rest.updatedAt, null);
  });

  it('get_market_overview before the first market recompute: the reason, not "the data source did not answer"', async () => {
    assert.equal(
      await call('get_market_overview'),
      'Not ready yet: the market overview is not computed yet (the market recompute runs every 20 s); retry shortly, with the same arguments.',
    );
  });

  it('list_stake_pools, list_governance_actions and list_nft_collections before their first run: not ready, not an empty list', async () => {
    // Measured after a start: both answered items [] and total 0, which reads as a chain without stake pools or
    // governance actions (the devnet's ledger listed 13 pools and its blocks carried proposals).
    assert.equal(
      await call('list_stake_pools'),
      'Not ready yet: the stake pool figures are not computed yet (the staking recompute runs every 5 minutes); retry in a few minutes, with the same arguments.',
    );
    assert.equal(
      await call('list_governance_actions'),
      'Not ready yet: the governance figures are not computed yet (the governance recompute runs every 5 minutes); retry in a few minutes, with the same arguments.',
    );
    assert.equal(
      await call('list_nft_collections'),
      'Not ready yet: the NFT collection figures are not computed yet (the NFT recompute runs every 60 s); retry shortly, with the same arguments.',
    );
    // REST keeps its list shapes, with computedAt null.
    for (const path of ['/api/v1/staking/pools', '/api/v1/governance/proposals', '/api/v1/nft/collections']) {
      const rest = (await api.get(path)).body as { total: number; computedAt: string | null };
      assert.equal(rest.total, 0);
      assert.equal(rest.computedAt, null);
    }
  });

  it('list_nft_collections after an NFT run that found no collection: the empty list, dated by that run', async () => {
    const at = '2026-12-01T03:00:00.000Z';
    await api.store.write([put(JOB_HEALTH, { _id: 'recomputeNft', lastSuccessAt: at, failing: null, updatedAt: at })]);
    const { message } = await callToolOnce(api.url, 'list_nft_collections', { limit: 5 });
    assert.notEqual(message.result?.isError, true, JSON.stringify(message));
    assert.equal(message.result.structuredContent.total, 0);
    assert.equal(message.result.structuredContent.computedAt, at);
  });
});
