/**
 * A stake key's account and unwithdrawn rewards as the ledger holds them at the indexed tip, one read for every
 * answer that shows them (the explorer's stake account of an address or key, the wallet portfolio of a key).
 */
import {
  ADDRESS_TXS,
  STAKE_ACCOUNTS,
  STAKE_POOL_REGS,
  STAKE_SUMMARIES,
  TRANSACTIONS,
  addressTxOf,
  type StakeAccountDoc,
} from '../../mongo/collections/chain.js';
import { storeClock } from '../../mongo/collections/clock.js';
import { DREPS } from '../../mongo/collections/governance.js';
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
 * The account's delegations as the ledger holds them; the account document keeps the last certificate's pool and
 * DRep until the key delegates again.
 * - A pool that has retired since holds none (the ledger drops a retiring pool's delegations at its retirement
 *   epoch's boundary, and no key can delegate to a retired pool).
 * - A DRep that has retired (unregistered) since holds none: since protocol version 10 the ledger clears every vote
 *   delegation to a DRep when it unregisters, and no key can delegate to an unregistered DRep. "Retired" is the
 *   governance recompute's reading of the ledger's DReps (a DRep it saw registered and no longer finds).
 * A pool or DRep registered again after retiring counts as registered: its dropped delegations cannot be told apart
 * here.
 */
async function liveAccount(store: Store, account: StakeAccountDoc | null): Promise<StakeAccountDoc | null> {
  if (!account) return null;
  // A registered DRep's id (drep1…); the predefined options never retire.
  const drepId = account.drep?.startsWith('drep1') ? account.drep : null;
  if (!account.poolId && !drepId) return account;
  const [reg, { block }, drep] = await Promise.all([
    account.poolId ? store.collection(STAKE_POOL_REGS).get(account.poolId) : null,
    indexedTip(store),
    drepId ? store.collection(DREPS).get(drepId) : null,
  ]);
  const poolRetired = reg?.retiringEpoch != null && block !== null && reg.retiringEpoch <= block.epoch;
  const drepRetired = drep?.status === 'retired';
  return poolRetired || drepRetired
    ? { ...account, poolId: poolRetired ? null : account.poolId, drep: drepRetired ? null : account.drep }
    : account;
}

/**
 * The staking recompute's ledger reading less the withdrawals the index has seen since it. A withdrawal moves
 * rewards into the UTxO set, which balances count from the block it is in, while the reading is renewed only by the
 * next run: without the correction the withdrawn amount would be shown as still unwithdrawn (and a wallet would
 * count it twice) until then. "Since" is after the ledger tip the balance was read at (`stake_rewards.slot`), else
 * (a document written before it was kept) after the run's end; a block dated before the run ended may have been
 * adopted after the ledger was read. Withdrawals are found in the key's history after that slot: the transactions
 * touching its addresses (a wallet pays the withdrawal's fee from them), and the key's latest transaction, which may
 * touch none of them (a stake pool's reward account withdrawn to the operator's wallet, a script key a protocol
 * withdraws in its own transactions): the stake summary counts a withdrawal as the key's own act. A key-only
 * withdrawal followed by another transaction of the key before the next run is still missed (no index lists the
 * key's own acts); the next run's reading corrects it.
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
  const [since, summary] = await Promise.all([
    store.collection(ADDRESS_TXS).find('byStake', { eq: [stakeAddress], gt: readSlot }),
    store.collection(STAKE_SUMMARIES).get(stakeAddress),
  ]);
  const latest = summary && summary.last.slot > readSlot ? [summary.last.txId] : [];
  const txIds = [...new Set([...since.map((e) => addressTxOf(e).txId), ...latest])];
  const txs = txIds.length ? await store.collection(TRANSACTIONS).getMany(txIds) : [];
  // A transaction that failed phase-2 validation withdrew nothing.
  const withdrawn = txs.reduce((sum, t) => sum + (t?.valid ? BigInt(t.withdrawals[stakeAddress] ?? 0) : 0n), 0n);
  const left = BigInt(reading.lovelace) - withdrawn;
  return { lovelace: String(left > 0n ? left : 0n), asOf: reading.asOf };
}
