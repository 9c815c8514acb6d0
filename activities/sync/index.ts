/**
 * Sync activities. Reads: chain source, checkpoints, utxos, addresses, stake_accounts, stake_pool_regs, undo.
 * Writes: blocks, transactions, utxos, addresses, address_txs, stake_accounts, stake_pool_regs, undo, checkpoints.
 *
 * One slice = up to `maxBlocks` chain-sync events (or SLICE_MAX_MS of them) applied in memory and committed in
 * write batches of up to BLOCKS_PER_WRITE blocks, each together with its undo records and the new checkpoint; the
 * slice returns once its last batch is durable. A retried or re-run slice starts from the stored checkpoint, so
 * applying the same blocks twice is impossible; a RollBackward commits what came before it, then restores the
 * documents from the undo journal.
 */
import { performance } from 'node:perf_hooks';
import { CHECKPOINTS, UNDO, undoId, type UndoDoc } from '../../mongo/collections/sync-state.js';
import { put, type Store } from '../../mongo/store.js';
import type { Network } from '../../cardano/address.js';
import { isSourceDown, slotToEpoch, slotToMs, type ChainSource } from '../chain/source.js';
import type { Block, ChainEvent, NetworkTime, Point } from '../../cardano/chain/types.js';
import { applyBlock, prefetchBlocks, type BlockContext } from './apply-block.js';
import { DEEP_ROLLBACK_BLOCKS, readSyncHealth } from '../../mongo/collections/sync-state.js';
import { lovelaceOf } from './values.js';
import { recordContact, recordFailure, refusingStore, rollbackRecorded } from './health.js';
import {
  nextCheckpoint,
  pruneOps,
  readCheckpoint,
  recoverIncomplete,
  ROLLBACK_CHUNK_PRIORS,
  type StoredPoint,
} from './journal.js';
import type { SyncExtension } from './extension.js';
import { SliceState, undoPriors, type BlockChanges } from './slice-state.js';
import { withEbbSlot } from '../../cardano/chain/ebb.js';

export interface SliceInput {
  maxBlocks: number;
  /** How long to wait at the tip for the next block. */
  waitMs: number;
}

export interface SliceResult {
  /** Blocks applied in this slice. */
  blocks: number;
  /** RollBackward events that undid blocks in this slice. */
  rollbacks: number;
  /** Blocks undone by those rollbacks, and the deepest of them. */
  rolledBackBlocks?: number;
  deepestRollback?: number;
  /** A rollback deeper than DEEP_ROLLBACK_BLOCKS happened: the recomputes reading chain data must run now. */
  deepRollback?: boolean;
  /** Indexed tip after the slice. */
  height: number;
  slot: number;
  tipHeight: number;
  tipSlot: number;
  /** The source had no further block within the wait: the slice ended at the chain tip. */
  atTip: boolean;
}

/**
 * The process's sync slice in progress (`running` settles when it ended). Shared with the resync's store clear
 * (activities/sync/reset.ts), which must not clear the store under a slice still committing its write batches.
 */
export interface SliceGate {
  running: Promise<unknown>;
}

/** Joins the gate's queue: `previous` settles when the holder before is done; `release` ends this hold. */
export function holdGate(gate: SliceGate): { previous: Promise<unknown>; release: () => void } {
  const previous = gate.running;
  let release!: () => void;
  gate.running = new Promise<void>((resolve) => (release = resolve));
  return { previous, release };
}

export interface SyncDeps {
  store: Store;
  chain: ChainSource;
  /** Shared with createResyncActivities (SliceGate); a gate of its own when absent. */
  sliceGate?: SliceGate;
  /** Undo information is kept for this many blocks (the security parameter k). */
  k: number;
  network: Network;
  now?: () => number;
  /**
   * Elapsed time in ms from any origin (performance.now when not given): what the slice's time bound, its contact
   * records and the store's measured commit speed count in. Not wall time: it never jumps with the system clock.
   */
  elapsedMs?: () => number;
  /**
   * Where an empty store starts (SYNC_START_POINT), instead of origin: a block of the chain. It is also the
   * oldest point a restart offers, so the sync never falls back to origin (and never rolls back past it).
   */
  startPoint?: { slot: number; id: string };
  /** Further per-block derivations (market data, NFTs, …), applied in order after the core. */
  extensions?: readonly SyncExtension[];
  /**
   * The deepest fork the source re-enacts among immutable blocks (a devnet's DEVNET_FORK_DEPTH; none for a real
   * node): a catch-up batch keeps the undo records of at least this many of its last blocks, so a batch that ends
   * inside such a fork can still be rolled back (UNDO_TAIL).
   */
  replayForkDepth?: number;
  /** A slice takes no more events after this long (ms of elapsed time; SLICE_MAX_MS when not given). */
  sliceMaxMs?: number;
  /** How long one write batch should take to commit at the store's measured speed (WRITE_BUDGET_MS when not given). */
  writeBudgetMs?: number;
  onProgress?: (r: SliceResult & { blocksPerSecond: number }) => void;
  /**
   * Called while a slice makes progress (each round of events, each write it starts) and every `heartbeatEveryMs`
   * while the attempt runs or waits for an earlier attempt of this process. The Temporal worker passes the activity
   * heartbeat: a slice on a slow store can outlast the heartbeat timeout (60 s), and Temporal would then start a
   * retry while this attempt still runs.
   */
  heartbeat?: () => void;
  /** Interval of the heartbeat while the attempt waits (HEARTBEAT_EVERY_MS when not given). */
  heartbeatEveryMs?: number;
  /**
   * Priors (documents restored) per write of a rollback from the store: one write on the embedded store (atomic);
   * on a server store sized by its measured speed as a write batch is (ROLLBACK_CHUNK_PRIORS before a measure).
   */
  rollbackChunkPriors?: number;
}

/**
 * The heartbeat's interval while an attempt waits without a round of events: for the commit of its write batch (on
 * FerretDB, 78 devnet blocks after a chain source outage took 3 minutes under the recomputes' load), for an earlier
 * attempt of this process, or for the recovery of a half-written batch. Without it each of those attempts timed out
 * after 60 s (workflows/policies.ts) and its retry, waiting for it in turn, timed out too: the sync came back 5
 * minutes after the source, and a retry on a second worker process would run beside the attempt still writing. A
 * worker process that dies stops beating, so its slice is still retried after 60 s.
 */
const HEARTBEAT_EVERY_MS = 10_000;

/**
 * A slice stops taking events after this long, short of its `maxBlocks`, and writes what it applied: on a slow store
 * (FerretDB applies about 2 devnet blocks/s) a slice of SYNC_SLICE_BLOCKS must still end well within the
 * activity's 10-minute start-to-close timeout (workflows/policies.ts), or Temporal would time out and retry
 * attempts that are still making progress. It bounds taking blocks; WRITE_BUDGET_MS bounds committing them.
 */
const SLICE_MAX_MS = 60_000;

/** A slice records the source's contact (and the end of a failure) this often while it runs, not only at its end. */
const CONTACT_RECORD_MS = 10_000;

/**
 * A write batch also ends once committing it would take longer than this at the speed (statements per second) the
 * store committed the last batches of this process (SPEED_WINDOW). Applying blocks in memory is fast on every store; committing them
 * is what is slow on FerretDB (9 min 17 s for a batch of 425 devnet blocks, near the 10-minute start-to-close
 * timeout, under the recomputes' load). With it, a slice ends within about SLICE_MAX_MS plus two batches' commits
 * (the one in flight and its last), a few minutes even when the store slows down severalfold between two batches.
 * On the embedded store a batch of BLOCKS_PER_WRITE commits in well under a second: the bound never binds there.
 */
const WRITE_BUDGET_MS = 30_000;
/**
 * Blocks of a batch on a server store (MongoDB, FerretDB) before this process measured two writes: a few seconds on
 * FerretDB. The first write is no measure on its own: it inserts into empty collections (FerretDB: 455 statements/s,
 * then 109, 94, 71, 60/s as later batches update what it wrote), and the next batch is sized while it commits.
 */
const FIRST_WRITE_BLOCKS = 20;
/**
 * The speed a batch is sized for: the slowest of the last this-many commits, so a store slowing down (growing
 * collections, the recomputes' load) shrinks the next batch at once and one fast commit does not grow it.
 */
const SPEED_WINDOW = 3;

/** Chain-sync events requested per round trip (the client pipelines them). */
const EVENTS_PER_CALL = 100;
/**
 * Blocks per write batch inside a slice: up to this many, or fewer once the batch changed `DOCS_PER_WRITE`
 * documents (large mainnet blocks), which bounds the memory a batch holds. Each batch is atomic with its own
 * checkpoint; while one commits on the store's writer thread, the next is applied in memory on top of it (at most
 * one write in flight). A document changed by many blocks of a batch (a DEX pool, a busy address, a candle) is
 * written once per batch, so larger batches write less: 500 instead of 250 wrote 13% fewer documents and 11% fewer
 * bytes per block over the 48 h devnet (an output created and spent within the batch is never written). A slice
 * of several batches waits only for its last batch's commit, but slices of one batch (SYNC_SLICE_BLOCKS = 500, the
 * default) measured best overall: 2,000-block slices synced the 48 h devnet 3 % faster (471 against 459 blocks/s,
 * five runs each, taken in turn) for 5 % more CPU per block and a 10 % larger lmdb file (pages freed by a batch
 * cannot be reused by the next while reads of the batch before are still open).
 */
const BLOCKS_PER_WRITE = 500;
const DOCS_PER_WRITE = 60_000;

/**
 * The last blocks of every write batch keep their undo record even when immutable: a source replaying recorded
 * history (the devnet, a test chain) re-enacts its old forks (1-3 blocks deep) against its present tip, and a batch
 * may end inside one. A real node never rolls back an immutable block. A devnet with deeper forks
 * (DEVNET_FORK_DEPTH above 8) re-enacts those too: `SyncDeps.replayForkDepth` lengthens the tail to its depth.
 */
const UNDO_TAIL = 8;

/** A block applied in memory and its changes, until its batch is written. */
interface PendingUndo {
  height: number;
  slot: number;
  blockId: string;
  prev: StoredPoint | 'origin';
  changes: BlockChanges;
}

const undoDoc = (u: PendingUndo): UndoDoc => ({
  _id: undoId(u.height),
  height: u.height,
  slot: u.slot,
  blockId: u.blockId,
  prev: u.prev,
  priors: undoPriors(u.changes),
});

export class ChainDiscontinuityError extends Error {
  override name = 'ChainDiscontinuityError';
}

export function createSyncActivities(deps: SyncDeps) {
  const now = deps.now ?? Date.now;
  const elapsed = deps.elapsedMs ?? (() => performance.now());
  /** Block id the chain-source cursor follows (null: unknown, re-intersect first). */
  let followerAt: string | null = null;
  let networkTime: NetworkTime | null = null;

  /**
   * The ledger's stakePoolDeposit and stakeCredentialDeposit, asked once; undefined until an answer (a failed query
   * is asked again). The pool deposit is left unknown after a start point: an earlier registration is not indexed,
   * so a registration cannot be told new from an update. A key registration always pays the key deposit.
   */
  let deposits: { pool: bigint | null; key: bigint | null } | undefined;
  const amount = (x: unknown): bigint | null => {
    const lovelace = lovelaceOf(x);
    return lovelace === null ? null : BigInt(lovelace);
  };
  async function blockContext(): Promise<BlockContext> {
    networkTime ??= await deps.chain.networkTime();
    const t = networkTime;
    if (deposits === undefined)
      deposits = await deps.chain
        .query<{ stakePoolDeposit?: unknown; stakeCredentialDeposit?: unknown }>('queryLedgerState/protocolParameters')
        .then(
          (p) => ({
            pool: deps.startPoint ? null : amount(p?.stakePoolDeposit),
            key: amount(p?.stakeCredentialDeposit),
          }),
          () => undefined,
        );
    return {
      network: deps.network,
      slotTime: (s) => slotToMs(t, s),
      epochOf: (s) => slotToEpoch(t, s),
      poolDeposit: deposits?.pool ?? null,
      keyDeposit: deposits?.key ?? null,
    };
  }

  const store = refusingStore(deps.store);

  /**
   * When this process last recorded a contact with the source (elapsed()), null: not in this attempt's
   * run of health. A slice records its first contact at once, then at most every CONTACT_RECORD_MS, as well as at
   * its end: after an outage the health said "chain source unreachable" until the first write batch committed (a
   * minute or more on FerretDB), and `lastContact` was written only when a slice ended, so a slow but healthy slice
   * read as lost contact.
   */
  let lastContactRecord: number | null = null;

  /** The last SPEED_WINDOW write batches' commits of this process: statements per second and per block. */
  const commits: { opsPerSecond: number; opsPerBlock: number }[] = [];
  const writeBudgetMs = deps.writeBudgetMs ?? WRITE_BUDGET_MS;
  /**
   * Blocks the write batch being applied may still take, given `pending` blocks and about `dirty` statements in it
   * (WRITE_BUDGET_MS); BLOCKS_PER_WRITE when the store's speed does not bound it.
   */
  const batchRoom = (pending: number, dirty: number): number => {
    if (commits.length < 2) return (store.kind === 'embedded' ? BLOCKS_PER_WRITE : FIRST_WRITE_BLOCKS) - pending;
    const opsPerSecond = Math.min(...commits.map((c) => c.opsPerSecond));
    const opsPerBlock = Math.max(1, ...commits.map((c) => c.opsPerBlock));
    const room = (opsPerSecond * writeBudgetMs) / 1000 - dirty;
    return Math.min(BLOCKS_PER_WRITE - pending, Math.floor(room / opsPerBlock));
  };

  /** Priors per write of a rollback: about a write batch's statements at the store's measured speed. */
  const rollbackChunk = (): number => {
    if (deps.rollbackChunkPriors !== undefined) return deps.rollbackChunkPriors;
    if (store.kind === 'embedded') return Number.POSITIVE_INFINITY;
    if (commits.length < 2) return ROLLBACK_CHUNK_PRIORS;
    return Math.max(100, Math.floor((Math.min(...commits.map((c) => c.opsPerSecond)) * writeBudgetMs) / 1000));
  };

  async function syncSliceUnsafe(input: SliceInput): Promise<SliceResult> {
    const { chain } = deps;
    const started = now();
    const sliceStarted = elapsed();
    const sliceMaxMs = deps.sliceMaxMs ?? SLICE_MAX_MS;
    // A write batch left half-written (MongoDB has no multi-document transaction) by a crash, a failed write, or
    // another worker process that died mid-write (Temporal hands its retry to any worker of the task queue): its
    // undo records lie above the checkpoint. Checked before every slice (one index read), not once per process.
    await recoverIncomplete(store);
    const ctx = await blockContext();
    let cp = await readCheckpoint(store);
    let rollbacks = 0;
    let rolledBackBlocks = 0;
    let deepestRollback = 0;
    /** A rollback stopped part-way at the slice's time limit: the slice ends, the next goes on with it. */
    let rollbackPending = false;
    /**
     * Rolls the store back to `target` in bounded writes (rollbackRecorded), each beating the heartbeat; stops
     * part-way once the slice ran its time limit, so an attempt ends within the activity's timeouts however deep the
     * fork (a rollback of hundreds of blocks as one write took 13 minutes on FerretDB).
     */
    const rollBack = async (target: Point, indexedHeight: number) => {
      const r = await rollbackRecorded(store, target, indexedHeight, new Date(now()).toISOString(), {
        chunkPriors: rollbackChunk(),
        now: () => new Date(now()).toISOString(),
        afterChunk: () => {
          deps.heartbeat?.();
          return elapsed() - sliceStarted >= sliceMaxMs;
        },
      });
      rolledBackBlocks += r.undone;
      if (r.undone > 0) rollbacks++;
      // A rollback counts (and reruns the recomputes, SliceResult.deepRollback) once it completed, at its whole depth.
      if (r.done) deepestRollback = Math.max(deepestRollback, r.depth);
      else rollbackPending = true;
    };
    const undoneInMemory = (n: number) => {
      rolledBackBlocks += n;
      deepestRollback = Math.max(deepestRollback, n);
      if (n > 0) rollbacks++;
    };
    /** The source's tip as last reported in this slice (recorded in SYNC_HEALTH at the end, even with no block). */
    let seenTip: { slot: number; id: string; height: number } | null = null;
    /** The source answered: recorded now unless this process recorded a contact within CONTACT_RECORD_MS. */
    /**
     * Records the source's tip and the contact, as of when the source last sent anything (a slice that waited at the
     * tip and heard nothing is no proof it is alive).
     */
    const recordContactNow = (opts: Parameters<typeof recordContact>[3]) => {
      lastContactRecord = elapsed();
      const heard = chain.lastHeard?.() ?? null;
      return recordContact(deps.store, sourceTip(), new Date(heard ?? now()).toISOString(), opts);
    };
    /**
     * The source's tip as it last reported it: of its newest answer, which may wait in the client's pipeline behind
     * the blocks this slice takes. The tip of the events taken read "0 block(s) behind" on FerretDB while the
     * devnet was 25 blocks ahead (their answers had waited minutes in the buffer, each with the tip of its time).
     */
    const sourceTip = (): { slot: number; id: string; height: number } | null => {
      const latest = chain.latestTip?.() ?? null;
      return latest && latest !== 'origin' ? { slot: latest.slot, id: latest.id, height: latest.height } : seenTip;
    };
    const contact = async () => {
      if (lastContactRecord !== null && elapsed() - lastContactRecord < CONTACT_RECORD_MS) return;
      // Best effort: a store that cannot take it fails the slice's own writes, which say so (recordFailure).
      await recordContactNow({ keepStall: true }).catch(() => (lastContactRecord = null));
    };
    if (followerAt === null || followerAt !== (cp?.id ?? 'origin')) {
      // A rollback left part-way by an earlier slice: its fork point is offered too, so the source intersects there
      // (the checkpoint's older points may lie below it) and the rollback goes on to the same point.
      const pendingTo = (await readSyncHealth(store))?.rollingBack?.to;
      const stored = [...(cp?.points ?? []), ...(pendingTo && pendingTo !== 'origin' ? [pendingTo] : [])];
      const points: Point[] = [
        ...stored.sort((a, b) => b.height - a.height).map((p) => ({ slot: p.slot, id: p.id })),
        deps.startPoint ?? 'origin',
      ];
      const { intersection, tip: found } = await chain.findIntersection(points).catch((e: unknown) => {
        // An empty store offers only SYNC_START_POINT: a source without that block is the setting's mistake (a typo,
        // a block of another network), not a chain that moved away from the indexed one (health.ts stallOf).
        if (stored.length === 0 && deps.startPoint && e instanceof Error && e.name === 'IntersectionNotFoundError')
          Object.assign(e, { startPointMissing: `${deps.startPoint.slot}.${deps.startPoint.id}` });
        throw e;
      });
      seenTip = found === 'origin' ? { slot: 0, id: 'origin', height: 0 } : { ...found };
      await contact();
      if (cp && (intersection === 'origin' || intersection.id !== cp.id)) {
        await rollBack(intersection, cp.height);
        cp = await readCheckpoint(store);
      }
      followerAt = intersection === 'origin' ? 'origin' : intersection.id;
    }

    let last: StoredPoint | 'origin' = cp ? { slot: cp.slot, id: cp.id, height: cp.height } : 'origin';
    let state = new SliceState(store);
    /**
     * What each block applied in `state` and not yet written changed, oldest first (one per `applied`): the undo
     * record of the block, written with the batch when the block can still be rolled back (`keepsUndo`).
     */
    let undo: PendingUndo[] = [];
    let applied: StoredPoint[] = [];
    let total = 0;
    let tip: StoredPoint | null = null;
    let atTip = false;
    let inFlight: Promise<void> | null = null;
    /**
     * Whether a block's undo record is written: on the embedded store (atomic batches, so undo records serve
     * rollbacks only), not for an immutable block — k or more below the source's tip, which the chain can no longer
     * roll back — except the last UNDO_TAIL of a batch (`fromEnd` = 1 for its last block). MongoDB applies a batch in
     * order and needs every record to repair an interrupted one (recoverIncomplete).
     */
    const undoTail = Math.max(UNDO_TAIL, deps.replayForkDepth ?? 0);
    const keepsUndo = (height: number, fromEnd: number) =>
      store.kind !== 'embedded' || fromEnd <= undoTail || tip === null || height > tip.height - deps.k;

    const settle = async () => {
      if (inFlight) await inFlight;
      inFlight = null;
      state.dropBase();
    };
    /**
     * Commit what was applied; `wait` = return only once it is durable (before rollbacks and at slice end).
     * `allUndo`: write every block's undo record (a rollback into the store follows).
     */
    const flush = async (wait: boolean, allUndo = false) => {
      if (applied.length > 0) {
        const first = applied[0] as StoredPoint;
        const lastApplied = applied[applied.length - 1] as StoredPoint;
        const next = nextCheckpoint(cp, applied, tip, new Date(now()).toISOString());
        const ops = [
          ...undo.filter((u, i) => allUndo || keepsUndo(u.height, undo.length - i)).map((u) => put(UNDO, undoDoc(u))),
          ...state.writeOps(),
          ...pruneOps(first.height - 1, lastApplied.height, deps.k),
        ];
        await settle();
        // Stamped when its write starts, after the previous batch settled: `checkpointAgeSeconds` and "checkpoint
        // written" count from it, and a batch prepared while the last one committed (minutes on FerretDB) read
        // 142 s old right after its own commit.
        cp = { ...next, updatedAt: new Date(now()).toISOString() };
        ops.push(put(CHECKPOINTS, cp));
        deps.heartbeat?.();
        const t0 = elapsed();
        const blocks = applied.length;
        inFlight = store.write(ops).then(() => {
          const seconds = Math.max(1e-3, (elapsed() - t0) / 1000);
          commits.push({ opsPerSecond: ops.length / seconds, opsPerBlock: ops.length / blocks });
          if (commits.length > SPEED_WINDOW) commits.shift();
        });
        // settle() awaits it and throws its failure; a slice that fails before (the chain source gone) must not leave
        // it unhandled when it fails too: Node would end the worker process (seen with FerretDB stopped).
        inFlight.catch(() => undefined);
        committing = inFlight;
        state = new SliceState(store, state);
        undo = [];
        applied = [];
      }
      if (wait) await settle();
    };

    /**
     * A shallow RollBackward to a block whose successors are all still in memory (applied, not yet written) is
     * undone in memory from their undo records: the store never sees the orphaned blocks and no write has to
     * settle first. Returns the blocks undone, or null when the store has to do it (a rollback into written blocks,
     * or a deep one, which records a new sync generation before any document is undone).
     */
    const undoInMemory = (target: Point): number | null => {
      if (target === 'origin') return null;
      const keep = applied.findIndex((p) => p.id === target.id) + 1;
      if (keep === 0) {
        const prev = undo[0]?.prev;
        if (prev === undefined || prev === 'origin' || prev.id !== target.id) return null;
      }
      const n = applied.length - keep;
      // Deeper than k: the stored journal no longer reaches back that far, and the store path says so loudly.
      if (n === 0 || n > DEEP_ROLLBACK_BLOCKS || n > deps.k) return null;
      for (let i = applied.length - 1; i >= keep; i--) state.undoBlock((undo[i] as PendingUndo).changes);
      last = keep > 0 ? (applied[keep - 1] as StoredPoint) : ((undo[0] as PendingUndo).prev as StoredPoint);
      applied = applied.slice(0, keep);
      undo = undo.slice(0, keep);
      return n;
    };

    const applyForward = async (given: Block[]) => {
      let prevSlot = last === 'origin' ? null : last.slot;
      const blocks = given.map((b) => {
        const block = withEbbSlot(b, prevSlot, deps.k);
        prevSlot = block.slot ?? prevSlot;
        return block;
      });
      await prefetchBlocks(state, blocks, deps.network);
      for (const block of blocks) {
        if (last !== 'origin' && block.ancestor !== last.id)
          throw new ChainDiscontinuityError(
            `block ${block.height} ${block.id} does not follow ${last.height} ${last.id}`,
          );
        state.beginBlock();
        const { spent } = applyBlock(state, block, ctx);
        for (const ext of deps.extensions ?? [])
          await ext.applyBlock(state, { block, timeMs: ctx.slotTime(block.slot ?? 0), spent }, ctx);
        undo.push({
          height: block.height,
          slot: block.slot ?? 0,
          blockId: block.id,
          prev: last,
          changes: state.endBlock(),
        });
        last = { slot: block.slot ?? 0, id: block.id, height: block.height };
        applied.push(last);
        total++;
      }
      // Between runs only: the blocks of a run were prefetched into the current state.
      const dirty = state.dirtyCount;
      if (dirty >= DOCS_PER_WRITE || batchRoom(applied.length, dirty + undo.length) <= 0) await flush(false);
    };

    while (!rollbackPending && total < input.maxBlocks && elapsed() - sliceStarted < sliceMaxMs) {
      // No more blocks than the write batch has room for (at least one: a batch that is full was written already).
      const room = Math.max(1, batchRoom(applied.length, state.dirtyCount + undo.length));
      const events: ChainEvent[] = await chain.nextEvents(
        Math.min(EVENTS_PER_CALL, input.maxBlocks - total, room),
        total === 0 ? input.waitMs : 0,
      );
      deps.heartbeat?.();
      // A round with no event ends the slice, which records its contact then.
      if (events.length > 0) await contact();
      if (events.length === 0) {
        atTip = true;
        break;
      }
      let run: Block[] = [];
      for (const ev of events) {
        if (ev.tip !== 'origin') tip = { slot: ev.tip.slot, id: ev.tip.id, height: ev.tip.height };
        seenTip = tip;
        if (ev.direction === 'forward') {
          run.push(ev.block);
          continue;
        }
        await applyForward(run);
        run = [];
        const target = ev.point;
        const lastId: string = last === 'origin' ? 'origin' : last.id;
        if ((target === 'origin' ? 'origin' : target.id) === lastId) continue; // the echo after an intersection
        const inMemory = undoInMemory(target);
        if (inMemory !== null) {
          undoneInMemory(inMemory);
          continue;
        }
        await flush(true, true);
        await rollBack(target, last === 'origin' ? 0 : last.height);
        cp = await readCheckpoint(store);
        last = cp ? { slot: cp.slot, id: cp.id, height: cp.height } : 'origin';
        state = new SliceState(store); // the rollback changed the store under the cached view
        // Stopped part-way: the events after the RollBackward follow its fork point, not the store's position; the
        // next slice intersects again and goes on with the rollback.
        if (rollbackPending) break;
      }
      if (rollbackPending) break;
      await applyForward(run);
      // Reaching the tip the events report is not the end of the slice: a node that is itself catching up reports
      // its own growing tip with every block. The slice ends at the tip only when the source has nothing more to
      // give (the next call waits 0 ms once blocks were applied, so a synced node answers that at once).
    }
    await flush(true);
    // Every successful contact records the source's tip, so lag stays honest while nothing commits. A rollback that
    // completed (or none pending) ends what an earlier slice recorded in progress.
    await recordContactNow({ rollbackDone: !rollbackPending });
    followerAt = rollbackPending ? null : last === 'origin' ? 'origin' : last.id;
    const height = last === 'origin' ? 0 : last.height;
    const slot = last === 'origin' ? 0 : last.slot;
    // Read once: an answer arriving between two reads would give the height of one tip and the slot of another.
    const reported = sourceTip() ?? tip;
    const result: SliceResult = {
      blocks: total,
      rollbacks,
      rolledBackBlocks,
      deepestRollback,
      deepRollback: deepestRollback > DEEP_ROLLBACK_BLOCKS,
      height,
      slot,
      tipHeight: reported?.height ?? height,
      tipSlot: reported?.slot ?? slot,
      atTip,
    };
    const seconds = Math.max(1e-3, (now() - started) / 1000);
    deps.onProgress?.({ ...result, blocksPerSecond: total / seconds });
    return result;
  }

  /**
   * One slice at a time per process: an attempt Temporal gave up on (a timeout) keeps running until it ends, and its
   * retry must not move the same chain-sync cursor and write the same documents at the same time (seen on FerretDB:
   * `block 71 does not follow 48`). The retry waits for it, then starts from the checkpoint it left. A resync's
   * clear waits for it too (the gate is shared): a slice of a terminated sync workflow goes on committing.
   */
  const gate: SliceGate = deps.sliceGate ?? { running: Promise.resolve() };
  /**
   * A failure the store could not record (it was the store that failed: FerretDB/MongoDB down). Recorded by the next
   * attempt before anything else: the last record is then minutes old, and until the slice's first write batch
   * commits (a minute on FerretDB) monitors read that silence as "sync not running … start the service" although
   * the worker runs and retries.
   */
  let unrecorded: { error: unknown; since: string } | null = null;
  /**
   * The write batch this process started last (a slice commits one while it applies the next). A slice that fails
   * (the chain source frozen or gone) may leave it committing: on a server store for up to a minute.
   */
  let committing: Promise<void> | null = null;
  return {
    async syncSlice(input: SliceInput): Promise<SliceResult> {
      const { previous, release } = holdGate(gate);
      const beat = deps.heartbeat;
      const beating = beat ? setInterval(() => beat(), deps.heartbeatEveryMs ?? HEARTBEAT_EVERY_MS) : null;
      try {
        await previous;
        if (unrecorded) {
          await recordFailure(deps.store, unrecorded.error, {
            k: deps.k,
            nowIso: new Date(now()).toISOString(),
            since: unrecorded.since,
          });
          unrecorded = null;
        }
        return await syncSliceUnsafe(input);
      } catch (e) {
        followerAt = null; // the cursor position is unknown after a failure: re-intersect on the retry
        lastContactRecord = null; // the failure recorded below is replaced at the retry's first contact
        // A write may have failed part-way (MongoDB applies a batch in order, without a transaction): the retry
        // first restores the documents of the partial slice from its undo records (recoverIncomplete), as after a
        // crash.
        networkTime = null; // the source may come back as another node or network (a resync follows it)
        // Recorded for /healthz/sync and `ops status`; a store that cannot record it does not hide the error.
        const nowIso = new Date(now()).toISOString();
        // A source that stopped answering is unreachable since it last sent anything (ChainSource.lastHeard), not
        // since this attempt gave up on it: a frozen source is dropped only after 20 s of silence (the chain-sync
        // keepalive), and a slice waiting for a write batch's commit notices it later still (a minute on FerretDB).
        const heard = isSourceDown(e) ? (deps.chain.lastHeard?.() ?? null) : null;
        const since =
          unrecorded?.since ?? (heard !== null && heard < now() ? new Date(heard).toISOString() : undefined);
        await recordFailure(deps.store, e, { k: deps.k, nowIso, since }).then(
          () => (unrecorded = null),
          () => (unrecorded = { error: e, since: unrecorded?.since ?? nowIso }),
        );
        // The retry (Temporal's, 250 ms later) waits for that batch: its recoverIncomplete would otherwise take the
        // batch's undo records above the checkpoint for a half-written batch and restore its documents while the
        // rest of it is still being written, and the rest and its checkpoint would land after (or over the retry's
        // own batches: the checkpoint moved back). Settled, it is either committed or really half-written. Waited
        // for after the failure is recorded, so monitors name the outage at once.
        await committing?.catch(() => undefined);
        throw e;
      } finally {
        if (beating) clearInterval(beating);
        release();
      }
    },
  };
}
export type SyncActivities = ReturnType<typeof createSyncActivities>;
