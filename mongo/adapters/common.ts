/**
 * Checks shared by both adapters, so a batch or a query that one engine would reject is rejected by the other too,
 * and always before anything is written.
 */
import type { IndexSpec, KeyPart, RangeQuery, WriteOp } from '../store.js';

export class StoreError extends Error {}

/**
 * Throws on the first malformed op (naming its position), so a bad batch applies nothing on either engine.
 * `fieldNames` false: leave out the walk over every document's field names (`badFieldName`), for an adapter whose
 * encoder refuses the same names as it writes them (the embedded store's) and calls this again, with the walk, to
 * say which op and field it was.
 */
export function validateOps(ops: readonly WriteOp[], opts: { fieldNames?: boolean } = {}): void {
  const fieldNames = opts.fieldNames ?? true;
  ops.forEach((op, i) => {
    const where = `write op #${i}`;
    if (op === null || typeof op !== 'object') throw new StoreError(`${where} is not an object`);
    if (typeof op.coll !== 'string' || op.coll === '') throw new StoreError(`${where} has no collection name`);
    if ('put' in op) {
      const doc = op.put as unknown;
      if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
        throw new StoreError(`${where} (${op.coll}): put needs a document object`);
      const id = (doc as { _id?: unknown })._id;
      if (typeof id !== 'string' || id === '')
        throw new StoreError(`${where} (${op.coll}): put needs a non-empty string _id, got ${JSON.stringify(id)}`);
      const bad = fieldNames ? badFieldName(doc) : null;
      if (bad !== null)
        throw new StoreError(
          `${where} (${op.coll}) document ${JSON.stringify(id)}: field ${bad} contains '.' or ` +
            `starts with '$', or is an array inside an array (chain data must be stored as values, e.g. arrays of ` +
            `{ name, value } objects, never as field names)`,
        );
    } else if ('del' in op) {
      if (typeof op.del !== 'string' || op.del === '')
        throw new StoreError(`${where} (${op.coll}): del needs a non-empty string _id`);
    } else throw new StoreError(`${where} (${(op as { coll: string }).coll}) is neither a put nor a del`);
  });
}

/**
 * The first field name, at any depth, that a MongoDB-wire server may refuse or cannot query by path: one containing
 * `.` or starting with `$` (FerretDB 1.x refuses both on insert; MongoDB stores them since 5.0 but cannot address
 * them in a query or an update path). Such names only come from chain data used as keys (metadata keys, handle or
 * asset names), which the rule forbids; refusing them in both adapters makes the embedded store's tests catch it.
 * Also an array directly inside an array, which FerretDB 1.x refuses ("nested arrays are not supported"): store
 * pairs as objects (`{ name, value }`), not as `[name, value]` tuples.
 */
export function badFieldName(x: unknown, path = ''): string | null {
  // The common case (every name fine) builds no path strings: the path is spelled out only for the culprit.
  return hasBadFieldName(x) ? describeBadField(x, path) : null;
}

/** Whether a field name is one `badFieldName` refuses: containing `.` or starting with `$`. */
export const isBadName = (k: string): boolean => k.charCodeAt(0) === 36 /* $ */ || k.includes('.');

function hasBadFieldName(x: unknown): boolean {
  if (x === null || typeof x !== 'object') return false;
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      const v: unknown = x[i];
      if (v !== null && typeof v === 'object' && (Array.isArray(v) || hasBadFieldName(v))) return true;
    }
    return false;
  }
  for (const k in x as Record<string, unknown>) {
    if (isBadName(k)) return true;
    const v = (x as Record<string, unknown>)[k];
    if (v !== null && typeof v === 'object' && hasBadFieldName(v)) return true;
  }
  return false;
}

function describeBadField(x: unknown, path: string): string | null {
  if (x === null || typeof x !== 'object') return null;
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      if (Array.isArray(x[i])) return `${path}[${i}] (an array directly inside an array)`;
      const bad = describeBadField(x[i], `${path}[${i}]`);
      if (bad !== null) return bad;
    }
    return null;
  }
  for (const k in x as Record<string, unknown>) {
    if (k.includes('.') || k.startsWith('$')) return `${path}${JSON.stringify(k)}`;
    const bad = describeBadField((x as Record<string, unknown>)[k], `${path}${k}.`);
    if (bad !== null) return bad;
  }
  return null;
}

/** The fields an index orders by (`_id` excluded; it is always the final tie-break). `'_id'` = the primary key. */
export function indexFields(coll: string, indexes: readonly IndexSpec[], index: string): readonly string[] {
  if (index === '_id') return ['_id'];
  const spec = indexes.find((i) => i.name === index);
  if (!spec) throw new StoreError(`collection ${coll} has no index ${JSON.stringify(index)}`);
  return spec.fields;
}

export function isKeyPart(v: unknown): v is KeyPart {
  return v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
}

/** The value a document contributes to an index: missing fields index as null; objects, arrays, NaN are refused. */
export function keyValue(coll: string, doc: Record<string, unknown>, field: string): KeyPart {
  const v = doc[field];
  if (v === undefined) return null;
  if (isKeyPart(v)) return v;
  throw new StoreError(
    `${coll} document ${JSON.stringify(doc._id)}: indexed field ${field} must be a string, finite number, boolean or null`,
  );
}

/**
 * Rejects queries the two engines would answer differently: more `eq` values than fields, bounds on no field,
 * two lower or two upper bounds, null or non-scalar bounds, negative or fractional limit/offset.
 */
export function checkQuery(coll: string, index: string, fields: readonly string[], q: RangeQuery): void {
  const where = `${coll}.${index}`;
  const eq = q.eq ?? [];
  if (eq.length > fields.length)
    throw new StoreError(`${where}: eq has ${eq.length} values for ${fields.length} fields`);
  for (const v of eq) if (!isKeyPart(v)) throw new StoreError(`${where}: eq values must be scalars`);
  const bounds = (['gt', 'gte', 'lt', 'lte'] as const).filter((b) => q[b] !== undefined);
  if (bounds.length) {
    if (eq.length === fields.length) throw new StoreError(`${where}: eq fixes every field, no field left to bound`);
    if (q.gt !== undefined && q.gte !== undefined) throw new StoreError(`${where}: give gt or gte, not both`);
    if (q.lt !== undefined && q.lte !== undefined) throw new StoreError(`${where}: give lt or lte, not both`);
    for (const b of bounds) {
      const v = q[b];
      if (v === null || !isKeyPart(v))
        throw new StoreError(`${where}: ${b} must be a string, finite number or boolean`);
    }
  }
  for (const k of ['limit', 'offset'] as const) {
    const v = q[k];
    if (v !== undefined && !(Number.isInteger(v) && v >= 0))
      throw new StoreError(`${where}: ${k} must be a whole number ≥ 0`);
  }
  if (q.after !== undefined && typeof q.after._id !== 'string')
    throw new StoreError(`${where}: after must be a document with its _id`);
}
