/**
 * Genesis distribution. Block 1 spends the genesis output (the faucet's whole supply) and the next blocks fund
 * every wallet in batches, pool operators and token/NFT issuers first; later the faucet tops up wallets that
 * have run dry, like an exchange withdrawal.
 */
import type { ActivityModule } from '../generator.js';
import type { DevTx, OutputDraft } from '../tx.js';
import { coinOnly } from '../value.js';
import { POOL_COUNT, type World } from '../world.js';
import { ADA, adaBetween } from './common.js';

const BATCH = 40;

export function faucetModule(world: World): ActivityModule {
  let next = 0;
  return {
    name: 'faucet',
    step(ctx) {
      const txs: DevTx[] = [];
      const batches = next < world.wallets.length ? (ctx.height === 1 ? 2 : ctx.rng.int(1, 2)) : 0;
      for (let b = 0; b < batches && next < world.wallets.length; b++) {
        const outputs: OutputDraft[] = [];
        const end = Math.min(world.wallets.length, next + BATCH);
        for (; next < end; next++) {
          const w = world.wallets[next]!;
          // Operators need their pledge; everyone else holds between a few dozen and a few hundred thousand ADA.
          const total = next < POOL_COUNT ? adaBetween(ctx, 1_500_000, 8_000_000) : adaBetween(ctx, 40, 400_000);
          const parts = ctx.rng.int(1, 3);
          for (let i = 0; i < parts; i++) outputs.push({ address: w.address, value: coinOnly(total / BigInt(parts)) });
        }
        const tx = ctx.build({ fundFrom: world.faucet.address, outputs, signers: [world.faucet.paymentVkey] });
        if (tx) txs.push(tx);
      }
      if (next >= world.wallets.length && ctx.rng.chance(0.25)) {
        const w = ctx.rng.pick(world.wallets);
        if (ctx.view.coinAt(w.address) < 50n * ADA) {
          const tx = ctx.build({
            fundFrom: world.faucet.address,
            outputs: [{ address: w.address, value: coinOnly(adaBetween(ctx, 100, 20_000)) }],
            signers: [world.faucet.paymentVkey],
          });
          if (tx) txs.push(tx);
        }
      }
      return txs;
    },
  };
}
