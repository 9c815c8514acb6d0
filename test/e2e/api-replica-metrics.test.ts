/**
 * `npm start` as an API replica beside a Temporal worker (TEMPORAL_ADDRESS and OGMIOS_URL set): it runs no sync and
 * no job, so its /metrics has no sync or run figures of its own. It served cardano_sync_blocks_total 0 and
 * cardano_sync_blocks_per_second 0 however fast the worker synced: a dashboard showed the sync stopped.
 * (Temporal itself is not needed: the API process never connects to it.)
 */
import assert from 'node:assert/strict';
import { freePort } from '../free-port.js';
import { client, metric, startService, tempDir, type Proc } from './processes.js';

describe('npm start as an API replica (TEMPORAL_ADDRESS set): its /metrics', function () {
  this.timeout(120_000);
  const dataDir = tempDir('cds-replica-metrics-');
  let service: Proc | null = null;
  after(async () => {
    await service?.kill();
    dataDir.remove();
  });

  it('has the HTTP and sync position figures, and none of the work figures only the worker counts', async () => {
    const port = await freePort();
    service = await startService({
      port,
      dir: dataDir.dir,
      ogmiosUrl: 'ws://127.0.0.1:1',
      env: { TEMPORAL_ADDRESS: '127.0.0.1:1' },
    });
    const api = client(`http://127.0.0.1:${port}`);
    assert.equal((await api.get('/healthz')).status, 200);
    const text = (await api.get('/metrics')).text;
    assert.equal(metric(text, 'cardano_sync_healthy'), 0, 'no sync has indexed anything');
    assert.match(text, /^http_request_duration_seconds_count\{surface="site",route="\/healthz"/m);
    for (const name of [
      'cardano_sync_blocks_total',
      'cardano_sync_blocks_per_second',
      'cardano_sync_rollbacks_total',
      'cardano_sync_slice_duration_seconds_count',
      'cardano_recompute_failures_total',
    ])
      assert.doesNotMatch(text, new RegExp(`^${name}\\b`, 'm'), name);
  });
});
