/**
 * The UTxO set stores outputs as documents (integer strings, assets keyed by unit); the DEX adapters read the
 * Ogmios shape (bigints, assets by policy then name). This turns a spent UtxoDoc back into that shape, datum and
 * datum hash included, so batch extraction sees exactly the output the order or pool was created with.
 */
import type { UtxoDoc } from '../../mongo/collections/chain.js';
import type { OutputReference, TxOutput, Value } from '../../cardano/chain/types.js';
import type { InputResolver } from '../../cardano/dex/types.js';

export function txOutputOfUtxo(u: UtxoDoc): TxOutput {
  const value: Value = { ada: { lovelace: BigInt(u.value.lovelace) } };
  for (const [unit, q] of Object.entries(u.value.assets)) {
    const policy = unit.slice(0, 56);
    const assets = (value[policy] ??= {});
    assets[unit.slice(56)] = BigInt(q);
  }
  const out: TxOutput = { address: u.address, value };
  if (u.datum) out.datum = u.datum;
  if (u.datumHash) out.datumHash = u.datumHash;
  return out;
}

/** Resolves the inputs a block consumed (`spent` of BlockEffects); anything else is unknown (null, never guessed). */
export function spentResolver(spent: ReadonlyMap<string, UtxoDoc>): InputResolver {
  const cache = new Map<string, TxOutput>();
  return (ref: OutputReference) => {
    const id = `${ref.transaction.id}#${ref.index}`;
    let out = cache.get(id);
    if (!out) {
      const u = spent.get(id);
      if (!u) return null;
      out = txOutputOfUtxo(u);
      cache.set(id, out);
    }
    return out;
  };
}
