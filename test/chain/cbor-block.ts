/**
 * A real Shelley-to-Conway block's CBOR (../shared/fixtures/chain/cbor) given as Ogmios v6 JSON, as a node's Ogmios
 * would send it to the sync: the header (hash = blake2b-256 of its bytes), and per transaction its id (blake2b-256
 * of the body's original bytes), inputs, outputs (bech32 or base58 addresses, values, datum hashes, inline datums),
 * fee, validity interval, mint, withdrawals, stake and pool certificates, collaterals, collateral return, reference
 * inputs, and whether its scripts failed (the block's invalid transactions). A small CBOR reader of its own keeps the
 * original bytes of every item and reads indefinite-length strings.
 */
import { blake2b } from '@noble/hashes/blake2.js';
import { base58, bech32, hex } from '@scure/base';
import type { Block, Certificate, OutputReference, Transaction, TxOutput, Value } from '../../cardano/chain/types.js';

/** A decoded CBOR item: integers as bigint, maps as [key, value] pairs, tags as { tag, value }. */
export type Cbor = bigint | Uint8Array | string | Cbor[] | CborMap | CborTag | boolean | null | undefined | number;
export interface CborMap {
  map: [Cbor, Cbor][];
}
export interface CborTag {
  tag: number;
  value: Cbor;
}

/** Decodes the item at `pos`: its value and the offset after it. */
export function decodeAt(buf: Uint8Array, pos: number): [Cbor, number] {
  const ib = buf[pos] as number;
  const major = ib >> 5;
  const info = ib & 31;
  let p = pos + 1;
  let arg = 0n;
  let indefinite = false;
  if (info < 24) arg = BigInt(info);
  else if (info === 31) indefinite = true;
  else {
    const n = 1 << (info - 24);
    for (let i = 0; i < n; i++) arg = (arg << 8n) | BigInt(buf[p + i] as number);
    p += n;
  }
  switch (major) {
    case 0:
      return [arg, p];
    case 1:
      return [-1n - arg, p];
    case 2:
    case 3: {
      let bytes: Uint8Array;
      if (indefinite) {
        const parts: Uint8Array[] = [];
        while (buf[p] !== 0xff) {
          const [chunk, next] = decodeAt(buf, p);
          parts.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : (chunk as Uint8Array));
          p = next;
        }
        p++;
        bytes = Uint8Array.from(parts.flatMap((x) => [...x]));
      } else {
        bytes = buf.slice(p, p + Number(arg));
        p += Number(arg);
      }
      return [major === 2 ? bytes : new TextDecoder().decode(bytes), p];
    }
    case 4: {
      const items: Cbor[] = [];
      while (indefinite ? buf[p] !== 0xff : items.length < Number(arg)) {
        const [v, next] = decodeAt(buf, p);
        items.push(v);
        p = next;
      }
      return [items, indefinite ? p + 1 : p];
    }
    case 5: {
      const map: [Cbor, Cbor][] = [];
      while (indefinite ? buf[p] !== 0xff : map.length < Number(arg)) {
        const [k, afterKey] = decodeAt(buf, p);
        const [v, next] = decodeAt(buf, afterKey);
        map.push([k, v]);
        p = next;
      }
      return [{ map }, indefinite ? p + 1 : p];
    }
    case 6: {
      const [value, next] = decodeAt(buf, p);
      return [{ tag: Number(arg), value }, next];
    }
    default:
      if (info === 20) return [false, p];
      if (info === 21) return [true, p];
      if (info === 22) return [null, p];
      if (info === 23) return [undefined, p];
      return [Number(arg), p]; // floats do not occur in block bodies
  }
}

/**
 * The item count of the array or map whose head is at `pos` (Infinity for an indefinite length, ended by 0xff) and
 * the position of its first item.
 */
function itemsHead(buf: Uint8Array, pos: number): { n: number; p: number } {
  const info = (buf[pos] as number) & 31;
  if (info < 24) return { n: info, p: pos + 1 };
  if (info === 31) return { n: Infinity, p: pos + 1 };
  const w = 1 << (info - 24);
  let n = 0;
  for (let i = 0; i < w; i++) n = n * 256 + (buf[pos + 1 + i] as number);
  return { n, p: pos + 1 + w };
}

/** The spans [start, end) of the items of the array at `pos`. */
export function arraySpans(buf: Uint8Array, pos: number): [number, number][] {
  const head = itemsHead(buf, pos);
  const n = head.n;
  let p = head.p;
  const spans: [number, number][] = [];
  while (spans.length < n && buf[p] !== 0xff) {
    const [, next] = decodeAt(buf, p);
    spans.push([p, next]);
    p = next;
  }
  return spans;
}

/** The spans of the values of the map at `pos`, by key (integer keys: the block's auxiliary data by tx index). */
function mapValueSpans(buf: Uint8Array, pos: number): Map<bigint, [number, number]> {
  const head = itemsHead(buf, pos);
  const n = head.n;
  let p = head.p;
  const out = new Map<bigint, [number, number]>();
  while (out.size < n && buf[p] !== 0xff) {
    const [k, afterKey] = decodeAt(buf, p);
    const [, next] = decodeAt(buf, afterKey);
    out.set(k as bigint, [afterKey, next]);
    p = next;
  }
  return out;
}

/** A metadatum as Ogmios' `json` gives it: bytes as hex, maps with text keys as objects; undefined when it cannot. */
function metadatumJson(m: Cbor): unknown {
  if (typeof m === 'bigint')
    return m >= BigInt(Number.MIN_SAFE_INTEGER) && m <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(m) : m;
  if (typeof m === 'string') return m;
  if (m instanceof Uint8Array) return hex.encode(m);
  if (Array.isArray(m)) {
    const items = m.map(metadatumJson);
    return items.includes(undefined) ? undefined : items;
  }
  if (m && typeof m === 'object' && 'map' in m) {
    const o: Record<string, unknown> = {};
    for (const [k, v] of m.map) {
      const j = metadatumJson(v);
      if (typeof k !== 'string' || j === undefined) return undefined;
      o[k] = j;
    }
    return o;
  }
  return undefined;
}

/** Auxiliary data (Shelley: the metadata map; Allegra/Mary: [metadata, scripts]; Alonzo+: tag 259 {0: metadata}). */
function metadataOf(aux: Cbor, raw: Uint8Array): Transaction['metadata'] {
  let m: Cbor = aux;
  if (Array.isArray(aux)) m = aux[0];
  else if (aux && typeof aux === 'object' && 'tag' in aux) m = get(aux.value, 0);
  const labels: Record<string, { json?: unknown; cbor?: string }> = {};
  for (const [label, v] of (m as CborMap | undefined)?.map ?? []) {
    const json = metadatumJson(v);
    if (json !== undefined) labels[String(label)] = { json };
  }
  return { hash: blake256(raw), labels };
}

const blake256 = (b: Uint8Array) => hex.encode(blake2b(b, { dkLen: 32 }));
const get = (m: Cbor, k: number): Cbor => (m as CborMap).map.find(([key]) => key === BigInt(k))?.[1];
/** Conway wraps sets in tag 258. */
const list = (x: Cbor): Cbor[] =>
  x && typeof x === 'object' && 'tag' in x ? (x.value as Cbor[]) : ((x ?? []) as Cbor[]);
const hx = (b: Cbor) => hex.encode(b as Uint8Array);

/** Bech32 (Shelley) or base58 (Byron) text of an address's bytes, as Ogmios writes it. */
export function addressText(bytes: Uint8Array): string {
  const type = (bytes[0] as number) >> 4;
  if (type === 8) return base58.encode(bytes);
  const mainnet = ((bytes[0] as number) & 0x0f) === 1;
  const hrp = type >= 14 ? (mainnet ? 'stake' : 'stake_test') : mainnet ? 'addr' : 'addr_test';
  return bech32.encode(hrp, bech32.toWords(bytes), 1000);
}

function valueOf(v: Cbor): Value {
  const [coin, assets] = Array.isArray(v) ? (v as [bigint, CborMap]) : [v as bigint, undefined];
  const value: Value = { ada: { lovelace: coin } };
  for (const [policy, names] of assets?.map ?? []) {
    const p: Record<string, bigint> = {};
    for (const [name, q] of (names as CborMap).map) p[hx(name)] = q as bigint;
    value[hx(policy)] = p;
  }
  return value;
}

function outputOf(o: Cbor): TxOutput {
  if (Array.isArray(o)) {
    const out: TxOutput = { address: addressText(o[0] as Uint8Array), value: valueOf(o[1] as Cbor) };
    if (o[2]) out.datumHash = hx(o[2]);
    return out;
  }
  const out: TxOutput = { address: addressText(get(o, 0) as Uint8Array), value: valueOf(get(o, 1)) };
  const datum = get(o, 2) as [bigint, Cbor] | undefined;
  if (datum?.[0] === 0n) out.datumHash = hx(datum[1]);
  if (datum?.[0] === 1n) out.datum = hx((datum[1] as CborTag).value);
  return out;
}

const refOf = (r: Cbor): OutputReference => {
  const [id, index] = r as [Uint8Array, bigint];
  return { transaction: { id: hex.encode(id) }, index: Number(index) };
};

/** A stake credential [0 = key | 1 = script, hash] as Ogmios names it. */
const credential = (c: Cbor) => {
  const [kind, hash] = c as [bigint, Uint8Array];
  return { credential: hex.encode(hash), from: kind === 0n ? 'verificationKey' : 'script' };
};
const poolId = (h: Cbor) => bech32.encode('pool', bech32.toWords(h as Uint8Array), 1000);
const lovelace = (x: Cbor) => ({ ada: { lovelace: x as bigint } });

/** The stake and pool certificates the sync reads; others keep their type only. */
function certificateOf(c: Cbor): Certificate {
  const [kind, ...f] = c as [bigint, ...Cbor[]];
  switch (Number(kind)) {
    case 0:
      return { type: 'stakeCredentialRegistration', ...credential(f[0]) };
    case 1:
      return { type: 'stakeCredentialDeregistration', ...credential(f[0]) };
    case 2:
      return { type: 'stakeDelegation', ...credential(f[0]), stakePool: { id: poolId(f[1]) } };
    case 3: {
      const [operator, vrf, pledge, cost, margin, reward, owners] = f as [
        Cbor,
        Cbor,
        bigint,
        bigint,
        CborTag,
        Uint8Array,
        Cbor,
      ];
      const [num, den] = margin.value as [bigint, bigint];
      return {
        type: 'stakePoolRegistration',
        stakePool: {
          id: poolId(operator),
          vrfVerificationKeyHash: hx(vrf),
          pledge: lovelace(pledge),
          cost: lovelace(cost),
          margin: `${num}/${den}`,
          rewardAccount: addressText(reward),
          owners: list(owners).map(hx),
        },
      };
    }
    case 4:
      return { type: 'stakePoolRetirement', stakePool: { id: poolId(f[0]), retirementEpoch: Number(f[1]) } };
    case 7:
      return { type: 'stakeCredentialRegistration', ...credential(f[0]), deposit: lovelace(f[1]) };
    case 8:
      return { type: 'stakeCredentialDeregistration', ...credential(f[0]), deposit: lovelace(f[1]) };
    default:
      return { type: `certificate${kind}` };
  }
}

/** A rational (tag 30) as Ogmios writes it: "n/d". */
const ratio = (x: Cbor) => {
  const [n, d] = (x as CborTag).value as [bigint, bigint];
  return `${n}/${d}`;
};
/** Protocol parameter update keys (CDDL protocol_param_update) Ogmios names, with their unit wrappers. */
const PARAMS: Record<number, [string, (x: Cbor) => unknown]> = {
  0: ['minFeeCoefficient', (x) => x],
  1: ['minFeeConstant', lovelace],
  2: ['maxBlockBodySize', (x) => ({ bytes: x })],
  3: ['maxTransactionSize', (x) => ({ bytes: x })],
  4: ['maxBlockHeaderSize', (x) => ({ bytes: x })],
  5: ['stakeCredentialDeposit', lovelace],
  6: ['stakePoolDeposit', lovelace],
  7: ['stakePoolRetirementEpochBound', (x) => x],
  8: ['desiredNumberOfStakePools', (x) => x],
  9: ['stakePoolPledgeInfluence', ratio],
  10: ['monetaryExpansion', ratio],
  11: ['treasuryExpansion', ratio],
  16: ['minStakePoolCost', lovelace],
  17: ['minUtxoDepositCoefficient', (x) => x],
};
const govActionId = (x: Cbor) => (x ? refOf(x) : undefined);

/** A proposal procedure [deposit, return account, action, anchor] as Ogmios gives it (the actions the fixtures hold). */
function proposalOf(p: Cbor): unknown {
  const [deposit, account, action, anchor] = p as [bigint, Uint8Array, Cbor[], [string, Uint8Array]];
  const [kind, ...f] = action as [bigint, ...Cbor[]];
  let a: Record<string, unknown>;
  switch (Number(kind)) {
    case 0: {
      const parameters: Record<string, unknown> = {};
      for (const [k, v] of (f[1] as CborMap).map) {
        const known = PARAMS[Number(k)];
        if (known) parameters[known[0]] = known[1](v);
      }
      a = {
        type: 'protocolParametersUpdate',
        ancestor: govActionId(f[0]),
        parameters,
        guardrails: f[2] ? { hash: hx(f[2]) } : null,
      };
      break;
    }
    case 1: {
      const [major, minor] = f[1] as [bigint, bigint];
      a = {
        type: 'hardForkInitiation',
        ancestor: govActionId(f[0]),
        version: { major: Number(major), minor: Number(minor) },
      };
      break;
    }
    case 6:
      a = { type: 'information' };
      break;
    default:
      a = { type: `action${kind}` };
  }
  if (a.ancestor === undefined) delete a.ancestor;
  return {
    deposit: lovelace(deposit),
    returnAccount: addressText(account),
    metadata: { url: anchor[0], hash: hx(anchor[1]) },
    action: a,
  };
}

/** The era tags of era-wrapped blocks (chain-sync, ImmutableDB chunks). */
const ERAS = ['byron', 'byron', 'shelley', 'allegra', 'mary', 'alonzo', 'babbage', 'conway'];
/** The era a header's protocol major version names (a node may announce the next one before its hard fork). */
const ERA_OF_MAJOR = ['byron', 'byron', 'shelley', 'allegra', 'mary', 'alonzo', 'alonzo', 'babbage', 'babbage'];

/**
 * `bytes`: a bare Shelley+ block, or `[eraTag, block]` (era-wrapped). `era` names the era of a bare block when its
 * header's protocol version may not (a node announces the next era's version before the hard fork).
 */
export function ogmiosBlock(bytes: Uint8Array, era?: string): Block {
  let pos = 0;
  const top = arraySpans(bytes, 0);
  if (top.length === 2) {
    const [tag] = decodeAt(bytes, (top[0] as [number, number])[0]);
    era = ERAS[Number(tag)];
    pos = (top[1] as [number, number])[0];
  }
  const parts = arraySpans(bytes, pos);
  const [headerStart, headerEnd] = parts[0] as [number, number];
  const [header] = decodeAt(bytes, headerStart) as [Cbor[], number];
  const body = header[0] as Cbor[];
  const praos = body.length === 10; // Babbage and Conway: the VRF result and op cert are single fields
  const [height, slot, prev, issuer] = body as [bigint, bigint, Uint8Array | null, Uint8Array];
  const version = (praos ? body[9] : [body[13], body[14]]) as [bigint, bigint];
  const [bodiesStart] = parts[1] as [number, number];
  const bodySpans = arraySpans(bytes, bodiesStart);
  // Alonzo on: the indexes of the transactions whose scripts failed (they spend their collaterals).
  const invalid: Cbor[] = parts.length === 5 ? list(decodeAt(bytes, (parts[4] as [number, number])[0])[0]) : [];
  const auxSpans = mapValueSpans(bytes, (parts[3] as [number, number])[0]);
  const transactions = bodySpans.map(([s, e], i): Transaction => {
    const [b] = decodeAt(bytes, s);
    const failed = invalid.includes(BigInt(i));
    const tx: Transaction = {
      id: blake256(bytes.subarray(s, e)),
      spends: failed ? 'collaterals' : 'inputs',
      inputs: list(get(b, 0)).map(refOf),
      outputs: list(get(b, 1)).map(outputOf),
      fee: lovelace(get(b, 2)),
    };
    const ttl = get(b, 3);
    const start = get(b, 8);
    if (ttl !== undefined || start !== undefined)
      tx.validityInterval = {
        ...(start !== undefined ? { invalidBefore: Number(start) } : {}),
        ...(ttl !== undefined ? { invalidAfter: Number(ttl) } : {}),
      };
    const certs = get(b, 4);
    if (certs !== undefined) tx.certificates = list(certs).map(certificateOf);
    const withdrawals = get(b, 5) as CborMap | undefined;
    if (withdrawals)
      tx.withdrawals = Object.fromEntries(withdrawals.map.map(([k, v]) => [addressText(k as Uint8Array), lovelace(v)]));
    const mint = get(b, 9) as CborMap | undefined;
    if (mint) {
      const m: Record<string, Record<string, bigint>> = {};
      for (const [policy, names] of mint.map)
        m[hx(policy)] = Object.fromEntries((names as CborMap).map.map(([n, q]) => [hx(n), q as bigint]));
      tx.mint = m;
    }
    const collaterals = get(b, 13);
    if (collaterals !== undefined) tx.collaterals = list(collaterals).map(refOf);
    const ret = get(b, 16);
    if (ret !== undefined) tx.collateralReturn = outputOf(ret);
    const total = get(b, 17);
    if (total !== undefined) tx.totalCollateral = lovelace(total);
    const refs = get(b, 18);
    if (refs !== undefined) tx.references = list(refs).map(refOf);
    const auxSpan = auxSpans.get(BigInt(i));
    if (auxSpan) {
      const raw = bytes.subarray(auxSpan[0], auxSpan[1]);
      tx.metadata = metadataOf(decodeAt(raw, 0)[0], raw);
    }
    const proposals = get(b, 20);
    if (proposals !== undefined) tx.proposals = list(proposals).map(proposalOf);
    const donation = get(b, 22);
    if (donation !== undefined) tx.treasury = { donation: lovelace(donation) };
    return tx;
  });
  return {
    type: 'praos',
    era: era ?? ERA_OF_MAJOR[Number(version[0])] ?? 'conway',
    id: blake256(bytes.subarray(headerStart, headerEnd)),
    ancestor: prev ? hex.encode(prev) : 'genesis',
    height: Number(height),
    slot: Number(slot),
    size: { bytes: Number(body[praos ? 6 : 7]) },
    issuer: { verificationKey: hex.encode(issuer) },
    protocol: { version: { major: Number(version[0]), minor: Number(version[1]) } },
    transactions,
  };
}
