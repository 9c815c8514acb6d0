/**
 * A wallet without indexed activity while the index catches up with the chain (a first sync, a resync): its activity
 * may lie above the indexed height, so the 404 says the index is catching up, as the explorer's answer for the same
 * address does, on every wallet surface (REST portfolio, trades and PnL, get_wallet, the Markdown view). Oracle: the
 * chain tip the source reported (100 blocks above the seeded indexed tip) and the recorded chain's first block.
 */
import assert from 'node:assert/strict';
import { baseAddress, enterpriseAddress, rewardAddress } from '../../cardano/address.js';
import { EARLIER, TIP, seedChainBehind, startTestApi, type TestApi } from '../api/seed.js';
import { callToolOnce } from '../mcp/call-once.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const CHAIN_TIP = TIP.height + 100;
const REACH = `the index reaches height ${TIP.height} of the chain's ${CHAIN_TIP} and is catching up`;
// The seeded chain starts after origin, at recorded mainnet block 11322286: older activity is not indexed either.
const OLDER = `the indexed history starts at block ${EARLIER.height}, 2025-01-07T21:13:51.000Z: anything older is not indexed`;
const CRED = 'cd'.repeat(28);
const UNSEEN = [baseAddress('mainnet', CRED, CRED), enterpriseAddress('mainnet', CRED), rewardAddress('mainnet', CRED)];

describe('wallet answers while the index is behind the chain (a first sync or a resync catching up)', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi((store) => seedChainBehind(store, CHAIN_TIP));
  });
  after(() => api.close());

  it('an unseen address or stake key is "not found in the indexed chain … catching up", not "no activity"', async () => {
    for (const address of UNSEEN) {
      const expected = `wallet ${address} not found in the indexed chain (${REACH}, so it may be found later; ${OLDER})`;
      for (const suffix of ['', '/trades', '/pnl']) {
        const r = await api.get(`/api/v1/wallet/${address}${suffix}`);
        assert.equal(r.status, 404, `${address}${suffix}`);
        assert.equal((r.body as Json).error, expected, `${address}${suffix}`);
      }
      // The explorer's answer for the same address says the same of the index.
      const explorer = await api.get(`/api/v1/explorer/address/${address}`);
      assert.equal(explorer.status, 404);
      assert.match((explorer.body as Json).error, new RegExp(`not found in the indexed chain \\(${REACH}`));
      // An agent and a Markdown reader are told the same.
      const { message } = await callToolOnce(api.url, 'get_wallet', { address });
      assert.equal(message.result.isError, true);
      assert.ok((message.result.content[0].text as string).includes(expected), message.result.content[0].text);
      const md = await api.get(`/api/md/wallet/${address}`, { accept: 'text/markdown' });
      assert.equal(md.status, 404);
      assert.ok(String(md.body).includes(REACH), String(md.body));
    }
  });
});
