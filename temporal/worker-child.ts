/**
 * The embedded worker (temporal/embedded.ts: the sync and every scheduled job) in a child process of `npm start`
 * (scripts/embedded-worker.ts), as devnet/child.ts runs the devnet: the API process then holds only what serving
 * needs, and the catch-up sync's high-water mark (V8 heap, lmdb write buffers) stays in the worker. Both processes
 * open the same lmdb environment (lmdb serialises writers across processes; the API writes only its access
 * collections).
 *
 * The child exits when the IPC channel closes, so it never outlives `npm start`, even one killed with SIGKILL.
 * A worker that exits unexpectedly is logged at error level and restarted after 1, 2, 4, 8, 16 s; while none runs,
 * `down()` says why (/readyz answers 503 with it). After MAX_CRASHES crashes within CRASH_WINDOW_MS, `onGiveUp` is
 * called: `npm start` then stops and exits non-zero, so a supervisor (systemd, a container's restart policy) sees it.
 * A worker that is alive but does not answer (stopped by SIGSTOP, a debugger, its event loop blocked) is pinged
 * every PING_MS: after UNRESPONSIVE_MS without an answer `down()` says so too, instead of the sync looking healthy
 * until its records go stale (3 min).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { childExecArgv } from '../config/node-flags.js';
import { DATA_DIR_TAKEN_EXIT } from './worker-pid.js';
import type { pino } from 'pino';
import type { MetricsSnapshot } from '../api/metrics/index.js';
import type { WorkerDown } from '../mongo/collections/sync-state.js';

const SCRIPT = fileURLToPath(new URL('../scripts/embedded-worker.ts', import.meta.url));

export const MAX_CRASHES = 5;
export const CRASH_WINDOW_MS = 5 * 60_000;

/**
 * The restart policy of a supervised child process (this worker, and the devnet of `npm start`): each death within
 * CRASH_WINDOW_MS doubles the delay before the restart (1, 2, 4, 8, 16 s); at MAX_CRASHES the supervisor gives up
 * (`delayMs` null), so its own supervisor sees the failure. Call it at each death with the time.
 */
export function crashBackoff(): (now: number) => { crashes: number; delayMs: number | null } {
  let crashes: number[] = [];
  return (now) => {
    crashes = [...crashes.filter((t) => now - t < CRASH_WINDOW_MS), now];
    return {
      crashes: crashes.length,
      delayMs: crashes.length >= MAX_CRASHES ? null : 1000 * 2 ** (crashes.length - 1),
    };
  };
}
const METRICS_TIMEOUT_MS = 2_000;
const PING_MS = 5_000;
export const UNRESPONSIVE_MS = 30_000;
const STOP_TIMEOUT_MS = 30_000;

/** Parent → worker. */
export type ToWorker =
  /** The chain source (the devnet `npm start` runs; a configured OGMIOS_URL the worker reads itself). */
  | { type: 'source'; url: string; devnet: boolean }
  /** The source's history is complete (the devnet finished its backfill): the sync may report the tip. */
  | { type: 'source-complete' }
  /** The source is regenerating its history (a restarted devnet): its tip is not the chain's until complete again. */
  | { type: 'source-incomplete' }
  | { type: 'metrics'; id: number }
  /** Liveness: the worker answers `pong` from its event loop. */
  | { type: 'ping' };

/** Worker → parent. */
export type FromWorker =
  /** Listening for messages: the parent sends what it knows of the source. */
  | { type: 'hello' }
  /** The sync run is recorded and the schedules are set. */
  | { type: 'ready' }
  | { type: 'metrics'; id: number; metrics: MetricsSnapshot }
  | { type: 'pong' };

export interface WorkerSupervisor {
  /** Null while a worker runs and has started the sync; else why not and since when (for /readyz, /healthz/sync). */
  down(): WorkerDown | null;
  pid(): number | null;
  /** The chain source to pass to every worker (also after a restart). */
  setSource(url: string, devnet: boolean): void;
  sourceComplete(): void;
  /** The source went away and will serve a growing history again (the devnet died): not complete until said so. */
  sourceIncomplete(): void;
  /** The running worker's WORK_METRICS; empty while none runs. */
  metrics(): Promise<MetricsSnapshot>;
  /** Resolves when a worker first reports ready. */
  ready: Promise<void>;
  /**
   * SIGTERM to the worker (it stops its runs and closes the store), SIGKILL if it has not exited 30 s later;
   * resolved when it exited; no restart after.
   */
  stop(): Promise<void>;
}

export interface SuperviseOptions {
  log: pino.Logger;
  /** Called once when the worker keeps crashing (MAX_CRASHES within CRASH_WINDOW_MS). */
  onGiveUp: (reason: string) => void;
  /** Extra environment of the child (tests); the parent's environment is inherited. */
  env?: NodeJS.ProcessEnv;
}

export function superviseWorker(opts: SuperviseOptions): WorkerSupervisor {
  const { log } = opts;
  let child: ChildProcess | null = null;
  let childReady = false;
  let stopping = false;
  let downReason: string | null = 'the embedded worker (sync and scheduled jobs) is starting';
  let source: { url: string; devnet: boolean } | null = null;
  let complete = false;
  const backoff = crashBackoff();
  let restartTimer: NodeJS.Timeout | null = null;
  let nextId = 1;
  const pending = new Map<number, (m: MetricsSnapshot) => void>();
  let markReady!: () => void;
  const ready = new Promise<void>((r) => (markReady = r));
  let exited: Promise<void> = Promise.resolve();
  /** When the running worker last sent anything (unix ms), and whether its silence has been logged. */
  let lastAnswer = Date.now();
  let silent = false;
  /** Since when no worker runs the sync (unix ms): the start, then each exit of a worker that had started it. */
  let downSinceMs = Date.now();

  const send = (m: ToWorker) => {
    if (child?.connected) child.send(m);
  };

  function spawnOne() {
    const c = fork(SCRIPT, [], {
      // The parent's loader flags (tsx) so the child runs the same TypeScript sources; not the API's heap cap.
      execArgv: childExecArgv(),
      env: { ...process.env, ...opts.env },
      // Its log lines go to the service's own stdout and stderr.
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child = c;
    childReady = false;
    lastAnswer = Date.now();
    silent = false;
    c.on('message', (m: FromWorker) => {
      lastAnswer = Date.now();
      if (silent) {
        silent = false;
        log.info({ pid: c.pid }, 'embedded worker answers again');
      }
      if (m?.type === 'hello') {
        if (source) c.send({ type: 'source', ...source } satisfies ToWorker);
        if (complete) c.send({ type: 'source-complete' } satisfies ToWorker);
      } else if (m?.type === 'ready') {
        childReady = true;
        downReason = null;
        log.info({ pid: c.pid }, 'embedded worker running (sync and scheduled jobs, its own process)');
        markReady();
      } else if (m?.type === 'metrics') {
        pending.get(m.id)?.(m.metrics);
        pending.delete(m.id);
      }
    });
    exited = new Promise((resolve) => {
      c.once('exit', (code, signal) => {
        // A worker that ran the sync stopped running it now, or when it stopped answering; one that never got that
        // far leaves the time the previous one went down.
        if (child === c && childReady) downSinceMs = silent ? lastAnswer : Date.now();
        if (child === c) child = null;
        for (const done of pending.values()) done([]);
        pending.clear();
        resolve();
        if (stopping) return;
        onCrash(c.pid, code, signal);
      });
    });
    c.once('error', (e) => log.error({ err: e }, 'embedded worker: could not start the process'));
  }

  function onCrash(pid: number | undefined, code: number | null, signal: NodeJS.Signals | null) {
    if (code === DATA_DIR_TAKEN_EXIT) {
      // Another npm start's worker holds DATA_DIR (the worker printed which): not a crash a restart recovers from.
      downReason = 'DATA_DIR is in use by the embedded worker of another npm start';
      log.fatal({ pid, code }, `${downReason}; stopping`);
      opts.onGiveUp(downReason);
      return;
    }
    const { crashes, delayMs } = backoff(Date.now());
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (delayMs === null) {
      downReason = `the embedded worker exited (${how}) ${crashes} times within ${CRASH_WINDOW_MS / 60_000} min`;
      log.fatal({ pid, code, signal, crashes }, `${downReason}; giving up`);
      opts.onGiveUp(downReason);
      return;
    }
    downReason = `the embedded worker (sync and scheduled jobs) exited (${how}); restarting in ${delayMs / 1000} s`;
    log.error(
      { pid, code, signal, crashes, restartInMs: delayMs },
      `${downReason} (${crashes} of ${MAX_CRASHES} allowed within ${CRASH_WINDOW_MS / 60_000} min)`,
    );
    restartTimer = setTimeout(() => {
      restartTimer = null;
      if (stopping) return;
      downReason = 'the embedded worker (sync and scheduled jobs) is restarting';
      spawnOne();
    }, delayMs);
  }

  spawnOne();

  const unresponsive = (): WorkerDown | null => {
    const ms = Date.now() - lastAnswer;
    return ms > UNRESPONSIVE_MS
      ? {
          reason:
            `the embedded worker (pid ${child?.pid}, sync and scheduled jobs) has not answered for ${Math.round(ms / 1000)} s ` +
            '(stopped, or its event loop blocked)',
          since: new Date(lastAnswer).toISOString(),
        }
      : null;
  };
  const pinger = setInterval(() => {
    if (!child?.connected || !childReady) return;
    const why = unresponsive();
    if (why && !silent) {
      silent = true;
      log.error({ pid: child.pid }, why.reason);
    }
    send({ type: 'ping' });
  }, PING_MS);
  pinger.unref();

  return {
    down: () =>
      childReady && child
        ? unresponsive()
        : downReason === null
          ? null
          : { reason: downReason, since: new Date(downSinceMs).toISOString() },
    pid: () => child?.pid ?? null,
    setSource(url, devnet) {
      source = { url, devnet };
      send({ type: 'source', url, devnet });
    },
    sourceComplete() {
      complete = true;
      send({ type: 'source-complete' });
    },
    sourceIncomplete() {
      complete = false;
      send({ type: 'source-incomplete' });
    },
    metrics() {
      const c = child;
      if (!c?.connected || !childReady) return Promise.resolve([]);
      const id = nextId++;
      return new Promise<MetricsSnapshot>((resolve) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          resolve([]);
        }, METRICS_TIMEOUT_MS);
        pending.set(id, (m) => {
          clearTimeout(timer);
          resolve(m);
        });
        c.send({ type: 'metrics', id } satisfies ToWorker);
      });
    },
    ready,
    async stop() {
      stopping = true;
      downReason = 'stopping';
      clearInterval(pinger);
      if (restartTimer) clearTimeout(restartTimer);
      const c = child;
      if (c && c.exitCode === null && c.signalCode === null) {
        c.kill('SIGTERM');
        // A run that does not return (a hung store or source call) must not hold the service's shutdown forever:
        // what it wrote is committed batch by batch, so SIGKILL loses nothing.
        const kill = setTimeout(() => {
          log.warn({ pid: c.pid, afterMs: STOP_TIMEOUT_MS }, 'embedded worker did not stop; killing it');
          c.kill('SIGKILL');
        }, STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(kill);
      }
      await exited;
    },
  };
}
