/**
 * Field-level undo priors. A block usually changes a few fields of a document it updates (an address's balance
 * and counters, a pool's reserves), so the undo journal keeps, for an updated document, only the prior values of
 * the fields that changed, at the deepest object level they differ (one asset quantity of a balance, not the whole
 * balance), instead of a copy of the whole document. A created document's prior is "absent" and a deleted one's is
 * the whole document, as before.
 *
 * An entry sets one path to its prior value, or removes the path when the field was absent (no `v` key). Applying
 * a block's entries to the document as it was after the block gives it back as it was before. Each entry sets an
 * absolute value, so applying the entries of several blocks newest first gives the value before the oldest of them
 * whether the store holds the newest version or an older one (a MongoDB batch interrupted half-way, restored by
 * `recoverIncomplete`): a field takes the prior value of the oldest block that changed it.
 *
 * Arrays are values (replaced whole), never descended into; paths are lists of field names, stored as values, so
 * chain data never becomes a field name. A field holding `undefined` is kept as such on the embedded store (msgpack
 * keeps it, and a digest sees it); MongoDB drops undefined fields, and drops `v: undefined` alike, which then
 * restores the field as absent — as MongoDB stored it.
 */
type Obj = Record<string, unknown>;
export type Doc = { _id: string } & Obj;

export interface PatchEntry {
  /** Field names from the document root. */
  p: string[];
  /** The prior value; absent = the field did not exist before the block. */
  v?: unknown;
}

const isObject = (x: unknown): x is Obj => x !== null && typeof x === 'object' && !Array.isArray(x);

/** The entries that turn `after` back into `before` (empty when they agree). */
export function diffDoc(before: Obj, after: Obj): PatchEntry[] {
  const out: PatchEntry[] = [];
  diffInto(before, after, [], out);
  return out;
}

function diffInto(before: Obj, after: Obj, path: string[], out: PatchEntry[]): void {
  for (const k in before) {
    const b = before[k];
    if (!Object.hasOwn(after, k)) {
      out.push({ p: [...path, k], v: b });
      continue;
    }
    const a = after[k];
    if (a === b) continue;
    if (isObject(a) && isObject(b)) diffInto(b, a, [...path, k], out);
    else out.push({ p: [...path, k], v: b });
  }
  for (const k in after) if (!Object.hasOwn(before, k)) out.push({ p: [...path, k] });
}

/**
 * `doc` with the entries applied, as a new object (documents are shared values: the objects along each path are
 * copied, never changed). A path through a field that is no object (it can only be so in a state the entries of an
 * older block restore anyway) is created as an object.
 */
export function applyPatch<D extends Obj>(doc: D, patch: readonly PatchEntry[]): D {
  const root: Obj = { ...doc };
  const copied = new Set<Obj>([root]);
  for (const e of patch) {
    let o = root;
    for (let i = 0; i < e.p.length - 1; i++) {
      const k = e.p[i] as string;
      const child = o[k];
      let next: Obj;
      if (isObject(child) && copied.has(child)) next = child;
      else {
        next = isObject(child) ? { ...child } : {};
        copied.add(next);
        o[k] = next;
      }
      o = next;
    }
    const last = e.p[e.p.length - 1] as string;
    if ('v' in e) o[last] = e.v;
    else delete o[last];
  }
  return root as D;
}
