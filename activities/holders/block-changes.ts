/**
 * The address balance changes of one block, from the outputs it consumed and created. Pure.
 *
 * Phase-2 validity (Ogmios `spends`): a valid transaction creates its `outputs`; a failed one creates only its
 * `collateralReturn` (output index `outputs.length`). Consumed outputs come from the core's `spent` map, which
 * holds exactly the UTxOs removed from the maintained set (an input created before the indexed range is absent
 * there and absent from the set), so applying these changes keeps holders equal to the UTxO set.
 *
 * Only native assets count: ADA is not a token with holders here.
 */
import { stakeAddressOf } from '../../cardano/address.js';
import type { UtxoDoc } from '../../mongo/collections/chain.js';
import type { Block, TxOutput } from '../../cardano/chain/types.js';
import { valueDoc } from '../sync/values.js';

export interface AddressChange {
  address: string;
  stakeAddress: string | null;
  /** unit → signed raw change. */
  deltas: Map<string, bigint>;
}

const createdOutputs = (block: Block): TxOutput[] =>
  (block.transactions ?? []).flatMap((tx) =>
    tx.spends === 'collaterals' ? (tx.collateralReturn ? [tx.collateralReturn] : []) : tx.outputs,
  );

/** Per-address asset changes of the block (addresses with no asset change are left out). */
export function blockAddressChanges(block: Block, spent: ReadonlyMap<string, UtxoDoc>): AddressChange[] {
  const byAddress = new Map<string, AddressChange>();
  const add = (address: string, stakeAddress: () => string | null, assets: Record<string, string>, sign: bigint) => {
    const units = Object.keys(assets);
    if (units.length === 0) return;
    let c = byAddress.get(address);
    if (!c) byAddress.set(address, (c = { address, stakeAddress: stakeAddress(), deltas: new Map() }));
    for (const unit of units) c.deltas.set(unit, (c.deltas.get(unit) ?? 0n) + sign * BigInt(assets[unit] as string));
  };
  for (const u of spent.values()) add(u.address, () => u.stakeAddress, u.value.assets, -1n);
  for (const out of createdOutputs(block))
    add(out.address, () => stakeAddressOf(out.address), valueDoc(out.value).assets, 1n);
  return [...byAddress.values()];
}
