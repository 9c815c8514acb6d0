/**
 * What a transaction carries beyond its inputs and outputs, for the get_transaction tool: the DEX swaps it executed
 * or placed (trades whose transaction it is) and the NFT sales it settled. Index reads only: trades by their maker
 * (the stake keys and addresses the transaction touches, newest first, down to its slot) and sales by the policies
 * of the assets it moves, at its slot. A sale's price is what its buyer paid (mongo/collections/nft.ts withPaidPrices).
 */
import { NFT_SALES, TRADES, withPaidPrices, type NftSaleDoc, type TradeDoc } from '../../mongo/collections/index.js';
import type { Store } from '../../mongo/store.js';

/** Trades read per maker at most (a maker with more trades after this transaction may be missed). */
const MAX_PER_MAKER = 500;

export async function tradesOfTx(
  deps: { store: Store },
  tx: { hash: string; slot: number; makers: readonly string[] },
): Promise<TradeDoc[]> {
  const found = new Map<string, TradeDoc>();
  for (const maker of new Set(tx.makers)) {
    let after: TradeDoc | undefined;
    for (let read = 0; read < MAX_PER_MAKER;) {
      const page = await deps.store
        .collection(TRADES)
        .find('byMaker', { eq: [maker], reverse: true, limit: 100, ...(after ? { after } : {}) });
      read += page.length;
      for (const t of page) if (t.txHash === tx.hash) found.set(t._id, t);
      after = page.at(-1);
      if (!after || page.length < 100 || after.slot < tx.slot) break;
    }
  }
  return [...found.values()].sort((a, b) => a.id - b.id);
}

export async function nftSalesOfTx(
  deps: { store: Store },
  tx: { hash: string; slot: number; policies: readonly string[] },
): Promise<NftSaleDoc[]> {
  const out: NftSaleDoc[] = [];
  for (const policy of new Set(tx.policies)) {
    const sales = await deps.store.collection(NFT_SALES).find('byPolicy', { eq: [policy], gte: tx.slot, lte: tx.slot });
    out.push(...sales.filter((s) => s.txId === tx.hash));
  }
  return withPaidPrices(deps.store, out);
}
