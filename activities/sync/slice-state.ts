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

type Doc = { _id: string } & Record<string, unknown>;
export interface Prior {
  coll: string;
  id: string;
  doc: Doc | null;
}

export class SliceState {
  private readonly cache = new Map<string, Map<string, Doc | null>>();
  private readonly dirty = new Map<string, Set<string>>();
  private priors: Prior[] | null = null;
  private touched = new Set<string>();

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
    const m = this.cache.get(name);
    if (m?.has(id)) return { doc: m.get(id) ?? null };
    return this.base?.cached(name, id);
  }

  private coll(name: string): Map<string, Doc | null> {
    let m = this.cache.get(name);
    if (!m) this.cache.set(name, (m = new Map()));
    return m;
  }

  /** Load the documents not yet in the view; absent ones are remembered as absent. */
  async prefetch<D extends { _id: string }>(spec: CollectionSpec<D>, ids: Iterable<string>): Promise<void> {
    const m = this.coll(spec.name);
    let missing = [...new Set(ids)].filter((id) => !m.has(id));
    if (this.base) {
      const base = this.base;
      missing = missing.filter((id) => {
        const hit = base.cached(spec.name, id);
        if (hit) m.set(id, hit.doc);
        return !hit;
      });
    }
    if (missing.length === 0) return;
    const docs = await this.store.collection(spec).getMany(missing);
    missing.forEach((id, i) => m.set(id, (docs[i] as Doc | null) ?? null));
  }

  /** A prefetched document (or null when absent). Reading one that was not prefetched is a programming error. */
  get<D extends { _id: string }>(spec: CollectionSpec<D>, id: string): D | null {
    const m = this.coll(spec.name);
    if (!m.has(id)) throw new Error(`sync: ${spec.name}/${id} read before it was prefetched`);
    return (m.get(id) ?? null) as D | null;
  }

  has<D extends { _id: string }>(spec: CollectionSpec<D>, id: string): boolean {
    return this.coll(spec.name).has(id);
  }

  put<D extends { _id: string }>(spec: CollectionSpec<D>, doc: D): void {
    this.change(spec.name, doc._id, doc as unknown as Doc);
  }

  remove<D extends { _id: string }>(spec: CollectionSpec<D>, id: string): void {
    this.change(spec.name, id, null);
  }

  private change(name: string, id: string, doc: Doc | null): void {
    const m = this.coll(name);
    if (this.priors) {
      const key = `${name}\u0000${id}`;
      if (!this.touched.has(key)) {
        this.touched.add(key);
        this.priors.push({ coll: name, id, doc: m.has(id) ? (m.get(id) ?? null) : null });
      }
    }
    m.set(id, doc);
    let d = this.dirty.get(name);
    if (!d) this.dirty.set(name, (d = new Set()));
    d.add(id);
  }

  beginBlock(): void {
    this.priors = [];
    this.touched = new Set();
  }

  /** The priors of the block since beginBlock. */
  endBlock(): Prior[] {
    const p = this.priors ?? [];
    this.priors = null;
    return p;
  }

  /** Puts and deletes for every document changed in the slice, with its final value. */
  writeOps(): WriteOp[] {
    const ops: WriteOp[] = [];
    for (const [coll, ids] of this.dirty) {
      const m = this.coll(coll);
      for (const id of ids) {
        const doc = m.get(id) ?? null;
        ops.push(doc ? { coll, put: doc } : { coll, del: id });
      }
    }
    return ops;
  }

  get dirtyCount(): number {
    let n = 0;
    for (const s of this.dirty.values()) n += s.size;
    return n;
  }
}
