/**
 * A bounded in-process cache of serialized answers, keyed by their ETag. Explorer answers are pure functions of
 * (resource id, sync checkpoint) and their ETag encodes exactly that, so a hit can be served as bytes without
 * reading or presenting the documents; a new block or a rollback changes the checkpoint and so every key.
 * Least-recently-used entries are dropped past `maxEntries` or `maxBytes`.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  constructor(
    private readonly maxEntries = 10_000,
    private readonly maxBytes = 32 * 1024 * 1024,
  ) {}

  get(key: string): Buffer | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  /** Serializes `body` once, stores it, and returns the bytes to send. */
  set(key: string, body: unknown): Buffer {
    const bytes = Buffer.from(JSON.stringify(body));
    if (bytes.length > this.maxBytes / 16) return bytes; // one huge answer must not evict everything
    this.delete(key);
    this.entries.set(key, bytes);
    this.bytes += bytes.length;
    for (const [k, v] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.length;
    }
    return bytes;
  }

  private delete(key: string): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.length;
    }
  }
}
