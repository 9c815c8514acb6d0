/**
 * Daily request quotas of keys, per UTC day, persisted in the store (collection `quotas`) so they survive a restart.
 *
 * Counting is in memory and written behind: every `flushMs` (1 s) each process writes its own count per key and
 * day (one document per process, so replicas never overwrite each other) and re-reads the other processes'
 * counts for keys it is serving; a key idle for longer has them re-read before its next request counts. Trade-off,
 * chosen over writing through: a crash loses at most the requests of the last flush interval (they are served but
 * not counted), and replicas see each other's counts up to one interval late, so a key can overshoot its daily
 * quota by what the other replicas serve in one second. Writing through
 * would put a store write on every keyed request's path: measured at 3-4 ms per embedded (lmdb) write on the
 * 2-core build machine, against about 10 µs of CPU for the whole keyed access check with write-behind.
 */
import { randomBytes } from 'node:crypto';
import type { Collection, Store } from '../../mongo/store.js';
import { del, put } from '../../mongo/store.js';
import { QUOTAS, type QuotaDoc } from '../../mongo/collections/access.js';

const DAY_MS = 86_400_000;

export const utcDay = (t: number) => new Date(t).toISOString().slice(0, 10);

/** Whole seconds until the next UTC midnight, when every daily quota starts again. */
export const secondsToUtcMidnight = (t: number) =>
  Math.max(1, Math.ceil((Math.floor(t / DAY_MS + 1) * DAY_MS - t) / 1000));

interface Entry {
  day: string;
  key: string;
  own: number;
  /** `own` as last written to the store. */
  flushed: number;
  others: number;
  /** When `others` was read from the store (ms). */
  othersAt: number;
  /** Last time a request used it (ms), so idle entries stop being refreshed and are dropped. */
  usedAt: number;
}

/**
 * How old the other processes' counts may be when a request uses them (ms). The flush refreshes them only for keys
 * in use, so a key idle longer than this reads them again before its next request is counted.
 */
const OTHERS_FRESH_MS = 2_000;

export interface QuotaResult {
  allowed: boolean;
  /** Requests left today after this one. */
  remaining: number;
  /** When refused: whole seconds until the quota starts again. */
  retryAfter: number;
}

export class DailyQuota {
  /** This process's id in the quota documents. */
  readonly instance = randomBytes(6).toString('hex');
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<Entry>>();
  private readonly coll: Collection<QuotaDoc>;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {
    this.coll = store.collection(QUOTAS);
  }

  private async load(day: string, key: string): Promise<Entry> {
    const id = `${day}:${key}`;
    const hit = this.entries.get(id);
    if (hit && this.now() - hit.othersAt <= OTHERS_FRESH_MS) return hit;
    let pending = this.loading.get(id);
    if (!pending) {
      const at = this.now();
      pending = this.coll.find('byKeyDay', { eq: [key, day] }).then((docs) => {
        const others = docs.filter((d) => d.instance !== this.instance).reduce((s, d) => s + d.count, 0);
        // A key seen before keeps its own count (requests may have been counted while the read ran).
        const known = this.entries.get(id);
        if (known) {
          known.others = others;
          known.othersAt = at;
          this.loading.delete(id);
          return known;
        }
        const entry: Entry = { day, key, own: 0, flushed: 0, others, othersAt: at, usedAt: at };
        entry.own = entry.flushed = docs.find((d) => d.instance === this.instance)?.count ?? 0;
        this.entries.set(id, entry);
        this.loading.delete(id);
        return entry;
      });
      pending.catch(() => this.loading.delete(id));
      this.loading.set(id, pending);
    }
    return pending;
  }

  /**
   * Count `n` requests of `key` (a key hash: one, or the calls of a tool-server batch) against `limit` per day, all
   * or none; refused requests are not counted.
   */
  async take(key: string, limit: number, n = 1): Promise<QuotaResult> {
    const t = this.now();
    const entry = await this.load(utcDay(t), key);
    entry.usedAt = t;
    const used = entry.own + entry.others;
    if (used + n > limit)
      return { allowed: false, remaining: Math.max(0, limit - used), retryAfter: secondsToUtcMidnight(t) };
    entry.own += n;
    return { allowed: true, remaining: Math.max(0, limit - used - n), retryAfter: 0 };
  }

  /** Whole seconds until the quotas start again (the next UTC midnight by this quota's clock). */
  secondsToReset(): number {
    return secondsToUtcMidnight(this.now());
  }

  /** Requests left today without counting one (for answers refused by another limit). */
  async remaining(key: string, limit: number): Promise<number> {
    const entry = await this.load(utcDay(this.now()), key);
    return Math.max(0, limit - entry.own - entry.others);
  }

  /** Write this process's counts and refresh the other processes' counts of keys in use. */
  flush(): Promise<void> {
    this.flushing = this.flushing.catch(() => {}).then(() => this.flushOnce());
    return this.flushing;
  }

  private async flushOnce(): Promise<void> {
    const t = this.now();
    const today = utcDay(t);
    const updatedAt = new Date(t).toISOString();
    const written: [Entry, number][] = [];
    for (const e of this.entries.values()) {
      if (e.own === e.flushed) continue;
      written.push([e, e.own]);
    }
    if (written.length) {
      await this.store.write(
        written.map(([e, count]) =>
          put(QUOTAS, {
            _id: `${e.day}:${e.key}:${this.instance}`,
            day: e.day,
            key: e.key,
            instance: this.instance,
            count,
            updatedAt,
          } satisfies QuotaDoc),
        ),
      );
      for (const [e, count] of written) e.flushed = count;
    }
    for (const [id, e] of this.entries) {
      const idle = e.day !== today || t - e.usedAt > 60_000;
      if (idle && e.own === e.flushed) this.entries.delete(id);
    }
    for (const e of this.entries.values()) {
      if (t - e.usedAt > OTHERS_FRESH_MS) continue;
      const docs = await this.coll.find('byKeyDay', { eq: [e.key, e.day] });
      e.others = docs.filter((d) => d.instance !== this.instance).reduce((s, d) => s + d.count, 0);
      e.othersAt = t;
    }
  }

  /** Flush every `ms` until `close()`. */
  start(ms = 1000, onError: (e: unknown) => void = () => {}): void {
    if (this.timer) return;
    // A failed flush leaves `flushed` behind `own`, so the next tick writes the counts again.
    this.timer = setInterval(() => this.flush().catch(onError), ms);
    this.timer.unref();
  }

  /** Stop the timer and write the last counts (called on shutdown). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  /** Delete quota documents of days before yesterday (kept one extra day for operators to look at). */
  async prune(): Promise<number> {
    const before = utcDay(this.now() - DAY_MS);
    const old = await this.coll.find('byDay', { lt: before, limit: 10_000 });
    if (old.length) await this.store.write(old.map((d) => del(QUOTAS, d._id)));
    return old.length;
  }
}
