/**
 * GET /storage-network/overview without staking data: before the first recompute it answers 503 with Retry-After
 * (the request path never builds the overview itself); with no staking script configured (a real network, where the
 * Iagon mainnet hashes are not known) every staking figure is null and the reason names the setting to use.
 */
import assert from 'node:assert/strict';
import { createStorageActivities } from '../../activities/storage/index.js';
import { startTestApi, type TestApi } from '../api/seed.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

describe('storage-network overview without staking scripts', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi(async () => {});
  });
  after(async () => api?.close());

  it('answers 503 with Retry-After before the first recompute instead of building the overview per request', async () => {
    const r = await api.get('/api/v1/storage-network/overview');
    assert.equal(r.status, 503);
    assert.equal(r.headers.get('retry-after'), '60');
    assert.match((r.body as Json).error, /not computed yet/);
  });

  it('names IAGON_STAKE_SCRIPTS when no staking script is configured, with every staking figure null', async () => {
    await createStorageActivities({ store: api.store }).recomputeStorageOverview();
    const b = (await api.get('/api/v1/storage-network/overview')).body as Json;
    assert.equal(b.staking.available, false);
    assert.match(b.staking.reason, /IAGON_STAKE_SCRIPTS/);
    assert.deepEqual(b.staking.stakeScripts, []);
    for (const [name, fig] of Object.entries(b.staking.figures as Record<string, Json>)) {
      assert.equal(fig.value, null, name);
      assert.ok(fig.description.length > 10, name);
    }
    assert.deepEqual(b.recentActivity, []);
  });
});
