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

function pool(id: string, owner: string, pledge = 1_000n * ADA): PoolParams {
  return {
    id,
    hash: hex(id.slice(-1)),
    vrfVerificationKeyHash: hex('f').repeat(2).slice(0, 64),
    owners: [owner],
    cost: 170n * ADA,
    margin: [1, 100],
    pledge,
    rewardAccount: `stake_of_${id}`,
    rewardCred: hex({ '1': 'a', '2': 'b' }[id.slice(-1)] ?? 'd'),
    metadata: { url: 'https://x.stakepool.devnet/v1/poolMetadata.json', hash: hex('0').repeat(2).slice(0, 64) },
    relays: [],
  };
}

describe('devnet epoch rewards and stakePoolsPerformances', () => {
  // Circulation is the genesis funds (no reward paid yet): 3 B ADA; k = 300 → saturation point 10 M ADA.
  const saturated = { pool: 'pool1', cred: hex('1'), stake: 20_000_000n * ADA, blocks: 40 };
  const small = { pool: 'pool2', cred: hex('2'), stake: 5_000_000n * ADA, blocks: 10 };
  // Its owner (its only delegator) holds 5 M ADA and pledged 6 M: the ledger's pledge rule pays such a pool nothing.
  const underPledged = { pool: 'pool3', cred: hex('3'), stake: 5_000_000n * ADA, blocks: 30, pledge: 6_000_000n * ADA };
  const pledgeOf = (p: { pledge?: bigint }): bigint => p.pledge ?? 1_000n * ADA;
  const ledger = new Ledger(
    new Map([
      ['addr_saturated', saturated.cred],
      ['addr_small', small.cred],
      ['addr_underPledged', underPledged.cred],
    ]),
  );
  const names = ['saturated', 'small', 'underPledged'];
  const all: { pool: string; cred: string; stake: bigint; blocks: number; pledge?: bigint }[] = [
    saturated,
    small,
    underPledged,
  ];
  for (const [i, p] of all.entries()) {
    ledger.add({
      txId: hex('c').slice(0, 64),
      index: i,
      address: `addr_${names[i]}`,
      value: coinOnly(p.stake),
    });
    ledger.rewards.set(p.cred, 0n);
    ledger.delegations.set(p.cred, p.pool);
    const params = pool(p.pool, p.cred, pledgeOf(p));
    ledger.rewards.set(params.rewardCred, 0n);
    ledger.pools.set(p.pool, { params, retiringEpoch: null });
    ledger.blocksThisEpoch.set(p.pool, p.blocks);
  }
  ledger.startEpoch(1);
  // After the boundary the saturated pool registers new terms (cost 340 ADA, margin 5 %, pledge 2,000 ADA), in force
  // from the next boundary: the epoch just paid keeps the old ones.
  const update = { ...pool('pool1', saturated.cred), cost: 340n * ADA, margin: [1, 20] as [number, number] };
  ledger.apply({
    id: hex('e').slice(0, 64),
    spent: [],
    created: [],
    withdrawals: [],
    certificates: [{ type: 'stakePoolRegistration', pool: { ...update, pledge: 2_000n * ADA }, deposit: 0n }],
  });
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

  it("pays nothing to a pool whose owners' stake is below its pledge: neither its operator nor its delegators", () => {
    // 30 blocks × 10 ADA would be 300 ADA; the ledger's pledge rule makes it 0. Before, the devnet paid it anyway while
    // its stakePoolsPerformances said the owners' stake (5 M) was below the pledge (6 M), so the service's realised
    // return (0 %, "below the pledge: no rewards") contradicted the rewards the pool's delegators saw credited.
    assert.equal(lovelace(perf.stakePools.pool3.ownerStake), 5_000_000n * ADA);
    assert.equal(ledger.rewards.get(underPledged.cred), 0n);
    assert.equal(ledger.rewards.get(pool('pool3', '').rewardCred), 0n);
  });

  it('reports the cost, margin and pledge the epoch was paid by, not an update registered after its boundary', () => {
    // Before, the answer named the pool's current (updated) terms, so the service priced the epoch the devnet had
    // paid at cost 170 ADA and margin 1 % with 340 ADA and 5 %: 200 ADA − 340 ADA left the delegators 0 instead of
    // the 29.7 ADA credited.
    assert.equal(ledger.pools.get('pool1')?.params.cost, 340n * ADA);
    assert.deepEqual(perf.stakePools.pool1.parameters, {
      cost: { ada: { lovelace: 170_000_000 } },
      margin: '1/100',
      pledge: { ada: { lovelace: 1_000_000_000 } },
    });
  });

  it("reports the epoch so that maxPool × performance gives back what each pool's delegators were credited", () => {
    for (const p of all) {
      const line = perf.stakePools[p.pool];
      const stake = lovelace(line.stake) as bigint;
      assert.equal(stake, p.stake);
      // The terms as the service reads them: the answer's own parameters of the epoch.
      const r = realisedRoa(
        {
          stake,
          pledge: lovelace(line.parameters.pledge) as bigint,
          cost: lovelace(line.parameters.cost) as bigint,
          margin: ratio(line.parameters.margin) as number,
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
