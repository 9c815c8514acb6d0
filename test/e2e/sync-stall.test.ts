/**
 * A fork deeper than SYNC_K (issue 18): the sync cannot undo it. What a monitor and an operator see: the run failed
 * at once (no retry loop), /healthz/sync 503 with the reason, `ops status` and `ops runs --failed` name it, the
 * orphan blocks are not served as the chain, and after raising SYNC_K and `ops resync --from origin` the service
 * follows the source's chain again. The devnet (its forks in the backfill: 1–3 orphan blocks, then a RollBackward)
 * runs as a separate process; its own answers to findIntersection are the oracle for "on the chain".
 */
import assert from 'node:assert/strict';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import { freePort } from '../free-port.js';
import { client, metric, ops, startDevnetProcess, startService, tempDir, type Proc } from './processes.js';

describe('sync: a fork deeper than SYNC_K', function () {
  this.timeout(300_000);
  const devDir = tempDir('cds-stall-devnet-');
  const dataDir = tempDir('cds-stall-data-');
  let devnet: Proc | null = null;
  let service: Proc | null = null;
  let devPort: number;
  let port: number;
  let api: ReturnType<typeof client>;
  const log = () => `${service?.log() ?? ''}\n--- devnet ---\n${devnet?.log() ?? ''}`;
  const url = () => `ws://127.0.0.1:${devPort}`;

  before(async function () {
    devPort = await freePort();
    port = await freePort();
    // Half the blocks fork: a rollback of 2 or 3 blocks comes within the first few dozen blocks.
    devnet = await startDevnetProcess({
      port: devPort,
      dir: devDir.dir,
      seed: 'stall',
      backfillHours: 1,
      forkRate: 0.5,
    });
    service = await startService({ port, dir: dataDir.dir, ogmiosUrl: url(), env: { SYNC_K: '1' } });
    api = client(`http://127.0.0.1:${port}`);
  });
  after(async () => {
    await service?.kill();
    await devnet?.kill();
    devDir.remove();
    dataDir.remove();
  });

  it('stalls loudly, withholds the orphan blocks, and resyncs after SYNC_K is raised', async () => {
    const stalled = await api.until(
      '/healthz/sync',
      (r) => r.status === 503 && r.body.status === 'stalled',
      90_000,
      log,
    );
    assert.equal(stalled.body.error, 'sync stalled: rollback beyond the undo window, resync needed');
    assert.match(stalled.body.action, /SYNC_K/);
    assert.match(stalled.body.action, /ops -- resync --from origin/);
    const forkHeight = stalled.body.abandonedAbove as number;
    assert.ok(forkHeight > 0 && stalled.body.height > forkHeight, JSON.stringify(stalled.body));

    // The run failed at once: one attempt, error level, listed as failed.
    const failed = ops(dataDir.dir, 'runs', '--failed');
    assert.match(failed.out, /syncChain\s+failed\s+1\s+.*RollbackTooDeepError/);
    const status = ops(dataDir.dir, 'status');
    if (process.env.SHOW_OPS) console.log(JSON.stringify(stalled.body, null, 1), '\n', status.out, '\n', failed.out);
    assert.match(status.out, /sync health: STALLED: sync stalled: rollback beyond the undo window, resync needed/);
    assert.match(status.out, /next: .*raise SYNC_K/);
    // The sync has no run going (a recompute may be running: the dependent ones wait on the market run).
    assert.match(status.out, /runs: .*\d+ running, \d+ completed, [1-9]\d* failed/);
    const syncRuns = ops(dataDir.dir, 'runs', '--workflow', 'syncChain');
    assert.match(syncRuns.out, /syncChain\s+failed/);
    assert.doesNotMatch(syncRuns.out, /syncChain\s+(running|queued)/);
    // The worker's log reaches the service's pipe a moment after the run is recorded failed (a loaded machine).
    const failedLine = /"level":50[^\n]*"workflow":"syncChain"[^\n]*RollbackTooDeepError[^\n]*run failed/;
    for (let i = 0; i < 150 && !failedLine.test(service?.log() ?? ''); i++)
      await new Promise((r) => setTimeout(r, 100));
    assert.match(service?.log() ?? '', failedLine);

    // The store still holds the orphan blocks above the fork point: none is served as the chain.
    const orphan = await api.get(`/api/v1/explorer/blocks/${forkHeight + 1}`);
    assert.equal(orphan.status, 503);
    assert.match(orphan.body.error, /rollback beyond the undo window/);
    assert.equal(orphan.text.includes('"hash"'), false);
    for (const path of ['/api/v1/explorer/blocks/1', '/api/v1/staking/pools', '/api/v1/tokens'])
      assert.equal((await api.get(path)).status, 503, path);
    assert.equal((await api.get('/api/v1/news')).status, 200, 'chain-free answers are served');
    const ready = await api.get('/readyz');
    assert.equal(ready.status, 200);
    assert.equal(ready.body.sync.status, 'stalled');
    const m = (await api.get('/metrics')).text;
    assert.equal(metric(m, 'cardano_sync_healthy'), 0);
    assert.equal(metric(m, 'cardano_sync_slice_failures_total{error="RollbackTooDeepError"}'), 1);

    // The operator follows the advice: stop, raise SYNC_K, resync from origin, start.
    await service?.kill('SIGTERM');
    const queued = ops(dataDir.dir, 'resync', '--from', 'origin');
    assert.equal(queued.code, 0, queued.out);
    assert.match(queued.out, /queued run sync-chain:\d+ \(syncChain\)/);
    assert.equal(ops(dataDir.dir, 'resync', '--from', '12345').code, 2);
    service = await startService({ port, dir: dataDir.dir, ogmiosUrl: url(), env: { SYNC_K: '2160' } });
    const ok = await api.until(
      '/healthz/sync',
      (r) => r.status === 200 && r.body.height > forkHeight && r.body.height === r.body.tipHeight,
      90_000,
      log,
    );
    assert.equal(ok.body.status, 'ok');

    // Every block served now is on the source's chain (the devnet finds it as an intersection), the old orphan
    // height included.
    const chain = await connectOgmios(url());
    try {
      for (const h of [forkHeight, forkHeight + 1, ok.body.height]) {
        const b = await api.get(`/api/v1/explorer/blocks/${h}`);
        assert.equal(b.status, 200, JSON.stringify(b.body));
        const { intersection } = await chain.findIntersection([{ slot: b.body.slot, id: b.body.hash }]);
        assert.deepEqual(intersection, { slot: b.body.slot, id: b.body.hash }, `block ${h} is on the chain`);
      }
    } finally {
      await chain.close();
    }
    const after = ops(dataDir.dir, 'status');
    assert.match(after.out, /sync health: ok/);
  });
});
