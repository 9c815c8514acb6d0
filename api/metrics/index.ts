/**
 * Prometheus metrics (prom-client), served at `/metrics` (site root: not rate limited, not in the OpenAPI document).
 * One registry per process. `npm start` serves its own figures (HTTP, store) merged at scrape time with the work
 * figures (WORK_METRICS) of its embedded worker child (sync, recomputes, the worker's store operations), asked over
 * IPC (`addSource`); a worker restart starts its counters from zero, as a process restart does. An API-only replica
 * (TEMPORAL_ADDRESS set) serves the HTTP and store figures plus the sync position read from the store.
 *
 * - Sync position, read from the store at scrape time (the same figures as /healthz/sync): cardano_sync_height,
 *   cardano_sync_tip_height, cardano_sync_lag_seconds, cardano_sync_healthy (1 = progressing), cardano_sync_generation.
 * - Sync work, counted where the sync runs: cardano_sync_blocks_total, cardano_sync_blocks_per_second,
 *   cardano_sync_rollbacks_total, cardano_sync_rollback_depth_blocks, cardano_sync_slice_duration_seconds,
 *   cardano_sync_slice_failures_total{error}.
 * - Workflow runs: cardano_recompute_duration_seconds{workflow,status}, cardano_recompute_failures_total{workflow}
 *   (runs this process executed), cardano_job_failing{workflow} and cardano_job_last_success_timestamp_seconds{workflow}
 *   (read from the store: any engine, any replica).
 * - HTTP: http_request_duration_seconds{surface,route,method,status} (surface rest|mcp|markdown|site; route = the
 *   route pattern, never the raw URL), cardano_rate_limit_rejections_total{surface},
 *   cardano_rate_limit_counters_shared (with REDIS_URL: 1 while Redis shares the per-minute counters, 0 while this
 *   replica counts alone).
 * - Store: cardano_store_operation_duration_seconds{op,collection,ok}.
 */
import Router from '@koa/router';
import type Koa from 'koa';
import {
  AggregatorRegistry,
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type MetricObjectWithValues,
  type MetricValue,
} from 'prom-client';
import {
  JOB_HEALTH,
  readSyncLag,
  syncCondition,
  withWorkerDown,
  type WorkerDown,
  type JobHealthDoc,
} from '../../mongo/collections/sync-state.js';
import type { Store } from '../../mongo/store.js';
import { sendRepresentation } from '../compress.js';
import { METRICS_STORE_MS, withinMs } from '../store-budget.js';

/** What a finished sync slice reports (activities/sync SliceResult plus its speed). */
export interface SliceFigures {
  blocks: number;
  rollbacks: number;
  rolledBackBlocks?: number;
  deepestRollback?: number;
  blocksPerSecond: number;
  height: number;
  tipHeight: number;
}

/** A registry's samples as prom-client's JSON (what another process sends over IPC). */
export type MetricsSnapshot = MetricObjectWithValues<MetricValue<string>>[];

/**
 * The figures counted where the sync and the jobs run (the embedded worker process): what it contributes to the API
 * process's /metrics. The scrape-time gauges (sync position, failing jobs) are read from the store by the API itself.
 */
export const WORK_METRICS: readonly string[] = [
  'cardano_sync_blocks_total',
  'cardano_sync_blocks_per_second',
  'cardano_sync_rollbacks_total',
  'cardano_sync_rollback_depth_blocks',
  'cardano_sync_slice_duration_seconds',
  'cardano_sync_slice_failures_total',
  'cardano_recompute_duration_seconds',
  'cardano_recompute_failures_total',
  'cardano_store_operation_duration_seconds',
];

export type Surface = 'rest' | 'mcp' | 'markdown' | 'site';

export function surfaceOf(path: string): Surface {
  if (path === '/api/v1' || path.startsWith('/api/v1/')) return 'rest';
  if (path === '/api/md' || path.startsWith('/api/md/')) return 'markdown';
  if (path === '/api/mcp' || path.startsWith('/api/mcp/')) return 'mcp';
  return 'site';
}

export interface Metrics {
  registry: Registry;
  /**
   * Where the scrape-time sync gauges read from (the API's store); `workerDown`: why `npm start`'s embedded worker
   * runs no sync now (exited, not answering), null while it runs (ApiDeps.workerDown).
   */
  bindStore(store: Store, now?: () => number, workerDown?: () => WorkerDown | null): void;
  /** Whether the per-minute counters are shared through Redis now; null without Redis (no sample). */
  bindSharedCounters(read: () => boolean | null): void;
  sliceDone(r: SliceFigures, seconds: number): void;
  sliceFailed(e: unknown, seconds: number): void;
  runDone(workflow: string, status: string, seconds: number): void;
  storeOp(op: string, collection: string, seconds: number, ok: boolean): void;
  /**
   * Another process's samples, merged into every scrape (summed per series: the API process's own copies of the
   * work figures stay at zero). A source that fails or is absent contributes nothing.
   */
  addSource(read: () => Promise<MetricsSnapshot>): void;
  /** This process's WORK_METRICS samples, for the process that serves /metrics. */
  workSnapshot(): Promise<MetricsSnapshot>;
  /** Times every request; mount first so rejections (429) and errors are counted too. */
  http(): Koa.Middleware;
  /** One answered request, for answers sent outside Koa (the replay fast path, api/fast-replay.ts). */
  answered(path: string, route: unknown, method: string, status: number, seconds: number): void;
  /** GET /metrics in the Prometheus text format. */
  router(): Router;
}

const SECONDS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * `work: false`: no sync or workflow-run figures (an API-only replica beside a Temporal worker runs neither; its
 * copies would only ever say 0 blocks, 0 blocks/s, as if the sync had stopped).
 */
export function createMetrics(opts: { defaultMetrics?: boolean; work?: boolean } = {}): Metrics {
  const registry = new Registry();
  const workRegisters = (opts.work ?? true) ? [registry] : [];
  if (opts.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });
  let source: { store: Store; now: () => number; workerDown?: () => WorkerDown | null } | null = null;
  const others: (() => Promise<MetricsSnapshot>)[] = [];

  /**
   * One store read per scrape, shared by the gauges that ask for it while the scrape collects; null when there is no
   * store or it does not answer within METRICS_STORE_MS (those gauges give no samples, the scrape still answers).
   */
  const perScrape = <T>(read: (s: { store: Store; now: () => number }) => Promise<T>) => {
    let reading: Promise<T | null> | null = null;
    return () => {
      reading ??= (source ? withinMs(read(source), METRICS_STORE_MS) : Promise.resolve(null))
        .catch(() => null)
        .finally(() => setTimeout(() => (reading = null), 0));
      return reading;
    };
  };
  // Sync position, shared by the gauges below.
  const position = perScrape(({ store, now }) => readSyncLag(store, now()));
  /** `unread`: the value while the store does not answer (none: the gauge has no sample then). */
  const gauge = (
    name: string,
    help: string,
    pick: (p: NonNullable<Awaited<ReturnType<typeof position>>>) => number | null,
    unread: number | null = null,
  ) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const p = await position();
        const v = p ? pick(p) : source ? unread : null;
        // prom-client's reset() of a gauge without labels sets it to 0 (a lag of 0 s, height 0: "in sync", which
        // an alert on the lag never fires for); remove() drops that sample, so the scrape has none.
        if (v === null) {
          this.reset();
          this.remove();
        } else this.set(v);
      },
    });
  gauge('cardano_sync_height', 'Height of the last indexed block.', (p) => p.height);
  gauge('cardano_sync_tip_height', 'Height of the chain tip the source last reported.', (p) => p.tipHeight);
  gauge(
    'cardano_sync_lag_seconds',
    'max(tip − indexed, now − time of the indexed tip block), seconds (cardano/sync-lag.ts).',
    (p) => p.lagSeconds,
  );
  // A store that does not answer is no proof of progress: 0, not a missing sample an alert on 0 would not see.
  gauge(
    'cardano_sync_healthy',
    '1 while the sync progresses (/healthz/sync answers 200), else 0.',
    (p) =>
      withWorkerDown(syncCondition(p, source?.now() ?? Date.now()), source?.workerDown?.() ?? null).status === 'ok'
        ? 1
        : 0,
    0,
  );
  gauge(
    'cardano_sync_generation',
    'Deep rollbacks and resyncs so far (derived answers of an older generation are withheld).',
    (p) => p.health?.generation ?? 0,
  );

  // How each scheduled job last ended, as the jobs record it in the store (either engine). A store that does not
  // answer gives no samples, and the scrape still carries every other metric (it was a 500).
  const jobDocs = perScrape(async ({ store }) => {
    const docs: JobHealthDoc[] = [];
    for await (const j of store.collection(JOB_HEALTH).scan()) docs.push(j);
    return docs;
  });
  const jobGauge = (name: string, help: string, value: (j: JobHealthDoc) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ['workflow'],
      registers: [registry],
      async collect() {
        this.reset();
        for (const j of (await jobDocs()) ?? []) {
          const v = value(j);
          if (v !== null) this.set({ workflow: j._id }, v);
        }
      },
    });
  jobGauge(
    'cardano_job_failing',
    '1 while the last run of a scheduled job (recompute, news ingest) failed after its retries, else 0; by workflow.',
    (j) => (j.failing ? 1 : 0),
  );
  // A job that stops running at all (its Schedule paused or deleted, no worker on its task queue) fails no run:
  // alert on the age of its last success instead (e.g. over three of its intervals, `npm run ops -- jobs`).
  jobGauge(
    'cardano_job_last_success_timestamp_seconds',
    'Unix time of the last successful run of a scheduled job, by workflow (absent until one succeeded).',
    (j) => (j.lastSuccessAt ? Date.parse(j.lastSuccessAt) / 1000 : null),
  );

  const blocks = new Counter({ name: 'cardano_sync_blocks_total', help: 'Blocks applied.', registers: workRegisters });
  const speed = new Gauge({
    name: 'cardano_sync_blocks_per_second',
    help: 'Blocks per second of the last slice that applied blocks.',
    registers: workRegisters,
  });
  const rollbacks = new Counter({
    name: 'cardano_sync_rollbacks_total',
    help: 'Rollbacks applied.',
    registers: workRegisters,
  });
  const depth = new Histogram({
    name: 'cardano_sync_rollback_depth_blocks',
    help: 'Blocks undone per slice with rollbacks (its deepest rollback).',
    buckets: [1, 2, 3, 5, 10, 50, 100, 500, 2160, 10_000],
    registers: workRegisters,
  });
  const slice = new Histogram({
    name: 'cardano_sync_slice_duration_seconds',
    help: 'Duration of sync slices (one chain-sync batch and its commit), failed ones included.',
    buckets: [0.01, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
    registers: workRegisters,
  });
  const sliceFailures = new Counter({
    name: 'cardano_sync_slice_failures_total',
    help: 'Failed sync slices by error class.',
    labelNames: ['error'],
    registers: workRegisters,
  });
  const runs = new Histogram({
    name: 'cardano_recompute_duration_seconds',
    help: 'Duration of finished workflow runs (recomputes, news, the sync when it ends).',
    labelNames: ['workflow', 'status'],
    buckets: [0.1, 0.5, 1, 5, 10, 30, 60, 300, 900],
    registers: workRegisters,
  });
  const runFailures = new Counter({
    name: 'cardano_recompute_failures_total',
    help: 'Failed workflow runs.',
    labelNames: ['workflow'],
    registers: workRegisters,
  });
  const http = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by surface and route pattern.',
    labelNames: ['surface', 'route', 'method', 'status'],
    buckets: SECONDS,
    registers: [registry],
  });
  const limited = new Counter({
    name: 'cardano_rate_limit_rejections_total',
    help: 'Requests rejected by the rate limits or quotas (429).',
    labelNames: ['surface'],
    registers: [registry],
  });
  let sharedCounters: () => boolean | null = () => null;
  // An alert's figure for what the warn line says once: while Redis does not answer, each replica lets its own
  // limit through (N replicas: N times the limit).
  new Gauge({
    name: 'cardano_rate_limit_counters_shared',
    help: '1 while Redis shares the per-minute rate-limit counters of the replicas, 0 while this replica counts alone (no sample without REDIS_URL).',
    registers: [registry],
    collect() {
      const v = sharedCounters();
      if (v === null) {
        this.reset();
        this.remove();
      } else this.set(v ? 1 : 0);
    },
  });
  const storeOps = new Histogram({
    name: 'cardano_store_operation_duration_seconds',
    help: 'Store operation latency.',
    labelNames: ['op', 'collection', 'ok'],
    buckets: SECONDS,
    registers: [registry],
  });

  /**
   * A histogram's child for one label set, looked up by a joined key: prom-client otherwise sorts and joins the label
   * object on every observation, which costs more than the observation on the request path (every store read).
   * Label sets are bounded (route patterns, collections), so the map is too.
   */
  const children = new WeakMap<Histogram, Map<string, Histogram.Internal<string>>>();
  const labelled = (h: Histogram, key: string, values: () => string[]) => {
    let byKey = children.get(h);
    if (!byKey) children.set(h, (byKey = new Map()));
    let child = byKey.get(key);
    if (!child) byKey.set(key, (child = h.labels(...values())));
    return child;
  };

  const answered: Metrics['answered'] = (path, route, method, status, seconds) => {
    const surface = surfaceOf(path);
    // A route pattern (bounded label set), never the raw path; unmatched paths share one label.
    const pattern = typeof route === 'string' ? route : 'unmatched';
    labelled(http, `${surface}\n${pattern}\n${method}\n${status}`, () => [
      surface,
      pattern,
      method,
      String(status),
    ]).observe(seconds);
    if (status === 429) limited.inc({ surface });
  };

  return {
    registry,
    bindStore(store, now = Date.now, workerDown) {
      source = { store, now, ...(workerDown ? { workerDown } : {}) };
    },
    bindSharedCounters(read) {
      sharedCounters = read;
    },
    sliceDone(r, seconds) {
      slice.observe(seconds);
      blocks.inc(r.blocks);
      if (r.blocks > 0) speed.set(r.blocksPerSecond);
      if (r.rollbacks > 0) {
        rollbacks.inc(r.rollbacks);
        depth.observe(r.deepestRollback ?? r.rolledBackBlocks ?? 0);
      }
    },
    sliceFailed(e, seconds) {
      slice.observe(seconds);
      sliceFailures.inc({ error: e instanceof Error ? e.name || e.constructor.name : 'unknown' });
    },
    runDone(workflow, status, seconds) {
      if (Number.isFinite(seconds)) runs.observe({ workflow, status }, seconds);
      if (status === 'failed') runFailures.inc({ workflow });
    },
    storeOp(op, collection, seconds, ok) {
      labelled(storeOps, `${op}\n${collection}\n${ok}`, () => [op, collection, String(ok)]).observe(seconds);
    },
    addSource(read) {
      others.push(read);
    },
    async workSnapshot() {
      return (await registry.getMetricsAsJSON()).filter((m) => WORK_METRICS.includes(m.name));
    },
    http() {
      return async (ctx, next) => {
        const t = performance.now();
        try {
          await next();
        } finally {
          const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
          answered(ctx.path, route, ctx.method, ctx.status, (performance.now() - t) / 1000);
        }
      };
    },
    answered,
    router() {
      const router = new Router();
      router.get('metrics', '/metrics', async (ctx) => {
        ctx.set('Cache-Control', 'no-store');
        ctx.type = registry.contentType;
        // Compressed when the scraper accepts it (Prometheus sends Accept-Encoding: gzip): a scrape is 150-350 KB of
        // text, about a tenth of that compressed; each scrape is a new body, so it is compressed per request.
        const send = (text: string) => sendRepresentation(ctx, Buffer.from(text, 'utf8'), {});
        if (!others.length) {
          send(await registry.metrics());
          return;
        }
        const [own, ...rest] = await Promise.all([
          registry.getMetricsAsJSON(),
          ...others.map((read) => read().catch((): MetricsSnapshot => [])),
        ]);
        // Work figures are summed over the processes; this process's own figures pass through as they are
        // (prom-client would otherwise apply their cluster aggregators, e.g. omit process_start_time_seconds).
        const parts = [
          (own ?? []).map((m) => (WORK_METRICS.includes(m.name) ? m : { ...m, aggregator: 'first' as const })),
          ...rest,
        ];
        send(await AggregatorRegistry.aggregate(parts).metrics());
      });
      return router;
    },
  };
}
