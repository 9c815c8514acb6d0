/**
 * How fresh an answer is: the indexed tip (height and the time of its block, which is what every answer's `asOf`
 * names) and the lag behind the chain source's tip. REST answers carry `asOf`; the market overview, MCP results and
 * Markdown views also show the lag. One function, so every surface shows the same figures.
 */
import { firstIndexedBlock } from '../../mongo/collections/chain.js';
import { indexedTip, readSyncLag } from '../../mongo/collections/sync-state.js';
import type { ReadDeps } from './deps.js';

export interface Freshness {
  /** ISO time of the indexed tip block (null before the first block is indexed). */
  asOf: string | null;
  /**
   * Seconds the index is behind the chain: max(tip − indexed, now − time of the indexed tip block), with the tip
   * the source reported at its last contact (cardano/sync-lag.ts; null before the first slice).
   */
  lagSeconds: number | null;
  height: number | null;
  tipHeight: number | null;
}

export async function readFreshness(deps: Pick<ReadDeps, 'store' | 'now'>): Promise<Freshness> {
  const s = await readSyncLag(deps.store, (deps.now ?? Date.now)());
  if (!s.checkpoint) return { asOf: null, lagSeconds: null, height: null, tipHeight: null };
  return { asOf: s.indexedTime, lagSeconds: s.lagSeconds, height: s.height, tipHeight: s.tipHeight };
}

type Answer = Record<string, unknown>;

/**
 * A read function whose answer also names its as-of time (`asOf`, the indexed tip's block time) unless the answer
 * states one of its own (a wallet's balances name the block they reflect).
 */
export function withAsOf<I, O extends object>(
  read: (deps: ReadDeps, input: I) => Promise<O>,
): (deps: ReadDeps, input: I) => Promise<O & { asOf: string | null }> {
  return async (deps, input) => {
    // Only the tip block's time: the lag (and the sync health document it needs) is not part of every answer.
    const [body, { block }] = await Promise.all([read(deps, input), indexedTip(deps.store)]);
    if ('asOf' in body && (body as Answer).asOf !== undefined) return body as O & { asOf: string | null };
    return { ...body, asOf: block?.time ?? null };
  };
}

/**
 * A read function whose figures count only the indexed history (an address's transactions and first activity, a
 * stake pool's blocks minted, a collection's all-time volume and sales): its answer also names where that history
 * starts (`coverageFrom`, the first indexed block's time; the spec: "bounded answers say so"), unless it names it
 * itself.
 */
export function withCoverage<I, O extends object>(
  read: (deps: ReadDeps, input: I) => Promise<O>,
): (deps: ReadDeps, input: I) => Promise<O & { coverageFrom: string | null }> {
  return async (deps, input) => {
    const [body, first] = await Promise.all([read(deps, input), firstIndexedBlock(deps.store)]);
    if ('coverageFrom' in body) return body as O & { coverageFrom: string | null };
    return { ...body, coverageFrom: first?.time || null };
  };
}
