/**
 * Fungible tokens under single-key native policies: each issuer mints its whole supply once (one token's
 * supply is near the 2^63 − 1 limit, to exercise big quantities), then holders send parts of their balance to
 * other wallets, and issuers occasionally burn some of theirs.
 */
import type { ActivityContext, ActivityModule } from '../generator.js';
import type { Utxo } from '../ledger.js';
import { policySigner, type DevTx } from '../tx.js';
import { minCoin, type Assets } from '../value.js';
import type { FungibleToken, Wallet, World } from '../world.js';
import { fraction, utxosWithPolicy } from './common.js';

function holding(ctx: ActivityContext, w: Wallet, t: FungibleToken): { utxos: Utxo[]; total: bigint } {
  const utxos = utxosWithPolicy(ctx, w.address, t.policyId).filter((u) => u.value.assets[t.policyId]?.[t.assetName]);
  let total = 0n;
  for (const u of utxos) total += u.value.assets[t.policyId]![t.assetName]!;
  return { utxos, total };
}

export function tokensModule(world: World): ActivityModule {
  const minted = new Set<string>();
  // Recent recipients per token (bounded rings): senders are drawn from here, not by scanning every wallet.
  const holders = new Map<string, string[]>(world.tokens.map((t) => [t.policyId, []]));
  const byAddress = new Map(world.wallets.map((w) => [w.address, w]));
  const received = (t: FungibleToken, address: string) => {
    const ring = holders.get(t.policyId) as string[];
    ring.push(address);
    if (ring.length > 200) ring.splice(0, ring.length - 200);
  };
  const one = (t: FungibleToken, q: bigint): Assets => ({ [t.policyId]: { [t.assetName]: q } });

  const mint = (ctx: ActivityContext, t: FungibleToken): DevTx | null => {
    const issuer = world.wallets[t.issuer]!;
    const assets = one(t, t.supply);
    return ctx.build({
      fundFrom: issuer.address,
      mint: assets,
      mintPolicies: { [t.policyId]: policySigner(t.policyVkey) },
      outputs: [{ address: issuer.address, value: { coin: minCoin(assets), assets } }],
      signers: [issuer.paymentVkey, t.policyVkey],
    });
  };

  const transfer = (ctx: ActivityContext, t: FungibleToken): DevTx | null => {
    let from = world.wallets[t.issuer]!;
    let h = holding(ctx, from, t);
    const ring = holders.get(t.policyId) as string[];
    if (ring.length && !ctx.rng.chance(0.3)) {
      for (let i = 0; i < 2; i++) {
        const w = byAddress.get(ctx.rng.pick(ring)) as Wallet;
        const hw = holding(ctx, w, t);
        if (hw.total > 0n) {
          from = w;
          h = hw;
          break;
        }
      }
    }
    if (h.total === 0n) return null;
    const to = ctx.rng.pick(world.wallets);
    if (to === from) return null;
    let amount = fraction(h.total, ctx.rng.logUniform(0.0005, 0.3));
    if (amount === 0n) amount = h.total;
    const assets = one(t, amount);
    const tx = ctx.build({
      inputs: h.utxos.slice(0, 20),
      fundFrom: from.address,
      outputs: [{ address: to.address, value: { coin: minCoin(assets), assets } }],
      signers: [from.paymentVkey],
    });
    if (tx) received(t, to.address);
    return tx;
  };

  const burn = (ctx: ActivityContext, t: FungibleToken): DevTx | null => {
    const issuer = world.wallets[t.issuer]!;
    const h = holding(ctx, issuer, t);
    const amount = fraction(h.total, ctx.rng.logUniform(0.0001, 0.01));
    if (amount === 0n) return null;
    return ctx.build({
      inputs: h.utxos.slice(0, 20),
      fundFrom: issuer.address,
      mint: one(t, -amount),
      mintPolicies: { [t.policyId]: policySigner(t.policyVkey) },
      outputs: [],
      signers: [issuer.paymentVkey, t.policyVkey],
    });
  };

  return {
    name: 'tokens',
    step(ctx) {
      const txs: DevTx[] = [];
      const push = (tx: DevTx | null) => tx && txs.push(tx);
      if (ctx.height >= 3)
        for (const t of world.tokens)
          if (!minted.has(t.policyId) && ctx.rng.chance(0.3)) {
            const tx = mint(ctx, t);
            if (tx) {
              minted.add(t.policyId);
              txs.push(tx);
            }
          }
      const live = world.tokens.filter((t) => minted.has(t.policyId));
      if (!live.length) return txs;
      const n = ctx.rng.poisson(1);
      for (let i = 0; i < n; i++) push(transfer(ctx, ctx.rng.pick(live)));
      if (ctx.rng.chance(0.01)) push(burn(ctx, ctx.rng.pick(live)));
      return txs;
    },
  };
}
