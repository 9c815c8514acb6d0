/**
 * What a block says about the market, read without the store: per valid transaction its mints, CIP-68 reference
 * datums, pool outputs, placed orders, executed swaps and spent order outputs. Pure (the adapters are pure and
 * `spent` is the block's own consumed outputs), so the applier can prefetch every document it will touch first.
 *
 * Only transactions whose scripts succeeded (`spends === 'inputs'`) count: a failed one creates no pool, order or
 * trade and mints nothing.
 */
import type { UtxoDoc } from '../../mongo/collections/chain.js';
import type { Block, Transaction, TxOutput } from '../../cardano/chain/types.js';
import type { DexAdapter, ExecutedSwap, Order, PoolState } from '../../cardano/dex/types.js';
import { paymentCredential } from '../../cardano/dex/utxo.js';
import { ftUnitOfReference } from './cip68.js';
import { poolKeyId } from './ids.js';
import { poolView, type PoolView } from './pools.js';
import { spentResolver } from './utxo-output.js';

export interface PoolSeen {
  adapter: DexAdapter;
  state: PoolState;
  view: PoolView;
  outIndex: number;
  address: string;
  key: string;
  /** The pool output's value (`unit` → raw quantity, `lovelace` for ADA) and datum CBOR, kept on the pool document
   * so swap quotes decode the exact pool state (curve, every fee part) with the DEX's own adapter. */
  output: { value: Record<string, string>; datum: string | null };
}

export interface OrderSeen {
  order: Order;
  outIndex: number;
  /** POOL_KEYS id of the pool the order names, when it names one. */
  poolKey: string | null;
}

export interface TxScan {
  tx: Transaction;
  /** `[unit, signed quantity]` minted (negative: burnt). */
  mints: Array<[string, bigint]>;
  /** CIP-68 (100) reference outputs with an inline datum: the (333) unit and the datum. */
  references: Array<{ unit: string; datum: string }>;
  pools: PoolSeen[];
  swaps: ExecutedSwap[];
  /** `txId#index` of spent outputs that sat at an order script, in input order. */
  spentOrders: string[];
  orders: OrderSeen[];
}

/** Adapters indexed by the script hashes of their pool and order outputs (hashes never overlap between DEXes). */
export class DexLookup {
  private readonly byPool = new Map<string, DexAdapter>();
  private readonly byOrder = new Map<string, DexAdapter>();

  constructor(adapters: readonly DexAdapter[]) {
    for (const a of adapters) {
      for (const h of a.poolScriptHashes) this.byPool.set(h, a);
      for (const h of a.orderScriptHashes) this.byOrder.set(h, a);
    }
  }

  poolAdapter(address: string): DexAdapter | null {
    const cred = paymentCredential(address);
    return (cred && this.byPool.get(cred)) || null;
  }

  orderAdapterOfCred(cred: string | null): DexAdapter | null {
    return (cred && this.byOrder.get(cred)) || null;
  }
}

export function scanBlock(block: Block, spent: ReadonlyMap<string, UtxoDoc>, dex: DexLookup): TxScan[] {
  const resolve = spentResolver(spent);
  const out: TxScan[] = [];
  for (const tx of block.transactions ?? []) {
    if (tx.spends !== 'inputs') continue;
    const datums = (h: string) => tx.datums?.[h];
    const scan: TxScan = { tx, mints: [], references: [], pools: [], swaps: [], spentOrders: [], orders: [] };
    for (const [policy, names] of Object.entries(tx.mint ?? {}))
      for (const [name, q] of Object.entries(names)) if (q !== 0n) scan.mints.push([policy + name, q]);

    // Spent orders, and the adapters whose batches this transaction may be.
    const batchAdapters = new Set<DexAdapter>();
    for (const r of tx.inputs) {
      const id = `${r.transaction.id}#${r.index}`;
      const u = spent.get(id);
      const a = u ? dex.orderAdapterOfCred(u.paymentCred) : null;
      if (!a) continue;
      scan.spentOrders.push(id);
      batchAdapters.add(a);
    }
    for (const a of batchAdapters) scan.swaps.push(...a.extractSwaps(tx, resolve));

    tx.outputs.forEach((o, outIndex) => {
      for (const [policy, names] of Object.entries(o.value)) {
        if (policy === 'ada' || !o.datum) continue;
        for (const [name, q] of Object.entries(names as Record<string, bigint>)) {
          const unit = q > 0n ? ftUnitOfReference(policy, name) : null;
          if (unit) scan.references.push({ unit, datum: o.datum });
        }
      }
      const pa = dex.poolAdapter(o.address);
      const state = pa?.isPoolOutput(o) ? pa.decodePool(o, datums) : null;
      if (pa && state) {
        scan.pools.push({
          adapter: pa,
          state,
          view: poolView(state),
          outIndex,
          address: o.address,
          key: poolKeyId(state.dex, state.poolId),
          output: {
            value: rawValue(o.value),
            datum: o.datum ?? (o.datumHash ? (tx.datums?.[o.datumHash] ?? null) : null),
          },
        });
        return;
      }
      const oa = dex.orderAdapterOfCred(paymentCredential(o.address));
      const order = oa?.isOrderOutput(o) ? oa.decodeOrder(o, datums) : null;
      if (order)
        scan.orders.push({ order, outIndex, poolKey: order.poolId ? poolKeyId(order.dex, order.poolId) : null });
    });
    out.push(scan);
  }
  return out;
}

function rawValue(v: TxOutput['value']): Record<string, string> {
  const out: Record<string, string> = { lovelace: String(v.ada.lovelace) };
  for (const [policy, names] of Object.entries(v)) {
    if (policy === 'ada') continue;
    for (const [name, q] of Object.entries(names as Record<string, bigint>)) out[policy + name] = String(q);
  }
  return out;
}
