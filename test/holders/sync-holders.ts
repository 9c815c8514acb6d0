/**
 * Test helpers: sync a memory chain with the holders extension, and the holders recomputed from scratch from the
 * synced UTxO set and address summaries (what the extension must always equal).
 */
import type { ChainSource } from '../../activities/chain/source.js';
import { balanceEntries, holdersFromBalances } from '../../cardano/holders.js';
import type { SyncExtension } from '../../activities/sync/extension.js';
import { createSyncActivities } from '../../activities/sync/index.js';
import { ADDRESSES, UTXOS } from '../../mongo/collections/chain.js';
import { HOLDERS, HOLDER_COUNTS } from '../../mongo/collections/holders.js';
import type { Store } from '../../mongo/store.js';

/** Sync until the source has nothing more (test/sync/helpers.ts syncAll, with extensions). */
export async function syncWith(store: Store, chain: ChainSource, extensions: readonly SyncExtension[], slice = 5) {
  const acts = createSyncActivities({ store, chain, k: 2160, network: 'mainnet', extensions });
  for (let i = 0; i < 10_000; i++) {
    const r = await acts.syncSlice({ maxBlocks: slice, waitMs: 0 });
    if (r.blocks === 0 && r.atTip) return;
  }
  throw new Error('sync did not reach the tip');
}

const sorted = (m: Map<string, string>) => [...m].sort(([a], [b]) => (a < b ? -1 : 1));

/** `unit|holder` → raw quantity, from the holder documents. */
export async function storedHolders(store: Store): Promise<[string, string][]> {
  const m = new Map<string, string>();
  for await (const d of store.collection(HOLDERS).scan()) m.set(d._id, d.quantityRaw);
  return sorted(m);
}

/** The same map recomputed from address balances with holdersFromBalances. */
export async function recomputedHolders(store: Store): Promise<[string, string][]> {
  const addresses = [];
  for await (const a of store.collection(ADDRESSES).scan()) addresses.push(a);
  const units = new Set(addresses.flatMap((a) => Object.keys(a.balance.assets)));
  const m = new Map<string, string>();
  for (const unit of units) {
    const r = holdersFromBalances(balanceEntries(addresses, unit), { combineByStake: true, limit: Infinity });
    for (const h of r.items) m.set(`${unit}|${h.address}`, h.quantityRaw);
  }
  return sorted(m);
}

/** unit → Σ quantity over unspent outputs (the circulating supply seen on chain). */
export async function utxoSupply(store: Store): Promise<Map<string, bigint>> {
  const m = new Map<string, bigint>();
  for await (const u of store.collection(UTXOS).scan())
    for (const [unit, q] of Object.entries(u.value.assets)) m.set(unit, (m.get(unit) ?? 0n) + BigInt(q));
  return m;
}

export async function storedCounts(store: Store) {
  const out: Record<string, { count: number; supplyRaw: string }> = {};
  for await (const c of store.collection(HOLDER_COUNTS).scan())
    out[c.unit] = { count: c.count, supplyRaw: c.supplyRaw };
  return out;
}
