/**
 * The per-stake-key aggregate the explorer's stake answer reads (STAKE_SUMMARIES): balance, UTxO count, address
 * count over every payment address carrying the key, and its distinct transaction count and first/last activity:
 * the transactions that changed any of those addresses, withdrew the key's rewards or certified it. Kept
 * block by block from the block's transaction documents, through the SliceState like every synced write, so a
 * rollback restores it exactly from the same undo records; the request path reads one document instead of
 * summing up to thousands of address documents and history entries.
 *
 * Figures follow the address documents applyBlock keeps (a key's figures are the sums of its addresses'): an output
 * counts while unspent, an input created before the indexed range was never counted and is not subtracted.
 */
import { ADDRESSES, STAKE_SUMMARIES, type StakeSummaryDoc, type TxDoc } from '../../mongo/collections/chain.js';
import type { SliceState } from './slice-state.js';
import { addToEditedBalance, ValueSum, withOwnBalance } from './values.js';

/** Prefetch the summaries of the stake keys the given stake addresses (null: none) name. */
export async function prefetchStakeSummaries(
  state: SliceState,
  stakeAddresses: Iterable<string | null>,
): Promise<void> {
  const keys = new Set<string>();
  for (const s of stakeAddresses) if (s) keys.add(s);
  await state.prefetch(STAKE_SUMMARIES, keys);
}

/** One stake key's changes within a block. */
interface KeyDelta {
  /** The sum of the values the block's transactions moved to (+) and from (−) the key. */
  value: ValueSum;
  utxos: number;
  newAddresses: number;
  txs: number;
  /** The block's transactions that touched the key (`first` only matters for a key new to the store). */
  first: StakeSummaryDoc['first'];
  last: StakeSummaryDoc['last'];
  lastTxId: string;
}

/**
 * Applies one block's transactions (their documents as applyBlock wrote them, in block order) to the summaries.
 * Reads the ADDRESSES documents of the addresses they touch, already applied for this block: an address whose
 * `firstSlot` is the block's slot was created by it (one block per slot), so it is new to its key. The block's
 * changes are summed per key first and each key's document is replaced once per block (a wallet's balance with
 * hundreds of assets is copied once, not once per transaction); the result is that of applying each transaction in
 * turn.
 */
export function applyStakeSummaries(
  state: SliceState,
  txs: readonly TxDoc[],
  slot: number,
  /** Per transaction (as `txs`), the stake keys it withdrew from or certified (valid transactions only). */
  keyActs: readonly (readonly string[])[] = [],
): void {
  const stakeOf = (address: string) => state.get(ADDRESSES, address)?.stakeAddress ?? null;
  const counted = new Set<string>();
  const deltas = new Map<string, KeyDelta>();
  for (const [n, tx] of txs.entries()) {
    const at = { slot, txId: tx._id, time: tx.time };
    const delta = (stake: string) => {
      let d = deltas.get(stake);
      if (!d)
        deltas.set(
          stake,
          (d = {
            value: new ValueSum(),
            utxos: 0,
            newAddresses: 0,
            txs: 0,
            first: at,
            last: at,
            lastTxId: '',
          }),
        );
      if (d.lastTxId !== tx._id) {
        d.lastTxId = tx._id;
        d.txs += 1;
        d.last = at;
      }
      return d;
    };
    // Phase-2 validity: a failed transaction spent its collaterals and created only its collateral return.
    const spent = tx.valid ? tx.inputs : tx.collaterals;
    const created = tx.valid ? tx.outputs : tx.collateralReturn ? [tx.collateralReturn] : [];
    for (const i of spent) {
      if (i.address === null || i.value === null) continue; // unresolved: never counted, so nothing to subtract
      const stake = stakeOf(i.address);
      if (!stake) continue;
      const d = delta(stake);
      d.value.add(i.value, -1);
      d.utxos -= 1;
    }
    for (const o of created) {
      const stake = stakeOf(o.address);
      if (!stake) continue;
      const d = delta(stake);
      d.value.add(o.value, 1);
      d.utxos += 1;
    }
    // The transaction touched these addresses (its ADDRESS_TXS entries): each key among them counts it once.
    for (const address of tx.addresses) {
      const stake = stakeOf(address);
      if (!stake) continue;
      const d = delta(stake);
      if (!counted.has(address) && state.get(ADDRESSES, address)?.firstSlot === slot) {
        counted.add(address);
        d.newAddresses += 1;
      }
    }
    // The key's own acts count the transaction once too, whether or not it touched one of the key's addresses.
    for (const stake of keyActs[n] ?? []) delta(stake);
  }
  for (const [stake, d] of deltas) {
    const doc = state.edit(STAKE_SUMMARIES, stake, withOwnBalance);
    if (!doc) {
      state.create(STAKE_SUMMARIES, {
        _id: stake,
        balance: d.value.doc(),
        utxoCount: d.utxos,
        addressCount: d.newAddresses,
        txCount: d.txs,
        first: d.first,
        last: d.last,
        slot,
      });
      continue;
    }
    const prior = (path: string[], v: unknown) =>
      state.prior(STAKE_SUMMARIES, stake, path, Object.hasOwn(doc, path[0] as string), v);
    addToEditedBalance(state, STAKE_SUMMARIES, doc, d.value.doc());
    prior(['utxoCount'], doc.utxoCount);
    doc.utxoCount += d.utxos;
    prior(['addressCount'], doc.addressCount);
    doc.addressCount += d.newAddresses;
    prior(['txCount'], doc.txCount);
    doc.txCount += d.txs;
    prior(['last'], doc.last);
    doc.last = d.last;
    if (doc.slot !== slot) {
      prior(['slot'], doc.slot);
      doc.slot = slot;
    }
  }
}
