/**
 * Big-number-safe parsing of Ogmios v6 JSON frames, and the normalisation of chain-sync results into the shapes of
 * `types.ts`.
 *
 * Field rules are those of `safeJSON.parse` from `@cardano-ogmios/client` (its `sanitize`), so every consumer sees
 * the same values: `lovelace`, asset quantities (under `value`, `mint` or any object with an `ada` key), the
 * native-script `atLeast`, and every integer inside metadata `labels` become `bigint`; any other integer literal
 * longer than 15 characters becomes `bigint` as well, so no digit is ever lost; all other numbers stay `number`.
 *
 * Why not call `safeJSON.parse` itself: it is a pure-JS parser, measured 3–5× slower than the native `JSON.parse`
 * on real mainnet Conway blocks (the sync targets ≥ 1,000 blocks/s), and it throws on valid frames that a follower
 * cannot skip: an integer-valued float in exponent form longer than 15 characters (the v6.14 test vector
 * `nextBlock.rollForward.conway.023` carries `minFeeReferenceScripts.base: 8.421946154024626e18`), or a metadata
 * key `__proto__` / containing `constructor` (anyone can put those keys in transaction metadata on mainnet).
 * Here, integer literals longer than 15 characters are rewritten into marker strings, the text goes through the
 * native `JSON.parse`, and one walk applies safeJSON's rules and turns the markers into `bigint`.
 */

import { safeJSON } from '@cardano-ogmios/client';
import type { Block, ChainEvent, Point, Tip } from '../../cardano/chain/types.js';

type Json = Record<string, unknown>;

/** An integer literal of ≥ 15 digits in value position (after `:` `,` `[`), not the start of a float. */
const LONG_INT = /([:,[]\s*)(-?\d{15,})(?![\d.eE])/g;
/** The same, skipping over string literals, for the rare frame where a long digit run sits inside a string. */
const LONG_INT_OUTSIDE_STRINGS = /"[^"\\]*(?:\\.[^"\\]*)*"|([:,[]\s*)(-?\d{15,})(?![\d.eE])/g;

/** Parses one Ogmios JSON text. Throws `SyntaxError` on invalid JSON. */
export function parseOgmiosJson(text: string): unknown {
  LONG_INT.lastIndex = 0;
  const first = LONG_INT.exec(text);
  if (first === null) return sanitizeRoot(JSON.parse(text), -1);
  // Marker: a string starting with a control character U+0000–U+0007 that occurs nowhere in the frame (JSON can
  // only express it as the escape `\u000k`; the short escapes \b \t \n \f \r are all ≥ U+0008).
  let marker = 0;
  while (marker < 8 && text.includes(`\\u000${marker}`)) marker++;
  if (marker === 8) return safeJSON.parse(text); // eight control-character escapes in one frame: never seen
  const prefix = `"\\u000${marker}`;
  // json-bigint's rule: an integer literal longer than 15 characters (sign included) becomes a bigint.
  const parts: string[] = [];
  let from = 0;
  for (let m: RegExpExecArray | null = first; m !== null; m = LONG_INT.exec(text)) {
    const digits = m[2] as string;
    if (digits.length <= 15) continue;
    const at = m.index + (m[1] as string).length;
    parts.push(text.slice(from, at), prefix, digits, '"');
    from = at + digits.length;
  }
  if (parts.length === 0) return sanitizeRoot(JSON.parse(text), -1);
  parts.push(text.slice(from));
  let parsed: unknown;
  try {
    parsed = JSON.parse(parts.join(''));
  } catch {
    // A candidate was inside a string: the inserted quote closed that string and left a backslash outside any
    // string, which is always a syntax error, so nothing was silently misread. Redo it string-aware.
    parsed = JSON.parse(
      text.replace(LONG_INT_OUTSIDE_STRINGS, (m: string, pre?: string, digits?: string) =>
        pre === undefined || digits === undefined || digits.length <= 15 ? m : `${pre}${prefix}${digits}"`,
      ),
    );
  }
  return sanitizeRoot(parsed, marker);
}

function sanitizeRoot(v: unknown, marker: number): unknown {
  if (typeof v === 'object' && v !== null) sanitize(v as Json, '', marker);
  return v;
}

function isMarked(v: unknown, marker: number): v is string {
  return marker >= 0 && typeof v === 'string' && v.charCodeAt(0) === marker;
}

function toBig(v: unknown, marker: number): unknown {
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  return isMarked(v, marker) ? BigInt(v.slice(1)) : v;
}

/** An object still to walk: `key` is the key it sits under ('' in arrays); `metadatum`: inside metadata `labels`. */
interface Pending {
  json: Json;
  key: string;
  metadatum: boolean;
}

/**
 * safeJSON's `sanitize` over the whole frame. A loop over a work list, not a recursion: the ledger bounds neither a
 * metadatum's nesting nor a native script's (a one-element list is one CBOR byte, so a 16 KiB transaction nests
 * about 16,000 levels), and a recursive walk overflowed the stack on such a frame, which the sync could never pass.
 */
function sanitize(root: Json, rootKey: string, marker: number): void {
  const todo: Pending[] = [{ json: root, key: rootKey, metadatum: false }];
  for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
    const { json, key: parentKey } = next;
    if (next.metadatum) metadatum(json, marker, todo);
    else if (Array.isArray(json)) {
      for (let i = 0; i < json.length; i++) {
        const v: unknown = json[i];
        if (typeof v === 'object' && v !== null) todo.push({ json: v as Json, key: '', metadatum: false });
        else if (isMarked(v, marker)) json[i] = BigInt(v.slice(1));
      }
    } else if (json.lovelace !== undefined) convertField(json, 'lovelace', marker, todo);
    else if (json.ada !== undefined || parentKey === 'mint' || parentKey === 'value') quantities(json, 2, marker);
    else if (json.clause === 'some' && json.atLeast !== undefined) convertField(json, 'atLeast', marker, todo);
    else if (parentKey === 'labels') metadatum(json, marker, todo);
    else
      for (const k in json) {
        const v = json[k];
        if (typeof v === 'object' && v !== null) todo.push({ json: v as Json, key: k, metadatum: false });
        else if (isMarked(v, marker)) json[k] = BigInt(v.slice(1));
      }
  }
}

function convertField(json: Json, field: string, marker: number, todo: Pending[]): void {
  for (const k in json) {
    const v = json[k];
    if (k === field) json[k] = toBig(v, marker);
    else if (typeof v === 'object' && v !== null) todo.push({ json: v as Json, key: k, metadatum: false });
    else if (isMarked(v, marker)) json[k] = BigInt(v.slice(1));
  }
}

/** `{policyId: {assetName: quantity}}` (depth 2) or `{assetName: quantity}` (depth 1). */
function quantities(json: Json, depth: number, marker: number): void {
  for (const k in json) {
    const v = json[k];
    if (depth > 1) {
      if (typeof v === 'object' && v !== null) quantities(v as Json, depth - 1, marker);
      else if (isMarked(v, marker)) json[k] = BigInt(v.slice(1));
    } else json[k] = toBig(v, marker);
  }
}

/** Metadatum ("no schema" JSON or the detailed schema): every integer is a CBOR int, so `bigint`. */
function metadatum(json: Json, marker: number, todo: Pending[]): void {
  for (const k in json) {
    const v = json[k];
    if (typeof v === 'object' && v !== null) todo.push({ json: v as Json, key: k, metadatum: true });
    else json[k] = toBig(v, marker);
  }
}

/**
 * Slots and heights are `number` in `types.ts`: real ones are far below 2^53, but the generic rule above turns any
 * literal longer than 15 characters into `bigint` (the v6.14 test vectors carry heights like 6574977808651210019),
 * so they are narrowed here. Quantities are left alone.
 */
function num(v: unknown): number {
  return typeof v === 'bigint' ? Number(v) : (v as number);
}

export function toPoint(v: unknown): Point {
  if (v === 'origin') return 'origin';
  const p = v as { slot: unknown; id: string };
  return { slot: num(p.slot), id: p.id };
}

export function toTip(v: unknown): Tip {
  if (v === 'origin') return 'origin';
  const t = v as { slot: unknown; id: string; height: unknown };
  return { slot: num(t.slot), id: t.id, height: num(t.height) };
}

/** A `nextBlock` result (RollForward / RollBackward) as a ChainEvent; the block object is reused, not copied. */
export function toChainEvent(result: unknown): ChainEvent {
  const r = result as { direction?: unknown; block?: Block; point?: unknown; tip?: unknown };
  if (r.direction === 'forward' && typeof r.block === 'object' && r.block !== null) {
    const b = r.block;
    b.height = num(b.height);
    if (b.slot !== undefined) b.slot = num(b.slot);
    for (const tx of b.transactions ?? []) {
      // Ogmios 7 omits an empty `outputs` list (and an empty `validityInterval`); 6.x sends `[]` (and `{}`).
      tx.outputs ??= [];
      const vi = tx.validityInterval;
      if (vi?.invalidBefore !== undefined) vi.invalidBefore = num(vi.invalidBefore);
      if (vi?.invalidAfter !== undefined) vi.invalidAfter = num(vi.invalidAfter);
    }
    return { direction: 'forward', block: b, tip: toTip(r.tip) };
  }
  if (r.direction === 'backward') return { direction: 'backward', point: toPoint(r.point), tip: toTip(r.tip) };
  throw new TypeError(`not a nextBlock result: direction ${JSON.stringify(r.direction)}`);
}
