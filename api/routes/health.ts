/**
 * Process probes at the site root (not part of /api/v1, not rate limited, not in the OpenAPI document).
 * - /healthz: the process serves HTTP.
 * - /readyz: this replica can serve: the store answers and the sync has written its checkpoint; 503 `{ error }`
 *   otherwise, so a load balancer keeps traffic away; also 503 while `npm start`'s embedded worker (the sync and the
 *   scheduled jobs, a child process) is down or restarting. A stalled sync does not make it 503 (every replica shares the
 *   store, so taking them all out of the balancer helps nobody); its body names the stall (`sync`) and the lag.
 * - /healthz/sync: for monitors. 200 while the sync progresses; 503 with the reason while it does not (stalled on an
 *   error retrying cannot fix, source unreachable, failing, not running), with the operator's next step.
 * - /healthz/jobs: for monitors. 200 while every scheduled job's last run succeeded; 503 naming each job whose
 *   retries ran out (recorded by the job on either engine), with the operator's next step. /readyz names them too.
 * A store read of a probe that takes longer than PROBE_STORE_MS counts as the store not answering (store-budget.ts).
 */
import Router from '@koa/router';
import type Koa from 'koa';
import {
  failingJobs,
  jobFailureAction,
  jobsAction,
  readSyncLag,
  syncCondition,
  withWorkerDown,
  type SyncLag,
} from '../../mongo/collections/sync-state.js';
import type { ApiDeps } from '../deps.js';
import { AppError } from '../errors.js';
import { requestLog } from '../middleware.js';
import { PROBE_STORE_MS, withinMs } from '../store-budget.js';

/**
 * What an operator does about a probe whose store read failed or outlasted PROBE_STORE_MS: the probes' other 503s name
 * an action (a stall, a failing job), and this one is a part that is down, not the sync.
 */
const STORE_DOWN_ACTION =
  'check that the store this replica reads is up and reachable (MONGODB_URI; the embedded store: DATA_DIR and its disk); `npm run ops -- status` says whether it answers';

/** A probe's 503 while the store does not answer: `{ error, reason, action }`, as the probes' other 503s are. */
class ProbeStoreDown extends AppError {
  constructor(what: string) {
    super(503, `${what}: the store does not answer`);
  }
  override body(): Record<string, unknown> {
    return { error: this.message, reason: 'the store does not answer', action: STORE_DOWN_ACTION };
  }
}

export function healthRouter({ store, log, now = Date.now, workerDown }: ApiDeps): Router {
  const router = new Router();
  const read = async (ctx: Koa.Context, what: string): Promise<SyncLag> => {
    ctx.set('Cache-Control', 'no-store');
    try {
      return await withinMs(readSyncLag(store, now()), PROBE_STORE_MS);
    } catch (err) {
      requestLog(ctx, log).warn({ err }, `${what}: store read failed`);
      throw new ProbeStoreDown(what === 'readiness' ? 'not ready' : 'sync unknown');
    }
  };

  router.get('healthz', '/healthz', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok' };
  });

  router.get('healthz-sync', '/healthz/sync', async (ctx) => {
    const lag = await read(ctx, 'sync health');
    // A worker that exited or stops answering runs no sync, whatever its last record says (/readyz names it too).
    const c = withWorkerDown(syncCondition(lag, now()), workerDown?.() ?? null);
    ctx.status = c.status === 'ok' ? 200 : 503;
    ctx.body = {
      status: c.status,
      ...(c.reason ? { error: c.reason, reason: c.reason, action: c.action, since: c.since } : {}),
      ...(c.abandonedAbove !== null ? { abandonedAbove: c.abandonedAbove } : {}),
      height: lag.height,
      tipHeight: lag.tipHeight,
      lagSeconds: lag.lagSeconds,
      indexedTime: lag.indexedTime,
      lastContact: lag.health?.contactAt ?? null,
      // The last rollback deeper than a few blocks (derived answers are withheld until recomputed after it).
      lastDeepRollback: lag.health?.lastDeepRollback ?? null,
    };
  });

  const jobs = async (ctx: Koa.Context, what: string) =>
    (
      await withinMs(failingJobs(store), PROBE_STORE_MS).catch((err: unknown) => {
        requestLog(ctx, log).warn({ err }, `${what}: store read failed`);
        throw new ProbeStoreDown(what === 'readiness' ? 'not ready' : 'jobs unknown');
      })
    ).map((j) => ({
      workflow: j._id,
      since: j.failing.since,
      failedRuns: j.failing.runs,
      error: j.failing.error,
      // A job runs again on its schedule: an outage's cause going away is enough, no retry (jobFailureAction).
      action: jobFailureAction(j.failing.error),
      lastSuccessAt: j.lastSuccessAt,
    }));

  router.get('healthz-jobs', '/healthz/jobs', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const failing = await jobs(ctx, 'jobs health');
    ctx.status = failing.length ? 503 : 200;
    ctx.body = failing.length
      ? {
          status: 'failing',
          error: `scheduled job${failing.length > 1 ? 's' : ''} failing: ${failing.map((j) => j.workflow).join(', ')}`,
          action: jobsAction(failing.map((j) => j.action)),
          failing,
        }
      : { status: 'ok', failing };
  });

  router.get('readyz', '/readyz', async (ctx) => {
    const down = workerDown?.();
    if (down) throw new AppError(503, `not ready: ${down.reason}`);
    const lag = await read(ctx, 'readiness');
    const cp = lag.checkpoint;
    if (!cp) throw new AppError(503, 'not ready: the sync has not indexed its first block yet');
    const c = syncCondition(lag, now());
    const failing = await jobs(ctx, 'readiness');
    ctx.body = {
      status: 'ready',
      store: store.kind,
      height: cp.height,
      slot: cp.slot,
      block: cp.id,
      tipHeight: lag.tipHeight,
      lagSeconds: lag.lagSeconds,
      checkpointAgeSeconds: ageSeconds(now(), cp.updatedAt),
      sync: c.status === 'ok' ? { status: 'ok' } : { status: c.status, reason: c.reason, action: c.action },
      // A failed job does not take the replica out of the balancer (every replica shares the store), but says so.
      jobs: failing.length
        ? { status: 'failing', failing, action: jobsAction(failing.map((j) => j.action)) }
        : { status: 'ok' },
    };
  });
  return router;
}

/** Seconds since the sync last wrote its checkpoint (null if the stored time is unreadable). */
function ageSeconds(nowMs: number, iso: string): number | null {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : Math.max(0, Math.round((nowMs - t) / 1000));
}
