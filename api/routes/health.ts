/**
 * Process probes at the site root (not part of /api/v1, not rate limited, not in the OpenAPI document).
 * /healthz: the process serves HTTP. /readyz: the store answers and the sync has written its checkpoint, i.e.
 * the explorer has something to serve; 503 `{ error }` otherwise, so a load balancer keeps traffic away.
 */
import Router from '@koa/router';
import { CHECKPOINTS, type CheckpointDoc } from '../../mongo/collections/sync-state.js';
import type { ApiDeps } from '../deps.js';
import { AppError } from '../errors.js';
import { requestLog } from '../middleware.js';

export function healthRouter({ store, log, now = Date.now }: ApiDeps): Router {
  const router = new Router();
  router.get('healthz', '/healthz', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok' };
  });
  router.get('readyz', '/readyz', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    let cp: CheckpointDoc | null;
    try {
      cp = await store.collection(CHECKPOINTS).get('sync');
    } catch (err) {
      requestLog(ctx, log).warn({ err }, 'readiness: store read failed');
      throw new AppError(503, 'not ready: the store does not answer');
    }
    if (!cp) throw new AppError(503, 'not ready: the sync has not indexed its first block yet');
    ctx.body = {
      status: 'ready',
      store: store.kind,
      height: cp.height,
      slot: cp.slot,
      block: cp.id,
      tipHeight: cp.tip?.height ?? null,
      checkpointAgeSeconds: ageSeconds(now(), cp.updatedAt),
    };
  });
  return router;
}

/** Seconds since the sync last wrote its checkpoint (null if the stored time is unreadable). */
function ageSeconds(nowMs: number, iso: string): number | null {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : Math.max(0, Math.round((nowMs - t) / 1000));
}
