/**
 * Multi-asset values: lovelace plus `{policyId: {assetNameHex: quantity}}`, all bigint (tx.ts writes them as
 * Ogmios `{ada: {lovelace}, <policyId>: {<assetName>: qty}}`, policies and names in byte order).
 */
import { UTXO_COST_PER_BYTE } from './params.js';

export type Assets = Record<string, Record<string, bigint>>;
export interface Val {
  coin: bigint;
  assets: Assets;
}

export const coinOnly = (coin: bigint): Val => ({ coin, assets: {} });

export function cloneAssets(a: Assets): Assets {
  const out: Assets = {};
  for (const p in a) out[p] = { ...a[p] };
  return out;
}

/** into += sign × from (assets only); zero quantities are dropped. */
export function addAssets(into: Assets, from: Assets, sign: 1n | -1n = 1n): void {
  for (const p in from) {
    const names = from[p] as Record<string, bigint>;
    let target = into[p];
    for (const n in names) {
      const q = (target?.[n] ?? 0n) + sign * (names[n] as bigint);
      if (q === 0n) {
        if (target) {
          delete target[n];
          if (Object.keys(target).length === 0) {
            delete into[p];
            target = undefined;
          }
        }
      } else {
        if (!target) target = into[p] = {};
        target[n] = q;
      }
    }
  }
}

export function assetCount(a: Assets): { policies: number; names: number; nameBytes: number } {
  let policies = 0;
  let names = 0;
  let nameBytes = 0;
  for (const p in a) {
    policies++;
    for (const n in a[p]) {
      names++;
      nameBytes += n.length / 2;
    }
  }
  return { policies, names, nameBytes };
}

export function hasNegative(a: Assets): boolean {
  for (const p in a) for (const n in a[p]) if ((a[p]![n] as bigint) < 0n) return true;
  return false;
}

/** Minimum lovelace of an output holding `assets` (Babbage rule with an estimated serialized size). */
export function minCoin(assets: Assets, withDatum = 0): bigint {
  const c = assetCount(assets);
  const size = 65 + (c.policies ? 12 + c.policies * 29 + c.names * 10 + c.nameBytes : 0) + withDatum;
  return (160n + BigInt(size)) * UTXO_COST_PER_BYTE;
}
