/**
 * Ogmios `submitTransaction` on the devnet: a signed Conway transaction (CBOR) is decoded, validated against the
 * canonical ledger as a node's mempool would, and queued for the next canonical block (devnet/mempool.ts).
 *
 * What is checked (what a wallet-built payment or DEX order must get right on mainnet too):
 *   - the transaction id is blake2b-256 of the body bytes as submitted (never a re-encoding);
 *   - every input is unspent (in the ledger, and not already spent by a queued transaction);
 *   - every input is locked by a key (scripts are not executed here) and the body carries a valid Ed25519
 *     signature of the id by that key (the vkey witnesses of the witness set);
 *   - the value balances per asset: Σ inputs = Σ outputs + fee (no mint, certificates or withdrawals accepted);
 *   - the fee is at least the linear minimum of the serialized size, every output holds its min-UTxO lovelace;
 *   - the validity interval contains the next block's slot.
 * Body fields beyond inputs, outputs, fee, validity interval, network id and auxiliary data hash are refused with
 * a message naming the field, so a submitter never sees a transaction silently half-applied.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { bech32, hex } from '@scure/base';
import { hash256, keyHash, parseAddress } from '../cardano/address.js';
import { decodeCbor, type Cbor } from '../cardano/dex/cbor.js';
import { refKey, type Utxo } from './ledger.js';
import { MIN_FEE_COEFFICIENT, MIN_FEE_CONSTANT } from './params.js';
import type { DevTx } from './tx.js';
import { valueStr } from './tx.js';
import { addAssets, minCoin, type Assets, type Val } from './value.js';

/** Ogmios v6 submit error codes (3xxx = the ledger rejected the transaction; -32602 = unreadable request). */
export const SUBMIT_ERRORS = {
  deserialisation: 3005,
  unknownInputs: 3117,
  missingSignatures: 3100,
  invalidSignatures: 3101,
  valueNotConserved: 3123,
  feeTooSmall: 3122,
  outputTooSmall: 3132,
  outsideValidity: 3118,
  unsupported: 3129,
} as const;

export class SubmitError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** Byte offset just past the CBOR data item starting at `pos` (definite and indefinite lengths). */
export function itemEnd(buf: Uint8Array, pos: number): number {
  const initial = buf[pos];
  if (initial === undefined) throw new SubmitError(SUBMIT_ERRORS.deserialisation, 'truncated CBOR');
  const major = initial >> 5;
  const info = initial & 0x1f;
  let p = pos + 1;
  let arg = 0;
  if (info < 24) arg = info;
  else if (info <= 27) {
    const n = 1 << (info - 24);
    if (p + n > buf.length) throw new SubmitError(SUBMIT_ERRORS.deserialisation, 'truncated CBOR');
    for (let i = 0; i < n; i++) arg = arg * 256 + (buf[p + i] as number);
    p += n;
  } else if (info === 31) {
    if (major === 7) return p; // a stray break: the caller's loop handles it
    while (buf[p] !== 0xff) {
      if (p >= buf.length) throw new SubmitError(SUBMIT_ERRORS.deserialisation, 'truncated CBOR');
      p = itemEnd(buf, p);
    }
    return p + 1;
  } else throw new SubmitError(SUBMIT_ERRORS.deserialisation, 'malformed CBOR head');
  switch (major) {
    case 0:
    case 1:
    case 7:
      return p;
    case 2:
    case 3:
      if (p + arg > buf.length) throw new SubmitError(SUBMIT_ERRORS.deserialisation, 'truncated CBOR');
      return p + arg;
    case 4:
      for (let i = 0; i < arg; i++) p = itemEnd(buf, p);
      return p;
    case 5:
      for (let i = 0; i < 2 * arg; i++) p = itemEnd(buf, p);
      return p;
    default:
      return itemEnd(buf, p); // tag: the tagged item follows
  }
}

const fail = (code: number, message: string): never => {
  throw new SubmitError(code, message);
};
const untag = (c: Cbor): Cbor => (c.t === 'tag' && c.tag === 258n ? c.v : c);
const asArray = (c: Cbor | undefined, what: string): Cbor[] =>
  c?.t === 'array' ? c.v : fail(SUBMIT_ERRORS.deserialisation, `${what} must be an array`);
const asInt = (c: Cbor | undefined, what: string): bigint =>
  c?.t === 'int' && c.v >= 0n ? c.v : fail(SUBMIT_ERRORS.deserialisation, `${what} must be an unsigned integer`);
const asBytes = (c: Cbor | undefined, what: string): Uint8Array =>
  c?.t === 'bytes' ? c.v : fail(SUBMIT_ERRORS.deserialisation, `${what} must be a byte string`);
const mapEntries = (c: Cbor | undefined, what: string): Array<[Cbor, Cbor]> =>
  c?.t === 'map' ? c.v : fail(SUBMIT_ERRORS.deserialisation, `${what} must be a map`);
const keyOf = (k: Cbor): number => (k.t === 'int' ? Number(k.v) : -1);

function decodeValue(c: Cbor): Val {
  if (c.t === 'int') return { coin: asInt(c, 'coin'), assets: {} };
  const [coin, multi] = asArray(c, 'value');
  const assets: Assets = {};
  for (const [p, names] of mapEntries(multi, 'multi-asset')) {
    const policy = hex.encode(asBytes(p, 'policy id'));
    for (const [n, q] of mapEntries(names, 'asset names')) {
      const qty = asInt(q, 'asset quantity');
      if (qty > 0n) addAssets(assets, { [policy]: { [hex.encode(asBytes(n, 'asset name'))]: qty } });
    }
  }
  return { coin: asInt(coin, 'coin'), assets };
}

function bech32Address(bytes: Uint8Array): string {
  const header = bytes[0] ?? 0;
  const type = header >> 4;
  const prefix = (type === 14 || type === 15 ? 'stake' : 'addr') + ((header & 0x0f) === 1 ? '' : '_test');
  const address = bech32.encode(prefix, bech32.toWords(bytes), 1023);
  try {
    parseAddress(address);
  } catch (e) {
    fail(SUBMIT_ERRORS.deserialisation, `output address: ${(e as Error).message}`);
  }
  return address;
}

interface DecodedOutput {
  address: string;
  value: Val;
  datum?: string;
  datumHash?: string;
}

function decodeOutput(c: Cbor, i: number): DecodedOutput {
  if (c.t === 'array') {
    const [addr, value, dh] = c.v;
    const out: DecodedOutput = {
      address: bech32Address(asBytes(addr, `output ${i} address`)),
      value: decodeValue(value as Cbor),
    };
    if (dh) out.datumHash = hex.encode(asBytes(dh, `output ${i} datum hash`));
    return out;
  }
  let address: string | null = null;
  let value: Val | null = null;
  const out: Partial<DecodedOutput> = {};
  for (const [k, v] of mapEntries(c, `output ${i}`)) {
    const key = keyOf(k);
    if (key === 0) address = bech32Address(asBytes(v, `output ${i} address`));
    else if (key === 1) value = decodeValue(v);
    else if (key === 2) {
      const [kind, d] = asArray(v, `output ${i} datum`);
      if (asInt(kind, 'datum kind') === 0n) out.datumHash = hex.encode(asBytes(d, 'datum hash'));
      else if (d?.t === 'tag' && d.tag === 24n) out.datum = hex.encode(asBytes(d.v, 'inline datum'));
      else fail(SUBMIT_ERRORS.deserialisation, `output ${i}: inline datum must be tag 24 bytes`);
    } else fail(SUBMIT_ERRORS.unsupported, `output ${i}: field ${key} (reference scripts) is not supported`);
  }
  if (address === null || value === null) return fail(SUBMIT_ERRORS.deserialisation, `output ${i}: address and value`);
  return { ...out, address, value };
}

export interface SubmitContext {
  /** The unspent output of a reference (canonical ledger), or null. */
  utxo(txId: string, index: number): Utxo | null;
  /** Outputs already spent by queued transactions (refKey). */
  queuedSpends: ReadonlySet<string>;
  /** Slot of the next block (validity interval check). */
  nextSlot: number;
}

/** Decodes and validates a signed transaction; the result is ready to apply to the ledger. */
export function validateSubmission(cborHex: string, env: SubmitContext): DevTx {
  if (typeof cborHex !== 'string' || !/^([0-9a-fA-F]{2})+$/.test(cborHex))
    fail(SUBMIT_ERRORS.deserialisation, 'transaction.cbor must be hex-encoded CBOR');
  const bytes = hex.decode(cborHex.toLowerCase());
  if ((bytes[0] ?? 0) >> 5 !== 4) fail(SUBMIT_ERRORS.deserialisation, 'a transaction is a CBOR array');
  // The body's own bytes: the id is their hash, whatever encoding choices the wallet made.
  const headLen = (bytes[0] as number) & 0x1f;
  const bodyStart = headLen < 24 || headLen === 31 ? 1 : 1 + (1 << (headLen - 24));
  const bodyEnd = itemEnd(bytes, bodyStart);
  const id = hash256(bytes.subarray(bodyStart, bodyEnd));
  let tx: Cbor;
  try {
    tx = decodeCbor(bytes);
  } catch (e) {
    return fail(SUBMIT_ERRORS.deserialisation, `not a transaction: ${(e as Error).message}`);
  }
  const [body, witnesses, isValid] = asArray(tx, 'transaction');
  if (isValid && !(isValid.t === 'simple' && isValid.v === true))
    fail(SUBMIT_ERRORS.unsupported, 'only valid (phase-2 true) transactions are accepted');

  let inputsC: Cbor | undefined;
  let outputsC: Cbor | undefined;
  let fee = -1n;
  let ttl: bigint | null = null;
  let validFrom: bigint | null = null;
  for (const [k, v] of mapEntries(body, 'transaction body')) {
    const key = keyOf(k);
    if (key === 0) inputsC = v;
    else if (key === 1) outputsC = v;
    else if (key === 2) fee = asInt(v, 'fee');
    else if (key === 3) ttl = asInt(v, 'ttl');
    else if (key === 8) validFrom = asInt(v, 'validity start');
    else if (key === 7 || key === 15) continue;
    else fail(SUBMIT_ERRORS.unsupported, `body field ${key} is not supported by the devnet's submit`);
  }
  const inputRefs = asArray(untag(inputsC as Cbor), 'inputs').map((c) => {
    const [txId, index] = asArray(c, 'input');
    return { txId: hex.encode(asBytes(txId, 'input transaction id')), index: Number(asInt(index, 'input index')) };
  });
  if (!inputRefs.length) fail(SUBMIT_ERRORS.deserialisation, 'a transaction spends at least one input');
  const outputs = asArray(outputsC, 'outputs').map(decodeOutput);
  if (fee < 0n) fail(SUBMIT_ERRORS.deserialisation, 'missing fee');
  if (ttl !== null && BigInt(env.nextSlot) >= ttl)
    fail(SUBMIT_ERRORS.outsideValidity, `expired: valid before slot ${ttl}, next block at ${env.nextSlot}`);
  if (validFrom !== null && BigInt(env.nextSlot) < validFrom)
    fail(SUBMIT_ERRORS.outsideValidity, `not yet valid: from slot ${validFrom}, next block at ${env.nextSlot}`);

  const spent: Utxo[] = [];
  const seen = new Set<string>();
  for (const r of inputRefs) {
    const key = refKey(r.txId, r.index);
    const u = env.utxo(r.txId, r.index);
    if (!u || env.queuedSpends.has(key) || seen.has(key))
      fail(SUBMIT_ERRORS.unknownInputs, `unknown or already spent input ${key}`);
    seen.add(key);
    spent.push(u as Utxo);
  }

  // vkey witnesses: [vkey, signature] over the id.
  const signers = new Map<string, { vkey: string; signature: string }>();
  const wsEntries = mapEntries(witnesses, 'witness set');
  for (const [k, v] of wsEntries) {
    if (keyOf(k) !== 0) fail(SUBMIT_ERRORS.unsupported, `witness field ${keyOf(k)} is not supported (scripts)`);
    for (const w of asArray(untag(v), 'vkey witnesses')) {
      const [vk, sig] = asArray(w, 'vkey witness');
      const vkey = asBytes(vk, 'vkey');
      const signature = asBytes(sig, 'signature');
      let ok: boolean;
      try {
        ok = vkey.length === 32 && signature.length === 64 && ed25519.verify(signature, hex.decode(id), vkey);
      } catch {
        ok = false;
      }
      if (!ok) fail(SUBMIT_ERRORS.invalidSignatures, `invalid signature by key ${hex.encode(vkey)}`);
      signers.set(keyHash(hex.encode(vkey)), { vkey: hex.encode(vkey), signature: hex.encode(signature) });
    }
  }
  for (const u of spent) {
    const a = parseAddress(u.address);
    if (a.paymentScript || !a.paymentCred)
      fail(SUBMIT_ERRORS.unsupported, `input ${refKey(u.txId, u.index)} is script-locked (not executed here)`);
    if (!signers.has(a.paymentCred as string))
      fail(SUBMIT_ERRORS.missingSignatures, `missing signature for key hash ${a.paymentCred}`);
  }

  // Balance per asset: inputs − outputs − fee = 0.
  const delta: Assets = {};
  let coin = -fee;
  for (const u of spent) {
    coin += u.value.coin;
    addAssets(delta, u.value.assets);
  }
  for (const o of outputs) {
    coin -= o.value.coin;
    addAssets(delta, o.value.assets, -1n);
  }
  if (coin !== 0n || Object.keys(delta).length)
    fail(
      SUBMIT_ERRORS.valueNotConserved,
      `value not conserved: inputs − outputs − fee = ${coin} lovelace${Object.keys(delta).length ? ' and assets ' + JSON.stringify(delta, (_, x: unknown) => (typeof x === 'bigint' ? x.toString() : x)) : ''}`,
    );
  const minFee = MIN_FEE_CONSTANT + MIN_FEE_COEFFICIENT * BigInt(bytes.length);
  if (fee < minFee) fail(SUBMIT_ERRORS.feeTooSmall, `fee ${fee} below the minimum ${minFee} for ${bytes.length} bytes`);
  outputs.forEach((o, i) => {
    const need = minCoin(o.value.assets, o.datum ? o.datum.length / 2 : 0);
    if (o.value.coin < need) fail(SUBMIT_ERRORS.outputTooSmall, `output ${i} holds ${o.value.coin} < ${need} lovelace`);
  });

  const created: Utxo[] = outputs.map((o, index) => ({ txId: id, index, ...o }));
  return {
    id,
    spent,
    created,
    certificates: [],
    withdrawals: [],
    json: submittedJson(id, spent, outputs, fee, ttl, validFrom, [...signers.values()]),
    size: bytes.length,
    fee,
  };
}

/** The Ogmios v6 JSON of a submitted transaction (same key order as tx.ts), with its real signatures. */
function submittedJson(
  id: string,
  inputs: Utxo[],
  outputs: DecodedOutput[],
  fee: bigint,
  ttl: bigint | null,
  validFrom: bigint | null,
  signers: { vkey: string; signature: string }[],
): string {
  const sorted = [...inputs].sort((a, b) => (a.txId < b.txId ? -1 : a.txId > b.txId ? 1 : a.index - b.index));
  const interval = [
    ...(validFrom === null ? [] : [`"invalidBefore":${validFrom}`]),
    ...(ttl === null ? [] : [`"invalidAfter":${ttl}`]),
  ].join(',');
  return (
    `{"id":"${id}","spends":"inputs","inputs":[` +
    sorted.map((u) => `{"transaction":{"id":"${u.txId}"},"index":${u.index}}`).join(',') +
    '],"outputs":[' +
    outputs
      .map(
        (o) =>
          `{"address":"${o.address}","value":${valueStr(o.value)}${o.datum === undefined ? '' : `,"datum":"${o.datum}"`}${o.datumHash === undefined ? '' : `,"datumHash":"${o.datumHash}"`}}`,
      )
      .join(',') +
    `],"fee":{"ada":{"lovelace":${fee}}},"validityInterval":{${interval}},"treasury":{}` +
    `,"signatories":[${signers.map((s) => `{"key":"${s.vkey}","signature":"${s.signature}"}`).join(',')}]}`
  );
}
