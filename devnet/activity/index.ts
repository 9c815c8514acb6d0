/** The devnet's activity modules, in the order they act within a block (see generator.ts to add one). */
import type { ActivityModule } from '../generator.js';
import type { Mempool } from '../mempool.js';
import type { World } from '../world.js';
import { dexModule } from './dex.js';
import { faucetModule } from './faucet.js';
import { governanceModule } from './governance.js';
import { handlesModule } from './handles.js';
import { iagonModule } from './iagon.js';
import { nftMarketModule } from './nft-market.js';
import { nftsModule } from './nfts.js';
import { paymentsModule } from './payments.js';
import { poolsModule } from './pools.js';
import { rewardsModule } from './rewards.js';
import { stakingModule } from './staking.js';
import { tokensModule } from './tokens.js';

/** `systemStartMs`: wall-clock time of slot 0, for datums that carry POSIX times (WingRiders deadlines). */
/** `mempool`: submitted transactions, included first in each canonical block (devnet/mempool.ts). */
export function defaultModules(
  world: World,
  opts: { systemStartMs?: number; mempool?: Mempool } = {},
): ActivityModule[] {
  const { mempool } = opts;
  const submitted = mempool
    ? { submitted: (height: number) => (mempool.includedHeight === height ? mempool.included : []) }
    : {};
  return [
    ...(mempool ? [mempool.module()] : []),
    faucetModule(world),
    poolsModule(world),
    stakingModule(world),
    paymentsModule(world),
    tokensModule(world),
    nftsModule(world),
    rewardsModule(world),
    dexModule(world, {
      ...(opts.systemStartMs === undefined ? {} : { systemStartMs: opts.systemStartMs }),
      ...submitted,
    }),
    governanceModule(world),
    iagonModule(world, opts.systemStartMs === undefined ? {} : { systemStartMs: opts.systemStartMs }),
    handlesModule(world, opts.systemStartMs === undefined ? {} : { systemStartMs: opts.systemStartMs }),
    nftMarketModule(world),
  ];
}

/** What orphan blocks carry: plain payments, which spend real UTxOs of the state they fork from. */
export function forkModules(world: World): ActivityModule[] {
  return [paymentsModule(world, 2)];
}
