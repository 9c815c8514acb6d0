/**
 * In-memory view of the store during one sync slice. Documents touched by the slice are loaded once (prefetched
 * per batch of blocks), changed here, and written back in one batch at the end of the slice. For each block it
 * records the value every touched document had before the block (the undo priors), so a later RollBackward can
 * restore the store exactly.
 *
 * Documents are treated as immutable values: appliers replace a document with a new object, never mutate one,
 * because the same object may be held as a prior.
 */
import type { CollectionSpec, Store, WriteOp } from '../../mongo/store.js';
import { applyPatch, diffDoc, type Doc, type PatchEntry } from './undo-patch.js';

/**
 * What a block changed in one document, to undo it: the whole prior document (`doc`; null = it did not exist),
 * or, for a document the block updated, the prior values of the fields that changed (`patch`, see undo-patch.ts).
 */
export type Prior = { coll: string; id: string; doc: Doc | null } | { coll: string; id: string; patch: PatchEntry[] };

/**
 * One document a block changed: its value before and after the block (null = absent). Both are shared immutable
 * values (see the note above), so holding them costs no copy.
 */
export interface Change {
  coll: string;
  id: string;
  before: Doc | null;
  after: Doc | null;
}
export type BlockChanges = Change[];

/**
 * The undo journal's form of a block's changes: a document the block updated is recorded as the fields that
 * changed (none: left out), a created or deleted one whole.
 */
export function undoPriors(changes: BlockChanges): Prior[] {
  const out: Prior[] = [];
  for (const c of changes) {
    if (c.before === null || c.after === null) out.push({ coll: c.coll, id: c.id, doc: c.before });
    else {
      const patch = diffDoc(c.before, c.after);
      if (patch.length > 0) out.push({ coll: c.coll, id: c.id, patch });
    }
  }
  return out;
}

/** The document as it was before the block, given the one after it (null = absent). */
export function priorOf(p: Prior, after: Doc | null): Doc | null {
  if ('doc' in p) return p.doc;
  // Absent after an update: only in a state the priors of an older block restore (see undo-patch.ts).
  return after ? applyPatch(after, p.patch) : null;
}

/** One collection's view in a SliceState. */
interface CollView {
  docs: Map<string, Doc | null>;
  /**
   * Documents changed in this state → the value the store holds for them (null = absent) as of this state's write:
   * their value when this state first changed them (read from the store, or from the base state whose write
   * precedes this one). One that the store lacks and the slice removes again (an output created and spent within
   * the write) needs no write; the value tells the store which index entries to replace (WriteOp `prev`: the sync
   * is the only writer of its collections). Undefined: the state never loaded it (a document the slice creates
   * under a new id, e.g. a transaction), so the store reads it back itself.
   */
  dirty: Map<string, Doc | null | undefined>;
  /** Ids whose prior the current block already recorded. */
  touched: Set<string>;
}

export class SliceState {
  private readonly views = new Map<string, CollView>();
  private priors: { coll: string; id: string; doc: Doc | null }[] | null = null;
  private readonly touchedIn: CollView[] = [];

  /**
   * `base`: the previous sub-batch's state while its write is still committing. Reads fall through to it before
   * the store, because the store does not show that write yet. Dropped once the write is durable.
   */
  constructor(
    private readonly store: Store,
    private base: SliceState | null = null,
  ) {}

  /** The write of `base` is durable: the store now answers what it held. */
  dropBase(): void {
    this.base = null;
  }

  private cached(name: string, id: string): { doc: Doc | null } | undefined {
    const m = this.views.get(name)?.docs;
    if (m?.has(id)) return { doc: m.get(id) ?? null };
    return this.base?.cached(name, id);
  }

  private view(name: string): CollView {
    let v = this.views.get(name);
    if (!v) this.views.set(name, (v = { docs: new Map(), dirty: new Map(), touched: new Set() }));
    return v;
  }

  /** Load the documents not yet in the view; absent ones are remembered as absent. */
  async prefetch<D extends { _id: string }>(spec: CollectionSpec<D>, ids: Iterable<string>): Promise<void> {
    const m = this.view(spec.name).docs;
    const missing: string[] = [];
    const seen = new Set<string>();
    for (const id of ids) {
      if (m.has(id) || seen.has(id)) continue;
      seen.add(id);
      const hit = this.base?.cached(spec.name, id);
      if (hit) m.set(id, hit.doc);
      else missing.push(id);
    }
    if (missing.length === 0) return;
    const docs = await this.store.collection(spec).getMany(missing);
    missing.forEach((id, i) => m.set(id, (docs[i] as Doc | null) ?? null));
  }

  /** A prefetched document (or null when absent). Reading one that was not prefetched is a programming error. */
  get<D extends { _id: string }>(spec: CollectionSpec<D>, id: string): D | null {
    const m = this.view(spec.name).docs;
    const doc = m.get(id);
    if (doc === undefined && !m.has(id)) throw new Error(`sync: ${spec.name}/${id} read before it was prefetched`);
    return (doc ?? null) as D | null;
  }

  has<D extends { _id: string }>(spec: CollectionSpec<D>, id: string): boolean {
    return this.view(spec.name).docs.has(id);
  }

  put<D extends { _id: string }>(spec: CollectionSpec<D>, doc: D): void {
    this.change(spec.name, doc._id, doc as unknown as Doc);
  }

  /**
   * Puts a document under an id no earlier block can have used (a transaction id, an output reference, …), without
   * prefetching it: the store is known to lack it, so the write needs no read to find its old index entries.
   */
  putNew<D extends { _id: string }>(spec: CollectionSpec<D>, doc: D): void {
    const m = this.view(spec.name).docs;
    if (!m.has(doc._id)) m.set(doc._id, null);
    this.change(spec.name, doc._id, doc as unknown as Doc);
  }

  remove<D extends { _id: string }>(spec: CollectionSpec<D>, id: string): void {
    this.change(spec.name, id, null);
  }

  private change(name: string, id: string, doc: Doc | null): void {
    const v = this.view(name);
    const loaded = v.docs.get(id);
    const known = loaded !== undefined || v.docs.has(id);
    const before = loaded ?? null;
    if (this.priors && !v.touched.has(id)) {
      if (v.touched.size === 0) this.touchedIn.push(v);
      v.touched.add(id);
      this.priors.push({ coll: name, id, doc: before });
    }
    v.docs.set(id, doc);
    if (!v.dirty.has(id)) v.dirty.set(id, known ? before : undefined);
  }

  beginBlock(): void {
    this.priors = [];
    for (const v of this.touchedIn) v.touched.clear();
    this.touchedIn.length = 0;
  }

  /**
   * What the block since beginBlock changed: each touched document before and after it. Cheap (no diff): the
   * journal's field-level form is computed only for the blocks whose undo record is written (`undoPriors`).
   */
  endBlock(): BlockChanges {
    const raw = this.priors ?? [];
    this.priors = null;
    const out: BlockChanges = [];
    for (const p of raw) {
      const after = this.views.get(p.coll)?.docs.get(p.id) ?? null;
      if (p.doc !== after) out.push({ coll: p.coll, id: p.id, before: p.doc, after });
    }
    return out;
  }

  /**
   * Undo one block applied in this state (its changes, as endBlock returned them), newest block first: the view
   * then holds what it held before the block, and the next write carries that.
   */
  undoBlock(changes: BlockChanges): void {
    if (this.priors) throw new Error('sync: undoBlock inside a block');
    for (let i = changes.length - 1; i >= 0; i--) {
      const c = changes[i] as Change;
      this.change(c.coll, c.id, c.before);
    }
  }

  /** Puts and deletes for every document changed in the slice, with its final value. */
  writeOps(): WriteOp[] {
    const ops: WriteOp[] = [];
    for (const [coll, v] of this.views) {
      for (const [id, stored] of v.dirty) {
        const doc = v.docs.get(id) ?? null;
        // Back to the very value the store holds (a block undone in memory restores the prior object), or created
        // and removed again within the write: no write.
        if (doc === (stored ?? null)) continue;
        if (stored === undefined) ops.push(doc ? { coll, put: doc } : { coll, del: id });
        else ops.push(doc ? { coll, put: doc, prev: stored } : { coll, del: id, prev: stored });
      }
    }
    return ops;
  }

  get dirtyCount(): number {
    let n = 0;
    for (const v of this.views.values()) n += v.dirty.size;
    return n;
  }
}
