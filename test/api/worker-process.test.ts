/**
 * What the API process of `npm start` shows of its embedded worker child: /metrics sums the worker's work figures
 * (sent over IPC as prom-client JSON) with its own, and /readyz is 503 with the supervisor's reason while no worker
 * runs. Oracle: the figures each side counted, added by hand.
 */
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { pino } from 'pino';
import { createApp } from '../../api/app.js';
import { createMetrics, type Metrics } from '../../api/metrics/index.js';
import { SYNC_HEALTH, SYNC_HEALTH_ID, type WorkerDown } from '../../mongo/collections/sync-state.js';
import { put, type Store } from '../../mongo/store.js';
import { metric } from '../e2e/processes.js';
import { tempStore } from '../sync/helpers.js';
import { seedChain, startTestApi } from './seed.js';

describe("npm start's API process and its embedded worker", function () {
  this.timeout(30_000);
  let cleanup: () => Promise<void>;
  let server: Server;
  let base: string;
  let down: WorkerDown | null = null;
  const api = createMetrics();
  const worker = createMetrics({ defaultMetrics: false });
  let failing = false;

  before(async () => {
    const t = await tempStore();
    cleanup = t.cleanup;
    api.addSource(() => (failing ? Promise.reject(new Error('worker gone')) : worker.workSnapshot()));
    const app = createApp({
      store: t.store,
      config: { SITE_URL: 'http://localhost', CARDANO_NETWORK: 'mainnet', TRUST_PROXY: false },
      log: pino({ level: 'silent' }),
      metrics: api as Metrics,
      workerDown: () => down,
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(async () => {
    server?.close();
    await cleanup?.();
  });

  it('/metrics sums the worker figures with its own and keeps its own process figures', async () => {
    const slice = { blocks: 120, rollbacks: 0, blocksPerSecond: 300, height: 120, tipHeight: 500 };
    worker.sliceDone(slice, 0.4);
    worker.sliceDone({ ...slice, blocks: 30, rollbacks: 2, deepestRollback: 2, blocksPerSecond: 75 }, 0.4);
    worker.sliceFailed(Object.assign(new Error('down'), { name: 'OgmiosConnectionError' }), 0.1);
    worker.runDone('recomputeMarket', 'completed', 0.2);
    worker.runDone('recomputeStaking', 'failed', 1.5);
    for (let i = 0; i < 3; i++) worker.storeOp('write', 'batch', 0.002, true);
    for (let i = 0; i < 2; i++) api.storeOp('write', 'batch', 0.002, true);
    api.storeOp('get', 'tokens', 0.0001, true);

    const text = await (await fetch(`${base}/metrics`)).text();
    assert.equal(metric(text, 'cardano_sync_blocks_total'), 150);
    assert.equal(metric(text, 'cardano_sync_blocks_per_second'), 75, 'the last slice, not a sum with a stale 0');
    assert.equal(metric(text, 'cardano_sync_rollbacks_total'), 2);
    assert.equal(metric(text, 'cardano_sync_slice_duration_seconds_count'), 3);
    assert.equal(metric(text, 'cardano_sync_slice_failures_total{error="OgmiosConnectionError"}'), 1);
    assert.equal(metric(text, 'cardano_recompute_failures_total{workflow="recomputeStaking"}'), 1);
    assert.equal(
      metric(text, 'cardano_recompute_duration_seconds_count{workflow="recomputeMarket",status="completed"}'),
      1,
    );
    const writes = 'cardano_store_operation_duration_seconds_count{op="write",collection="batch",ok="true"}';
    assert.equal(metric(text, writes), 5, 'both processes write');
    assert.equal(
      metric(text, 'cardano_store_operation_duration_seconds_count{op="get",collection="tokens",ok="true"}'),
      1,
    );
    // The API process's own figures pass through unaggregated (prom-client's cluster rules would omit this one).
    assert.ok((metric(text, 'process_start_time_seconds') ?? 0) > 1_700_000_000, text.slice(0, 500));

    // A worker that does not answer costs its figures, never the scrape.
    failing = true;
    const without = await fetch(`${base}/metrics`);
    assert.equal(without.status, 200);
    assert.equal(metric(await without.text(), writes), 2);
    failing = false;
  });

  it('/readyz is 503 with the reason while no worker runs', async () => {
    down = {
      reason: 'the embedded worker (sync and scheduled jobs) exited (signal SIGKILL); restarting in 1 s',
      since: '2026-03-10T11:59:58.000Z',
    };
    const r = await fetch(`${base}/readyz`);
    assert.equal(r.status, 503);
    assert.deepEqual(await r.json(), { error: `not ready: ${down.reason}` });
    down = null;
    // With the worker back, readiness is the store's again (this store has no block yet).
    const again = await fetch(`${base}/readyz`);
    assert.equal(again.status, 503);
    assert.match(((await again.json()) as { error: string }).error, /the sync has not indexed its first block yet/);
  });
});

describe("npm start's API process: the sync health while its embedded worker is down", function () {
  this.timeout(30_000);

  it('/healthz/sync is 503 and cardano_sync_healthy 0 while the worker runs no sync, whatever its last record says', async () => {
    // The sync's last record, written by a worker that then stopped answering (SIGSTOP) a few seconds ago: ok.
    const at = new Date().toISOString();
    const synced = async (store: Store) => {
      await seedChain(store);
      await store.write([
        put(SYNC_HEALTH, {
          _id: SYNC_HEALTH_ID,
          contactAt: at,
          tip: null,
          failing: null,
          stall: null,
          generation: 0,
          lastDeepRollback: null,
          updatedAt: at,
        }),
      ]);
    };
    // temporal/worker-child.ts `down()`: the supervisor's reason while no worker runs or answers.
    let down: WorkerDown | null = {
      reason:
        'the embedded worker (pid 4242, sync and scheduled jobs) has not answered for 43 s (stopped, or its event loop blocked)',
      since: '2026-03-10T11:59:17.000Z',
    };
    const api = await startTestApi(synced, { workerDown: () => down });
    try {
      // /readyz names the worker (as before); the monitors' probe and gauge must not call the sync healthy.
      assert.equal((await api.get('/readyz')).status, 503);
      const r = await api.get('/healthz/sync');
      assert.equal(r.status, 503);
      const body = r.body as { status: string; error: string; action: string; since: string | null };
      assert.equal(body.status, 'silent');
      assert.equal(body.error, `sync not running: ${down.reason}`);
      // Monitors get since when the sync stopped running: when the worker last answered.
      assert.equal(body.since, down.since);
      assert.match(body.action, /SIGCONT/);
      assert.equal(metric(await (await fetch(`${api.url}/metrics`)).text(), 'cardano_sync_healthy'), 0);

      // A worker that exited and is being restarted: the same.
      down = {
        reason: 'the embedded worker (sync and scheduled jobs) exited (signal SIGKILL); restarting in 1 s',
        since: '2026-03-10T11:59:40.000Z',
      };
      const exited = await api.get('/healthz/sync');
      assert.equal(exited.status, 503);
      assert.equal((exited.body as { since: string | null }).since, down.since);
      assert.equal(metric(await (await fetch(`${api.url}/metrics`)).text(), 'cardano_sync_healthy'), 0);

      // The worker answers again: the sync's own record counts.
      down = null;
      assert.equal((await api.get('/healthz/sync')).status, 200);
      assert.equal(metric(await (await fetch(`${api.url}/metrics`)).text(), 'cardano_sync_healthy'), 1);
    } finally {
      await api.close();
    }
  });
});
