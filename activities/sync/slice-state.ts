/**
 * In-memory view of the store during one sync slice. Documents touched by the slice are loaded once (prefetched
 * per batch of blocks), changed here, and written back in one batch at the end of the slice. For each block it
 * records the value every touched document had before the block (the undo priors), so a later RollBackward can
 * restore the store exactly.
 *
 * Documents are treated as immutable values: appliers replace a document with a new object, never mutate one,
 * because the same object may be held as a prior or by a write still committing. The one exception is `edit`: a
 * copy this state made for a document many blocks of the batch change (a busy address), updated in place with
 * each block's field-level priors declared as it goes (`prior`), so such a document is copied once per batch
 * instead of once per block.
 */
import type { CollectionSpec, Store, WriteOp } from '../../mongo/store.js';
import { applyPatch, diffDoc, type Doc, type PatchEntry } from './undo-patch.js';

/** A touched document's prior for the current block: the whole document, or (edited in place) declared fields. */
interface RawPrior {
  coll: string;
  id: string;
  doc: Doc | null;
  /** Field-level priors declared by `prior` (null: `doc` is the prior), and their paths, to keep the first. */
  patch: PatchEntry[] | null;
  paths: Set<string> | null;
  /** The document's entry, whose value after the block endBlock reads. */
  entry: Entry;
}

/**
 * One document this state has loaded or changed. One entry holds what would otherwise be three map entries (its
 * value, its stored value when changed, its prior in the current block), so a change costs one lookup.
 */
interface Entry {
  /** Its value in this state (null = absent). */
  doc: Doc | null;
  /** Changed in this state: written by `writeOps`. */
  dirty: boolean;
  /**
   * When dirty: the value the store holds for it as of this state's write (null = absent) — its value when this
   * state first changed it (read from the store, or from the base state whose write precedes this one). One the
   * store lacks and the slice removes again (an output created and spent within the write) needs no write; the
   * value tells the store which index entries to replace (WriteOp `prev`: the sync is the only writer of its
   * collections). Undefined: the state never loaded it (a document the slice creates under a new id, e.g. a
   * transaction), so the store reads it back itself.
   */
  stored: Doc | null | undefined;
  /** The current block's prior of it, valid while `block` is the state's current block number. */
  prior: RawPrior | null;
  block: number;
}

/**
 * What a block changed in one document, to undo it: the whole prior document (`doc`; null = it did not exist),
 * or, for a document the block updated, the prior values of the fields that changed (`patch`, see undo-patch.ts).
 */
export type Prior = { coll: string; id: string; doc: Doc | null } | { coll: string; id: string; patch: PatchEntry[] };

/**
 * One document a block changed: its value before and after the block (null = absent). Both are shared immutable
 * values (see the note above), so holding them costs no copy.
 */
export type Change =
  | { coll: string; id: string; before: Doc | null; after: Doc | null }
  /** A document edited in place: the prior values of the fields the block changed. */
  | { coll: string; id: string; patch: PatchEntry[] };
export type BlockChanges = Change[];

/**
 * The undo journal's form of a block's changes: a document the block updated is recorded as the fields that
 * changed (none: left out), a created or deleted one whole.
 */
export function undoPriors(changes: BlockChanges): Prior[] {
  const out: Prior[] = [];
  for (const c of changes) {
    if ('patch' in c) out.push(c);
    else if (c.before === null || c.after === null) out.push({ coll: c.coll, id: c.id, doc: c.before });
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

/** One collection's view in a SliceState: its entries, and the ids of the dirty ones in the order first changed. */
interface CollView {
  entries: Map<string, Entry>;
  dirty: string[];
}

const entry = (doc: Doc | null): Entry => ({ doc, dirty: false, stored: undefined, prior: null, block: 0 });

export class SliceState {
  private readonly views = new Map<string, CollView>();
  private priors: RawPrior[] | null = null;
  /** Number of the current block (beginBlock): an entry's `prior` belongs to it only when its `block` matches. */
  private block = 0;
  /** Documents this state copied or created for in-place edits: no write or base state holds them. */
  private readonly owned = new WeakSet<object>();

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
    return this.views.get(name)?.entries.get(id) ?? this.base?.cached(name, id);
  }

  private view(name: string): CollView {
    let v = this.views.get(name);
    if (!v) this.views.set(name, (v = { entries: new Map(), dirty: [] }));
    return v;
  }

  /** Load the documents not yet in the view; absent ones are remembered as absent. */
  async prefetch<D extends { _id: string }>(spec: CollectionSpec<D>, ids: Iterable<string>): Promise<void> {
    const m = this.view(spec.name).entries;
    const missing: string[] = [];
    const seen = new Set<string>();
    for (const id of ids) {
      if (m.has(id) || seen.has(id)) continue;
      seen.add(id);
      const hit = this.base?.cached(spec.name, id);
      if (hit) m.set(id, entry(hit.doc));
      else missing.push(id);
    }
    if (missing.length === 0) return;
    const docs = await this.store.collection(spec).getMany(missing);
    // An id changed meanwhile (another prefetch of this collection, resolved first) keeps its entry.
    missing.forEach((id, i) => m.has(id) || m.set(id, entry((docs[i] as Doc | null) ?? null)));
  }

  /** A prefetched document (or null when absent). Reading one that was not prefetched is a programming error. */
  get<D extends { _id: string }>(spec: CollectionSpec<D>, id: string): D | null {
    return this.loaded(this.view(spec.name), spec.name, id).doc as D | null;
  }

  /** A prefetched document's entry. Reading one that was not prefetched is a programming error. */
  private loaded(v: CollView, name: string, id: string): Entry {
    const e = v.entries.get(id);
    if (!e) throw new Error(`sync: ${name}/${id} read before it was prefetched`);
    return e;
  }

  /** The current block's prior of an entry, or null when this block has not touched it yet. */
  private blockPrior(e: Entry): RawPrior | null {
    return e.block === this.block ? e.prior : null;
  }

  /** Marks an entry changed, the first time in this state, with the value the store holds for it (see `stored`). */
  private markDirty(v: CollView, id: string, e: Entry, stored: Doc | null | undefined): void {
    if (e.dirty) return;
    e.dirty = true;
    e.stored = stored;
    v.dirty.push(id);
  }

  has<D extends { _id: string }>(spec: CollectionSpec<D>, id: string): boolean {
    return this.view(spec.name).entries.has(id);
  }

  put<D extends { _id: string }>(spec: CollectionSpec<D>, doc: D): void {
    this.change(spec.name, doc._id, doc as unknown as Doc);
  }

  /**
   * Puts a document under an id no earlier block can have used (a transaction id, an output reference, …), without
   * prefetching it: the store is known to lack it, so the write needs no read to find its old index entries.
   */
  putNew<D extends { _id: string }>(spec: CollectionSpec<D>, doc: D): void {
    const v = this.view(spec.name);
    let e = v.entries.get(doc._id);
    if (!e) v.entries.set(doc._id, (e = entry(null)));
    this.changeEntry(v, spec.name, doc._id, e, true, doc as unknown as Doc);
  }

  remove<D extends { _id: string }>(spec: CollectionSpec<D>, id: string): void {
    this.change(spec.name, id, null);
  }

  private change(name: string, id: string, doc: Doc | null): void {
    const v = this.view(name);
    let e = v.entries.get(id);
    const known = e !== undefined;
    if (!e) v.entries.set(id, (e = entry(null)));
    this.changeEntry(v, name, id, e, known, doc);
  }

  /** `known`: the entry was loaded (or known absent) before this change, so its stored value is known. */
  private changeEntry(v: CollView, name: string, id: string, e: Entry, known: boolean, doc: Doc | null): void {
    const before = e.doc;
    if (this.priors) {
      const t = this.blockPrior(e);
      if (!t) this.touch(e, name, id, before, false);
      else if (t.patch) {
        // Edited in place earlier in this block, now replaced: its prior becomes the whole document again.
        t.doc = before && applyPatch(before, t.patch);
        t.patch = null;
        t.paths = null;
      }
    }
    e.doc = doc;
    this.markDirty(v, id, e, known ? before : undefined);
  }

  private touch(e: Entry, coll: string, id: string, doc: Doc | null, edited: boolean): RawPrior {
    const p: RawPrior = { coll, id, doc, patch: edited ? [] : null, paths: edited ? new Set() : null, entry: e };
    e.prior = p;
    e.block = this.block;
    (this.priors as RawPrior[]).push(p);
    return p;
  }

  /**
   * A stored document to update in place (null when absent: create it with `create`): this state's own copy,
   * made by `copy` the first time in the batch (it must copy every object the caller will change). Before changing
   * a field, declare its prior value with `prior`.
   */
  edit<D extends { _id: string }>(spec: CollectionSpec<D>, id: string, copy: (d: D) => D): D | null {
    const v = this.view(spec.name);
    const e = this.loaded(v, spec.name, id);
    const cur = e.doc as D | null;
    if (cur === null) return null;
    let doc = cur;
    if (!this.owned.has(cur)) {
      doc = copy(cur);
      this.owned.add(doc);
      e.doc = doc as unknown as Doc;
      this.markDirty(v, id, e, cur as unknown as Doc);
    }
    if (this.priors && !this.blockPrior(e)) this.touch(e, spec.name, id, null, true);
    return doc;
  }

  /** `put` of a new document that later blocks of the batch may `edit` in place without copying it. */
  create<D extends { _id: string }>(spec: CollectionSpec<D>, doc: D): void {
    this.put(spec, doc);
    this.owned.add(doc);
  }

  /**
   * Declares the value a field of an edited document had before this block changes it (`had` false: the field was
   * absent); within a block the first declaration of a path counts. `path`: field names from the root.
   */
  prior<D extends { _id: string }>(
    spec: CollectionSpec<D>,
    id: string,
    path: string[],
    had: boolean,
    value?: unknown,
  ): void {
    const e = this.priors ? this.views.get(spec.name)?.entries.get(id) : undefined;
    const t = e ? this.blockPrior(e) : null;
    if (!t?.patch) return; // outside a block, or the block's prior is the whole document (created or replaced by it)
    const key = path.length === 1 ? (path[0] as string) : path.join('\u0000');
    if (t.paths?.has(key)) return;
    t.paths?.add(key);
    t.patch.push(had ? { p: path, v: value } : { p: path });
  }

  beginBlock(): void {
    this.priors = [];
    this.block++;
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
      if (p.patch) {
        if (p.patch.length > 0) out.push({ coll: p.coll, id: p.id, patch: p.patch });
        continue;
      }
      const after = p.entry.doc;
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
      if ('patch' in c) {
        const cur = this.view(c.coll).entries.get(c.id)?.doc ?? null;
        this.change(c.coll, c.id, cur && applyPatch(cur, c.patch));
      } else this.change(c.coll, c.id, c.before);
    }
  }

  /** Puts and deletes for every document changed in the slice, with its final value. */
  writeOps(): WriteOp[] {
    const ops: WriteOp[] = [];
    for (const [coll, v] of this.views) {
      for (const id of v.dirty) {
        const { doc, stored } = v.entries.get(id) as Entry;
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
    for (const v of this.views.values()) n += v.dirty.length;
    return n;
  }
}
