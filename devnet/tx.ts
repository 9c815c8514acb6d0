/**
 * Builds one transaction from a draft: selects extra inputs from a funding address, computes the linear fee
 * from the serialized size, adds the change output, encodes the body as CBOR (tx id = blake2b-256 of it) and
 * writes the Ogmios v6 JSON beside the ledger effects. Every built transaction balances per asset:
 *   Σ inputs + Σ withdrawals + mint = Σ outputs + fee + deposits.
 */
import { hash256, keyHash } from '../cardano/address.js';
import { encodeCbor, encodeCborMarked, Mark, patchUint, Tagged, type CborValue } from './cbor.js';
import type { Cert, PoolParams, TxEffects, Utxo, UtxoView } from './ledger.js';
import { refKey } from './ledger.js';
import { MIN_FEE_COEFFICIENT, MIN_FEE_CONSTANT } from './params.js';
import type { Rng } from './rng.js';
import { stringify } from './json.js';
import { addAssets, cloneAssets, hasNegative, minCoin, type Assets, type Val } from './value.js';
import { addressBytes } from './world.js';
import {
  govCertCbor,
  govCertJson,
  proposalsCbor,
  proposalsJson,
  votesCbor,
  votesJson,
  type ProposalDraft,
  type VoteDraft,
} from './governance.js';

export interface OutputDraft {
  address: string;
  value: Val;
  /** Inline datum, CBOR hex. */
  datum?: string;
  /** Datum hash (hex) instead of an inline datum; the datum itself goes into `TxDraft.datums` (witness set). */
  datumHash?: string;
}

export interface TxDraft {
  /** Inputs the transaction must spend (token UTxOs, an NFT being sold); must be unspent in the view. */
  inputs?: Utxo[];
  /** Address whose UTxOs (oldest first) cover what is missing; it receives the change. */
  fundFrom?: string;
  outputs: OutputDraft[];
  certificates?: Cert[];
  withdrawals?: { rewardAddress: string; cred: string; amount: bigint }[];
  /** Positive quantities mint, negative burn. */
  mint?: Assets;
  /** Native-script policies of the mint: policy id → key hash of the single signer. */
  mintPolicies?: Record<string, string>;
  /** Transaction metadata: label → metadatum (JSON-shaped: objects with text keys, strings, integers, lists). */
  metadata?: Record<string, CborValue>;
  /** Verification keys that witness the transaction (payment keys of the inputs, stake and pool keys). */
  signers: string[];
  /** Emit the optional body field `network` (key 15), as some wallets do. */
  network?: boolean;
  /** Witness-set datums (CBOR hex): datums of hash-datum outputs created or spent (Ogmios `datums`). */
  datums?: string[];
  /** Spend redeemers (Plutus data CBOR hex) of script inputs; each `input` must be one of `inputs`. */
  redeemers?: { input: Utxo; data: string }[];
  /** Conway governance proposals (body key 20; each locks its deposit) and votes (key 19). */
  proposals?: ProposalDraft[];
  votes?: VoteDraft[];
}

export interface DevTx extends TxEffects {
  /** Ogmios v6 JSON of the transaction. */
  json: string;
  /** Serialized size (body + witnesses + auxiliary data), bytes. */
  size: number;
  fee: bigint;
}

const MAX_INPUTS = 60;
const unhex = (h: string): Uint8Array => Buffer.from(h, 'hex');
const tag258 = (items: CborValue[]) => new Tagged(258, items);

function valueCbor(v: Val, marked = false): CborValue {
  const coin = marked ? new Mark(v.coin) : v.coin;
  if (Object.keys(v.assets).length === 0) return coin;
  return [coin, multiAssetCbor(v.assets)];
}
function multiAssetCbor(a: Assets): CborValue {
  const m = new Map<CborValue, CborValue>();
  for (const p of Object.keys(a).sort()) {
    const names = new Map<CborValue, CborValue>();
    const byName = a[p] as Record<string, bigint>;
    for (const n of Object.keys(byName).sort()) names.set(unhex(n), byName[n] as bigint);
    m.set(unhex(p), names);
  }
  return m;
}

function certCbor(c: Cert): CborValue {
  switch (c.type) {
    case 'stakeCredentialRegistration':
      return [7, [0, unhex(c.cred)], c.deposit];
    case 'stakeDelegation':
      return [2, [0, unhex(c.cred)], unhex(c.poolHash)];
    case 'stakePoolRegistration': {
      const p = c.pool;
      return [
        3,
        unhex(p.hash),
        unhex(p.vrfVerificationKeyHash),
        p.pledge,
        p.cost,
        new Tagged(30, [p.margin[0], p.margin[1]]),
        addressBytes(p.rewardAccount),
        tag258(p.owners.map((o) => unhex(o))),
        p.relays.map((r) =>
          r.type === 'hostname' ? [1, r.port, r.hostname] : [0, r.port, Uint8Array.from(r.ipv4.split('.').map(Number))],
        ),
        [p.metadata.url, unhex(p.metadata.hash)],
      ];
    }
    case 'stakePoolRetirement':
      return [4, unhex(c.poolHash), c.epoch];
    case 'delegateRepresentativeRegistration':
    case 'voteDelegation':
      return govCertCbor(c);
  }
}

function certJson(c: Cert): Record<string, unknown> {
  switch (c.type) {
    case 'stakeCredentialRegistration':
      return {
        type: c.type,
        from: 'verificationKey',
        credential: c.cred,
        deposit: { ada: { lovelace: c.deposit } },
      };
    case 'stakeDelegation':
      return { type: c.type, from: 'verificationKey', credential: c.cred, stakePool: { id: c.pool } };
    case 'stakePoolRegistration':
      return { type: c.type, stakePool: poolJson(c.pool) };
    case 'stakePoolRetirement':
      return { type: c.type, stakePool: { id: c.pool, retirementEpoch: c.epoch } };
    case 'delegateRepresentativeRegistration':
    case 'voteDelegation':
      return govCertJson(c);
  }
}

/** The Ogmios `StakePool` object (also the body of `queryLedgerState/stakePools` entries). */
export function poolJson(p: PoolParams): Record<string, unknown> {
  return {
    id: p.id,
    vrfVerificationKeyHash: p.vrfVerificationKeyHash,
    pledge: { ada: { lovelace: p.pledge } },
    cost: { ada: { lovelace: p.cost } },
    margin: `${p.margin[0]}/${p.margin[1]}`,
    rewardAccount: p.rewardAccount,
    owners: p.owners,
    relays: p.relays,
    metadata: p.metadata,
  };
}

/** Builds, or returns null when the funding address cannot cover the draft. Does not apply it. */
export function buildTx(view: UtxoView, draft: TxDraft, env: { slot: number; rng: Rng }): DevTx | null {
  const inputs: Utxo[] = [];
  const used = new Set<string>();
  let availCoin = 0n;
  const availAssets: Assets = {};
  const take = (u: Utxo) => {
    inputs.push(u);
    used.add(refKey(u.txId, u.index));
    availCoin += u.value.coin;
    for (const _ in u.value.assets) {
      addAssets(availAssets, u.value.assets);
      break;
    }
  };
  for (const u of draft.inputs ?? []) {
    if (!view.isUnspent(u) || used.has(refKey(u.txId, u.index))) return null;
    take(u);
  }
  for (const w of draft.withdrawals ?? []) availCoin += w.amount;
  if (draft.mint) addAssets(availAssets, draft.mint);

  let reqCoin = 0n;
  const reqAssets: Assets = {};
  for (const o of draft.outputs) {
    reqCoin += o.value.coin;
    addAssets(reqAssets, o.value.assets);
  }
  for (const c of draft.certificates ?? []) {
    if (c.type === 'stakeCredentialRegistration' || c.type === 'stakePoolRegistration') reqCoin += c.deposit;
    if (c.type === 'delegateRepresentativeRegistration') reqCoin += c.deposit;
  }
  for (const p of draft.proposals ?? []) reqCoin += p.deposit;

  const funding = draft.fundFrom ? view.utxosAt(draft.fundFrom)[Symbol.iterator]() : null;
  const addNext = (): boolean => {
    if (!funding || inputs.length >= MAX_INPUTS) return false;
    for (;;) {
      const r = funding.next();
      if (r.done) return false;
      if (used.has(refKey(r.value.txId, r.value.index))) continue;
      take(r.value);
      return true;
    }
  };

  // Every transaction spends at least one input (a withdrawal alone would not need one, the ledger insists).
  if (inputs.length === 0 && !addNext()) return null;
  const signers = [...new Set(draft.signers)];
  const auxCbor = draft.metadata ? encodeCbor(metadataCbor(draft.metadata)) : null;
  const auxHash = auxCbor ? hash256(auxCbor) : null;
  const ttl = env.slot + 3600 + env.rng.int(0, 10_800);
  const validFrom = env.rng.chance(0.15) ? env.slot - env.rng.int(0, 600) : null;
  const scriptWitnessBytes = draft.mintPolicies ? Object.keys(draft.mintPolicies).length * 40 : 0;
  const plutusWitnessBytes =
    (draft.datums ?? []).reduce((n, d) => n + d.length / 2 + 3, 0) +
    (draft.redeemers ?? []).reduce((n, r) => n + r.data.length / 2 + 16, 0);
  const witnessBytes = 3 + signers.length * 102 + scriptWitnessBytes + plutusWitnessBytes;

  const noAssets = (a: Assets) => {
    for (const _ in a) return false;
    return true;
  };
  for (;;) {
    // Most transactions move ADA only: skip the multi-asset arithmetic for them.
    const changeAssets = noAssets(availAssets) && noAssets(reqAssets) ? {} : cloneAssets(availAssets);
    if (!noAssets(reqAssets)) addAssets(changeAssets, reqAssets, -1n);
    const changeCoin = availCoin - reqCoin;
    if (hasNegative(changeAssets) || changeCoin < 0n) {
      if (addNext()) continue;
      return null;
    }
    const hasChangeAssets = Object.keys(changeAssets).length > 0;
    if (hasChangeAssets && !draft.fundFrom) return null;
    const minChange = minCoin(changeAssets);
    const outputs: OutputDraft[] = [...draft.outputs];
    const withChange = draft.fundFrom !== undefined && (hasChangeAssets || changeCoin > 0n);
    if (withChange)
      outputs.push({ address: draft.fundFrom as string, value: { coin: changeCoin, assets: changeAssets } });
    // One encoding: fee and change are marked and patched in place once the size (hence the fee) is known.
    const changeAt = withChange ? outputs.length - 1 : -1;
    const enc = encodeBody(inputs, outputs, 0xffffffffn, ttl, validFrom, draft, auxHash, changeAt);
    const size = enc.bytes.length + witnessBytes + (auxCbor?.length ?? 1) + 2;
    let fee = MIN_FEE_CONSTANT + MIN_FEE_COEFFICIENT * BigInt(size);
    let body = enc.bytes;
    if (withChange && changeCoin - fee < minChange) {
      if (addNext()) continue;
      // An ADA-only remainder too small for an output goes to the fee, as wallets do.
      if (hasChangeAssets || changeCoin < fee) return null;
      fee = changeCoin;
      outputs.pop();
      body = encodeBody(inputs, outputs, fee, ttl, validFrom, draft, auxHash, -1).bytes;
    } else if (withChange) {
      const last = outputs[changeAt] as OutputDraft;
      outputs[changeAt] = { address: last.address, value: { coin: changeCoin - fee, assets: changeAssets } };
      const [feeAt, coinAt] = enc.marks as [number, number];
      if (!patchUint(body, feeAt, fee) || !patchUint(body, coinAt, changeCoin - fee))
        body = encodeBody(inputs, outputs, fee, ttl, validFrom, draft, auxHash, -1).bytes;
    } else if (changeCoin < fee) {
      return null;
    } else {
      // No funding address: whatever is left over is the fee (callers balance such drafts exactly).
      fee = changeCoin;
      body = encodeBody(inputs, outputs, fee, ttl, validFrom, draft, auxHash, -1).bytes;
    }
    const id = hash256(body);
    const created: Utxo[] = outputs.map((o, index) =>
      o.datumHash !== undefined
        ? { txId: id, index, address: o.address, value: o.value, datumHash: o.datumHash }
        : o.datum === undefined
          ? { txId: id, index, address: o.address, value: o.value }
          : { txId: id, index, address: o.address, value: o.value, datum: o.datum },
    );
    const json = txJson(id, inputs, outputs, fee, ttl, validFrom, draft, auxHash, signers, env.rng);
    return {
      id,
      spent: inputs,
      created,
      certificates: draft.certificates ?? [],
      withdrawals: (draft.withdrawals ?? []).map((w) => ({ cred: w.cred, amount: w.amount })),
      ...(draft.proposals?.length ? { proposals: draft.proposals } : {}),
      ...(draft.votes?.length ? { votes: draft.votes } : {}),
      json,
      size: body.length + witnessBytes + (auxCbor?.length ?? 1) + 2,
      fee,
    };
  }
}

const byRef = (a: Utxo, b: Utxo) => (a.txId < b.txId ? -1 : a.txId > b.txId ? 1 : a.index - b.index);

function encodeBody(
  inputs: Utxo[],
  outputs: OutputDraft[],
  fee: bigint,
  ttl: number,
  validFrom: number | null,
  d: TxDraft,
  auxHash: string | null,
  /** Index of the change output, whose coin and the fee are encoded as patchable marks; -1 for none. */
  changeAt: number,
): { bytes: Uint8Array; marks: number[] } {
  const body = new Map<CborValue, CborValue>();
  body.set(0, tag258([...inputs].sort(byRef).map((u) => [unhex(u.txId), u.index])));
  body.set(
    1,
    outputs.map((o, i) => {
      const m = new Map<CborValue, CborValue>([
        [0, addressBytes(o.address)],
        [1, valueCbor(o.value, i === changeAt)],
      ]);
      if (o.datum !== undefined) m.set(2, [1, new Tagged(24, unhex(o.datum))]);
      else if (o.datumHash !== undefined) m.set(2, [0, unhex(o.datumHash)]);
      return m;
    }),
  );
  body.set(2, changeAt >= 0 ? new Mark(fee) : fee);
  body.set(3, ttl);
  if (d.certificates?.length) body.set(4, d.certificates.map(certCbor));
  if (d.withdrawals?.length)
    body.set(5, new Map<CborValue, CborValue>(d.withdrawals.map((w) => [addressBytes(w.rewardAddress), w.amount])));
  if (auxHash) body.set(7, unhex(auxHash));
  if (validFrom !== null) body.set(8, validFrom);
  if (d.mint) body.set(9, multiAssetCbor(d.mint));
  if (d.network) body.set(15, 1);
  if (d.votes?.length) body.set(19, votesCbor(d.votes));
  if (d.proposals?.length) body.set(20, proposalsCbor(d.proposals));
  const out = encodeCborMarked(body);
  // Marks come in encoding order: the change coin (outputs, key 1) before the fee (key 2).
  return { bytes: out.bytes, marks: changeAt >= 0 ? [out.marks[1] as number, out.marks[0] as number] : [] };
}

function metadataCbor(m: Record<string, CborValue>): CborValue {
  return new Map<CborValue, CborValue>(Object.keys(m).map((label) => [Number(label), m[label] as CborValue]));
}

/*
 * The Ogmios JSON is written as a string directly (key order as Ogmios emits it: id, spends, inputs, outputs,
 * certificates, withdrawals, mint, network, fee, validityInterval, treasury, metadata, signatories, scripts).
 * Every interpolated string is hex, bech32 or a fixed word, so none needs escaping; metadata goes through the
 * big-number-safe stringify.
 */
const q = (s: string) => `"${s}"`;
const lovelace = (n: bigint) => `{"ada":{"lovelace":${n}}}`;

function policiesStr(a: Assets): string {
  let s = '';
  for (const p of Object.keys(a).sort()) {
    const names = a[p] as Record<string, bigint>;
    let inner = '';
    for (const n of Object.keys(names).sort()) inner += `${inner ? ',' : ''}"${n}":${names[n]}`;
    s += `,"${p}":{${inner}}`;
  }
  return s;
}
export const valueStr = (v: Val) => `{"ada":{"lovelace":${v.coin}}${policiesStr(v.assets)}}`;

function txJson(
  id: string,
  inputs: Utxo[],
  outputs: OutputDraft[],
  fee: bigint,
  ttl: number,
  validFrom: number | null,
  d: TxDraft,
  auxHash: string | null,
  signers: string[],
  rng: Rng,
): string {
  let s = `{"id":"${id}","spends":"inputs","inputs":[`;
  s += [...inputs]
    .sort(byRef)
    .map((u) => `{"transaction":{"id":"${u.txId}"},"index":${u.index}}`)
    .join(',');
  s += '],"outputs":[';
  s += outputs
    .map(
      (o) =>
        `{"address":"${o.address}","value":${valueStr(o.value)}${o.datum === undefined ? '' : `,"datum":"${o.datum}"`}${o.datumHash === undefined ? '' : `,"datumHash":"${o.datumHash}"`}}`,
    )
    .join(',');
  s += ']';
  if (d.certificates?.length) s += `,"certificates":${stringify(d.certificates.map(certJson))}`;
  if (d.withdrawals?.length)
    s += `,"withdrawals":{${d.withdrawals.map((w) => `${q(w.rewardAddress)}:${lovelace(w.amount)}`).join(',')}}`;
  if (d.mint) s += `,"mint":{${policiesStr(d.mint).slice(1)}}`;
  if (d.network) s += ',"network":"mainnet"';
  s += `,"fee":${lovelace(fee)}`;
  s += `,"validityInterval":{${validFrom === null ? '' : `"invalidBefore":${validFrom},`}"invalidAfter":${ttl}}`;
  if (d.proposals?.length) s += `,"proposals":${proposalsJson(d.proposals)}`;
  if (d.votes?.length) s += `,"votes":${votesJson(d.votes)}`;
  s += ',"treasury":{}';
  if (d.metadata && auxHash) {
    const labels: Record<string, { json: unknown }> = {};
    for (const label of Object.keys(d.metadata)) labels[label] = { json: d.metadata[label] };
    s += `,"metadata":{"hash":"${auxHash}","labels":${stringify(labels)}}`;
  }
  s += `,"signatories":[${signers.map((key) => `{"key":"${key}","signature":"${rng.hex(64)}"}`).join(',')}]`;
  if (d.mintPolicies) {
    const scripts = Object.entries(d.mintPolicies).map(
      ([policyId, signer]) => `"${policyId}":{"language":"native","json":{"clause":"signature","from":"${signer}"}}`,
    );
    s += `,"scripts":{${scripts.join(',')}}`;
  }
  if (d.datums?.length)
    s += `,"datums":{${d.datums.map((datum) => `"${hash256(unhex(datum))}":"${datum}"`).join(',')}}`;
  if (d.redeemers?.length) {
    // Spend redeemers point at their input's position in the ledger's input order (sorted by tx id, index).
    const sorted = [...inputs].sort(byRef);
    const items = d.redeemers.map((r) => {
      const index = sorted.findIndex((u) => u.txId === r.input.txId && u.index === r.input.index);
      if (index < 0) throw new Error(`redeemer for an input the tx does not spend: ${r.input.txId}#${r.input.index}`);
      const units = `{"memory":${rng.int(100_000, 900_000)},"cpu":${rng.int(30_000_000, 300_000_000)}}`;
      return `{"validator":{"index":${index},"purpose":"spend"},"redeemer":"${r.data}","executionUnits":${units}}`;
    });
    s += `,"redeemers":[${items.join(',')}]`;
  }
  return s + '}';
}

/** Key hash a native mint policy expects (the policy vkey's credential). */
export const policySigner = (policyVkey: string) => keyHash(policyVkey);
