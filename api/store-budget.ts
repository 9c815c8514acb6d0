/**
 * Bounded waits on the store for the probes and the /metrics scrape. While a MongoDB server is down the driver holds
 * each operation for its serverSelectionTimeoutMS (30 s unless the URI sets it) before it fails: a Kubernetes probe
 * gives up after its timeoutSeconds (1-5 s) and a Prometheus scrape after its scrape_timeout (10 s by default), so
 * neither would ever see the 503 or the `cardano_sync_healthy 0` meant for it. Requests for data keep the driver's
 * wait (a server that comes back within it answers them).
 */

/** /readyz and /healthz/*: each store read of a probe. A store that answers at all answers these in milliseconds. */
export const PROBE_STORE_MS = 2_000;
/** The scrape-time store reads of /metrics (sync position, job health): under Prometheus' default scrape_timeout. */
export const METRICS_STORE_MS = 5_000;

export class StoreTimeoutError extends Error {
  override name = 'StoreTimeoutError';
}

/**
 * `work`, or a StoreTimeoutError once `ms` passed first. The work goes on in the background until the driver gives
 * up; its late failure is swallowed (no unhandled rejection).
 */
export function withinMs<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreTimeoutError(`the store did not answer within ${ms} ms`)), ms);
  });
  work.catch(() => undefined);
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
