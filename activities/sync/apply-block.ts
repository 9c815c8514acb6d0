/**
 * Applies one block to the slice state: the UTxO set, address summaries, address histories, stake accounts,
 * pool registrations, and the block and transaction documents. Pure with respect to I/O: every document it
 * reads must have been prefetched (see `keysToPrefetch`).
 *
 * Phase-2 validity (Ogmios `spends`): a valid transaction spends `inputs` and creates `outputs`; a failed one
 * spends `collaterals` and creates only `collateralReturn`, whose output index is `outputs.length`.
 */
import {
  ADDRESSES,
  ADDRESS_TXS,
  BLOCKS,
  STAKE_ACCOUNTS,
  STAKE_POOL_REGS,
  TRANSACTIONS,
  UTXOS,
  type BlockDoc,
  type StakeAccountDoc,
  type StakePoolRegDoc,
  type TxDoc,
  type TxMetadataDoc,
  type TxRedeemerDoc,
  type TxInputDoc,
  type TxOutputDoc,
  type ValueDoc,
  type UtxoDoc,
} from '../../mongo/collections/chain.js';
import { parseAddress, poolIdFromVkey, rewardAddress, stakeAddressOf, type Network } from '../../cardano/address.js';
import type { Block, OutputReference, Transaction, TxOutput } from '../../cardano/chain/types.js';
import { drepBech32, predefinedDRepId } from '../../cardano/governance-ids.js';
import type { SliceState } from './slice-state.js';
import { applyStakeSummaries, prefetchStakeSummaries } from './stake-summaries.js';
import {
  addToEditedBalance,
  lovelaceOf,
  metadatumPlain,
  sumLovelace,
  toPlain,
  ValueSum,
  valueDoc,
  withOwnBalance,
} from './values.js';

export interface BlockContext {
  network: Network;
  /** Unix ms of a slot. */
  slotTime(slot: number): number;
  epochOf(slot: number): number;
  /**
   * The ledger's `stakePoolDeposit` (lovelace) when every pool registration of the chain is known (the sync started
   * at origin); null otherwise. A stake pool registration certificate carries no deposit on chain (Ogmios gives
   * none), yet a new registration pays it: the transaction document's certificate is given it, so the explorer's
   * transaction balances (inputs = outputs + fee + deposits).
   */
  poolDeposit: bigint | null;
  /**
   * The ledger's `stakeCredentialDeposit` (lovelace); null when unknown. A Shelley-style stake key registration
   * certificate (still valid in Conway, and what many wallets send) carries no deposit on chain (Ogmios gives none;
   * only Conway's registration certificate names it), yet the ledger charges it: the transaction document's
   * certificate is given it, as a pool registration's, so the explorer's transaction balances.
   */
  keyDeposit: bigint | null;
}

export const refId = (r: OutputReference) => `${r.transaction.id}#${r.index}`;

interface AddrInfo {
  paymentCred: string | null;
  stakeAddress: string | null;
  script: boolean;
}
const addrCache = new Map<string, AddrInfo>();
/** Address facts are pure functions of the address string; cached because popular addresses recur constantly. */
function addrInfo(address: string): AddrInfo {
  let info = addrCache.get(address);
  if (!info) {
    let paymentCred: string | null = null;
    let script = false;
    try {
      const p = parseAddress(address);
      paymentCred = p.paymentCred;
      script = p.paymentScript;
    } catch {
      /* Byron or unknown formats carry no credential we index */
    }
    info = { paymentCred, stakeAddress: stakeAddressOf(address), script };
    if (addrCache.size > 200_000) addrCache.clear();
    addrCache.set(address, info);
  }
  return info;
}

const effectiveOutputs = (tx: Transaction): { index: number; out: TxOutput }[] =>
  tx.spends === 'collaterals'
    ? tx.collateralReturn
      ? [{ index: tx.outputs.length, out: tx.collateralReturn }]
      : []
    : tx.outputs.map((out, index) => ({ index, out }));

const effectiveInputs = (tx: Transaction): OutputReference[] =>
  tx.spends === 'collaterals' ? (tx.collaterals ?? []) : tx.inputs;

/** Bech32 encodings are pure and recur (the same delegators, the same block producers): cached, bounded. */
function memo<K, V>(fn: (k: K) => V, max = 100_000): (k: K) => V {
  const cache = new Map<K, V>();
  return (k) => {
    let v = cache.get(k);
    if (v === undefined) {
      v = fn(k);
      if (cache.size >= max) cache.clear();
      cache.set(k, v);
    }
    return v;
  };
}
/** Key: network, `s` (script) or `k` (key) credential, the credential hash, `|`-separated. */
const rewardAddressOf = memo((key: string) => {
  const [network, kind, cred] = key.split('|') as [Network, string, string];
  return rewardAddress(network, cred, kind === 's');
});
const poolIdOf = memo(poolIdFromVkey, 10_000);

function stakeCredAddress(network: Network, cert: Record<string, unknown>): string | null {
  const cred = cert.credential;
  if (typeof cred !== 'string') return null;
  return rewardAddressOf(`${network}|${cert.from === 'script' ? 's' : 'k'}|${cred}`);
}

/**
 * The stake pool that made a block: the hash of the issuer's cold key, from Shelley on. A Byron block's issuer is a
 * genesis delegate's extended key (64 bytes), no stake pool: hashing it would name a pool that never existed.
 */
function poolIssuer(b: Block): string | null {
  const vkey = b.issuer?.verificationKey;
  return vkey && b.era !== 'byron' ? poolIdOf(vkey) : null;
}

/** Every document id a block may read, per collection, so one prefetch per batch serves all reads. */
export function keysToPrefetch(blocks: readonly Block[], network: Network) {
  const utxos: string[] = [];
  const addresses: string[] = [];
  const stake: string[] = [];
  const pools: string[] = [];
  for (const b of blocks) {
    const issuer = poolIssuer(b);
    if (issuer) pools.push(issuer);
    for (const tx of b.transactions ?? []) {
      for (const r of tx.inputs) utxos.push(refId(r));
      for (const r of tx.collaterals ?? []) utxos.push(refId(r));
      for (const o of tx.outputs) addresses.push(o.address);
      if (tx.collateralReturn) addresses.push(tx.collateralReturn.address);
      for (const c of tx.certificates ?? []) {
        const s = stakeCredAddress(network, c);
        if (s) stake.push(s);
        const pool = (c.stakePool as { id?: string } | undefined)?.id;
        if (pool) pools.push(pool);
      }
      for (const w of Object.keys(tx.withdrawals ?? {})) stake.push(w);
    }
  }
  return { utxos, addresses, stake, pools };
}

export async function prefetchBlocks(state: SliceState, blocks: readonly Block[], network: Network): Promise<void> {
  const k = keysToPrefetch(blocks, network);
  await state.prefetch(UTXOS, k.utxos);
  // Addresses of spent outputs are known only once their UTxOs are loaded (or created earlier in the batch).
  const spentAddrs: string[] = [];
  for (const id of k.utxos) {
    const u = state.get(UTXOS, id);
    if (u) spentAddrs.push(u.address);
  }
  const addresses = [...k.addresses, ...spentAddrs];
  await Promise.all([
    state.prefetch(ADDRESSES, addresses),
    state.prefetch(STAKE_ACCOUNTS, k.stake),
    state.prefetch(STAKE_POOL_REGS, k.pools),
    // The keys the block's addresses carry, and those its withdrawals and certificates act for (their activity).
    prefetchStakeSummaries(state, [...addresses.map((a) => addrInfo(a).stakeAddress), ...k.stake]),
  ]);
}

function outputDoc(index: number, o: TxOutput): TxOutputDoc {
  return {
    index,
    address: o.address,
    stakeAddress: addrInfo(o.address).stakeAddress,
    value: valueDoc(o.value),
    datumHash: o.datumHash ?? null,
    datum: o.datum ?? null,
    scriptRef: o.script ? { language: o.script.language } : null,
  };
}

/**
 * Returns the block document and every UTxO the block consumed (keyed `txId#index`, with datums), which sync
 * extensions need to interpret the block (a DEX batch spends pool and order outputs).
 */
export function applyBlock(
  state: SliceState,
  block: Block,
  ctx: BlockContext,
): { block: BlockDoc; spent: Map<string, UtxoDoc> } {
  const slot = block.slot ?? 0;
  const time = new Date(ctx.slotTime(slot)).toISOString();
  const txs = block.transactions ?? [];
  // The block's changes per address, summed over its transactions and applied once per address after them (a
  // busy address appears in many inputs and outputs of one block). An address the block creates may be spent from
  // later in the same block; the prefetch covered it (absent) and `applyAddress` creates it.
  const addressDeltas = new Map<string, AddressDelta>();
  const touchAddress = (address: string, value: ValueDoc, sign: 1 | -1, utxos: number, newTx: boolean) => {
    let d = addressDeltas.get(address);
    if (!d) addressDeltas.set(address, (d = { value: new ValueSum(), utxos: 0, txs: 0 }));
    d.value.add(value, sign);
    d.utxos += utxos;
    if (newTx) d.txs += 1;
  };

  const spent = new Map<string, UtxoDoc>();
  let fees = 0n;
  let totalOutput = 0n;
  const txIds: string[] = [];
  const txDocs: TxDoc[] = [];
  /** Per transaction (as txDocs), the stake keys it withdrew from or certified: activity of the key itself. */
  const keyActs: string[][] = [];
  txs.forEach((tx, blockIndex) => {
    txIds.push(tx.id);
    const valid = tx.spends !== 'collaterals';
    const resolve = (r: OutputReference): TxInputDoc => {
      const u = state.get(UTXOS, refId(r));
      return { txId: r.transaction.id, index: r.index, address: u?.address ?? null, value: u?.value ?? null };
    };
    const inputs = tx.inputs.map(resolve);
    const collaterals = (tx.collaterals ?? []).map(resolve);
    const touched = new Set<string>();
    // Spend.
    for (const r of effectiveInputs(tx)) {
      const id = refId(r);
      const u = state.get(UTXOS, id);
      if (!u) continue; // created before the indexed range: recorded unresolved, never guessed
      spent.set(id, u);
      state.remove(UTXOS, id);
      touchAddress(u.address, u.value, -1, -1, !touched.has(u.address));
      touched.add(u.address);
    }
    // Create.
    const outputs = tx.outputs.map((o, i) => outputDoc(i, o));
    const collateralReturn = tx.collateralReturn ? outputDoc(tx.outputs.length, tx.collateralReturn) : null;
    for (const { index, out } of effectiveOutputs(tx)) {
      const doc =
        index === tx.outputs.length && !valid ? (collateralReturn as TxOutputDoc) : (outputs[index] as TxOutputDoc);
      const info = addrInfo(out.address);
      const utxo: UtxoDoc = {
        _id: `${tx.id}#${index}`,
        txId: tx.id,
        index,
        address: out.address,
        paymentCred: info.paymentCred,
        stakeAddress: info.stakeAddress,
        value: doc.value,
        datumHash: doc.datumHash,
        datum: doc.datum,
        slot,
      };
      state.putNew(UTXOS, utxo);
      touchAddress(out.address, doc.value, 1, 1, !touched.has(out.address));
      touched.add(out.address);
    }
    for (const address of touched) {
      const stakeAddress = addrInfo(address).stakeAddress;
      state.putNew(ADDRESS_TXS, {
        // Slot, then the transaction's position in its block: an address's history in chain order, also when
        // several of its transactions share one block. The address and the transaction id are read from it.
        _id: `${address}|${String(slot).padStart(12, '0')}|${String(blockIndex).padStart(5, '0')}|${tx.id}`,
        stakeAddress,
        slot,
        blockIndex,
      });
    }
    // Certificates and withdrawals take effect only for valid transactions.
    const certs = tx.certificates ?? [];
    const charged: (bigint | null)[] = valid ? certs.map((c) => applyCertificate(state, c, slot, ctx)) : [];
    const certificates = certs.map((c, i) => {
      const deposit = charged[i] ?? null;
      const kept = deposit !== null && c.deposit === undefined ? { ...c, deposit: { ada: { lovelace: deposit } } } : c;
      return toPlain(kept) as Record<string, unknown>;
    });
    if (valid) {
      for (const [stakeAddr, w] of Object.entries(tx.withdrawals ?? {})) {
        const prev = state.get(STAKE_ACCOUNTS, stakeAddr) ?? newStakeAccount(stakeAddr, slot, true);
        state.put(STAKE_ACCOUNTS, {
          ...prev,
          withdrawn: String(BigInt(prev.withdrawn) + BigInt(lovelaceOf(w) ?? 0)),
          slot,
        });
      }
    }
    // A key acts in a transaction that withdraws its rewards or certifies it (registration, delegation), also when
    // none of its addresses is touched: a DEX batcher's script key withdraws 0 in every batch and holds no output.
    keyActs.push(
      valid
        ? [
            ...new Set([
              ...Object.keys(tx.withdrawals ?? {}),
              ...certs.map((c) => stakeCredAddress(ctx.network, c)).filter((s): s is string => s !== null),
            ]),
          ]
        : [],
    );
    const fee =
      tx.spends === 'collaterals'
        ? failedTxFee(tx, collaterals, collateralReturn)
        : tx.fee === undefined
          ? undeclaredFee(inputs, outputs)
          : BigInt(lovelaceOf(tx.fee) ?? 0);
    fees += fee;
    // What the transaction created: a failed one's declared outputs never exist, only its collateral return does
    // (so its collaterals = total output + fee, as a valid transaction's inputs balance).
    const txTotal = valid
      ? sumLovelace(outputs.map((o) => o.value))
      : sumLovelace(collateralReturn ? [collateralReturn.value] : []);
    totalOutput += BigInt(txTotal);
    const mint: Record<string, string> = {};
    for (const [policy, names] of Object.entries(tx.mint ?? {}))
      for (const [name, q] of Object.entries(names)) mint[policy + name] = String(q);
    const metadata: TxMetadataDoc[] | null = tx.metadata?.labels
      ? Object.entries(tx.metadata.labels).map(([label, m]) => ({
          label,
          json: JSON.stringify(metadatumPlain(m.json ?? { cbor: m.cbor })),
        }))
      : null;
    const donation = lovelaceOf(tx.treasury?.donation);
    const doc: TxDoc = {
      _id: tx.id,
      blockHash: block.id,
      blockHeight: block.height,
      blockIndex,
      slot,
      time,
      valid,
      fee: String(fee),
      size: tx.cbor ? tx.cbor.length / 2 : null,
      inputs,
      referenceInputs: (tx.references ?? []).map((r) => ({ txId: r.transaction.id, index: r.index })),
      collaterals,
      collateralReturn,
      outputs,
      totalOutput: txTotal,
      mint,
      certificates,
      withdrawals: Object.fromEntries(Object.entries(tx.withdrawals ?? {}).map(([a, w]) => [a, lovelaceOf(w) ?? '0'])),
      ...(valid && donation && donation !== '0' ? { treasuryDonation: donation } : {}),
      metadata,
      ...(tx.datums && Object.keys(tx.datums).length
        ? {
            datums: Object.entries(tx.datums)
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([hash, cbor]) => ({ hash, cbor })),
          }
        : {}),
      ...(tx.redeemers?.length ? { redeemers: tx.redeemers.map(redeemerDoc) } : {}),
      validityInterval: {
        invalidBefore: tx.validityInterval?.invalidBefore ?? null,
        invalidAfter: tx.validityInterval?.invalidAfter ?? null,
      },
      proposals: tx.proposals?.length ?? 0,
      votes: tx.votes?.length ?? 0,
      addresses: [...touched],
    };
    state.putNew(TRANSACTIONS, doc);
    txDocs.push(doc);
  });
  for (const [address, d] of addressDeltas) applyAddress(state, address, d, slot);
  applyStakeSummaries(state, txDocs, slot, keyActs);

  const issuerVkey = block.issuer?.verificationKey ?? null;
  const poolId = poolIssuer(block);
  if (poolId) {
    const prev = state.get(STAKE_POOL_REGS, poolId) ?? newPoolReg(poolId, slot);
    state.put(STAKE_POOL_REGS, { ...prev, blocksMinted: prev.blocksMinted + 1, slot });
  }
  const v = block.protocol?.version;
  const doc: BlockDoc = {
    _id: block.id,
    height: block.height,
    slot,
    time,
    epoch: ctx.epochOf(slot),
    era: block.era,
    prevHash: block.ancestor,
    size: block.size?.bytes ?? 0,
    txCount: txs.length,
    fees: String(fees),
    totalOutput: String(totalOutput),
    issuerVkey,
    poolId,
    protocolVersion: v ? `${v.major}.${v.minor}` : null,
    txIds,
  };
  state.putNew(BLOCKS, doc);
  return { block: doc, spent };
}

/** What one block changed of one address: its balance, UTxO count and transactions. */
interface AddressDelta {
  value: ValueSum;
  utxos: number;
  txs: number;
}

/**
 * A busy address is changed in place (one copy per write batch, not one per block, of a balance that may hold
 * hundreds of assets), its undo record holding the prior values of the quantities and counters the block changed.
 */
function applyAddress(state: SliceState, address: string, d: AddressDelta, slot: number): void {
  const doc = state.edit(ADDRESSES, address, withOwnBalance);
  if (!doc) {
    const info = addrInfo(address);
    state.create(ADDRESSES, {
      _id: address,
      stakeAddress: info.stakeAddress,
      paymentCred: info.paymentCred,
      script: info.script,
      balance: d.value.doc(),
      utxoCount: d.utxos,
      txCount: d.txs,
      firstSlot: slot,
      lastSlot: slot,
      slot,
    });
    return;
  }
  const prior = (path: string[], had: boolean, v: unknown) => state.prior(ADDRESSES, address, path, had, v);
  addToEditedBalance(state, ADDRESSES, doc, d.value.doc());
  if (d.utxos !== 0) {
    prior(['utxoCount'], Object.hasOwn(doc, 'utxoCount'), doc.utxoCount);
    doc.utxoCount += d.utxos;
  }
  if (d.txs !== 0) {
    prior(['txCount'], Object.hasOwn(doc, 'txCount'), doc.txCount);
    doc.txCount += d.txs;
  }
  if (doc.lastSlot !== slot) {
    prior(['lastSlot'], Object.hasOwn(doc, 'lastSlot'), doc.lastSlot);
    doc.lastSlot = slot;
  }
  if (doc.slot !== slot) {
    prior(['slot'], Object.hasOwn(doc, 'slot'), doc.slot);
    doc.slot = slot;
  }
}

/**
 * What a failed transaction (phase-2 invalid: its collaterals were spent instead of its inputs) paid, lovelace:
 * the declared total collateral when the body states it (Babbage+); else the collateral inputs minus the collateral
 * return when every collateral input is known; else — a collateral input predates the indexed range, so the
 * difference would be a guess, often zero or negative — the fee the body declares.
 */
export function failedTxFee(
  tx: Pick<Transaction, 'totalCollateral' | 'fee'>,
  collaterals: readonly TxInputDoc[],
  ret: TxOutputDoc | null,
): bigint {
  if (tx.totalCollateral) return BigInt(lovelaceOf(tx.totalCollateral) ?? 0);
  if (collaterals.length > 0 && collaterals.every((c) => c.value !== null)) {
    let t = 0n;
    for (const c of collaterals) t += BigInt((c.value as ValueDoc).lovelace);
    return ret ? t - BigInt(ret.value.lovelace) : t;
  }
  return BigInt(lovelaceOf(tx.fee) ?? 0);
}

/**
 * A witness-set redeemer as Ogmios v6 gives it: `{ validator: { purpose, index }, redeemer: cbor hex,
 * executionUnits: { memory, cpu } }`.
 */
function redeemerDoc(r: unknown): TxRedeemerDoc {
  const x = r as {
    validator?: { purpose?: unknown; index?: unknown };
    redeemer?: unknown;
    executionUnits?: { memory?: unknown; cpu?: unknown };
  };
  return {
    purpose: String(x.validator?.purpose ?? ''),
    index: Number(x.validator?.index ?? 0),
    cbor: String(x.redeemer ?? ''),
    memory: Number(x.executionUnits?.memory ?? 0),
    cpu: Number(x.executionUnits?.cpu ?? 0),
  };
}

/**
 * The fee of a transaction whose body declares none, lovelace: a Byron transaction (Ogmios gives a Byron body no
 * `fee`; every Shelley-and-later body carries one). The Byron ledger's only sink is the fee, so it is what the inputs
 * hold beyond the outputs; 0 when an input predates the indexed range (its value, and so the fee, is unknown: the
 * first spends of the genesis balances on a sync from origin).
 */
export function undeclaredFee(inputs: readonly TxInputDoc[], outputs: readonly TxOutputDoc[]): bigint {
  if (inputs.length === 0 || inputs.some((i) => i.value === null)) return 0n;
  let fee = 0n;
  for (const i of inputs) fee += BigInt((i.value as ValueDoc).lovelace);
  for (const o of outputs) fee -= BigInt(o.value.lovelace);
  return fee;
}

function newStakeAccount(id: string, slot: number, registered: boolean): StakeAccountDoc {
  let credential = '';
  let script = false;
  try {
    const p = parseAddress(id);
    credential = p.stakeCred ?? '';
    script = p.stakeScript;
  } catch {
    /* ids come from certificates and withdrawals, so they parse */
  }
  return { _id: id, credential, script, registered, deposit: null, poolId: null, drep: null, withdrawn: '0', slot };
}

function newPoolReg(id: string, slot: number): StakePoolRegDoc {
  return { _id: id, params: {}, registeredSlot: null, retiringEpoch: null, blocksMinted: 0, slot };
}

/**
 * The DRep of a vote delegation as the governance routes name it: CIP-129 drep1… (key or script credential), or
 * drep_always_abstain / drep_always_no_confidence for the two predefined options.
 */
function drepId(d: unknown): string | null {
  if (!d || typeof d !== 'object') return null;
  const r = d as { type?: string; id?: string; from?: string };
  if (r.type === 'registered') return r.id ? drepBech32({ hash: r.id, script: r.from === 'script' }) : null;
  return predefinedDRepId(r.type);
}

/**
 * Applies one certificate of a valid transaction. Returns the deposit it charged, or refunded, when the chain's
 * certificate does not say, else null: a new stake pool registration (not one that updates a registered pool,
 * retiring or not); a Shelley-style stake key registration (the ledger's key deposit) and deregistration (the
 * deposit the key's registration paid, which the ledger gives back; unknown when it predates the indexed range).
 */
function applyCertificate(
  state: SliceState,
  c: Record<string, unknown>,
  slot: number,
  ctx: BlockContext,
): bigint | null {
  const stakeAddr = stakeCredAddress(ctx.network, c);
  switch (c.type) {
    case 'stakeCredentialRegistration': {
      const prev = state.get(STAKE_ACCOUNTS, stakeAddr as string) ?? newStakeAccount(stakeAddr as string, slot, false);
      const deposit = lovelaceOf(c.deposit) ?? String(ctx.keyDeposit ?? 2_000_000n);
      state.put(STAKE_ACCOUNTS, { ...prev, registered: true, deposit, slot });
      return c.deposit === undefined ? ctx.keyDeposit : null;
    }
    case 'stakeCredentialDeregistration': {
      const known = state.get(STAKE_ACCOUNTS, stakeAddr as string);
      const prev = known ?? newStakeAccount(stakeAddr as string, slot, true);
      state.put(STAKE_ACCOUNTS, { ...prev, registered: false, deposit: null, poolId: null, drep: null, slot });
      return c.deposit === undefined && known?.registered && known.deposit !== null ? BigInt(known.deposit) : null;
    }
    case 'stakeDelegation': {
      const prev = state.get(STAKE_ACCOUNTS, stakeAddr as string) ?? newStakeAccount(stakeAddr as string, slot, true);
      const pool = (c.stakePool as { id?: string } | undefined)?.id;
      const drep = drepId(c.delegateRepresentative);
      state.put(STAKE_ACCOUNTS, { ...prev, poolId: pool ?? prev.poolId, drep: drep ?? prev.drep, slot });
      return null;
    }
    case 'stakePoolRegistration': {
      const params = toPlain(c.stakePool) as Record<string, unknown>;
      const id = params.id as string;
      const known = state.get(STAKE_POOL_REGS, id);
      // Registered = registered once and not retired by now (a retirement takes effect at its epoch's start; a
      // registration before then cancels it and pays nothing).
      const registered =
        known !== null &&
        known.registeredSlot !== null &&
        (known.retiringEpoch === null || known.retiringEpoch > ctx.epochOf(slot));
      const prev = known ?? newPoolReg(id, slot);
      state.put(STAKE_POOL_REGS, {
        ...prev,
        params,
        registeredSlot: prev.registeredSlot ?? slot,
        retiringEpoch: null,
        slot,
      });
      return registered ? null : ctx.poolDeposit;
    }
    case 'stakePoolRetirement': {
      const sp = c.stakePool as { id: string; retirementEpoch: number };
      const prev = state.get(STAKE_POOL_REGS, sp.id) ?? newPoolReg(sp.id, slot);
      state.put(STAKE_POOL_REGS, { ...prev, retiringEpoch: Number(sp.retirementEpoch), slot });
      return null;
    }
    default:
      return null; // DRep, committee and genesis certificates are kept on the transaction document only
  }
}
