/**
 * Transaction metadata values (CDDL `transaction_metadatum`: int, bytes, text, list, map) and CIP-68 datum maps,
 * brought to one in-memory form so the CIP-25 and CIP-68 readers share code. Inputs come in four shapes:
 * Ogmios' "no schema" JSON (the default: maps are objects with text keys, bytes are usually shown as text),
 * Ogmios' detailed schema (`{int}|{string}|{bytes}|{list}|{map:[{k,v}]}`), raw metadatum CBOR (Ogmios sends only
 * `cbor` when a label cannot be written as JSON, e.g. CIP-25 v2 maps keyed by bytes) and Plutus data. Pure.
 */
import type { Cbor } from '../dex/cbor.js';
import { bignumValue, bytesToHex, decodeCbor, hexToBytes } from '../dex/cbor.js';
import type { PlutusData } from '../dex/plutus-data.js';

export interface MetadatumMap {
  entries: Array<[Metadatum, Metadatum]>;
}
export type Metadatum = bigint | string | Uint8Array | Metadatum[] | MetadatumMap;

/** A metadatum as plain JSON-ready data: bytes become UTF-8 text when they are valid UTF-8, else `0x…` hex. */
export type PlainValue = string | number | PlainValue[] | { [key: string]: PlainValue };

export const isMap = (m: Metadatum | null | undefined): m is MetadatumMap =>
  typeof m === 'object' && m !== null && !(m instanceof Uint8Array) && !Array.isArray(m);

export function fromCborNode(c: Cbor): Metadatum {
  switch (c.t) {
    case 'int':
      return c.v;
    case 'bytes':
      return c.v;
    case 'text':
      return c.v;
    case 'array':
      return c.v.map(fromCborNode);
    case 'map':
      return { entries: c.v.map(([k, v]) => [fromCborNode(k), fromCborNode(v)] as [Metadatum, Metadatum]) };
    case 'tag': {
      const big = bignumValue(c);
      if (big !== null) return big;
      return fromCborNode(c.v);
    }
    default:
      throw new TypeError(`CBOR ${c.t} is not a metadatum`);
  }
}

export const metadatumFromCbor = (hex: string): Metadatum => fromCborNode(decodeCbor(hex));

const DETAILED_KEYS = new Set(['int', 'string', 'bytes', 'list', 'map']);

function looksDetailed(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  return keys.length === 1 && DETAILED_KEYS.has(keys[0] as string);
}

function fromDetailed(v: unknown): Metadatum {
  const o = v as Record<string, unknown>;
  if ('int' in o) return BigInt(o.int as bigint | number | string);
  if ('string' in o) return String(o.string);
  if ('bytes' in o) return hexToBytes(String(o.bytes));
  if ('list' in o) return (o.list as unknown[]).map(fromDetailed);
  if ('map' in o)
    return {
      entries: (o.map as Array<{ k: unknown; v: unknown }>).map(
        (e) => [fromDetailed(e.k), fromDetailed(e.v)] as [Metadatum, Metadatum],
      ),
    };
  throw new TypeError('not a detailed-schema metadatum');
}

function fromNoSchema(v: unknown): Metadatum {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') {
    if (!Number.isInteger(v)) throw new TypeError('metadatum numbers are integers');
    return BigInt(v);
  }
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(fromNoSchema);
  if (typeof v === 'object' && v !== null)
    return { entries: Object.entries(v).map(([k, x]) => [k, fromNoSchema(x)] as [Metadatum, Metadatum]) };
  throw new TypeError(`${typeof v} is not a metadatum`);
}

/** Ogmios `json` of a label, in either schema (the detailed one is recognised by its `{map: […]}` top level). */
export function metadatumFromJson(json: unknown): Metadatum {
  return looksDetailed(json) ? fromDetailed(json) : fromNoSchema(json);
}

/** One label of an Ogmios transaction's metadata (CBOR preferred: it keeps bytes and text apart), or null. */
export function labelOf(
  metadata: { labels?: Record<string, { json?: unknown; cbor?: string }> } | undefined,
  label: number | string,
): Metadatum | null {
  const entry = metadata?.labels?.[String(label)];
  if (!entry) return null;
  try {
    if (entry.cbor) return metadatumFromCbor(entry.cbor);
    if (entry.json !== undefined) return metadatumFromJson(entry.json);
  } catch {
    return null;
  }
  return null;
}

/** Plutus data → metadatum (constructors have no metadatum form; their fields are kept as a list). */
export function metadatumFromPlutus(d: PlutusData): Metadatum {
  if (typeof d === 'bigint' || d instanceof Uint8Array) return d;
  if ('list' in d) return d.list.map(metadatumFromPlutus);
  if ('map' in d)
    return {
      entries: d.map.map(([k, v]) => [metadatumFromPlutus(k), metadatumFromPlutus(v)] as [Metadatum, Metadatum]),
    };
  return d.fields.map(metadatumFromPlutus);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes as text when they are valid UTF-8 without control characters, else null. */
export function bytesAsText(b: Uint8Array): string | null {
  try {
    const s = utf8.decode(b);
    // eslint-disable-next-line no-control-regex
    return /[\u0000-\u0008\u000e-\u001f]/.test(s) ? null : s;
  } catch {
    return null;
  }
}

/** Text form of a map key or scalar: text as is, bytes as UTF-8 (or `0x` hex), ints in decimal. */
export function keyText(k: Metadatum): string {
  if (typeof k === 'string') return k;
  if (typeof k === 'bigint') return k.toString();
  if (k instanceof Uint8Array) return bytesAsText(k) ?? `0x${bytesToHex(k)}`;
  return JSON.stringify(toPlain(k));
}

export function toPlain(m: Metadatum): PlainValue {
  if (typeof m === 'string') return m;
  if (typeof m === 'bigint')
    return m >= BigInt(Number.MIN_SAFE_INTEGER) && m <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(m) : m.toString();
  if (m instanceof Uint8Array) return bytesAsText(m) ?? `0x${bytesToHex(m)}`;
  if (Array.isArray(m)) return m.map(toPlain);
  const out: Record<string, PlainValue> = {};
  for (const [k, v] of m.entries) out[keyText(k)] = toPlain(v);
  return out;
}

/** The value under text key `key` of a metadatum map (keys compared as text, so bytes keys match too). */
export function mapGet(m: Metadatum | undefined, key: string): Metadatum | undefined {
  if (!isMap(m)) return undefined;
  return m.entries.find(([k]) => keyText(k) === key)?.[1];
}
