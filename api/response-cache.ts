/** How often a write looks for entries whose window has ended (a scan of at most a few thousand entries). */
const SWEEP_MS = 1_000;

/**
 * A bounded in-process cache of serialized answers. Explorer answers are pure functions of (resource id, sync
 * checkpoint) and their ETag encodes exactly that, so a hit can be served as bytes without reading or presenting
 * the documents; a new block or a rollback changes the checkpoint and so every key. The REST micro-cache
 * (api/micro-cache.ts) keeps the headers of each answer beside its bytes (`M`).
 * Least-recently-used entries are dropped past `maxEntries` or `maxBytes`, and an entry whose window has ended
 * (`meta.expires`, unix ms of `clock`) is dropped by the next write at least a second later: no reader serves it
 * again (each checks the window), and kept until evicted, the five answer caches of the API (REST, Markdown, the
 * node:http replay, two of the tool server) held their whole byte budgets after a burst of distinct URLs was over.
 */
export class ResponseCache<M extends { expires: number } | undefined = undefined> {
  private readonly entries = new Map<string, { bytes: Buffer; meta: M }>();
  private bytes = 0;
  /** When the next write looks for ended windows (unix ms of `clock`). */
  private nextSweep = 0;

  constructor(
    private readonly maxEntries = 10_000,
    private readonly maxBytes = 32 * 1024 * 1024,
    private readonly clock: () => number = Date.now,
  ) {}

  get(key: string): Buffer | undefined {
    return this.entry(key)?.bytes;
  }

  /**
   * The bytes and what was stored beside them, leaving the eviction order as it is: for entries that expire within
   * a second or so anyway, where insertion order is as good an eviction order as use.
   */
  peek(key: string): { bytes: Buffer; meta: M } | undefined {
    return this.entries.get(key);
  }

  /** The bytes and what was stored beside them; a hit becomes the most recently used. */
  entry(key: string): { bytes: Buffer; meta: M } | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  /** Serializes `body` once, stores it, and returns the bytes to send. */
  set(this: ResponseCache<undefined>, key: string, body: unknown): Buffer {
    return this.setBytes(key, Buffer.from(JSON.stringify(body)), undefined);
  }

  /** Stores serialized bytes with `meta`; returns the bytes. */
  setBytes(key: string, bytes: Buffer, meta: M): Buffer {
    this.sweep();
    if (bytes.length > this.maxBytes / 16) return bytes; // one huge answer must not evict everything
    this.delete(key);
    this.entries.set(key, { bytes, meta });
    this.bytes += bytes.length;
    for (const [k, v] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.bytes.length;
    }
    return bytes;
  }

  /**
   * Drops every entry whose window has ended, at most once a SWEEP_MS: what is held is then the answers of about the
   * last window (API_CACHE_MS, 1 s by default), not the last `maxBytes` ever made.
   */
  private sweep(): void {
    const now = this.clock();
    if (now < this.nextSweep) return;
    this.nextSweep = now + SWEEP_MS;
    for (const [k, v] of this.entries) if (v.meta !== undefined && v.meta.expires <= now) this.delete(k);
  }

  private delete(key: string): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.bytes.length;
    }
  }
}
