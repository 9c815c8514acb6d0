/**
 * Reward withdrawals: a delegator (or pool operator) withdraws its whole reward balance, as wallets do. Rewards
 * accrue at epoch boundaries (ledger.startEpoch), so withdrawals never exceed what the ledger has credited.
 */
import type { ActivityModule } from '../generator.js';
import type { DevTx } from '../tx.js';
import type { World } from '../world.js';
import { ADA } from './common.js';

export function rewardsModule(world: World): ActivityModule {
  return {
    name: 'rewards',
    step(ctx) {
      const txs: DevTx[] = [];
      const n = ctx.rng.poisson(0.5);
      for (let i = 0, tries = 0; i < n && tries < 8; tries++) {
        const w = ctx.rng.pick(world.stakers);
        const cred = w.stakeCred as string;
        const amount = ctx.ledger.rewards.get(cred) ?? 0n;
        if (amount < 5n * ADA || ctx.view.coinAt(w.address) < 2n * ADA) continue;
        i++;
        const tx = ctx.build({
          fundFrom: w.address,
          outputs: [],
          withdrawals: [{ rewardAddress: w.rewardAddress as string, cred, amount }],
          signers: [w.paymentVkey, w.stakeVkey as string],
        });
        if (tx) txs.push(tx);
      }
      return txs;
    },
  };
}
