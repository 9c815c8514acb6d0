/**
 * A pool's swap fee per direction. Minswap V2 pool datums carry a fee for each direction (`base_fee_a_numerator`,
 * `base_fee_b_numerator`, out of 10,000; reference dex-nft-handles.md §2.1): the real ADA/MIN pool of mainnet block
 * 11322286 tx 4 charges 30 (0.3 %) on ADA → MIN and 100 (1 %) on MIN → ADA.
 */
import assert from 'node:assert/strict';
import type { Transaction } from '../../cardano/chain/types.js';
import { POOLS } from '../../mongo/collections/market.js';
import type { Store } from '../../mongo/store.js';
import { serveTestApp, type TestApi } from '../api/seed.js';
import { realTx } from '../dex/fixtures.js';
import { prepare } from '../market-read/seed.js';
import { ChainBuilder } from './chain.js';
import { all, syncMarket } from './sync.js';

const MIN = '29d222ce763455e3d7a09a665ce554f00ac89d2e99a1a83d267170c64d494e';

describe('a pool that charges a different fee in each direction (real Minswap V2 ADA/MIN pool)', () => {
  let store: Store;
  let api: TestApi;
  before(async () => {
    const b = new ChainBuilder();
    const real = realTx(11322286, 4);
    const tx: Transaction = { ...real, id: b.txId(), spends: 'inputs', inputs: [b.outsideInput()] };
    b.block([tx]);
    store = await syncMarket(b.clean());
    await prepare(store);
    api = await serveTestApp(store);
  });
  after(async () => {
    await api.close();
    await store.close();
  });

  it('REST and Markdown give both: 0.3 % selling ADA for MIN, 1 % selling MIN for ADA', async () => {
    const pool = (await all(store, POOLS)).find((p) => p.dex === 'minswap-v2' && p.tokenB === MIN);
    assert.ok(pool, 'the ADA/MIN pool is indexed');
    const r = await api.get(`/api/v1/pools/${pool.id}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const body = r.body as { feePercent: number; feePercentBToA: number };
    assert.equal(body.feePercent, 0.3);
    assert.equal(body.feePercentBToA, 1);
    const md = await api.get(`/api/md/pool/${pool.id}`);
    assert.ok((md.body as string).includes('| Swap fee (%: ADA → MIN / MIN → ADA) | 0.30 / 1.00 |'), String(md.body));
  });
});
