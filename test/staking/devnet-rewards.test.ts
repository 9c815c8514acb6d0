/**
 * The devnet's epoch rewards and what its `stakePoolsPerformances` answer says of them, read with the service's
 * Shelley formulas: the realised return of each pool times its active stake is exactly what its delegators were
 * credited, a saturated pool included (it is paid for the saturation point only).
 */
import assert from 'node:assert/strict';
import { lovelace, ratio, realisedRoa, type RewardModel } from '../../activities/staking/compute.js';
import type { DevChain } from '../../devnet/chain.js';
import { Ledger, type PoolParams } from '../../devnet/ledger.js';
import { DESIRED_STAKE_POOLS, GENESIS_FUNDS } from '../../devnet/params.js';
import { answerQuery } from '../../devnet/queries.js';
import { coinOnly } from '../../devnet/value.js';

const ADA = 1_000_000n;
const hex = (c: string) => c.repeat(56);

function pool(id: string, owner: string): PoolParams {
  return {
    id,
    hash: hex(id.slice(-1)),
    vrfVerificationKeyHash: hex('f').repeat(2).slice(0, 64),
    owners: [owner],
    cost: 170n * ADA,
    margin: [1, 100],
    pledge: 1_000n * ADA,
    rewardAccount: `stake_of_${id}`,
    rewardCred: hex(id.slice(-1) === '1' ? 'a' : 'b'),
    metadata: { url: 'https://x.stakepool.devnet/v1/poolMetadata.json', hash: hex('0').repeat(2).slice(0, 64) },
    relays: [],
  };
}

describe('devnet epoch rewards and stakePoolsPerformances', () => {
  // Circulation is the genesis funds (no reward paid yet): 3 B ADA; k = 300 → saturation point 10 M ADA.
  const saturated = { pool: 'pool1', cred: hex('1'), stake: 20_000_000n * ADA, blocks: 40 };
  const small = { pool: 'pool2', cred: hex('2'), stake: 5_000_000n * ADA, blocks: 10 };
  const ledger = new Ledger(
    new Map([
      ['addr_saturated', saturated.cred],
      ['addr_small', small.cred],
    ]),
  );
  for (const [i, p] of [saturated, small].entries()) {
    ledger.add({
      txId: hex('c').slice(0, 64),
      index: i,
      address: `addr_${i ? 'small' : 'saturated'}`,
      value: coinOnly(p.stake),
    });
    ledger.rewards.set(p.cred, 0n);
    ledger.delegations.set(p.cred, p.pool);
    const params = pool(p.pool, p.cred);
    ledger.rewards.set(params.rewardCred, 0n);
    ledger.pools.set(p.pool, { params, retiringEpoch: null });
    ledger.blocksThisEpoch.set(p.pool, p.blocks);
  }
  ledger.startEpoch(1);
  const env = { chain: { tip: 'origin' } as unknown as DevChain, ledger, systemStartMs: 0, epochLength: 21_600 };
  const answer = answerQuery(env, 'queryLedgerState/stakePoolsPerformances', {});
  const perf = JSON.parse((answer as { result: string }).result) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- Ogmios JSON
  const model: RewardModel = {
    pot: lovelace(perf.totalRewardsInEpoch),
    totalStake: lovelace(perf.totalStakeInEpoch) as bigint,
    nOpt: perf.desiredNumberOfStakePools,
    a0: ratio(perf.stakePoolPledgeInfluence) as number,
    epochsPerYear: 1,
  };

  it('pays a saturated pool for the saturation point only: 40 blocks × 10 ADA × 10 M / 20 M', () => {
    assert.equal(GENESIS_FUNDS, 3_000_000_000n * ADA);
    assert.equal(DESIRED_STAKE_POOLS, 300);
    // 200 ADA: the operator takes 170 ADA + 1 % of 30 ADA, the delegator the remaining 29.7 ADA.
    assert.equal(ledger.rewards.get(pool('pool1', '').rewardCred), 170_300_000n);
    assert.equal(ledger.rewards.get(saturated.cred), 29_700_000n);
    // 100 ADA does not cover the 170 ADA cost: the operator takes it all.
    assert.equal(ledger.rewards.get(small.cred), 0n);
  });

  it("reports the epoch so that maxPool × performance gives back what each pool's delegators were credited", () => {
    for (const p of [saturated, small]) {
      const line = perf.stakePools[p.pool];
      const stake = lovelace(line.stake) as bigint;
      assert.equal(stake, p.stake);
      const r = realisedRoa(
        {
          stake,
          pledge: 1_000n * ADA,
          cost: 170n * ADA,
          margin: 0.01,
          performance: line.approximatePerformance,
          ownerStake: lovelace(line.ownerStake),
        },
        model,
      ) as number;
      const credited = Number(ledger.rewards.get(p.cred));
      assert.ok(Math.abs(r * Number(stake) - credited) < 1, `${p.pool}: ${r * Number(stake)} vs ${credited}`);
    }
  });
});
