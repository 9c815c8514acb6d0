/**
 * What a block says about Iagon staking and rewards, read without the store: per valid transaction, the outputs it
 * spent from and created at the configured staking and reward scripts, classified into events
 * (mongo/collections/storage.ts `StorageEventKind`). Pure: `spent` is the block's own consumed outputs (datums
 * included), so nothing is looked up.
 *
 * Classification uses datums and values, not redeemers (the indexed transaction keeps none): a staking output whose
 * provider also had a staking input in the same transaction is a re-lock (retire when its state turned Active →
 * Retiring, else resize); a staking input with no such output is a withdrawal. Reward scripts: the IAG that left
 * them (inputs − outputs) is a claim when a continuing output carries a RewardCertificate (its provider_key is the
 * claimant), else the owner's reclaim; IAG that arrived is funding. Failed transactions (`spends: collaterals`)
 * move nothing at the scripts and are skipped.
 */
import type { Network } from '../../cardano/address.js';
import type { UtxoDoc } from '../../mongo/collections/chain.js';
import type { StorageEventKind } from '../../mongo/collections/storage.js';
import type { Block, Transaction, TxOutput } from '../../cardano/chain/types.js';
import { paymentCredential } from '../../cardano/dex/utxo.js';
import { decodeRewardCertificate, decodeStakeDatum, type StakeDatum } from './datum.js';
import { IAG_NAME, IAG_POLICY, IAG_UNIT } from '../../cardano/iagon.js';

export interface ScriptSets {
  stake: ReadonlySet<string>;
  reward: ReadonlySet<string>;
}

export interface StorageEventSeen {
  kind: StorageEventKind;
  txId: string;
  /** Position of the transaction in its block. */
  txIndex: number;
  provider: string | null;
  providerAddress: string | null;
  amount: bigint;
  state: 'active' | 'retiring' | null;
  lockedUntilMs: number | null;
  script: string;
}

export interface ScriptAddressSeen {
  address: string;
  role: 'stake' | 'reward';
  script: string;
}

interface StakeSide {
  address: string;
  script: string;
  datum: StakeDatum | null;
  iag: bigint;
}

const iagOfOutput = (o: TxOutput): bigint => o.value[IAG_POLICY]?.[IAG_NAME] ?? 0n;
const iagOfUtxo = (u: UtxoDoc): bigint => BigInt(u.value.assets[IAG_UNIT] ?? '0');

/** The inline datum of an output, or the witness-set datum its hash names. */
const datumOf = (tx: Transaction, o: TxOutput): string | null =>
  o.datum ?? (o.datumHash ? (tx.datums?.[o.datumHash] ?? null) : null);

export function scanStorageTx(
  tx: Transaction,
  txIndex: number,
  spent: ReadonlyMap<string, UtxoDoc>,
  scripts: ScriptSets,
  network: Network,
  addresses: Map<string, ScriptAddressSeen>,
): StorageEventSeen[] {
  if (tx.spends !== 'inputs') return [];
  const stakeIns: StakeSide[] = [];
  let rewardIns = 0;
  let rewardInIag = 0n;
  let rewardScript: string | null = null;
  for (const r of tx.inputs) {
    const u = spent.get(`${r.transaction.id}#${r.index}`);
    const cred = u?.paymentCred;
    if (!u || !cred) continue;
    if (scripts.stake.has(cred)) {
      addresses.set(u.address, { address: u.address, role: 'stake', script: cred });
      stakeIns.push({
        address: u.address,
        script: cred,
        datum: u.datum ? decodeStakeDatum(u.datum, network) : null,
        iag: iagOfUtxo(u),
      });
    } else if (scripts.reward.has(cred)) {
      addresses.set(u.address, { address: u.address, role: 'reward', script: cred });
      rewardIns++;
      rewardInIag += iagOfUtxo(u);
      rewardScript ??= cred;
    }
  }
  const stakeOuts: StakeSide[] = [];
  let rewardOutIag = 0n;
  let certificate: ReturnType<typeof decodeRewardCertificate> = null;
  for (const o of tx.outputs) {
    // Staking and funding outputs hold IAG; a continuing reward output may hold none (the pool emptied).
    if (stakeIns.length === 0 && rewardIns === 0 && !o.value[IAG_POLICY]) continue;
    const cred = paymentCredential(o.address);
    if (!cred) continue;
    if (scripts.stake.has(cred)) {
      addresses.set(o.address, { address: o.address, role: 'stake', script: cred });
      const d = datumOf(tx, o);
      stakeOuts.push({
        address: o.address,
        script: cred,
        datum: d ? decodeStakeDatum(d, network) : null,
        iag: iagOfOutput(o),
      });
    } else if (scripts.reward.has(cred)) {
      addresses.set(o.address, { address: o.address, role: 'reward', script: cred });
      rewardOutIag += iagOfOutput(o);
      rewardScript ??= cred;
      const d = datumOf(tx, o);
      certificate ??= d ? decodeRewardCertificate(d) : null;
    }
  }

  const events: StorageEventSeen[] = [];
  const base = { txId: tx.id, txIndex };
  const matched = new Set<StakeSide>();
  for (const out of stakeOuts) {
    const key = out.datum?.providerKey;
    const prev = key ? stakeIns.find((i) => !matched.has(i) && i.datum?.providerKey === key) : undefined;
    if (prev) matched.add(prev);
    const kind: StorageEventKind = !prev
      ? 'stake'
      : prev.datum?.state === 'active' && out.datum?.state === 'retiring'
        ? 'retire'
        : 'resize';
    events.push({
      ...base,
      kind,
      provider: out.datum?.providerKey ?? null,
      providerAddress: out.datum?.providerAddress ?? null,
      amount: out.iag,
      state: out.datum?.state ?? null,
      lockedUntilMs: out.datum?.lockedUntilMs ?? null,
      script: out.script,
    });
  }
  for (const i of stakeIns) {
    if (matched.has(i)) continue;
    events.push({
      ...base,
      kind: 'withdraw',
      provider: i.datum?.providerKey ?? null,
      providerAddress: i.datum?.providerAddress ?? null,
      amount: i.iag,
      state: null,
      lockedUntilMs: null,
      script: i.script,
    });
  }
  const delta = rewardInIag - rewardOutIag;
  if (rewardScript && delta !== 0n) {
    const kind: StorageEventKind = delta < 0n ? 'reward-fund' : certificate ? 'reward-claim' : 'reward-reclaim';
    events.push({
      ...base,
      kind,
      provider: kind === 'reward-claim' ? (certificate?.providerKey ?? null) : null,
      providerAddress: null,
      amount: delta < 0n ? -delta : delta,
      state: null,
      lockedUntilMs: null,
      script: rewardScript,
    });
  }
  return events;
}

/** Every event of a block, and the script addresses its transactions touched. */
export function scanStorageBlock(
  block: Block,
  spent: ReadonlyMap<string, UtxoDoc>,
  scripts: ScriptSets,
  network: Network,
): { events: StorageEventSeen[]; addresses: ScriptAddressSeen[] } {
  const addresses = new Map<string, ScriptAddressSeen>();
  const events: StorageEventSeen[] = [];
  (block.transactions ?? []).forEach((tx, i) =>
    events.push(...scanStorageTx(tx, i, spent, scripts, network, addresses)),
  );
  return { events, addresses: [...addresses.values()] };
}
