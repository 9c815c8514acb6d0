/**
 * A stake key's account and unwithdrawn rewards, one figure for every answer that shows them (the explorer's stake
 * account of an address or key, the wallet portfolio of a key).
 */
import {
  ADDRESS_TXS,
  STAKE_ACCOUNTS,
  TRANSACTIONS,
  addressTxOf,
  type StakeAccountDoc,
} from '../../mongo/collections/chain.js';
import { storeClock } from '../../mongo/collections/clock.js';
import { rewardBalanceOf } from '../../mongo/collections/staking.js';
import type { Store } from '../../mongo/store.js';
import type { RewardBalance } from '../present/chain.js';

/**
 * The key's account document and its unwithdrawn rewards: the staking recompute's ledger reading (rewardBalanceOf),
 * less the withdrawals the index has seen since that reading. A withdrawal moves rewards into the UTxO set, which
 * balances count from the block it is in, while the reading is renewed only by the next run: without the correction
 * the withdrawn amount would be shown as still unwithdrawn (and a wallet would count it twice) until then.
 * Withdrawals are found in the key's history after the reading (the transactions touching its addresses: a wallet
 * pays the withdrawal's fee from them). rewards is null for a deregistered key (the ledger requires its reward
 * account empty) and a key no run has read.
 */
export async function stakeAccountOf(
  store: Store,
  stakeAddress: string,
): Promise<{ account: StakeAccountDoc | null; rewards: RewardBalance | null }> {
  const [account, reading] = await Promise.all([
    store.collection(STAKE_ACCOUNTS).get(stakeAddress),
    rewardBalanceOf(store, stakeAddress),
  ]);
  if (!account?.registered || !reading) return { account, rewards: null };
  if (reading.asOf === null) return { account, rewards: reading };
  // The account document is rewritten by each withdrawal: unchanged since the reading, nothing was withdrawn since.
  const { clock } = await storeClock(store);
  const readSlot = clock.msToSlot(Date.parse(reading.asOf));
  if (account.slot <= readSlot) return { account, rewards: reading };
  const since = await store.collection(ADDRESS_TXS).find('byStake', { eq: [stakeAddress], gt: readSlot });
  const txIds = [...new Set(since.map((e) => addressTxOf(e).txId))];
  const txs = txIds.length ? await store.collection(TRANSACTIONS).getMany(txIds) : [];
  // A transaction that failed phase-2 validation withdrew nothing.
  const withdrawn = txs.reduce((sum, t) => sum + (t?.valid ? BigInt(t.withdrawals[stakeAddress] ?? 0) : 0n), 0n);
  const left = BigInt(reading.lovelace) - withdrawn;
  return { account, rewards: { lovelace: String(left > 0n ? left : 0n), asOf: reading.asOf } };
}
