/**
 * The chain source moves to another chain (issue 18): the standalone devnet is replaced by a devnet of another seed
 * on the same port. Two cases an operator meets:
 * - within SYNC_K: the sync rolls the whole index back to origin (a rollback of every indexed block) and follows the
 *   new chain; the recomputes reading chain data run at once, and no derived answer of the old chain (stake pools,
 *   DReps, NFT collections) is served in between;
 * - beyond SYNC_K: the sync stalls loudly instead of serving the old chain, and the lag keeps growing.
 * Oracles: the old chain's own answers (recorded before the switch) and the new devnet's ledger.
 */
import assert from 'node:assert/strict';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import { freePort } from '../free-port.js';
import {
  client,
  metric,
  ops,
  startDevnetProcess,
  startService,
  startSyncedPair,
  tempDir,
  type Proc,
} from './processes.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const DERIVED = ['/api/v1/staking/pools', '/api/v1/governance/dreps', '/api/v1/nft/collections'];
const idOf = (i: Json): string => String(i.id ?? i.policyId ?? i.policy);

describe('sync: the source switches chains within SYNC_K (a deep rollback)', function () {
  this.timeout(300_000);
  const devA = tempDir('cds-switch-a-');
  const devB = tempDir('cds-switch-b-');
  const dataDir = tempDir('cds-switch-data-');
  let devnet: Proc | null = null;
  let service: Proc | null = null;
  let devPort: number;
  let api: ReturnType<typeof client>;
  const log = () => `${service?.log() ?? ''}\n--- devnet ---\n${devnet?.log() ?? ''}`;

  before(async function () {
    ({ devnet, service, devPort, api } = await startSyncedPair(
      { dir: devA.dir, seed: 'switch-a', backfillHours: 2 },
      dataDir.dir,
      log,
    ));
  });
  after(async () => {
    await service?.kill();
    await devnet?.kill();
    for (const d of [devA, devB, dataDir]) d.remove();
  });

  it('reruns the recomputes at once and never serves a derived document of the abandoned chain', async () => {
    // Chain A's derived answers, once its recomputes ran.
    const old = new Map<string, Set<string>>();
    for (const path of DERIVED) {
      const r = await api.until(path, (x) => x.status === 200 && x.body.items.length > 0, 120_000, log);
      old.set(path, new Set(r.body.items.map(idOf)));
    }
    const oldHeight = (await api.get('/healthz/sync')).body.height as number;

    await devnet?.kill('SIGKILL');
    devnet = await startDevnetProcess({ port: devPort, dir: devB.dir, seed: 'switch-b', backfillHours: 2 });

    // Until the sync talks to the new source it cannot know the chain changed; from its first contact on (the
    // rollback to origin is recorded before it is applied), every answer is withheld (503, saying why) or of chain B.
    const rolled = await api.until('/healthz/sync', (r) => r.body.lastDeepRollback !== null, 60_000, log);
    assert.equal(rolled.body.lastDeepRollback.toHeight, 0);
    assert.equal(rolled.body.lastDeepRollback.depth, oldHeight);
    const answers: { path: string; ids: string[] }[] = [];
    let withheld = 0;
    let reason = '';
    const deadline = Date.now() + 120_000;
    const done = new Set<string>();
    while (done.size < DERIVED.length) {
      assert.ok(Date.now() < deadline, `chain B's derived answers never came\n${log().slice(-3000)}`);
      for (const path of DERIVED) {
        const r = await api.get(path);
        if (r.status === 503) {
          withheld++;
          reason = r.body.error;
          continue;
        }
        assert.equal(r.status, 200, `${path}: ${r.text}`);
        answers.push({ path, ids: r.body.items.map(idOf) });
        // Done once the recompute ran on chain B (its answer lists something chain A did not have).
        if (r.body.items.some((i: Json) => !old.get(path)?.has(idOf(i)))) done.add(path);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    if (withheld) assert.match(reason, /^recomputing after a rollback of \d+ blocks/);
    console.log(`      ${withheld} answer(s) withheld while recomputing (last: ${reason || '-'})`);
    // Ids on both chains (the real ADA Handle policy, the two Conway voting options) are no evidence either way;
    // every other id chain A answered must be absent from every answer after the rollback.
    const final = new Map<string, Set<string>>();
    for (const path of DERIVED) final.set(path, new Set((await api.get(path)).body.items.map(idOf)));
    for (const a of answers) {
      const abandoned = a.ids.filter((id) => old.get(a.path)?.has(id) && !final.get(a.path)?.has(id));
      assert.deepEqual(abandoned, [], `${a.path} served documents of the abandoned chain`);
    }
    for (const path of DERIVED)
      assert.ok(
        [...(old.get(path) ?? [])].some((id) => !final.get(path)?.has(id)),
        `${path}: the chains differ`,
      );

    // Oracle for chain B: its ledger's stake pools are exactly the ones listed.
    const chain = await connectOgmios(`ws://127.0.0.1:${devPort}`);
    try {
      const ledger = await chain.query<Record<string, unknown>>('queryLedgerState/stakePools');
      const listed = (await api.get('/api/v1/staking/pools?pageSize=100')).body.items.map(idOf);
      assert.deepEqual(new Set(listed), new Set(Object.keys(ledger)));
    } finally {
      await chain.close();
    }

    // A rollback within SYNC_K is no stall; the operator sees it in the metrics.
    const health = await api.until(
      '/healthz/sync',
      (r) => r.status === 200 && r.body.height === r.body.tipHeight,
      60_000,
      log,
    );
    assert.equal(health.body.status, 'ok');
    const m = (await api.get('/metrics')).text;
    assert.equal(metric(m, 'cardano_sync_generation'), 1);
    assert.ok((metric(m, 'cardano_sync_rollbacks_total') ?? 0) >= 1);
    assert.equal(metric(m, 'cardano_sync_rollback_depth_blocks_bucket{le="100"}'), 0, 'the only rollback was deep');
    assert.equal(metric(m, 'cardano_sync_rollback_depth_blocks_bucket{le="500"}'), 1, `${oldHeight} blocks undone`);
    assert.ok(
      (metric(m, 'cardano_recompute_duration_seconds_count{workflow="recomputeStaking",status="completed"}') ?? 0) >= 2,
    );
    assert.ok(
      (metric(
        m,
        'http_request_duration_seconds_count{surface="rest",route="/api/v1/staking/pools",method="GET",status="200"}',
      ) ?? 0) >= 1,
      m,
    );
    assert.ok(
      (metric(m, 'cardano_store_operation_duration_seconds_count{op="write",collection="batch",ok="true"}') ?? 0) >= 1,
    );
  });
});

describe('sync: the source switches chains beyond SYNC_K', function () {
  this.timeout(300_000);
  const devA = tempDir('cds-switchk-a-');
  const devB = tempDir('cds-switchk-b-');
  const dataDir = tempDir('cds-switchk-data-');
  let devnet: Proc | null = null;
  let service: Proc | null = null;
  let devPort: number;
  let api: ReturnType<typeof client>;
  const log = () => `${service?.log() ?? ''}\n--- devnet ---\n${devnet?.log() ?? ''}`;

  before(async function () {
    devPort = await freePort();
    const port = await freePort();
    devnet = await startDevnetProcess({ port: devPort, dir: devA.dir, seed: 'switchk-a', backfillHours: 1 });
    service = await startService({
      port,
      dir: dataDir.dir,
      ogmiosUrl: `ws://127.0.0.1:${devPort}`,
      env: { SYNC_K: '20' },
    });
    api = client(`http://127.0.0.1:${port}`);
    await api.until(
      '/healthz/sync',
      (r) => r.status === 200 && r.body.height > 20 && r.body.height === r.body.tipHeight,
      90_000,
      log,
    );
  });
  after(async () => {
    await service?.kill();
    await devnet?.kill();
    for (const d of [devA, devB, dataDir]) d.remove();
  });

  it('stalls with the reason instead of serving the old chain, and the lag keeps growing', async () => {
    await devnet?.kill('SIGKILL');
    devnet = await startDevnetProcess({ port: devPort, dir: devB.dir, seed: 'switchk-b', backfillHours: 1 });
    const stalled = await api.until('/healthz/sync', (r) => r.body.status === 'stalled', 60_000, log);
    assert.equal(stalled.status, 503);
    assert.equal(stalled.body.error, 'sync stalled: rollback beyond the undo window, resync needed');
    assert.equal(stalled.body.abandonedAbove, 0, 'none of the indexed blocks is on the new chain');
    const lag1 = stalled.body.lagSeconds as number;
    assert.equal((await api.get('/api/v1/explorer/blocks/1')).status, 503, 'the old chain is not served');
    const overview = await api.get('/api/v1/market/overview');
    assert.equal(overview.status, 503);
    // What does not come from the chain is still served: where to read about the API, and its indexes.
    for (const p of ['/api/v1', '/api/v1/openapi.json', '/api/md'])
      assert.equal((await api.get(p)).status, 200, `${p} does not come from the chain`);
    await new Promise((r) => setTimeout(r, 2_000));
    const ready = await api.get('/readyz');
    assert.equal(ready.status, 200);
    assert.equal(ready.body.sync.status, 'stalled');
    assert.ok(ready.body.lagSeconds >= lag1 + 2, `lag grows: ${lag1} then ${ready.body.lagSeconds}`);
    const failed = ops(dataDir.dir, 'runs', '--failed', '--workflow', 'syncChain');
    assert.match(
      failed.out,
      /syncChain\s+failed\s+\d+\s+.*RollbackTooDeepError: rollback of \d+ blocks exceeds the undo journa/,
    );
  });
});
