/**
 * Semantic garbage: numbers beyond what can exist on chain and identifiers the published patterns exclude are a
 * 400 that says what is meaningful, not a 200 over nothing. The bounds are the chain's (45 billion ADA maximum
 * supply, 2^64 − 1 base units per output), computed here by hand rather than read from the schema constants.
 */
import assert from 'node:assert/strict';
import { bech32 } from '@scure/base';
import { TOKENS } from '../../mongo/collections/market.js';
import { put } from '../../mongo/store.js';
import { seedChain, startTestApi, type TestApi } from './seed.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const UNIT = `${'ab'.repeat(28)}4c4f474f`;
/** A token the index saw minted (1,000 units) that no DEX pool has ever held. */
const MINTED_ONLY = `${'cd'.repeat(28)}4d494e54`;

describe('REST bounds: numbers and identifiers beyond what the chain can hold', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi(async (store) => {
      await seedChain(store);
      await store.write([
        put(TOKENS, {
          _id: MINTED_ONLY,
          policyId: MINTED_ONLY.slice(0, 56),
          nameHex: MINTED_ONLY.slice(56),
          cip68: null,
          totalSupplyRaw: '1000',
          supplyFromMint: true,
          poolIds: [],
          primaryPoolId: null,
          firstPoolSlot: null,
          firstPoolExact: false,
          slot: 1,
        }),
      ]);
    });
  });
  after(() => api.close());

  const expect400 = async (path: string, error: RegExp) => {
    const r = await api.get(`/api/v1${path}`);
    assert.equal(r.status, 400, `${path}: ${JSON.stringify(r.body)}`);
    assert.deepEqual(Object.keys(r.body as Json), ['error'], path);
    assert.match((r.body as Json).error, error, path);
  };

  it('refuses holder and liquidity floors no token can reach, naming the chain bound', async () => {
    await expect400('/tokens?minHolders=1e20', /minHolders: must be an integer from 0 to 45000000000/);
    await expect400('/tokens?minHolders=100000000000000000000', /45 billion ADA exist at most/);
    await expect400('/tokens?minHolders=45000000001', /minHolders/);
    await expect400('/tokens?minLiquidity=1e20', /minLiquidity: .*90000000000.*maximum supply/);
    // At the bound itself the filter is taken (and selects nothing here).
    const edge = await api.get('/api/v1/tokens?minHolders=45000000000&minLiquidity=90000000000');
    assert.equal(edge.status, 200);
    assert.deepEqual((edge.body as Json).filters, { minLiquidity: 90_000_000_000, minHolders: 45_000_000_000 });
  });

  it('bounds the staking list’s page like every other paged list', async () => {
    await expect400('/staking/pools?page=1e20', /page: must be an integer from 1 to 1000000/);
    await expect400('/staking/pools?page=1000001', /page: must be an integer from 1 to 1000000/);
    await expect400('/staking/pools?pageSize=201', /pageSize: must be an integer from 1 to 200/);
    assert.equal((await api.get('/api/v1/staking/pools?page=1000000')).status, 200);
  });

  it('refuses a swap amount beyond the largest quantity an output can hold (2^64 − 1)', async () => {
    for (const amount of ['1e303', '18446744073709551616000', '1e20'])
      await expect400(`/swap/quote?in=lovelace&out=${UNIT}&amount=${amount}`, /amount: .*18446744073709551615 /);
  });

  it('refuses candle times after year 9999', async () => {
    await expect400(`/tokens/${UNIT}/candles?from=1e20`, /from: must be unix seconds or milliseconds/);
    await expect400(`/tokens/${UNIT}/candles?to=253402300800000`, /to: must be unix seconds or milliseconds/);
  });

  it('refuses handles, DRep ids, proposal ids and cursors outside their published patterns', async () => {
    for (const h of ['a%20b', 'UPPER%21', `${'a'.repeat(29)}`, `${'a'.repeat(14)}@${'b'.repeat(14)}`, '%24%24x'])
      await expect400(`/handles/${h}`, /handle: must be \$name, name \(1-28 of a-z 0-9 _ - \.\) or sub@root/);
    // The same rule where an address parameter takes a handle.
    await expect400('/wallet/%24bad%20handle', /address: must be a Bech32 address .* or an ADA Handle/);
    for (const id of ['drep1', 'drep_always_yes', 'x'.repeat(56)])
      await expect400(`/governance/dreps/${id}`, /id: must be a DRep id/);
    for (const id of [`${'a'.repeat(64)}%2365536`, `${'a'.repeat(64)}%23`, 'gov_action1xyz'])
      await expect400(`/governance/proposals/${id}`, /id: must be txId#index .*index 0-65535/);
    await expect400('/news?cursor=not%2Fbase64url', /cursor: must be the nextCursor of a previous page/);
  });

  it('refuses a pointer address whose pointer is cut off, and takes real ones', async () => {
    // Pointer addresses of recorded mainnet blocks (../shared/fixtures/chain/ogmios/real): header, payment key hash,
    // then slot, tx index and cert index as variable-length numbers (020300, and bcd9819561 bddc66 14).
    const real = [
      'addr1g84tt07ag94qwdpwfy2hlw7gf5d3napglcr48v0erp4sk5szqvqqgecneg',
      'addr1gy5p8wv6sr8mgqjrwj7s75pft9y94ftwqey9vnlcqhew2xaumxqe2cdam3npgv60hqa',
    ];
    for (const a of real) assert.notEqual((await api.get(`/api/v1/explorer/address/${a}`)).status, 400, a);
    const bytes = bech32.fromWords(bech32.decode(real[0] as `addr1${string}`, 200).words);
    // Its cert index's byte with the continuation bit set: a number that never ends; and the cert index left out.
    for (const cut of [Uint8Array.from([...bytes.slice(0, -1), 0x80]), bytes.slice(0, -1)]) {
      const a = bech32.encode('addr', bech32.toWords(cut), 200);
      await expect400(`/explorer/address/${a}`, /pointer address must end in three complete variable-length numbers/);
      await expect400(`/wallet/${a}`, /pointer address must end in three complete variable-length numbers/);
    }
  });

  it('a token minted but never pooled is 404 (no market data will come), not a 503 to retry forever', async () => {
    const r = await api.get(`/api/v1/tokens/${MINTED_ONLY}`);
    assert.equal(r.status, 404, JSON.stringify(r.body));
    assert.match((r.body as Json).error, /has no indexed DEX pool, so no market data/);
  });
});
