/**
 * Reading Ogmios outputs and transactions the way every DEX parser needs: payment credential of an address,
 * quantities by unit, the datum of an output (inline, or by hash through a resolver), redeemers, and the ledger's
 * input order. Pure.
 */
import type { OutputReference, Transaction, TxOutput, Value } from '../chain/types.js';
import { parseAddress } from '../address.js';
import { CborError } from './cbor.js';
import type { PlutusData } from './plutus-data.js';
import { LOVELACE, PlutusShapeError, decodePlutusData } from './plutus-data.js';
import type { DatumResolver, ExecutedSwap, InputResolver, Unit } from './types.js';

const credCache = new Map<string, string | null>();
const CRED_CACHE_MAX = 50_000;

/** Payment credential hash (hex) of a Shelley address, null for reward/Byron/invalid addresses. Memoised. */
export function paymentCredential(address: string): string | null {
  const hit = credCache.get(address);
  if (hit !== undefined) return hit;
  let cred: string | null;
  try {
    cred = parseAddress(address).paymentCred;
  } catch {
    cred = null;
  }
  if (credCache.size >= CRED_CACHE_MAX) credCache.clear();
  credCache.set(address, cred);
  return cred;
}

export function quantityOf(value: Value, unit: Unit): bigint {
  if (unit === LOVELACE) return value.ada.lovelace;
  const policy = value[unit.slice(0, 56)];
  return policy?.[unit.slice(56)] ?? 0n;
}

/** Every asset in a value (ADA first) as `[unit, quantity]`. */
export function unitsOf(value: Value): Array<[Unit, bigint]> {
  const out: Array<[Unit, bigint]> = [[LOVELACE, value.ada.lovelace]];
  for (const [policy, assets] of Object.entries(value)) {
    if (policy === 'ada') continue;
    for (const [name, q] of Object.entries(assets as Record<string, bigint>)) out.push([policy + name, q]);
  }
  return out;
}

export function hasPolicyAsset(value: Value, policy: string, name?: string): boolean {
  const assets = value[policy];
  if (!assets || policy === 'ada') return false;
  if (name === undefined) return Object.values(assets).some((q) => q > 0n);
  return (assets[name] ?? 0n) > 0n;
}

/** Runs a decoder, mapping "not the expected shape" to null; any other error is a bug and propagates. */
export function attempt<T>(f: () => T): T | null {
  try {
    return f();
  } catch (e) {
    if (e instanceof PlutusShapeError || e instanceof CborError) return null;
    throw e;
  }
}

const datumCache = new Map<string, PlutusData | null>();
const DATUM_CACHE_MAX = 5_000;

/**
 * The output's datum: inline, or looked up by hash; null when absent, unresolvable or not Plutus data. Memoised by
 * its CBOR (bounded): a pool's or an order's datum is decoded when the output appears and again when a batch spends
 * it. The decoded value is shared: never modify it.
 */
export function datumOf(output: TxOutput, datums?: DatumResolver): PlutusData | null {
  const hex = output.datum ?? (output.datumHash ? datums?.(output.datumHash) : undefined);
  if (!hex) return null;
  let d = datumCache.get(hex);
  if (d === undefined) {
    d = attempt(() => decodePlutusData(hex));
    if (datumCache.size >= DATUM_CACHE_MAX) datumCache.clear();
    datumCache.set(hex, d);
  }
  return d;
}

export const refString = (ref: OutputReference): string => `${ref.transaction.id}#${ref.index}`;

/** Inputs in ledger order (sorted by tx id, then index): spend redeemers and DEX input indexes count in this order. */
export function sortedInputs(tx: Transaction): OutputReference[] {
  return [...tx.inputs].sort((a, b) =>
    a.transaction.id === b.transaction.id ? a.index - b.index : a.transaction.id < b.transaction.id ? -1 : 1,
  );
}

export interface ResolvedInput {
  ref: OutputReference;
  /** Position in ledger order. */
  position: number;
  output: TxOutput | null;
}

export function resolveInputs(tx: Transaction, resolve: InputResolver): ResolvedInput[] {
  return sortedInputs(tx).map((ref, position) => ({ ref, position, output: resolve(ref) }));
}

export interface Redeemer {
  purpose: string;
  index: number;
  data: PlutusData | null;
}

/** Ogmios v6 `redeemers`: `[{validator: {index, purpose}, redeemer: cborHex}]`. Unknown shapes are skipped. */
export function redeemersOf(tx: Transaction): Redeemer[] {
  const out: Redeemer[] = [];
  for (const r of tx.redeemers ?? []) {
    if (typeof r !== 'object' || r === null) continue;
    const v = (r as { validator?: { index?: unknown; purpose?: unknown } }).validator;
    const hex = (r as { redeemer?: unknown }).redeemer;
    if (!v || typeof v.index !== 'number' || typeof v.purpose !== 'string' || typeof hex !== 'string') continue;
    out.push({ purpose: v.purpose, index: v.index, data: attempt(() => decodePlutusData(hex)) });
  }
  return out;
}

/** Minted quantity of `policy` + `name` in the tx (negative = burnt). */
export function mintedQuantity(tx: Transaction, policy: string, name: string): bigint {
  return tx.mint?.[policy]?.[name] ?? 0n;
}

export function sideOf(tokenIn: Unit, tokenOut: Unit): ExecutedSwap['side'] {
  if (tokenIn === LOVELACE) return 'buy';
  if (tokenOut === LOVELACE) return 'sell';
  return null;
}

/** Ceiling division for non-negative operands (on-chain `divideCeil`). */
export function divCeil(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}
