/**
 * The token safety recompute (every 5 minutes, temporal/schedules.ts `safety`): one `token_safety` document per
 * token that trades in a DEX pool, from the indexed tip's data (assess.ts documents the factors and thresholds).
 * Reads checkpoints, blocks, tokens, pools, token_stats, holders, holder_counts, policy_scripts.
 */
import { stakeAddressOf } from '../../cardano/address.js';
import { slotClock } from '../../cardano/clock.js';
import { holderOf } from '../../cardano/holders.js';
import {
  BLOCKS,
  CHECKPOINTS,
  HOLDERS,
  HOLDER_COUNTS,
  POLICY_SCRIPTS,
  POOLS,
  TOKENS,
  TOKEN_SAFETY,
  TOKEN_STATS,
  type PoolDoc,
  type TokenDoc,
  type TokenSafetyDoc,
} from '../../mongo/collections/index.js';
import { replaceAll } from '../../mongo/replace-all.js';
import type { Store } from '../../mongo/store.js';
import { assessSafety } from './assess.js';

export interface SafetyDeps {
  store: Store;
  now?: () => number;
}

/** Share of `total` held by the largest holders of `unit` (up to `count`), skipping `exclude` holders. */
async function topShare(
  store: Store,
  unit: string,
  total: bigint,
  count: number,
  exclude: ReadonlySet<string>,
): Promise<number | null> {
  if (total <= 0n) return null;
  const rows = await store.collection(HOLDERS).find('byQuantity', { eq: [unit], reverse: true, limit: count + 50 });
  let held = 0n;
  let n = 0;
  for (const r of rows) {
    if (exclude.has(r.holder)) continue;
    held += BigInt(r.quantityRaw);
    if (++n >= count) break;
  }
  return Number((held * 1_000_000n) / total) / 1_000_000;
}

export function createSafetyActivities(deps: SafetyDeps) {
  const { store } = deps;
  const now = deps.now ?? Date.now;
  return {
    async recomputeTokenSafety(): Promise<{ tokens: number; high: number }> {
      const cp = await store.collection(CHECKPOINTS).get('sync');
      const tip = cp ? await store.collection(BLOCKS).get(cp.id) : null;
      if (!cp || !tip) return { tokens: 0, high: 0 };
      const clock = slotClock({ slot: tip.slot, timeMs: Date.parse(tip.time) });
      const pools: PoolDoc[] = [];
      for await (const p of store.collection(POOLS).scan(500)) pools.push(p);
      const poolById = new Map(pools.map((p) => [p.id, p]));
      // DEX pools hold a token's liquidity (and their own unissued LP tokens), not an owner's stake: they are not
      // "holders" for concentration or LP control. Holders are keyed as the holders index keys them: the stake
      // address of an output address that has one (a DEX's pools often share one script stake key), else the
      // address itself.
      const poolHolders = new Set(
        pools.map((p) => holderOf({ address: p.address, stakeAddress: stakeAddressOf(p.address) }, true)),
      );
      const tokens: TokenDoc[] = [];
      for await (const t of store.collection(TOKENS).scan(500)) if (t.poolIds.length) tokens.push(t);
      const units = tokens.map((t) => t._id);
      const [stats, counts, policies] = await Promise.all([
        store.collection(TOKEN_STATS).getMany(units),
        store.collection(HOLDER_COUNTS).getMany(units),
        store.collection(POLICY_SCRIPTS).getMany(tokens.map((t) => t.policyId)),
      ]);
      const docs: TokenSafetyDoc[] = [];
      for (const [i, t] of tokens.entries()) {
        const supply = BigInt(counts[i]?.supplyRaw ?? '0');
        const primary = t.primaryPoolId === null ? null : (poolById.get(t.primaryPoolId) ?? null);
        let topLpShare: number | null = null;
        if (primary?.lpToken && primary.totalLpRaw) {
          topLpShare = await topShare(store, primary.lpToken, BigInt(primary.totalLpRaw), 1, poolHolders);
        }
        const { level, factors } = assessSafety({
          tipSlot: tip.slot,
          policy: policies[i] ?? null,
          top10Share: await topShare(store, t._id, supply, 10, poolHolders),
          liquidityAda: stats[i]?.liquidityAda ?? null,
          poolAgeHours:
            t.firstPoolSlot === null
              ? null
              : Math.max(0, (Date.parse(tip.time) - clock.slotToMs(t.firstPoolSlot)) / 3.6e6),
          // false when the first pool was first seen, not created, in the indexed chain (older than the index).
          poolAgeExact: t.firstPoolExact,
          topLpShare,
        });
        docs.push({
          _id: t._id,
          level,
          highRisk: level === 'high',
          factors,
          computedAt: new Date(now()).toISOString(),
        });
      }
      await replaceAll(store, TOKEN_SAFETY, docs, 500);
      return { tokens: docs.length, high: docs.filter((d) => d.highRisk).length };
    },
  };
}
export type SafetyActivities = ReturnType<typeof createSafetyActivities>;
