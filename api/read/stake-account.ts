/**
 * A stake key's account and unwithdrawn rewards as the ledger holds them at the indexed tip, one read for every
 * answer that shows them (the explorer's stake account of an address or key, the wallet portfolio of a key).
 */
import {
  ADDRESS_TXS,
  STAKE_ACCOUNTS,
  STAKE_POOL_REGS,
  TRANSACTIONS,
  addressTxOf,
  type StakeAccountDoc,
} from '../../mongo/collections/chain.js';
import { storeClock } from '../../mongo/collections/clock.js';
import { rewardBalanceOf } from '../../mongo/collections/staking.js';
import { indexedTip } from '../../mongo/collections/sync-state.js';
import type { Store } from '../../mongo/store.js';
import type { RewardBalance } from '../present/chain.js';

/**
 * The key's account document as the ledger holds it, and its unwithdrawn rewards (null for a deregistered key — the
 * ledger requires its reward account empty — and a key no staking run has read).
 */
export async function stakeAccountOf(
  store: Store,
  stakeAddress: string,
): Promise<{ account: StakeAccountDoc | null; rewards: RewardBalance | null }> {
  const [stored, reading] = await Promise.all([
    store.collection(STAKE_ACCOUNTS).get(stakeAddress),
    rewardBalanceOf(store, stakeAddress),
  ]);
  const [account, rewards] = await Promise.all([
    liveAccount(store, stored),
    stored?.registered && reading ? unwithdrawn(store, stakeAddress, stored, reading) : null,
  ]);
  return { account, rewards };
}

/**
 * A delegation to a pool that has retired since is gone (the ledger drops a retiring pool's delegations at its
 * retirement epoch's boundary, and no key can delegate to a retired pool), while the account document keeps the
 * last certificate's pool until the key delegates again. A pool registered again after retiring counts as
 * registered: its dropped delegations cannot be told apart here.
 */
async function liveAccount(store: Store, account: StakeAccountDoc | null): Promise<StakeAccountDoc | null> {
  if (!account?.poolId) return account;
  const [reg, { block }] = await Promise.all([
    store.collection(STAKE_POOL_REGS).get(account.poolId),
    indexedTip(store),
  ]);
  const retired = reg?.retiringEpoch != null && block !== null && reg.retiringEpoch <= block.epoch;
  return retired ? { ...account, poolId: null } : account;
}

/**
 * The staking recompute's ledger reading less the withdrawals the index has seen since it. A withdrawal moves
 * rewards into the UTxO set, which balances count from the block it is in, while the reading is renewed only by the
 * next run: without the correction the withdrawn amount would be shown as still unwithdrawn (and a wallet would
 * count it twice) until then. "Since" is after the ledger tip the balance was read at (`stake_rewards.slot`), else
 * (a document written before it was kept) after the run's end; a block dated before the run ended may have been
 * adopted after the ledger was read. Withdrawals are found in the key's history after that slot (the transactions
 * touching its addresses: a wallet pays the withdrawal's fee from them).
 */
async function unwithdrawn(
  store: Store,
  stakeAddress: string,
  account: StakeAccountDoc,
  reading: RewardBalance & { slot: number | null },
): Promise<RewardBalance> {
  const shown = { lovelace: reading.lovelace, asOf: reading.asOf };
  const readSlot =
    reading.slot ?? (reading.asOf === null ? null : (await storeClock(store)).clock.msToSlot(Date.parse(reading.asOf)));
  // The account document is rewritten by each withdrawal: unchanged since the reading, nothing was withdrawn since.
  if (readSlot === null || account.slot <= readSlot) return shown;
  const since = await store.collection(ADDRESS_TXS).find('byStake', { eq: [stakeAddress], gt: readSlot });
  const txIds = [...new Set(since.map((e) => addressTxOf(e).txId))];
  const txs = txIds.length ? await store.collection(TRANSACTIONS).getMany(txIds) : [];
  // A transaction that failed phase-2 validation withdrew nothing.
  const withdrawn = txs.reduce((sum, t) => sum + (t?.valid ? BigInt(t.withdrawals[stakeAddress] ?? 0) : 0n), 0n);
  const left = BigInt(reading.lovelace) - withdrawn;
  return { lovelace: String(left > 0n ? left : 0n), asOf: reading.asOf };
}
