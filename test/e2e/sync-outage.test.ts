/**
 * The chain source killed for longer than a slice, then restarted (issue 18): what a monitor and an operator see.
 * The standalone devnet and the service run as separate processes; the devnet is killed with SIGKILL and started
 * again on the same port with the same identity (it continues its chain).
 */
import assert from 'node:assert/strict';
import type { client } from './processes.js';
import { metric, ops, startDevnetProcess, startSyncedPair, tempDir, type Proc } from './processes.js';

describe('sync: the chain source goes away and comes back', function () {
  this.timeout(240_000);
  const devDir = tempDir('cds-outage-devnet-');
  const dataDir = tempDir('cds-outage-data-');
  let devnet: Proc | null = null;
  let service: Proc | null = null;
  let devPort: number;
  let api: ReturnType<typeof client>;
  const log = () => `${service?.log() ?? ''}\n--- devnet ---\n${devnet?.log() ?? ''}`;

  before(async function () {
    ({ devnet, service, devPort, api } = await startSyncedPair(
      { dir: devDir.dir, seed: 'outage', backfillHours: 1 },
      dataDir.dir,
      log,
    ));
  });
  after(async () => {
    await service?.kill();
    await devnet?.kill();
    devDir.remove();
    dataDir.remove();
  });

  it('answers 503 "chain source unreachable" with a growing lag during the outage, and resumes within seconds', async () => {
    const before = (await api.get('/healthz/sync')).body;
    assert.equal(before.status, 'ok');
    const killedAt = Date.now();
    await devnet?.kill('SIGKILL');

    // The sync's next contact fails: the monitor sees 503 and why.
    const down = await api.until('/healthz/sync', (r) => r.status === 503, 30_000, log);
    assert.equal(down.body.status, 'unreachable');
    assert.match(down.body.error, /^chain source unreachable for \d+ s/);
    // Lag = max(tip − indexed, now − time of the indexed block): it grows with the outage, second by second.
    const lag1 = down.body.lagSeconds as number;
    await new Promise((r) => setTimeout(r, 3_000));
    const later = await api.get('/healthz/sync');
    assert.equal(later.status, 503);
    const lag2 = later.body.lagSeconds as number;
    assert.ok(lag2 >= lag1 + 2, `lag grows during the outage: ${lag1} s then ${lag2} s`);
    assert.ok(lag2 >= Math.floor((Date.now() - killedAt) / 1000), 'lag covers at least the outage');
    // The market overview, /readyz and ops status show the same figure.
    const ready = await api.get('/readyz');
    assert.equal(ready.status, 200, 'this replica can still serve what it has');
    assert.equal(ready.body.sync.status, 'unreachable');
    assert.ok(ready.body.lagSeconds >= lag2);
    const overview = await api.get('/api/v1/market/overview');
    assert.equal(overview.status, 200);
    assert.ok(overview.body.sync.lagSeconds >= lag2, JSON.stringify(overview.body.sync));
    const status = ops(dataDir.dir, 'status');
    assert.equal(status.code, 0, status.out);
    assert.match(status.out, /sync health: UNREACHABLE: chain source unreachable for \d+ s/);
    const opsLag = Number(/lag (\d+) s/.exec(status.out)?.[1]);
    assert.ok(opsLag >= lag2, status.out);
    const m = (await api.get('/metrics')).text;
    assert.equal(metric(m, 'cardano_sync_healthy'), 0);
    assert.ok((metric(m, 'cardano_sync_lag_seconds') ?? 0) >= lag2);
    assert.ok((metric(m, 'cardano_sync_slice_failures_total{error="OgmiosConnectionError"}') ?? 0) >= 1, m);

    // Longer than a slice (5 s at the tip), then the source returns on the same port with the same chain.
    await new Promise((r) => setTimeout(r, Math.max(0, 9_000 - (Date.now() - killedAt))));
    devnet = await startDevnetProcess({ port: devPort, dir: devDir.dir, seed: 'outage', backfillHours: 1 });
    const back = Date.now();
    // Retries are 0.25 s, 0.5 s, 1 s, 2 s, then every 4 s: the sync is back within seconds.
    const ok = await api.until(
      '/healthz/sync',
      (r) => r.status === 200 && Date.parse(r.body.lastContact) >= back && r.body.height === r.body.tipHeight,
      15_000,
      log,
    );
    const resumedAfter = (Date.now() - back) / 1000;
    assert.equal(ok.body.status, 'ok');
    assert.ok(ok.body.tipHeight >= before.tipHeight, 'the same chain, continued');
    // Back at the tip: the lag is again the age of the source's newest block (one block every ~20 s of chain time).
    const newest = Date.parse(ok.body.indexedTime);
    assert.ok(Math.abs(ok.body.lagSeconds - (Date.now() - newest) / 1000) <= 2, JSON.stringify(ok.body));
    console.log(`      resumed ${resumedAfter.toFixed(1)} s after the source returned; lag ${ok.body.lagSeconds} s`);
    // The sync retries an outage (a recompute querying the ledger during it may fail and is retried by its schedule).
    const runs = ops(dataDir.dir, 'runs', '--failed', '--workflow', 'syncChain');
    assert.equal(runs.out.trim(), 'no failed runs of syncChain recorded', 'an outage never fails the sync run');
  });

  it('a frozen source (SIGSTOP: connected, silent) is unreachable within the keepalive, and never looks answered', async () => {
    await api.until('/healthz/sync', (r) => r.status === 200, 30_000, log);
    const pid = devnet!.child.pid!;
    process.kill(pid, 'SIGSTOP');
    const stoppedAt = Date.now();
    try {
      // Two keepalive intervals (10 s each) without a pong drop the connection; a slice waiting at the tip for a
      // block that never comes is not a contact meanwhile.
      const down = await api.until('/healthz/sync', (r) => r.status === 503, 45_000, log);
      assert.equal(down.body.status, 'unreachable');
      assert.ok(Date.now() - stoppedAt <= 40_000, `unreachable after ${Date.now() - stoppedAt} ms`);
      assert.ok(Date.parse(down.body.lastContact) <= stoppedAt + 1_000, `last contact ${down.body.lastContact}`);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    const resumed = Date.now();
    const ok = await api.until(
      '/healthz/sync',
      (r) => r.status === 200 && Date.parse(r.body.lastContact) >= resumed,
      30_000,
      log,
    );
    assert.equal(ok.body.status, 'ok');
  });
});
