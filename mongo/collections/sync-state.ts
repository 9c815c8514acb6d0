/**
 * Sync bookkeeping: the checkpoint (the last block applied) and the undo journal of the last k blocks.
 * Both are written in the same batch as the documents they describe (see activities/sync/apply.ts).
 */
import { syncLagSeconds } from '../../cardano/sync-lag.js';
import { defineCollection, type Store } from '../store.js';
import { BLOCKS, type BlockDoc } from './chain.js';

export interface CheckpointDoc {
  /** Always 'sync'. */
  _id: string;
  slot: number;
  /** Block hash of the last applied block. */
  id: string;
  height: number;
  /** Recent points (newest first, dense near the tip, sparser back) for findIntersection after a restart. */
  points: { slot: number; id: string; height: number }[];
  /** Chain tip as last reported by the source, for lag figures. */
  tip: { slot: number; id: string; height: number } | null;
  updatedAt: string;
}
export const CHECKPOINTS = defineCollection<CheckpointDoc>({ name: 'checkpoints' });

/** What to restore if block `blockId` is rolled back: each touched document's value before the block. */
export interface UndoDoc {
  /** Zero-padded height, so `_id` order is height order. */
  _id: string;
  height: number;
  slot: number;
  blockId: string;
  /** The point before this block (where a rollback of this block leaves the chain). */
  prev: { slot: number; id: string; height: number } | 'origin';
  /**
   * Per document the block changed, in the order it first changed them: the whole prior document (`doc`, null =
   * absent before), or for an update only the prior values of the fields that changed (`patch`: `p` the path of
   * field names, `v` the prior value, no `v` = the field was absent; activities/sync/undo-patch.ts).
   */
  priors: (
    | { coll: string; id: string; doc: ({ _id: string } & Record<string, unknown>) | null }
    | { coll: string; id: string; patch: { p: string[]; v?: unknown }[] }
  )[];
}
export const UNDO = defineCollection<UndoDoc>({ name: 'undo' });

export const undoId = (height: number) => String(height).padStart(12, '0');

/**
 * How the sync is doing, as monitors and operators read it (`/healthz/sync`, `/readyz`, `ops status`, metrics).
 * One document (`_id` 'sync'), written by the sync activity at every contact with the chain source (success or
 * failure), so it stays true while no slice commits: the source is down, or the sync stopped on an error retrying
 * cannot fix.
 */
export interface SyncHealthDoc {
  _id: string;
  /** Last successful contact with the chain source (ISO). */
  contactAt: string | null;
  /** The chain tip the source reported at that contact (height 0 / id 'origin' for an empty chain). */
  tip: { slot: number; id: string; height: number } | null;
  /**
   * Set while slices fail and are retried: since when (the first failure after the last success), the last error,
   * and whether it was the chain source that did not answer (connection refused, dropped, timed out).
   */
  failing: { since: string; error: string; sourceDown: boolean } | null;
  /** A failure retrying cannot fix (the sync run has failed); cleared by the next successful slice. */
  stall: SyncStall | null;
  /**
   * Rollbacks deeper than DEEP_ROLLBACK_BLOCKS (and resyncs) so far. A derived document built before the latest one
   * may describe the abandoned chain: its job's answers are withheld until the job ran again (DERIVED_RUNS).
   */
  generation: number;
  lastDeepRollback: { depth: number; toHeight: number; at: string } | null;
  /**
   * When the worker that ran the sync stopped cleanly (SIGTERM, Ctrl-C); cleared by the sync's next record. Until
   * then the sync is known not to run, and a failure recorded before the stop is no longer being retried.
   */
  stoppedAt?: string | null;
  /**
   * When a worker started the sync again (npm start's embedded worker, `npm run worker`); cleared, as `stoppedAt`
   * is, by the sync's next record. Until then its first slice has not ended (a restarted devnet regenerating its
   * history holds it for tens of seconds; a catch-up's first slice on FerretDB takes a minute or more): the sync is
   * starting, neither stopped nor known to progress.
   */
  startedAt?: string | null;
  /**
   * The resync request (its `requestedAt`) whose clear of the store completed last: a retry of that resync's run
   * continues the rebuild instead of clearing it again (activities/sync/reset.ts).
   */
  resyncCleared?: string;
  /**
   * A rollback in progress (activities/sync/journal.ts undoes it in bounded writes, each committing the store at a
   * block of the abandoned chain with its checkpoint): from which height, to which point, how many blocks are undone
   * so far. Written before its first write for a rollback deeper than DEEP_ROLLBACK_BLOCKS, cleared with its last.
   * While set, the indexed blocks above `to` are of a chain the source no longer has: chain answers are withheld
   * (api/sync-guard.ts) and /healthz/sync says so. A rollback longer than a slice's time limit goes on in the next.
   */
  rollingBack?: RollingBack | null;
  updatedAt: string;
}

export interface RollingBack {
  /** Indexed height when the rollback began. */
  fromHeight: number;
  /** The point it rolls back to (the fork point), and its height (0 = origin). */
  to: { slot: number; id: string; height: number } | 'origin';
  toHeight: number;
  /** Blocks undone so far (of fromHeight − toHeight). */
  undone: number;
  since: string;
}

export type StallKind = 'rollback-too-deep' | 'chain-disconnected' | 'store-refused' | 'store-corrupt';

export interface SyncStall {
  kind: StallKind;
  /** One line for monitors, e.g. "sync stalled: rollback beyond the undo window, resync needed". */
  reason: string;
  /** What the operator does next (README "Operating"). */
  action: string;
  /** The error as thrown. */
  error: string;
  since: string;
  /**
   * Indexed blocks above this height belong to a chain the source no longer has (a rollback the undo journal could
   * not reach); 0 = all of them. Null when the indexed chain is still the source's (a refused document).
   */
  abandonedAbove: number | null;
}

export const SYNC_HEALTH = defineCollection<SyncHealthDoc>({ name: 'sync_health' });
export const SYNC_HEALTH_ID = 'sync';

/**
 * A rollback of more than this many blocks reruns every recompute that reads chain data at once and withholds their
 * answers until then. Ordinary forks (1–3 blocks on mainnet and the devnet) change no derived figure noticeably.
 */
export const DEEP_ROLLBACK_BLOCKS = 3;

/**
 * The sync generation a recompute job's documents were built in (`_id` = workflow name, e.g. recomputeStaking):
 * read when its run starts, written when the run completes. Documents of a generation older than
 * SyncHealthDoc.generation were built (at least partly) from a chain that has since been rolled back.
 */
export interface DerivedRunDoc {
  _id: string;
  generation: number;
  /** Indexed tip when the run started (the chain point its documents were built from). */
  from: { slot: number; id: string; height: number } | null;
  startedAt: string;
  finishedAt: string;
}
export const DERIVED_RUNS = defineCollection<DerivedRunDoc>({ name: 'derived_runs' });

/**
 * How each scheduled job (recomputes, news ingest) last ended, written by the job itself (workflows/derived.ts) on
 * either engine: so every API replica's /readyz, /healthz/jobs and /metrics see a job whose retries ran out, also
 * when it runs on a Temporal worker. `failing` is cleared by the job's next success.
 */
export interface JobHealthDoc {
  /** The workflow name. */
  _id: string;
  lastSuccessAt: string | null;
  /** Set when a run failed after its retries: since when (the first failed run after the last success), why, and how many runs failed. */
  failing: { since: string; error: string; runs: number } | null;
  /**
   * When the run in progress started (recomputes, workflows/derived.ts); cleared when it ends. A job reading this
   * one's documents waits for it to end. A run killed with its process leaves it set until the job's next run ends.
   */
  runningSince?: string | null;
  updatedAt: string;
}
export const JOB_HEALTH = defineCollection<JobHealthDoc>({ name: 'job_health' });

/**
 * When a job last completed a run (null before its first success): the time of figures a run may write no document
 * for (a governance run over a ledger listing no proposal).
 */
export async function jobLastSuccessAt(store: Store, workflow: string): Promise<string | null> {
  return (await store.collection(JOB_HEALTH).get(workflow))?.lastSuccessAt ?? null;
}

/** The jobs whose last run failed, oldest failure first. */
export async function failingJobs(
  store: Store,
): Promise<(JobHealthDoc & { failing: NonNullable<JobHealthDoc['failing']> })[]> {
  const out: (JobHealthDoc & { failing: NonNullable<JobHealthDoc['failing']> })[] = [];
  for await (const d of store.collection(JOB_HEALTH).scan()) if (d.failing) out.push({ ...d, failing: d.failing });
  return out.sort((a, b) => (a.failing.since < b.failing.since ? -1 : 1));
}

/** The MongoDB driver's errors that say its server is not reached (an outage, not a refused write). */
const STORE_DOWN_ERRORS = 'Mongo(ServerSelection|Network|NetworkTimeout|TopologyClosed)Error';
/** One of them anywhere in a job's recorded error (`<activity>: <name>: <message>` on the embedded runner). */
const JOB_STORE_DOWN = new RegExp(`\\b${STORE_DOWN_ERRORS}\\b`);

/** The embedded store refusing a write for want of disk space (mongo/adapters/embedded.ts StoreDiskFullError). */
const STORE_DISK_FULL = /\bStoreDiskFullError\b|the disk holding the store \(/;

/**
 * What the operator does about a job whose retries ran out, from its recorded error (`JobHealthDoc.failing.error`,
 * `<activity>: <name>: <message>` on the embedded runner, the message alone on Temporal). Every job runs again by
 * itself on its schedule (`npm run ops -- jobs`: its interval) and leaves the failing list once a run completes, so
 * an outage (the chain source down or frozen, its ledger still replaying, the store's disk under its reserve, the
 * MongoDB server gone) needs no retry once its cause is gone; a failure of the job's own work needs the cause fixed,
 * and `ops -- trigger` runs the job at once instead of at its next firing.
 */
export function jobFailureAction(error: string): string {
  const again = 'the job runs again by itself on its schedule (`npm run ops -- jobs`) and clears once a run completes';
  if (STORE_DISK_FULL.test(error)) return `free space on the disk holding the store (DATA_DIR), nothing else: ${again}`;
  if (JOB_STORE_DOWN.test(error)) return `bring the store back (MONGODB_URI), nothing else: ${again}`;
  // The chain source's connection (activities/chain/ogmios-rpc.ts's errors) or its ledger still replaying. A bare
  // ECONNREFUSED may be a news feed's: that is the job's own input, not an outage of the service's parts.
  if (
    /\bOgmios(Connection|Timeout)Error\b|cannot connect to Ogmios|Ogmios (connection|client for) |Ogmios gave no answer|\bLedgerBehindError\b|the chain source's ledger is at /.test(
      error,
    )
  )
    return `bring the chain source back (OGMIOS_URL; without it npm start's own devnet), nothing else: ${again}`;
  return (
    `fix the cause (its error); ${again}, or \`npm run ops -- trigger <job>\` runs it now ` +
    '(its failed runs: `npm run ops -- runs --failed`)'
  );
}

/** One next step for a list of failing jobs: theirs when they share it, else a pointer to each one's. */
export function jobsAction(actions: readonly string[]): string {
  const distinct = [...new Set(actions)];
  return distinct.length === 1 ? distinct[0]! : "each failing job's `action` says what to do about it";
}

export async function readSyncHealth(store: Store): Promise<SyncHealthDoc | null> {
  return store.collection(SYNC_HEALTH).get(SYNC_HEALTH_ID);
}

export interface SyncLag {
  /** lag = max(tip − indexed, now − time of the indexed tip block), seconds (cardano/sync-lag.ts); null: nothing indexed. */
  lagSeconds: number | null;
  height: number | null;
  slot: number | null;
  /** The tip the source last reported (at any contact), else the checkpoint's. */
  tipHeight: number | null;
  tipSlot: number | null;
  /** Time of the indexed tip block (ISO), the "as of" of every chain answer. */
  indexedTime: string | null;
  checkpoint: CheckpointDoc | null;
  health: SyncHealthDoc | null;
}

/** The sync position and its honest lag, read once for every surface that shows it. */
/** The sync checkpoint and the indexed tip block it names (both null before the first slice). */
/**
 * The tip block last read per store. A block id is its hash, so the document under one id never changes: while the
 * checkpoint names the same block, answers reuse it instead of reading and decoding it again (every answer's asOf).
 */
const tipBlocks = new WeakMap<Store, BlockDoc>();

export async function indexedTip(store: Store): Promise<{ checkpoint: CheckpointDoc | null; block: BlockDoc | null }> {
  const checkpoint = await store.collection(CHECKPOINTS).get('sync');
  if (!checkpoint) return { checkpoint, block: null };
  const known = tipBlocks.get(store);
  if (known?._id === checkpoint.id) return { checkpoint, block: known };
  const block = await store.collection(BLOCKS).get(checkpoint.id);
  if (block) tipBlocks.set(store, block);
  return { checkpoint, block };
}

/**
 * The indexed chain position as one string (`height:blockId`, '-' before the first block): the part of every
 * answer cache's key that a new block or a rollback changes.
 *
 * Read once per event-loop turn and shared by the requests answered in that turn: lmdb's reads in one turn see one
 * read snapshot anyway, and renewing that snapshot is most of what a read costs on the replay path.
 */
export function checkpointTag(store: Store): Promise<string> {
  let tag = turnTags.get(store);
  if (!tag) {
    tag = store
      .collection(CHECKPOINTS)
      .get('sync')
      .then((checkpoint) => (checkpoint ? `${checkpoint.height}:${checkpoint.id}` : '-'));
    turnTags.set(store, tag);
    setImmediate(() => turnTags.delete(store));
  }
  return tag;
}
const turnTags = new WeakMap<Store, Promise<string>>();

/**
 * `compute` once per indexed tip block: for values derived only from documents the sync writes with that block
 * (pool reserves, not recompute snapshots). Exact under rollbacks: a rollback moves the checkpoint to another block,
 * so the next read computes again. One value per store.
 *
 * A value whose reads ran while a block or rollback landed (the checkpoint moved meanwhile) is returned to its
 * callers but not kept: it holds the new block's state under the tip before it, and a fork rolling the chain back
 * to that tip would have served the orphaned block's value until the next block (the answer caches keep no such
 * answer either: api/micro-cache.ts).
 */
export function perTipBlock<T>(compute: (store: Store) => Promise<T>): (store: Store) => Promise<T> {
  const memo = new WeakMap<Store, { tip: string; value: Promise<T> }>();
  return async (store) => {
    const tip = await checkpointTag(store);
    const known = memo.get(store);
    if (known?.tip === tip) return known.value;
    const value = compute(store);
    const entry = { tip, value };
    memo.set(store, entry);
    const forget = () => {
      if (memo.get(store) === entry) memo.delete(store);
    };
    // A failed read is not kept: the next caller tries again.
    value.then(async () => {
      if ((await checkpointTag(store).catch(() => null)) !== tip) forget();
    }, forget);
    return value;
  };
}

export async function readSyncLag(store: Store, nowMs: number): Promise<SyncLag> {
  const [{ checkpoint, block }, health] = await Promise.all([indexedTip(store), readSyncHealth(store)]);
  // The tip of whichever was written last: the health record's is the last slice's end, the checkpoint's is each
  // committed batch's (a catch-up slice commits for a minute or more; it read "height 279, tip 259").
  const checkpointNewer =
    checkpoint?.tip && (!health?.tip || Date.parse(checkpoint.updatedAt) > Date.parse(health.updatedAt));
  const tip = checkpointNewer ? checkpoint.tip : (health?.tip ?? checkpoint?.tip ?? null);
  const timeMs = block ? Date.parse(block.time) : null;
  return {
    lagSeconds: checkpoint
      ? syncLagSeconds({ indexedSlot: checkpoint.slot, indexedTimeMs: timeMs, tipSlot: tip?.slot ?? null, nowMs })
      : null,
    height: checkpoint?.height ?? null,
    slot: checkpoint?.slot ?? null,
    tipHeight: tip?.height ?? checkpoint?.height ?? null,
    tipSlot: tip?.slot ?? checkpoint?.slot ?? null,
    indexedTime: block?.time ?? null,
    checkpoint,
    health,
  };
}

/** No word from the sync for this long (no contact, no failure recorded) means it is not running at all. */
export const SYNC_SILENT_SECONDS = 180;

export interface SyncCondition {
  /** 'ok' (200 on /healthz/sync); anything else is 503 with `reason`. */
  status: 'ok' | 'stalled' | 'unreachable' | 'failing' | 'silent' | 'starting' | 'rolling-back';
  /** One line for monitors and `ops status`. */
  reason: string | null;
  /** What the operator does next. */
  action: string | null;
  since: string | null;
  /** Indexed blocks above this height are of a chain the source no longer has (null: none). */
  abandonedAbove: number | null;
}

const secondsSince = (nowMs: number, iso: string) => Math.max(0, Math.round((nowMs - Date.parse(iso)) / 1000));

/** A failure of the MongoDB store's connection (the server down or not reachable), as recorded `name: message`. */
const STORE_DOWN = new RegExp(`^${STORE_DOWN_ERRORS}\\b`);

/**
 * Whether a recorded slice failure was an outage (the chain source's or the store's connection): one that is over as
 * soon as both answer again, unlike a failure of the slice's own work (a write refused, a block that cannot apply).
 */
export const failureWasOutage = (f: { error: string; sourceDown: boolean }): boolean =>
  f.sourceDown || STORE_DOWN.test(f.error);

/**
 * Why the worker that runs the sync is not running it (`reason`, one line), and since when (`since`, ISO: when it
 * exited, or last answered a ping when it stopped answering; while one starts, since the supervisor began starting
 * it after the last worker that ran).
 */
export interface WorkerDown {
  reason: string;
  since: string;
}

/**
 * The sync's condition where the process serving the API knows the worker that runs the sync is down (`npm start`'s
 * embedded worker exited and is restarting, or stopped answering its pings: temporal/worker-child.ts `down()`).
 * What the sync last recorded (ok, failing, unreachable, rolling back) then says it runs while nothing runs it: a
 * worker stopped by SIGSTOP or a blocked event loop read `ok` on /healthz/sync and `cardano_sync_healthy 1` until its
 * records went stale (SYNC_SILENT_SECONDS, 3 min) while /readyz already named it after 30 s. A stall or a recorded
 * stop keeps its own reason and action; `starting` stays (a worker starting up is `down()` too). Pure.
 */
export function withWorkerDown(c: SyncCondition, down: WorkerDown | null): SyncCondition {
  if (down === null || !['ok', 'failing', 'unreachable', 'rolling-back'].includes(c.status)) return c;
  return {
    status: 'silent',
    reason: `sync not running: ${down.reason}`,
    action:
      'none while npm start restarts a worker that exited (after 1, 2, 4, 8, 16 s); one that does not answer is not ' +
      'killed: resume it (SIGCONT) or kill it, and npm start restarts it',
    since: down.since,
    abandonedAbove: c.abandonedAbove,
  };
}

/** Whether the sync progresses, from what it recorded (pure; /healthz/sync, /readyz and `ops status` show it). */
export function syncCondition(lag: Pick<SyncLag, 'checkpoint' | 'health'>, nowMs: number): SyncCondition {
  const h = lag.health;
  const none = { action: null, since: null, abandonedAbove: null };
  // A write batch commits the checkpoint as it goes, and the health record is written only when a slice ends (a
  // minute or more into a catch-up on FerretDB): a checkpoint written after a record (a stop, a start, a failure)
  // says the sync has run since, whatever that record says.
  const committedMs = lag.checkpoint ? Date.parse(lag.checkpoint.updatedAt) : Number.NaN;
  const committedSince = (iso: string) => committedMs > Date.parse(iso);
  if (h?.stall)
    return {
      status: 'stalled',
      reason: h.stall.reason,
      action: h.stall.action,
      since: h.stall.since,
      abandonedAbove: h.stall.abandonedAbove,
    };
  if (h?.stoppedAt && !committedSince(h.stoppedAt))
    return {
      status: 'silent',
      reason: `sync not running: its worker stopped at ${h.stoppedAt}`,
      action: 'start the service (`npm start`) or the Temporal worker',
      since: h.stoppedAt,
      abandonedAbove: null,
    };
  // Before a recorded failure: a sync that failed and then stopped (the service or worker stopped while the source
  // was down; stopping npm start drops the devnet's connection first) is not retrying any more, and every attempt
  // of a running one records itself (each ends within the source's 120 s timeout).
  const lastWord = h && lag.checkpoint && committedSince(h.updatedAt) ? lag.checkpoint.updatedAt : h?.updatedAt;
  if (lastWord && secondsSince(nowMs, lastWord) > SYNC_SILENT_SECONDS)
    return {
      status: 'silent',
      reason: `sync not running: no word from it for ${secondsSince(nowMs, lastWord)} s`,
      action: 'start the service (`npm start`) or the Temporal worker and `npm run schedules:apply`',
      since: lastWord,
      abandonedAbove: null,
    };
  if (h?.startedAt && !committedSince(h.startedAt))
    return {
      status: 'starting',
      reason: `sync starting: its worker started at ${h.startedAt}; its first slice has not ended yet`,
      action: 'none: it reports within about a minute (an unreachable source, a failure or progress)',
      since: h.startedAt,
      abandonedAbove: null,
    };
  if (h?.failing && !committedSince(h.updatedAt)) {
    const s = secondsSince(nowMs, h.failing.since);
    if (STORE_DOWN.test(h.failing.error))
      return {
        status: 'failing',
        reason: `store unreachable for ${s} s (${h.failing.error}); retrying`,
        action: 'check the store (MONGODB_URI: the server and the network to it); the sync resumes once it answers',
        since: h.failing.since,
        abandonedAbove: null,
      };
    // The embedded store refusing writes while its disk is under the reserve (StoreDiskFullError): the log and the
    // run list say nothing more than the error; the step is the disk's, and the sync resumes by itself after it.
    if (STORE_DISK_FULL.test(h.failing.error))
      return {
        status: 'failing',
        reason: `sync failing for ${s} s (${h.failing.error}); retrying`,
        action:
          'free space on the disk holding the store (DATA_DIR), or move DATA_DIR to a larger disk; the sync resumes ' +
          'by itself within seconds of it (nothing to restart)',
        since: h.failing.since,
        abandonedAbove: null,
      };
    return h.failing.sourceDown
      ? {
          status: 'unreachable',
          reason: `chain source unreachable for ${s} s (${h.failing.error}); retrying`,
          // Without OGMIOS_URL the source is npm start's own devnet, which npm start restarts when it exits (1-16 s,
          // then its history): there is no OGMIOS_URL or node to check. A devnet that stays up without answering (a
          // stopped or hung process: its handshake times out, its pings go unanswered) is never restarted.
          action:
            'check the chain source (OGMIOS_URL and its node; with OGMIOS_URL unset it is npm start’s own devnet, ' +
            'which npm start restarts when it exits; one that runs without answering is not restarted: resume it ' +
            '(SIGCONT) or kill it, its pid is in npm start’s log); the sync resumes within seconds of its return',
          since: h.failing.since,
          abandonedAbove: null,
        }
      : {
          status: 'failing',
          reason: `sync failing for ${s} s (${h.failing.error}); retrying`,
          action: 'see the service log and `npm run ops -- runs --workflow syncChain`',
          since: h.failing.since,
          abandonedAbove: null,
        };
  }
  if (h?.rollingBack) {
    const rb = h.rollingBack;
    const depth = rb.fromHeight - rb.toHeight;
    return {
      status: 'rolling-back',
      reason:
        `sync rolling back ${depth} block${depth === 1 ? '' : 's'} (height ${rb.fromHeight} to ${rb.toHeight}; ` +
        `${rb.undone} undone, indexed height now ${lag.checkpoint?.height ?? 0}): the blocks above height ` +
        `${rb.toHeight} are of a chain the source no longer has, and chain answers are withheld until it completes`,
      action: 'none: the sync undoes it in bounded steps and then follows the source again',
      since: rb.since,
      abandonedAbove: rb.toHeight,
    };
  }
  // Nothing recorded at all: a worker may be on its first batch, or none may run (on Temporal, the API starts
  // neither the worker nor the sync workflow), so the action covers both.
  if (!lag.checkpoint)
    return {
      status: 'starting',
      reason: 'sync starting: no block indexed yet',
      ...none,
      action:
        'none while a worker runs the sync (its first write batch is under way); else start it: `npm start` without ' +
        'TEMPORAL_ADDRESS, or `npm run worker` and `npm run schedules:apply`',
    };
  return { status: 'ok', reason: null, ...none };
}
