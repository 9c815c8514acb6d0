/** Small helpers shared by activity modules. */
import type { ActivityContext } from '../generator.js';
import type { Utxo } from '../ledger.js';
import type { Wallet } from '../world.js';

export const ADA = 1_000_000n;

/** A random wallet of `from` holding at least `minLovelace`, or null after `tries` misses. */
export function pickFunded(
  ctx: ActivityContext,
  from: readonly Wallet[],
  minLovelace: bigint,
  tries = 6,
): Wallet | null {
  for (let i = 0; i < tries; i++) {
    const w = ctx.rng.pick(from);
    if (ctx.view.coinAt(w.address) >= minLovelace) return w;
  }
  return null;
}

/** Lovelace as a fraction of a balance, in whole lovelace. */
export function fraction(amount: bigint, f: number): bigint {
  return (amount * BigInt(Math.floor(f * 1_000_000))) / 1_000_000n;
}

/** `n` lovelace drawn log-uniformly between lo and hi ADA. */
export function adaBetween(ctx: ActivityContext, lo: number, hi: number): bigint {
  return BigInt(Math.floor(ctx.rng.logUniform(lo, hi) * 1_000_000));
}

/** UTxOs at `address` holding `policyId` (any asset of it), oldest first. */
export function utxosWithPolicy(ctx: ActivityContext, address: string, policyId: string): Utxo[] {
  const out: Utxo[] = [];
  for (const u of ctx.view.utxosAt(address)) if (u.value.assets[policyId]) out.push(u);
  return out;
}
