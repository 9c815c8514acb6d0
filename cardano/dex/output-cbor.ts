/**
 * A ledger `TransactionOutput` in CBOR (legacy array `[address, value, ?datumHash]` or Babbage map
 * `{0: address, 1: value, ?2: datumOption, ?3: scriptRef}`) → the Ogmios output shape the DEX parsers read.
 * DEX repositories publish their test UTxOs in this form; the devnet can use it to check what it writes.
 */
import { base58, bech32 } from '@scure/base';
import type { TxOutput, Value } from '../chain/types.js';
import type { Cbor } from './cbor.js';
import { CborError, bignumValue, bytesToHex, decodeCbor, encodeCborHex } from './cbor.js';

function uint(c: Cbor | undefined): bigint {
  if (c?.t === 'int') return c.v;
  const big = c ? bignumValue(c) : null;
  if (big === null) throw new CborError('expected an unsigned integer');
  return big;
}

function bytesOf(c: Cbor | undefined): Uint8Array {
  if (c?.t !== 'bytes') throw new CborError('expected bytes');
  return c.v;
}

/** Raw address bytes → bech32 (Shelley) or base58 (Byron). */
export function addressFromBytes(raw: Uint8Array): string {
  const header = raw[0];
  if (header === undefined) throw new CborError('empty address');
  const type = header >> 4;
  if (type === 8) return base58.encode(raw);
  const mainnet = (header & 0x0f) === 1;
  const prefix = type === 14 || type === 15 ? (mainnet ? 'stake' : 'stake_test') : mainnet ? 'addr' : 'addr_test';
  return bech32.encode(prefix, bech32.toWords(raw), 1023);
}

function valueOf(c: Cbor | undefined): Value {
  if (c?.t === 'int') return { ada: { lovelace: c.v } };
  if (c?.t !== 'array' || c.v.length !== 2) throw new CborError('expected a value');
  const value: Value = { ada: { lovelace: uint(c.v[0]) } };
  const ma = c.v[1];
  if (ma?.t !== 'map') throw new CborError('expected a multi-asset map');
  for (const [p, assets] of ma.v) {
    if (assets.t !== 'map') throw new CborError('expected an asset map');
    const policy: Record<string, bigint> = {};
    for (const [n, q] of assets.v) policy[bytesToHex(bytesOf(n))] = uint(q);
    value[bytesToHex(bytesOf(p))] = policy;
  }
  return value;
}

export function decodeTxOutputCbor(hex: string): TxOutput {
  const c = decodeCbor(hex);
  if (c.t === 'array') {
    const out: TxOutput = { address: addressFromBytes(bytesOf(c.v[0])), value: valueOf(c.v[1]) };
    if (c.v[2]) out.datumHash = bytesToHex(bytesOf(c.v[2]));
    return out;
  }
  if (c.t !== 'map') throw new CborError('expected a transaction output');
  const field = (k: number) => c.v.find(([key]) => key.t === 'int' && key.v === BigInt(k))?.[1];
  const out: TxOutput = { address: addressFromBytes(bytesOf(field(0))), value: valueOf(field(1)) };
  const datum = field(2);
  if (datum) {
    if (datum.t !== 'array' || datum.v.length !== 2) throw new CborError('expected a datum option');
    const [kind, body] = datum.v as [Cbor, Cbor];
    if (uint(kind) === 0n) out.datumHash = bytesToHex(bytesOf(body));
    else if (body.t === 'tag' && body.tag === 24n) out.datum = bytesToHex(bytesOf(body.v));
    else throw new CborError('inline datum must be tag 24 bytes');
  }
  const script = field(3);
  if (script) out.script = { language: 'unknown', cbor: encodeCborHex(script) };
  return out;
}
