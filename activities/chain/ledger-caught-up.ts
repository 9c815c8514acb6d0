/**
 * A ledger reading must not be older than the index it is shown beside. The recomputes that read the ledger through
 * the chain source (stake pools and rewards, governance) replace their documents with what the ledger says now; a
 * source whose ledger is behind the indexed chain — a node resyncing after its database was wiped, the devnet
 * regenerating its history when `npm start` restarts over an existing DATA_DIR — would replace complete figures
 * with those of an earlier chain state (live stake of a partial history, rewards not yet earned).
 */
import { isSourceDown, type ChainSource } from './source.js';
import { toPoint } from './json.js';
import type { Point } from '../../cardano/chain/types.js';
import { CHECKPOINTS } from '../../mongo/collections/sync-state.js';
import { CHECKPOINT_ID } from '../../mongo/collections/clock.js';
import type { Store } from '../../mongo/store.js';

/**
 * How far (slots; 1 s each since Shelley) the ledger may trail the checkpoint and still be read. A source serving a
 * short fork, or a node that switched away from blocks the sync has not yet rolled back, trails by a few blocks for
 * seconds, and a reading a few blocks old is what any reading is by the time it is shown; a source replaying or
 * resyncing its chain trails by hours.
 */
export const LEDGER_LAG_TOLERANCE_SLOTS = 600;

/** A ledger reading that would be older than the index: retried at the job's next firing, nothing written. */
export class LedgerBehindError extends Error {
  constructor(ledgerSlot: number | 'origin', indexedSlot: number) {
    super(
      `the chain source's ledger is at ${ledgerSlot === 'origin' ? 'origin' : `slot ${ledgerSlot}`}, behind the indexed chain (slot ${indexedSlot}): it is still replaying or resyncing its chain, and its figures would be older than the index; nothing was written`,
    );
    this.name = 'LedgerBehindError';
  }
}

/**
 * How long a run waits for a ledger behind the index to catch up before failing: the devnet regenerates its history
 * in seconds when `npm start` restarts, and a run fired meanwhile then reads the whole ledger instead of failing; a
 * node resyncing for hours still fails the run (visible to ops, /healthz/jobs and the metrics).
 */
export const LEDGER_WAIT_MS = 60_000;
const LEDGER_POLL_MS = 1_000;

/**
 * The point the source's ledger is at (queryLedgerState/tip), or null when the source does not answer it (refuses
 * the query, or answers something unreadable). A source that cannot be reached — down, dropped, frozen — is not
 * one that lacks the query: its error is thrown, so the run fails at its first query instead of going on to wait
 * out every later one (three waits of the query timeout per attempt with a frozen source).
 */
export function ledgerTip(chain: ChainSource): Promise<Point | null> {
  return chain.query<unknown>('queryLedgerState/tip').then(toPoint, (e: unknown) => {
    if (isSourceDown(e)) throw e;
    return null;
  });
}

/** The ledger tip's slot (-1 at origin) and the checkpoint's, or null when there is nothing to compare. */
async function positions(chain: ChainSource, store: Store): Promise<{ ledger: number; indexed: number } | null> {
  const [checkpoint, tip] = await Promise.all([store.collection(CHECKPOINTS).get(CHECKPOINT_ID), ledgerTip(chain)]);
  if (!checkpoint || tip === null) return null;
  return { ledger: tip === 'origin' ? -1 : tip.slot, indexed: checkpoint.slot };
}

/**
 * Resolves once the source's ledger tip (queryLedgerState/tip) is at most LEDGER_LAG_TOLERANCE_SLOTS below the sync
 * checkpoint's slot, asking again every second; throws LedgerBehindError when it still is after `waitMs`. A source
 * that does not answer the query is taken as caught up (the reading goes ahead as before); a failure to reach it is
 * the reading's own failure and is left to the reading.
 */
export async function assertLedgerCaughtUp(chain: ChainSource, store: Store, waitMs = LEDGER_WAIT_MS): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const at = await positions(chain, store);
    if (!at || at.ledger >= at.indexed - LEDGER_LAG_TOLERANCE_SLOTS) return;
    if (Date.now() >= deadline) throw new LedgerBehindError(at.ledger < 0 ? 'origin' : at.ledger, at.indexed);
    // + 1: a timer may fire up to a millisecond before Date.now() reaches its time (libuv's loop clock is coarser),
    // which would add an ask a moment before the deadline instead of the last ask at it.
    await new Promise((resolve) => setTimeout(resolve, Math.min(LEDGER_POLL_MS, deadline - Date.now() + 1)));
  }
}
