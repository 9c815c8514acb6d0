/**
 * A stake key's delegations as the ledger holds them, not as its last certificate named them: since protocol
 * version 10 a DRep's unregistration clears every vote delegation to it, as a pool's retirement drops its stake
 * delegations (the Conway ledger's GOVCERT rule; the pool case is checked against the devnet's ledger in
 * test/staking/staking-devnet.test.ts). The devnet never retires a DRep, so the ledger's state is built here.
 */
import assert from 'node:assert/strict';
import { drepBech32 } from '../../cardano/governance-ids.js';
import { STAKE_ACCOUNTS } from '../../mongo/collections/chain.js';
import { DREPS, type DRepDoc } from '../../mongo/collections/governance.js';
import { put } from '../../mongo/store.js';
import { STAKE, seedChain, startTestApi, type TestApi } from './seed.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const DREP = drepBech32({ hash: 'd1'.repeat(28), script: false });

const drepDoc = (status: DRepDoc['status']): DRepDoc => ({
  _id: DREP,
  kind: 'registered',
  legacyId: null,
  credential: 'd1'.repeat(28),
  script: false,
  status,
  stake: status === 'retired' ? '0' : '5000000000',
  delegators: status === 'retired' ? 0 : 1,
  deposit: status === 'retired' ? null : '500000000',
  mandateEpoch: status === 'retired' ? null : 600,
  anchor: null,
  votesCast: 2,
  rankStake: status === 'retired' ? 0 : 5000,
  epoch: 580,
  computedAt: new Date().toISOString(),
});

describe('explorer: a stake key delegated to a DRep that has retired since', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi(async (store) => {
      await seedChain(store);
      const account = await store.collection(STAKE_ACCOUNTS).get(STAKE);
      assert.ok(account);
      await store.write([put(STAKE_ACCOUNTS, { ...account, drep: DREP }), put(DREPS, drepDoc('active'))]);
    });
  });
  after(() => api.close());

  const shown = async () => {
    const r = await api.get(`/api/v1/explorer/address/${STAKE}`);
    assert.equal(r.status, 200);
    return (r.body as Json).stakeAccount as Json;
  };

  it('names the DRep while it is registered, and none once the ledger no longer has it; the pool delegation stays', async () => {
    const before = await shown();
    assert.equal(before.drep, DREP);
    const pool = before.poolId as string;
    assert.ok(pool);
    await api.store.write([put(DREPS, drepDoc('retired'))]);
    const after = await shown();
    assert.equal(after.drep, null, 'the unregistration cleared the vote delegation');
    assert.equal(after.poolId, pool);
  });
});
