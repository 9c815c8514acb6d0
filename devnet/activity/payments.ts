/**
 * ADA payments between wallets: mostly one recipient, sometimes a few, now and then a batch; multi-input when
 * the sender's UTxOs are small, always with change; some carry a CIP-20 message (label 674). Also the content
 * of fork blocks (it only moves UTxOs, so it runs on the fork overlay unchanged).
 */
import type { ActivityModule } from '../generator.js';
import type { CborValue } from '../cbor.js';
import type { DevTx, OutputDraft } from '../tx.js';
import { coinOnly } from '../value.js';
import type { World } from '../world.js';
import { ADA, fraction, pickFunded } from './common.js';

const MESSAGES = ['Invoice settled', 'Thanks for lunch', 'Rent share', 'Refund', 'Payroll', 'Donation'];

export function paymentsModule(world: World, meanPerBlock = 2): ActivityModule {
  return {
    name: 'payments',
    step(ctx) {
      const txs: DevTx[] = [];
      const n = ctx.rng.poisson(meanPerBlock);
      for (let i = 0; i < n; i++) {
        const from = pickFunded(ctx, world.wallets, 8n * ADA);
        if (!from) continue;
        const u = ctx.rng.next();
        const recipients = u < 0.72 ? 1 : u < 0.95 ? ctx.rng.int(2, 3) : ctx.rng.int(4, 8);
        const balance = ctx.view.coinAt(from.address);
        const budget = fraction(balance, ctx.rng.logUniform(0.002, 0.4));
        const outputs: OutputDraft[] = [];
        for (let r = 0; r < recipients; r++) {
          const to = ctx.rng.pick(world.wallets);
          if (to === from) continue;
          let amount = fraction(budget, ctx.rng.next()) / BigInt(recipients);
          if (amount < 1_500_000n) amount = 1_500_000n + BigInt(ctx.rng.int(0, 3_000_000));
          outputs.push({ address: to.address, value: coinOnly(amount) });
        }
        if (!outputs.length) continue;
        const metadata: Record<string, CborValue> | undefined = ctx.rng.chance(0.08)
          ? { '674': { msg: [ctx.rng.pick(MESSAGES)] } }
          : undefined;
        const tx = ctx.build({
          fundFrom: from.address,
          outputs,
          signers: [from.paymentVkey],
          network: ctx.rng.chance(0.1),
          ...(metadata ? { metadata } : {}),
        });
        if (tx) txs.push(tx);
      }
      return txs;
    },
  };
}
