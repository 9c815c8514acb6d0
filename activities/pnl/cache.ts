/**
 * In-process cache of computed wallet PnL (the FIFO over a wallet's whole trade history is the heaviest read of
 * the API). A key names everything the answer depends on that changes: the wallet, its last trade id (a new or
 * rolled-back trade changes it) and the sync checkpoint height rounded down to `HEIGHT_BUCKET` blocks (marks come
 * from token stats recomputed as blocks arrive, so an answer is reused for about ten blocks, ~200 s on mainnet).
 * The TTL bounds staleness when the sync stalls but the recomputes of prices and ADA/USD go on.
 * Least-recently-used entries are dropped past `maxEntries`. One process, no sharing: a restart starts cold.
 */

/** Checkpoint heights in one bucket share cached answers. */
export const HEIGHT_BUCKET = 10;

/** The cache key of a wallet's PnL. `lastTradeId` is null for a wallet without trades; `height` null before sync. */
export function pnlCacheKey(wallet: string, lastTradeId: number | null, height: number | null): string {
  const bucket = height === null ? 'none' : String(Math.floor(height / HEIGHT_BUCKET));
  return `${wallet}|${lastTradeId ?? 'none'}|${bucket}`;
}

export class TtlLru<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();

  constructor(
    private readonly maxEntries = 1000,
    private readonly ttlMs = 5 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.entries.delete(key);
    if (hit.expires <= this.now()) return undefined;
    this.entries.set(key, hit);
    return hit.value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expires: this.now() + this.ttlMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
