/**
 * Delegation: wallets register their stake key (2 ADA deposit) and delegate in the same transaction, most of
 * them in the first hours; afterwards a trickle of newcomers and re-delegations (including delegators whose
 * pool retired, whose delegation lapsed at the retirement epoch).
 */
import type { ActivityModule } from '../generator.js';
import type { Cert } from '../ledger.js';
import { STAKE_CREDENTIAL_DEPOSIT } from '../params.js';
import type { DevTx } from '../tx.js';
import { POOL_COUNT, type World } from '../world.js';
import { ADA, pickFunded } from './common.js';

export function stakingModule(world: World): ActivityModule {
  const delegators = world.stakers.filter((w) => w.index >= POOL_COUNT);
  const poolHash = new Map(world.pools.map((p) => [p.id, p.hash]));
  return {
    name: 'staking',
    step(ctx) {
      const txs: DevTx[] = [];
      const pools = [...ctx.ledger.pools].filter(([, p]) => p.retiringEpoch === null).map(([id]) => id);
      if (!pools.length) return txs;
      const registeredShare = ctx.ledger.rewards.size / world.stakers.length;
      const n = ctx.rng.poisson(registeredShare < 0.75 ? 1.5 : 0.12);
      for (let i = 0; i < n; i++) {
        const w = pickFunded(ctx, delegators, 10n * ADA);
        if (!w) continue;
        const cred = w.stakeCred as string;
        const current = ctx.ledger.delegations.get(cred);
        const pool = ctx.rng.pick(pools);
        if (pool === current) continue;
        const certs: Cert[] = [];
        if (!ctx.ledger.rewards.has(cred))
          certs.push({ type: 'stakeCredentialRegistration', cred, deposit: STAKE_CREDENTIAL_DEPOSIT });
        certs.push({ type: 'stakeDelegation', cred, pool, poolHash: poolHash.get(pool) as string });
        const tx = ctx.build({
          fundFrom: w.address,
          outputs: [],
          certificates: certs,
          signers: [w.paymentVkey, w.stakeVkey as string],
        });
        if (tx) txs.push(tx);
      }
      return txs;
    },
  };
}
