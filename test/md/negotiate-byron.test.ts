/**
 * Content negotiation on the explorer's address route for a Byron address. REST /explorer/address takes Byron
 * base58 addresses (spec: Explorer; the OpenAPI pattern), the wallet view it is negotiated to takes addr1…, stake1…
 * and handles only. The oracle is a real mainnet block (the recorded Ogmios JSON in ../shared/fixtures): a Byron
 * output address of it, and the route's own JSON answer for it.
 */
import assert from 'node:assert/strict';
import { EARLIER, STAKE_CHANGE_ADDRESS, TIP, seedChain, startTestApi, type TestApi } from '../api/seed.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

/** The output addresses of the recorded blocks that are Byron (base58, not Bech32). */
function byronOutputs(): string[] {
  const found = new Set<string>();
  for (const block of [EARLIER, TIP])
    for (const tx of (block as Json).transactions ?? [])
      for (const o of tx.outputs ?? []) if (!/^(addr|stake)/.test(o.address)) found.add(o.address as string);
  return [...found];
}

describe('md negotiation: a Byron address on /explorer/address', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi(seedChain, { now: () => Date.parse('2025-03-01T12:00:00Z') });
  });
  after(() => api.close());

  it('Accept: text/markdown gets the explorer answer, not a 400 saying the address must be Bech32', async () => {
    const byron = byronOutputs();
    assert.ok(byron.length > 0, 'the recorded mainnet blocks pay a Byron address');
    for (const address of byron) {
      const path = `/api/v1/explorer/address/${address}`;
      const json = await api.get(path);
      assert.equal(json.status, 200, `${path}: ${JSON.stringify(json.body)}`);
      assert.equal((json.body as Json).addressType, 'byron');
      // A client preferring Markdown (an agent) asks for the same resource: there is no view of a Byron address, so
      // the route's own answer, as for every REST path without a view; it was a 400 "must be a Bech32 address".
      for (const accept of ['text/markdown', 'text/markdown, application/json;q=0.5']) {
        const md = await api.get(path, { accept });
        assert.equal(md.status, 200, `${path} (${accept}): ${JSON.stringify(md.body)}`);
        assert.match(md.headers.get('content-type') ?? '', /^application\/json/);
        assert.deepEqual(md.body, json.body, accept);
      }
    }
    // A Bech32 address still gets its wallet view in Markdown.
    const md = await api.get(`/api/v1/explorer/address/${STAKE_CHANGE_ADDRESS}`, { accept: 'text/markdown' });
    assert.equal(md.status, 200, String(md.body));
    assert.equal(md.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.match(md.body as string, new RegExp(`^# Wallet ${STAKE_CHANGE_ADDRESS}`));
  });
});
