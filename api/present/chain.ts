/**
 * Chain documents → explorer answers, pure. The documents keep integer strings in base units; these mappers apply
 * the spec's units (whole ADA, decimal-adjusted tokens) and keep the exact integers beside them (see
 * api/schemas/common.ts for the convention).
 */
import type {
  AddressDoc,
  BlockDoc,
  StakeAccountDoc,
  StakeActivityDoc,
  StakeSummaryDoc,
  TxDoc,
  TxInputDoc,
  TxOutputDoc,
  ValueDoc,
} from '../../mongo/collections/chain.js';
import { metadataObject } from '../../mongo/collections/chain.js';
import type { GovChainProposalDoc } from '../../mongo/collections/governance.js';
import { govActionBech32, predefinedDRepId } from '../../cardano/governance-ids.js';
import {
  adaAmountsIn,
  decodeAssetName,
  lovelaceToAda,
  lovelaceToAdaOrNull,
  scaleInteger,
  splitUnit,
} from '../../cardano/units.js';

/** Decimals per asset unit; units not in the map have 0. */
export type DecimalsMap = ReadonlyMap<string, number>;

export interface AssetAmount {
  unit: string;
  policyId: string;
  nameHex: string;
  name: string | null;
  quantity: number;
  quantityRaw: string;
  decimals: number;
}

export interface Activity {
  slot: number;
  time: string | null;
  txHash: string | null;
}

/** Every asset unit named in `values`, for one batched decimals lookup. */
export function unitsOf(values: Iterable<Record<string, string> | null | undefined>): string[] {
  const units = new Set<string>();
  for (const v of values) if (v) for (const u of Object.keys(v)) units.add(u);
  return [...units];
}

/** `{ unit: quantity }` → asset list in unit order. */
export function assetList(assets: Record<string, string>, decimals: DecimalsMap): AssetAmount[] {
  return Object.keys(assets)
    .sort()
    .map((unit) => {
      const { policyId, nameHex } = splitUnit(unit);
      const d = decimals.get(unit) ?? 0;
      const raw = assets[unit] as string;
      return {
        unit,
        policyId,
        nameHex,
        name: decodeAssetName(nameHex),
        quantity: scaleInteger(raw, d),
        quantityRaw: raw,
        decimals: d,
      };
    });
}

const valueFields = (v: ValueDoc, decimals: DecimalsMap) => ({
  ada: lovelaceToAda(v.lovelace),
  lovelace: v.lovelace,
  assets: assetList(v.assets, decimals),
});

/**
 * Confirmations of a block at `height` when the indexed tip is at `tipHeight` (1 = the tip itself). A block above the
 * tip was read after the sync committed it and before the checkpoint read beside it caught up: it is indexed, so at
 * least the tip (1). Null only without a checkpoint.
 */
export function confirmations(height: number, tipHeight: number | null): number | null {
  return tipHeight === null ? null : Math.max(1, tipHeight - height + 1);
}

export function presentBlock(b: BlockDoc, tipHeight: number | null, nextBlock: string | null) {
  return {
    hash: b._id,
    height: b.height,
    slot: b.slot,
    time: b.time,
    epoch: b.epoch,
    era: b.era,
    previousBlock: b.prevHash === 'genesis' ? null : b.prevHash,
    nextBlock,
    size: b.size,
    txCount: b.txCount,
    fees: lovelaceToAda(b.fees),
    feesLovelace: b.fees,
    totalOutput: lovelaceToAda(b.totalOutput),
    totalOutputLovelace: b.totalOutput,
    issuerPoolId: b.poolId,
    issuerVkey: b.issuerVkey,
    protocolVersion: b.protocolVersion,
    // The block exists, so the checkpoint is at or above it; 1 covers a checkpoint momentarily behind a read.
    confirmations: confirmations(b.height, tipHeight) ?? 1,
    txIds: b.txIds,
  };
}

function presentInput(i: TxInputDoc, decimals: DecimalsMap) {
  const resolved = i.address !== null && i.value !== null;
  return {
    txId: i.txId,
    index: i.index,
    resolved,
    address: i.address,
    ada: i.value ? lovelaceToAda(i.value.lovelace) : null,
    lovelace: i.value ? i.value.lovelace : null,
    assets: i.value ? assetList(i.value.assets, decimals) : [],
  };
}

function presentOutput(o: TxOutputDoc, decimals: DecimalsMap) {
  return {
    index: o.index,
    address: o.address,
    stakeAddress: o.stakeAddress,
    ...valueFields(o.value, decimals),
    datumHash: o.datumHash,
    datum: o.datum,
    scriptRef: o.scriptRef,
  };
}

/**
 * The output `index` of transaction `t` as the ledger created it, or null when it never existed: a valid
 * transaction creates the outputs its body declares; a failed one (phase-2 invalid) creates only its collateral
 * return, at index outputs.length.
 */
export function createdOutput(t: TxDoc, index: number): TxOutputDoc | null {
  if (t.valid) return t.outputs[index] ?? null;
  return index === t.outputs.length ? t.collateralReturn : null;
}

/** A reference input's output (`txId#index`) as its creating transaction holds it; absent when not indexed. */
export type ReferencedOutputs = ReadonlyMap<string, TxOutputDoc>;

/** Units a transaction answer needs decimals for (with the outputs its reference inputs read). */
export function txUnits(t: TxDoc, referenced: ReferencedOutputs = new Map()): string[] {
  return unitsOf([
    ...t.inputs.map((i) => i.value?.assets),
    ...t.collaterals.map((i) => i.value?.assets),
    ...t.outputs.map((o) => o.value.assets),
    t.collateralReturn?.value.assets,
    t.mint,
    ...[...referenced.values()].map((o) => o.value.assets),
  ]);
}

/**
 * A reference input: the output the transaction reads without spending it (a reference script or datum), with its
 * address, value, datum and script as it was created. Unresolved (nulls) when the transaction that created it
 * predates the indexed range.
 */
function presentReferenceInput(r: { txId: string; index: number }, o: TxOutputDoc | undefined, decimals: DecimalsMap) {
  return {
    txId: r.txId,
    index: r.index,
    resolved: o !== undefined,
    address: o?.address ?? null,
    ada: o ? lovelaceToAda(o.value.lovelace) : null,
    lovelace: o?.value.lovelace ?? null,
    assets: o ? assetList(o.value.assets, decimals) : [],
    datumHash: o?.datumHash ?? null,
    datum: o?.datum ?? null,
    scriptRef: o?.scriptRef ?? null,
  };
}

/**
 * The deposits of a transaction's governance proposals (each held by the ledger until the action ends, then
 * returned to the return account): with them, a proposal's transaction balances like a certificate's deposit does.
 * `proposals` are the governance extension's documents of this transaction (keyed `txId#index`).
 */
function proposalDeposits(proposals: readonly GovChainProposalDoc[]) {
  return [...proposals]
    .sort((a, b) => a.index - b.index)
    .map((p) => ({
      proposalId: p._id,
      govActionId: govActionBech32(p.txId, p.index),
      deposit: lovelaceToAda(p.deposit),
      depositLovelace: p.deposit,
      returnAccount: p.returnAccount,
    }));
}

export function presentTx(
  t: TxDoc,
  tipHeight: number | null,
  decimals: DecimalsMap,
  proposals: readonly GovChainProposalDoc[] = [],
  referenced: ReferencedOutputs = new Map(),
) {
  return {
    hash: t._id,
    block: { hash: t.blockHash, height: t.blockHeight, index: t.blockIndex },
    time: t.time,
    slot: t.slot,
    confirmations: confirmations(t.blockHeight, tipHeight),
    valid: t.valid,
    fee: lovelaceToAda(t.fee),
    feeLovelace: t.fee,
    size: t.size,
    inputs: t.inputs.map((i) => presentInput(i, decimals)),
    outputs: t.outputs.map((o) => presentOutput(o, decimals)),
    referenceInputs: t.referenceInputs.map((r) =>
      presentReferenceInput(r, referenced.get(`${r.txId}#${r.index}`), decimals),
    ),
    collaterals: t.collaterals.map((i) => presentInput(i, decimals)),
    collateralReturn: t.collateralReturn ? presentOutput(t.collateralReturn, decimals) : null,
    mint: assetList(t.mint, decimals),
    certificates: t.certificates.map(adaAmountsIn),
    withdrawals: Object.keys(t.withdrawals)
      .sort()
      .map((stakeAddress) => {
        const lovelace = t.withdrawals[stakeAddress] as string;
        return { stakeAddress, ada: lovelaceToAda(lovelace), lovelace };
      }),
    metadata: metadataObject(t.metadata),
    datums: (t.datums ?? []).map((d) => ({ hash: d.hash, datum: d.cbor })),
    redeemers: (t.redeemers ?? []).map((r) => ({
      purpose: r.purpose,
      index: r.index,
      redeemer: r.cbor,
      executionUnits: { memory: r.memory, cpu: r.cpu },
    })),
    validityInterval: t.validityInterval,
    proposals: t.proposals,
    proposalDeposits: proposalDeposits(proposals),
    votes: t.votes,
    totalOutput: lovelaceToAda(t.totalOutput),
    totalOutputLovelace: t.totalOutput,
    treasuryDonation: lovelaceToAda(t.treasuryDonation ?? '0'),
    treasuryDonationLovelace: t.treasuryDonation ?? '0',
  };
}

/** A key's reward balance as last read from the ledger (mongo/collections/staking.ts rewardBalanceOf). */
export interface RewardBalance {
  lovelace: string;
  asOf: string | null;
}

/**
 * A stored vote delegation as the governance routes name it. Stores synced before the sync wrote those ids hold
 * Ogmios' `abstain` / `noConfidence`, mapped here, and a registered DRep's credential hex, left as it is (whether it
 * is a key or a script was not kept; GET /governance/dreps/{id} takes the hex too).
 */
const drepOf = (d: string | null): string | null => predefinedDRepId(d) ?? d;

/** Where a stake key's stake and vote go: its pool (pool1…) and DRep (as the governance routes name it), or null. */
export interface Delegation {
  poolId: string | null;
  drep: string | null;
}

/** A registered key's delegations as the ledger holds them (null for a key never registered or deregistered). */
export const delegationOf = (a: StakeAccountDoc | null): Delegation | null =>
  a?.registered ? { poolId: a.poolId, drep: drepOf(a.drep) } : null;

export function presentStakeAccount(a: StakeAccountDoc | null, reward: RewardBalance | null) {
  if (!a) return null;
  // A deregistered key has no reward account (the ledger requires it empty to deregister).
  const r = a.registered ? reward : null;
  return {
    registered: a.registered,
    poolId: a.poolId,
    drep: drepOf(a.drep),
    deposit: lovelaceToAdaOrNull(a.deposit),
    depositLovelace: a.deposit,
    withdrawn: lovelaceToAda(a.withdrawn),
    withdrawnLovelace: a.withdrawn,
    rewards: r ? lovelaceToAda(r.lovelace) : null,
    rewardsLovelace: r?.lovelace ?? null,
    rewardsAsOf: r?.asOf ?? null,
  };
}

export interface PaymentAddressFacts {
  addressType: 'base' | 'pointer' | 'enterprise' | 'byron';
  first: Activity | null;
  last: Activity | null;
  account: StakeAccountDoc | null;
  reward: RewardBalance | null;
}

export function presentPaymentAddress(a: AddressDoc, facts: PaymentAddressFacts, decimals: DecimalsMap) {
  return {
    address: a._id,
    type: 'payment' as const,
    addressType: facts.addressType,
    script: a.script,
    paymentCred: a.paymentCred,
    stakeAddress: a.stakeAddress,
    balance: lovelaceToAda(a.balance.lovelace),
    balanceLovelace: a.balance.lovelace,
    assets: assetList(a.balance.assets, decimals),
    utxoCount: a.utxoCount,
    txCount: a.txCount,
    firstActivity: facts.first,
    lastActivity: facts.last,
    stakeAccount: presentStakeAccount(facts.account, facts.reward),
  };
}

export interface StakeAddressFacts {
  script: boolean;
  /** The key's aggregate as the sync keeps it (null: no address carries the key yet). */
  summary: StakeSummaryDoc | null;
  /** The key's first addresses in address order, as listed (at most `listLimit`). */
  addresses: readonly AddressDoc[];
  listLimit: number;
  account: StakeAccountDoc | null;
  reward: RewardBalance | null;
}

const activityOf = (a: StakeActivityDoc | undefined): Activity | null =>
  a ? { slot: a.slot, time: a.time, txHash: a.txId } : null;

export function presentStakeAddress(stakeAddress: string, f: StakeAddressFacts, decimals: DecimalsMap) {
  const value = f.summary?.balance ?? { lovelace: '0', assets: {} };
  return {
    address: stakeAddress,
    type: 'stake' as const,
    script: f.script,
    stakeAddress,
    balance: lovelaceToAda(value.lovelace),
    balanceLovelace: value.lovelace,
    assets: assetList(value.assets, decimals),
    utxoCount: f.summary?.utxoCount ?? 0,
    txCount: f.summary?.txCount ?? 0,
    // The sync keeps the totals over every address and the distinct transaction count exactly.
    txCountExact: true,
    firstActivity: activityOf(f.summary?.first),
    lastActivity: activityOf(f.summary?.last),
    stakeAccount: presentStakeAccount(f.account, f.reward),
    addressCount: f.summary?.addressCount ?? 0,
    addresses: f.addresses.slice(0, f.listLimit).map((a) => ({
      address: a._id,
      balance: lovelaceToAda(a.balance.lovelace),
      balanceLovelace: a.balance.lovelace,
      utxoCount: a.utxoCount,
      txCount: a.txCount,
    })),
    addressesLimit: f.listLimit,
    complete: true,
  };
}
