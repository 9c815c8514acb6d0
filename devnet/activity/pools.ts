/**
 * Stake pools: the genesis pools register in block 1 (operator stake key registration, pool registration with
 * its 500 ADA deposit, and the owner's delegation to its own pool, in one transaction as operators do); more
 * pools register over time, some update their parameters (re-registration, no deposit) and a few retire a
 * few epochs ahead (their deposit returns to the reward account at that epoch boundary). Each registration
 * anchors a metadata JSON document by URL and blake2b-256 hash, as CIP-6 pools do (devnet/pool-metadata.ts).
 */
import type { ActivityContext, ActivityModule } from '../generator.js';
import type { Cert, PoolParams } from '../ledger.js';
import { poolMetadataAnchor } from '../pool-metadata.js';
import { MIN_POOL_COST, STAKE_CREDENTIAL_DEPOSIT, STAKE_POOL_DEPOSIT } from '../params.js';
import type { DevTx } from '../tx.js';
import type { PoolKeys, World } from '../world.js';
import { ADA } from './common.js';

const MARGINS: [number, number][] = [
  [0, 1],
  [1, 100],
  [3, 200],
  [1, 50],
  [1, 40],
  [3, 100],
  [1, 20],
];

function params(ctx: ActivityContext, world: World, pool: PoolKeys, version: number): PoolParams {
  const owner = world.wallets[pool.owner]!;
  const ticker = pool.ticker.toLowerCase();
  return {
    id: pool.id,
    hash: pool.hash,
    vrfVerificationKeyHash: pool.vrfKeyHash,
    owners: [owner.stakeCred as string],
    cost: MIN_POOL_COST + BigInt(ctx.rng.int(0, 4)) * 10n * ADA,
    margin: ctx.rng.pick(MARGINS),
    pledge: BigInt(ctx.rng.int(1, 40)) * 25_000n * ADA,
    rewardAccount: owner.rewardAddress as string,
    rewardCred: owner.stakeCred as string,
    // The document is hosted by the operator (the devnet's server stands in for it: devnet/pool-metadata.ts).
    metadata: poolMetadataAnchor(pool, version),
    relays: [
      { type: 'hostname', hostname: `relay1.${ticker}.stakepool.devnet`, port: 3001 },
      { type: 'ipAddress', ipv4: `10.${pool.index}.${ctx.rng.int(0, 255)}.${ctx.rng.int(1, 254)}`, port: 3001 },
    ],
  };
}

export function poolsModule(world: World): ActivityModule {
  let nextPool = 0;
  const versions = new Map<number, number>();
  const retired = new Set<string>();

  const register = (ctx: ActivityContext, pool: PoolKeys, isNew: boolean): DevTx | null => {
    const owner = world.wallets[pool.owner]!;
    const version = (versions.get(pool.index) ?? 0) + 1;
    const p = params(ctx, world, pool, version);
    const certs: Cert[] = [];
    const ownerRegistered = ctx.ledger.rewards.has(p.rewardCred);
    if (!ownerRegistered)
      certs.push({ type: 'stakeCredentialRegistration', cred: p.rewardCred, deposit: STAKE_CREDENTIAL_DEPOSIT });
    certs.push({ type: 'stakePoolRegistration', pool: p, deposit: isNew ? STAKE_POOL_DEPOSIT : 0n });
    if (isNew) certs.push({ type: 'stakeDelegation', cred: p.rewardCred, pool: pool.id, poolHash: pool.hash });
    const tx = ctx.build({
      fundFrom: owner.address,
      outputs: [],
      certificates: certs,
      signers: [owner.paymentVkey, owner.stakeVkey as string, pool.coldVkey],
    });
    if (tx) versions.set(pool.index, version);
    return tx;
  };

  return {
    name: 'pools',
    step(ctx) {
      const txs: DevTx[] = [];
      const due = nextPool < world.genesisPools ? world.genesisPools : ctx.rng.chance(1 / 400) ? nextPool + 1 : 0;
      while (nextPool < Math.min(due, world.pools.length)) {
        const tx = register(ctx, world.pools[nextPool]!, true);
        if (!tx) break;
        txs.push(tx);
        nextPool++;
      }
      const live = world.pools.slice(0, nextPool).filter((p) => ctx.ledger.pools.has(p.id) && !retired.has(p.id));
      if (live.length && ctx.rng.chance(1 / 900)) {
        const tx = register(ctx, ctx.rng.pick(live), false);
        if (tx) txs.push(tx);
      }
      const retirable = live.filter((p) => p.index >= world.genesisPools);
      if (retirable.length && ctx.rng.chance(1 / 1500)) {
        const pool = ctx.rng.pick(retirable);
        const owner = world.wallets[pool.owner]!;
        const epoch = ctx.epoch + ctx.rng.int(1, 3);
        const tx = ctx.build({
          fundFrom: owner.address,
          outputs: [],
          certificates: [{ type: 'stakePoolRetirement', pool: pool.id, poolHash: pool.hash, epoch }],
          signers: [owner.paymentVkey, pool.coldVkey],
        });
        if (tx) {
          retired.add(pool.id);
          txs.push(tx);
        }
      }
      return txs;
    },
  };
}
