/**
 * The devnet's event log: what every chain-sync follower replays, in order. Forward events carry a block
 * (canonical or orphan); backward events roll the chain back to a canonical point after orphans. Each follower
 * that starts from origin sees the same log, orphans and rollbacks included.
 *
 * Backfill publishes everything up to `now` (at once, or in chunks while followers read); live mode publishes one step per tick: a pending orphan,
 * or (after the orphans) the RollBackward to the fork point together with the next canonical block.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { TipObj } from '../cardano/chain/types.js';
import type { BlockRecord, ChainGenerator } from './generator.js';

export type ChainEventRecord =
  | {
      kind: 'forward';
      height: number;
      slot: number;
      id: string;
      ancestor: string;
      canonical: boolean;
      /** Block JSON: a string while recent, deflated once compacted. */
      data: string | Buffer;
    }
  | { kind: 'backward'; point: TipObj };

/** Recent blocks stay as plain strings (live followers read them); older ones are deflated to save memory. */
const KEEP_PLAIN = 256;

export class DevChain {
  readonly events: ChainEventRecord[] = [];
  /** Canonical blocks by id → index of their forward event. */
  private readonly canonicalAt = new Map<string, number>();
  /** Canonical points by height (height 1 at index 0). */
  readonly canonical: TipObj[] = [];
  /** Orphans currently on the chain (published, not yet rolled back) → event index. */
  private readonly liveOrphans = new Map<string, number>();
  private pending: BlockRecord[] = [];
  private published = 0;
  private compacted = 0;
  tip: TipObj | 'origin' = 'origin';
  tipJson = '"origin"';
  /**
   * The history up to the start time is still being published (a streamed backfill): a point later than the tip
   * may yet appear, so a chain-sync client's intersection with it waits instead of falling back to an older one.
   */
  backfilling = false;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly gen: ChainGenerator) {}

  onPublish(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /**
   * Publishes canonical blocks (and the forks between them) up to the last block with slot ≤ `slot`, at most
   * `maxBlocks` of them; true when that block is reached.
   */
  backfillTo(slot: number, maxBlocks = Infinity): boolean {
    for (let n = 0; n < maxBlocks && this.gen.nextSlot() <= slot; n++) {
      this.publishCanonical();
      // Compact as we go, so a long backfill never holds all its blocks as strings at once.
      if (this.events.length - this.compacted > KEEP_PLAIN + 128) this.compact(128);
    }
    this.notify();
    return this.gen.nextSlot() > slot;
  }

  /**
   * One live step: the next orphan of a pending fork, else the rollback (if any) and the next canonical block.
   * `nowSlot`: the wall clock's slot; a block whose slot is later waits for a later tick (a real chain never has a
   * block dated in the future, and block gaps vary, so a fixed cadence alone would drift ahead). Returns whether a
   * block was published.
   */
  tick(nowSlot = Infinity): boolean {
    const next =
      this.published < this.pending.length ? (this.pending[this.published] as BlockRecord).slot : this.gen.nextSlot();
    if (next > nowSlot) return false;
    if (this.published < this.pending.length) this.publishBlock(this.pending[this.published++] as BlockRecord, false);
    else this.publishCanonical();
    this.notify();
    return true;
  }

  private publishCanonical(): void {
    while (this.published < this.pending.length)
      this.publishBlock(this.pending[this.published++] as BlockRecord, false);
    if (this.pending.length) {
      const point = this.canonical[this.canonical.length - 1] as TipObj;
      this.events.push({ kind: 'backward', point });
      this.liveOrphans.clear();
      this.setTip(point);
    }
    this.publishBlock(this.gen.nextCanonical(), true);
    this.pending = this.gen.forkAfterTip();
    this.published = 0;
  }

  private publishBlock(b: BlockRecord, canonical: boolean): void {
    const index = this.events.length;
    this.events.push({
      kind: 'forward',
      height: b.height,
      slot: b.slot,
      id: b.id,
      ancestor: b.ancestor,
      canonical,
      data: b.json,
    });
    const point = { slot: b.slot, id: b.id, height: b.height };
    if (canonical) {
      this.canonicalAt.set(b.id, index);
      this.canonical.push(point);
    } else this.liveOrphans.set(b.id, index);
    this.setTip(point);
  }

  private setTip(p: TipObj): void {
    this.tip = p;
    this.tipJson = `{"slot":${p.slot},"id":"${p.id}","height":${p.height}}`;
  }

  /** The streamed backfill is complete: intersections waiting for it are answered now. */
  endBackfill(): void {
    this.backfilling = false;
    this.notify();
  }

  private notify(): void {
    for (const fn of this.listeners) fn();
  }

  /**
   * Event index right after the given point's block, when that point is on the current chain (canonical, or an
   * orphan not yet rolled back); 0 for origin; null when not on the chain.
   */
  positionAfter(point: 'origin' | { slot: number; id: string }): number | null {
    if (point === 'origin') return 0;
    const i = this.canonicalAt.get(point.id) ?? this.liveOrphans.get(point.id);
    if (i === undefined) return null;
    const e = this.events[i];
    return e?.kind === 'forward' && e.slot === point.slot ? i + 1 : null;
  }

  blockJson(e: ChainEventRecord & { kind: 'forward' }): string {
    return typeof e.data === 'string' ? e.data : inflateRawSync(e.data).toString('utf8');
  }

  /** Deflates up to `max` old blocks; returns how many remain to compact (called from an idle timer). */
  compact(max: number): number {
    const end = this.events.length - KEEP_PLAIN;
    let done = 0;
    for (; this.compacted < end && done < max; this.compacted++) {
      const e = this.events[this.compacted];
      if (e?.kind === 'forward' && typeof e.data === 'string') {
        // Copy out: zlib's result is a view on a larger output chunk, which would keep that chunk alive.
        e.data = Buffer.from(deflateRawSync(e.data, { level: 1 }));
        done++;
      }
    }
    return Math.max(0, end - this.compacted);
  }
}
