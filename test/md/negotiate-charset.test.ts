/**
 * Content negotiation with media-type parameters in Accept. The views are sent as `text/markdown; charset=utf-8`
 * (README: Markdown views), so a client asking for exactly that type must get them; a client whose Accept prefers
 * `application/json; charset=utf-8` must get JSON. The oracle is the same resource read without negotiation: the
 * Markdown view at /api/md/… and the REST route's own JSON.
 */
import assert from 'node:assert/strict';
import { STAKE_CHANGE_ADDRESS, seedChain, startTestApi, type TestApi } from '../api/seed.js';

describe('md negotiation: Accept entries with a charset parameter', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi(seedChain, { now: () => Date.parse('2025-03-01T12:00:00Z') });
  });
  after(() => api.close());

  it('REST: Accept text/markdown; charset=utf-8 gets the view, application/json; charset=utf-8 first gets JSON', async () => {
    const rest = `/api/v1/explorer/address/${STAKE_CHANGE_ADDRESS}`;
    const view = await api.get(`/api/md/address/${STAKE_CHANGE_ADDRESS}`);
    assert.equal(view.status, 200, String(view.body));
    const json = await api.get(rest);
    assert.equal(json.status, 200);

    for (const accept of [
      'text/markdown; charset=utf-8',
      'text/markdown;charset=UTF-8',
      'text/markdown; charset=utf-8, application/json;q=0.5',
    ]) {
      const md = await api.get(rest, { accept });
      assert.equal(md.headers.get('content-type'), 'text/markdown; charset=utf-8', accept);
      assert.equal(md.body, view.body, accept);
    }
    // The client prefers JSON (with its charset) and takes Markdown only second: JSON, as the route answers it.
    const preferJson = await api.get(rest, { accept: 'application/json; charset=utf-8, text/markdown;q=0.5' });
    assert.match(preferJson.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(preferJson.body, json.body);
  });

  it('a view error is Markdown to Accept text/markdown; charset=utf-8', async () => {
    const bad = await api.get('/api/md/tokens?limit=101', { accept: 'text/markdown; charset=utf-8' });
    assert.equal(bad.status, 400);
    assert.equal(bad.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.match(bad.body as string, /^# Bad request \(HTTP 400\)/);
  });
});
