/**
 * Exact value arithmetic. On chain, lovelace and asset quantities are unbounded integers (a real WingRiders V2
 * pool holds 9223372036166189232 share tokens), so documents store them as decimal strings and arithmetic is exact:
 * doubles where both operands are below 10^15 (`addQuantity`), bigint beyond.
 */
import type { ValueDoc } from '../../mongo/collections/chain.js';
import type { Value } from '../../cardano/chain/types.js';
import type { CollectionSpec } from '../../mongo/store.js';
import type { SliceState } from './slice-state.js';
import { StoredDocumentCorruptError } from './health.js';

export const ZERO: ValueDoc = Object.freeze({ lovelace: '0', assets: Object.freeze({}) }) as ValueDoc;

/**
 * Document forms of the block's output values, by the (immutable) parsed value: the core and the holders extension
 * both need them for every output of a block, and both get the same shared, never-mutated object.
 */
const valueDocs = new WeakMap<Value, ValueDoc>();

/** Ogmios `Value` → document form; asset units are `policyId + assetNameHex`. Treat the result as immutable. */
export function valueDoc(v: Value): ValueDoc {
  let d = valueDocs.get(v);
  if (!d) valueDocs.set(v, (d = computeValueDoc(v)));
  return d;
}

function computeValueDoc(v: Value): ValueDoc {
  const assets: Record<string, string> = {};
  for (const policy of Object.keys(v)) {
    if (policy === 'ada') continue;
    const names = v[policy] as Record<string, bigint>;
    for (const name of Object.keys(names)) assets[policy + name] = String(names[name]);
  }
  return { lovelace: String(v.ada.lovelace), assets };
}

/**
 * a ± b of two decimal quantities. Most quantities have at most 15 characters (below 10^15, sign included): their
 * sum or difference stays below 2^53, so doubles give it exactly and the bigint parse of both and the print of the
 * result (most of the sync's arithmetic cost) are skipped; longer ones (a whale's lovelace, a pool's share supply)
 * go through bigint.
 */
export function addQuantity(a: string, b: string, negate: boolean): string {
  if (a.length <= 15 && b.length <= 15) {
    const r = negate ? Number(a) - Number(b) : Number(a) + Number(b);
    // A quantity that is no integer (a damaged stored balance: "corrupt", "1.5") gives NaN or a fraction here, which
    // was written back as the balance ("NaN") and spread to every later block; bigint refuses it loudly instead.
    if (Number.isSafeInteger(r)) return String(r);
  }
  return String(negate ? BigInt(a) - BigInt(b) : BigInt(a) + BigInt(b));
}

/**
 * a + sign·b, dropping assets whose quantity becomes zero. `into`: a's asset map when the caller owns it (no one
 * else holds it), updated in place instead of copied; the result is the same either way (keys in the same order).
 */
export function addValues(a: ValueDoc, b: ValueDoc, sign: 1 | -1 = 1, into?: Record<string, string>): ValueDoc {
  const negate = sign < 0;
  const lovelace = addQuantity(a.lovelace, b.lovelace, negate);
  // An ADA-only delta leaves the assets as they are: share the (immutable) object instead of copying it; a busy
  // script address holds thousands of assets.
  let hasAssets = false;
  for (const _ in b.assets) {
    hasAssets = true;
    break;
  }
  if (!hasAssets) return { lovelace, assets: a.assets };
  const assets: Record<string, string> = into ?? { ...a.assets };
  for (const unit in b.assets) {
    const q = addQuantity(assets[unit] ?? '0', b.assets[unit] as string, negate);
    if (q === '0') delete assets[unit];
    else assets[unit] = q;
  }
  return { lovelace, assets };
}

/** a + sign·b, exactly: a double while both are below 10^15 (as in addQuantity), a bigint beyond. */
function addExact(a: number | bigint, b: string, negate: boolean): number | bigint {
  if (typeof a === 'number' && b.length <= 15 && a < 1e15 && a > -1e15) {
    const r = negate ? a - Number(b) : a + Number(b);
    if (Number.isSafeInteger(r)) return r; // else `b` is no integer: bigint refuses it (as in addQuantity)
  }
  return negate ? BigInt(a) - BigInt(b) : BigInt(a) + BigInt(b);
}

/**
 * A running sum of values (a block's change to one address or stake key), held as numbers (bigints beyond 10^15)
 * while values are added, so no quantity is parsed from and printed back to a decimal string per added output, only
 * once in `doc`. An asset whose sum becomes zero is dropped when it does (a later sum puts it after the others), so
 * `doc` is the value, key order included, that a chain of addValues over the same values starting from zero gives.
 */
export class ValueSum {
  private lovelace: number | bigint = 0;
  private readonly assets = new Map<string, number | bigint>();

  add(v: ValueDoc, sign: 1 | -1): void {
    const negate = sign < 0;
    this.lovelace = addExact(this.lovelace, v.lovelace, negate);
    for (const unit in v.assets) {
      const q = addExact(this.assets.get(unit) ?? 0, v.assets[unit] as string, negate);
      if (q === 0 || q === 0n) this.assets.delete(unit);
      else this.assets.set(unit, q);
    }
  }

  /** The sum in document form (a new object each call). */
  doc(): ValueDoc {
    const assets: Record<string, string> = {};
    for (const [unit, q] of this.assets) assets[unit] = String(q);
    return { lovelace: String(this.lovelace), assets };
  }
}

/**
 * Adds sign·v to `into`, a balance the caller owns (see SliceState.edit), in place, dropping assets whose quantity
 * becomes zero; `prior` hears each quantity before it changes (`unit` null: the lovelace; `had` false: the asset was
 * absent). The result is that of addValues.
 */
export function addInPlace(
  into: ValueDoc,
  v: ValueDoc,
  sign: 1 | -1,
  prior?: (unit: string | null, had: boolean, q: string | undefined) => void,
): void {
  const negate = sign < 0;
  prior?.(null, true, into.lovelace);
  into.lovelace = addQuantity(into.lovelace, v.lovelace, negate);
  const assets = into.assets;
  for (const unit in v.assets) {
    const cur = assets[unit];
    prior?.(unit, cur !== undefined, cur);
    const q = addQuantity(cur ?? '0', v.assets[unit] as string, negate);
    if (q === '0') delete assets[unit];
    else assets[unit] = q;
  }
}

/** A document's copy that owns its balance and asset map (the parts an in-place edit changes): SliceState.edit. */
export const withOwnBalance = <D extends { balance: ValueDoc }>(d: D): D => ({
  ...d,
  balance: { lovelace: d.balance.lovelace, assets: { ...d.balance.assets } },
});

/**
 * Adds `v` to the balance of a document this block edits in place (`SliceState.edit` with `withOwnBalance`),
 * declaring each quantity's prior before it changes.
 */
export function addToEditedBalance<D extends { _id: string; balance: ValueDoc }>(
  state: SliceState,
  spec: CollectionSpec<D>,
  doc: D,
  v: ValueDoc,
): void {
  try {
    addInPlace(doc.balance, v, 1, (unit, had, q) =>
      state.prior(spec, doc._id, unit === null ? ['balance', 'lovelace'] : ['balance', 'assets', unit], had, q),
    );
  } catch (e) {
    // The block's own values are integers from the chain: a quantity that is none is the stored balance's.
    if (!(e instanceof SyntaxError || e instanceof RangeError)) throw e;
    throw new StoredDocumentCorruptError(
      `${spec.name} ${doc._id}: its balance holds a quantity that is no integer (${e.message})`,
      { cause: e },
    );
  }
}

export function sumLovelace(values: readonly { lovelace: string }[]): string {
  let t = 0n;
  for (const v of values) t += BigInt(v.lovelace);
  return String(t);
}

/**
 * Plain JSON for documents: bigints become numbers when exactly representable, decimal strings otherwise.
 * Used for certificates and metadata, whose integers are mostly small (labels, versions, epochs).
 */
export function toPlain(x: unknown): unknown {
  if (typeof x === 'bigint')
    return x <= BigInt(Number.MAX_SAFE_INTEGER) && x >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(x) : String(x);
  if (Array.isArray(x)) return x.map(toPlain);
  if (x !== null && typeof x === 'object') {
    // Keys are chain data (metadata map keys): fromEntries defines each as an own property, where an assignment
    // `out['__proto__'] = v` would set the prototype and drop the key.
    return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, toPlain(v)]));
  }
  return x;
}

/**
 * Deepest metadatum nesting a stored transaction keeps. The ledger bounds a metadatum's strings (64 bytes) but not its
 * nesting: a one-element list is one CBOR byte, so a 16 KiB transaction nests about 16,000 levels, far past what a
 * recursive walk or `JSON.stringify` survives. Real metadata (CIP-25, CIP-20, jpg.store) nests under ten levels.
 */
export const MAX_METADATUM_DEPTH = 100;

/**
 * A transaction metadatum as plain JSON (`toPlain`'s rules), cut at `MAX_METADATUM_DEPTH`: a list or map deeper than
 * that is replaced by a text saying so, so a chain-valid metadatum never overflows the stack of its writer or readers.
 */
export function metadatumPlain(x: unknown, depth = 0): unknown {
  if (x === null || typeof x !== 'object') return toPlain(x);
  if (depth >= MAX_METADATUM_DEPTH) return `(nested deeper than ${MAX_METADATUM_DEPTH} levels: not kept)`;
  if (Array.isArray(x)) return x.map((v) => metadatumPlain(v, depth + 1));
  return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, metadatumPlain(v, depth + 1)]));
}

/** Lovelace-like fields inside certificates (`deposit`, `cost`, `pledge`: `{ada:{lovelace}}` or bigint) as strings. */
export function lovelaceOf(x: unknown): string | null {
  if (typeof x === 'bigint' || typeof x === 'number') return String(x);
  if (x && typeof x === 'object' && 'ada' in x) return lovelaceOf((x as { ada: { lovelace: unknown } }).ada.lovelace);
  if (x && typeof x === 'object' && 'lovelace' in x) return lovelaceOf((x as { lovelace: unknown }).lovelace);
  return null;
}
