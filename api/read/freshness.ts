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

/**
 * What a 404 of a chain entity (a block, a transaction) adds while the index is behind the source's tip (a first
 * sync or a resync catching up, a source outage ended): the entity may be on the chain above the indexed height, so
 * "not found" alone read as "does not exist" (during a resync, `block 2000 not found` with the chain at 2154 and the
 * index rebuilt to 976). `height`: the block height asked for, when the request names one (a height at or below the
 * source's tip is on the chain: the answer says it is not indexed yet). A plain "not found" when the index is at the
 * tip and holds the chain from origin; on a store started later (SYNC_START_POINT) it names where the indexed history
 * starts, and a height below its first block is "before the indexed history". `atTip`: the entity's own not-found
 * sentence, said instead of those once the index is at the tip (notFoundWhileBehind).
 */
export async function notIndexedYet(
  deps: Pick<ReadDeps, 'store' | 'now'>,
  what: string,
  height: number | null = null,
  atTip?: string,
): Promise<string> {
  const [f, first] = await Promise.all([readFreshness(deps), firstIndexedBlock(deps.store)]);
  if (f.height === null || f.tipHeight === null || !first) return `${what} not found (no block is indexed yet)`;
  // A store that began after origin (SYNC_START_POINT) holds no block or transaction older than its first block,
  // which then has a previous block: "not found" alone would read as "does not exist" for one that is on the chain
  // before it.
  const from = first.prevHash === 'genesis' ? null : `block ${first.height}, ${first.time}`;
  if (from && height !== null && height < first.height)
    return `${what} is before the indexed history, which starts at ${from}: older blocks are not indexed`;
  const older = from && height === null ? `the indexed history starts at ${from}: anything older is not indexed` : null;
  if (f.height >= f.tipHeight) return atTip ?? (older ? `${what} not found (${older})` : `${what} not found`);
  const reach = `the index reaches height ${f.height} of the chain's ${f.tipHeight} and is catching up`;
  if (height !== null && height > f.height && height <= f.tipHeight)
    return `${what} is not indexed yet (${reach}; retry shortly)`;
  if (height !== null) return `${what} not found`;
  return `${what} not found in the indexed chain (${reach}, so it may be found later${older ? `; ${older}` : ''})`;
}

/**
 * The 404 of a thing a block creates (a token: its mint or first pool, its first output): notIndexedYet's sentence
 * while the index is behind the chain or holds no block yet (that block may not be indexed yet), else `atTip`, the
 * thing's own not-found text, which says why there is nothing to answer.
 */
export const notFoundWhileBehind = (
  deps: Pick<ReadDeps, 'store' | 'now'>,
  what: string,
  atTip: string,
): Promise<string> => notIndexedYet(deps, what, null, atTip);
