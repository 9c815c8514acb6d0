/**
 * Batch extraction for the DEXes whose batch layout is not pinned down by a redeemer this service reads (Minswap
 * V1, SundaeSwap V1, WingRiders V1, MuesliSwap): each executed order is matched to the first unused output that
 * pays its receiver. When a batch has one swap and the spent pool is known, the pool's own reserve change is the
 * exact amount out; otherwise it is what the receiver got minus the ADA the DEX hands back (deposit / oil).
 */
import { chargedOrderFee } from './order-fee.js';
import type { Transaction, TxOutput } from '../chain/types.js';
import { LOVELACE } from './plutus-data.js';
import type { DexName, ExecutedSwap, InputResolver, Order, PoolState, Unit } from './types.js';
import { quantityOf, refString, resolveInputs, sideOf } from './utxo.js';

export interface BatchSpec<P, O> {
  dex: DexName;
  decodePool(output: TxOutput, datums: (h: string) => string | undefined): PoolState<P> | null;
  decodeOrder(output: TxOutput, datums: (h: string) => string | undefined): Order<O> | null;
  /** Tokens and input amount of a swap order once its pool is known (null = not a swap of this pool). */
  resolveSwap(
    order: Order<O>,
    input: TxOutput,
    pool: PoolState<P>,
  ): { tokenIn: Unit; tokenOut: Unit; amountIn: bigint } | null;
  /** Lovelace the DEX returns to the receiver with the result, not part of the trade. */
  adaReturned(order: Order<O>): bigint;
  /**
   * Part of the offered `tokenIn` the result hands back untraded (an exact-out order's change), when the DEX has
   * such orders; the trade's input is the offer minus it.
   */
  changeOf?(order: Order<O>, result: TxOutput, tokenIn: Unit): bigint;
}

function poolFor<P, O>(spec: BatchSpec<P, O>, order: Order<O>, input: TxOutput, pools: PoolState<P>[]) {
  for (const pool of pools) {
    if (order.poolId !== null && order.poolId !== pool.poolId) continue;
    const s = spec.resolveSwap(order, input, pool);
    if (s) return { pool, ...s };
  }
  return null;
}

export function receiverMatchedSwaps<P, O>(
  spec: BatchSpec<P, O>,
  tx: Transaction,
  resolveInput: InputResolver,
): ExecutedSwap[] {
  if (tx.spends !== 'inputs') return [];
  const datums = (h: string) => tx.datums?.[h];
  const poolsAfter = tx.outputs.map((o) => spec.decodePool(o, datums)).filter((p): p is PoolState<P> => p !== null);
  if (poolsAfter.length === 0) return [];
  const inputs = resolveInputs(tx, resolveInput);
  const poolsBefore = new Map<string, PoolState<P>>();
  for (const i of inputs) {
    const p = i.output ? spec.decodePool(i.output, datums) : null;
    if (p) poolsBefore.set(p.poolId, p);
  }
  const orders = inputs
    .map((i) => ({ i, o: i.output ? spec.decodeOrder(i.output, datums) : null }))
    .filter((x): x is { i: (typeof inputs)[number]; o: Order<O> } => x.o !== null);
  const used = new Set<number>();
  const swaps: ExecutedSwap[] = [];
  const swapOrders = orders.filter((x) => x.o.kind === 'swap');
  for (const { i, o } of orders) {
    const input = i.output as TxOutput;
    const outIx = tx.outputs.findIndex((x, ix) => !used.has(ix) && x.address === o.owner);
    if (outIx < 0) continue;
    used.add(outIx);
    if (o.kind !== 'swap') continue;
    const m = poolFor(spec, o, input, poolsAfter);
    if (!m) continue;
    const result = tx.outputs[outIx] as TxOutput;
    const before = poolsBefore.get(m.pool.poolId);
    let got: bigint;
    if (before && swapOrders.length === 1 && orders.length === 1) {
      got = m.tokenOut === m.pool.tokenA ? before.reserveA - m.pool.reserveA : before.reserveB - m.pool.reserveB;
    } else {
      got = quantityOf(result.value, m.tokenOut) - (m.tokenOut === LOVELACE ? spec.adaReturned(o) : 0n);
    }
    const amountIn = m.amountIn - (spec.changeOf?.(o, result, m.tokenIn) ?? 0n);
    if (amountIn <= 0n || got <= 0n) continue;
    swaps.push({
      dex: spec.dex,
      txId: tx.id,
      orderRef: refString(i.ref),
      poolId: m.pool.poolId,
      trader: o.owner,
      tokenIn: m.tokenIn,
      tokenOut: m.tokenOut,
      amountIn,
      amountOut: got,
      side: sideOf(m.tokenIn, m.tokenOut),
      outputIndex: outIx,
      feeLovelace: chargedOrderFee(
        { tokenIn: m.tokenIn, tokenOut: m.tokenOut, amountIn, amountOut: got },
        input.value.ada.lovelace,
        result.value.ada.lovelace,
        o.batcherFee,
      ),
    });
  }
  return swaps;
}

/** The pool's two assets sorted the way the V1 DEXes store them: ADA first, then by policy ‖ name. */
export function sortUnits(a: Unit, b: Unit): [Unit, Unit] {
  const key = (u: Unit) => (u === LOVELACE ? '' : u);
  return key(a) <= key(b) ? [a, b] : [b, a];
}
