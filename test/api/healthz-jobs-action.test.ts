/**
 * /healthz/jobs and /readyz name each failing job's next step by what failed. Every scheduled job runs again by
 * itself on its schedule, so after an outage (the chain source down or frozen, the store's disk under its reserve)
 * the job clears once the cause is gone; the probes told the operator to "fix the cause, then `npm run ops -- retry
 * <run id>`" for every failure (seen on npm start with its devnet SIGSTOPped: staking and governance failing on
 * OgmiosConnectionError, both completing on their own after SIGCONT).
 */
import assert from 'node:assert/strict';
import { JOB_HEALTH } from '../../mongo/collections/sync-state.js';
import { put, type Store } from '../../mongo/store.js';
import { seedChain, startTestApi, type TestApi } from './seed.js';

type Job = { workflow: string; error: string; action: string };
type Body = { status: string; action: string; failing: Job[] };

// The errors as the jobs recorded them (JOB_HEALTH) on npm start: the devnet frozen, a 200 MB tmpfs under 128 MB free,
// and every news feed down.
const SOURCE_DOWN =
  'recomputeStakePools: OgmiosConnectionError: cannot connect to Ogmios at ws://127.0.0.1:40197: Opening handshake has timed out';
const DISK_FULL =
  'recomputeMarket: StoreDiskFullError: the disk holding the store (/data/store) has 109 MB free, under the 128 MB the store keeps free (a full disk corrupts it): nothing was written. Free space on that disk (or move DATA_DIR to a larger one); writing resumes by itself';
const FEEDS_DOWN =
  'ingestNews: every news feed failed: https://feed.example/rss: fetch failed: connect ECONNREFUSED 127.0.0.1:9';

function failing(workflow: string, error: string, since: string) {
  return put(JOB_HEALTH, {
    _id: workflow,
    lastSuccessAt: '2026-12-01T02:00:00.000Z',
    failing: { since, error, runs: 1 },
    updatedAt: since,
  });
}

describe('/healthz/jobs: the next step of a failing job', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi(async (store: Store) => {
      await seedChain(store);
      await store.write([
        failing('recomputeStaking', SOURCE_DOWN, '2026-12-01T02:38:19.926Z'),
        failing(
          'recomputeGovernance',
          SOURCE_DOWN.replace('recomputeStakePools', 'recomputeGovernance'),
          '2026-12-01T02:38:20.000Z',
        ),
      ]);
    });
  });
  after(() => api.close());

  it('an outage of the chain source: bring it back, the jobs run again by themselves (no retry)', async () => {
    for (const path of ['/healthz/jobs', '/readyz']) {
      const r = await api.get(path);
      const body = (path === '/readyz' ? (r.body as { jobs: Body }).jobs : r.body) as Body;
      assert.equal(r.status, path === '/readyz' ? 200 : 503, path);
      assert.deepEqual(
        body.failing.map((j) => j.workflow),
        ['recomputeStaking', 'recomputeGovernance'],
      );
      for (const a of [body.action, ...body.failing.map((j) => j.action)]) {
        assert.match(a, /^bring the chain source back \(OGMIOS_URL/, path);
        assert.match(a, /runs again by itself on its schedule/, path);
        assert.doesNotMatch(a, /retry/, path);
      }
    }
  });

  it('a full disk, and a failure of the job itself, each say their own step', async () => {
    await api.store.write([
      failing('recomputeMarket', DISK_FULL, '2026-12-01T02:40:00.000Z'),
      failing('ingestNews', FEEDS_DOWN, '2026-12-01T02:41:00.000Z'),
    ]);
    const r = await api.get('/healthz/jobs');
    const body = r.body as Body;
    const action = (w: string) => body.failing.find((j) => j.workflow === w)?.action ?? '';
    assert.match(action('recomputeMarket'), /^free space on the disk holding the store \(DATA_DIR\)/);
    assert.doesNotMatch(action('recomputeMarket'), /retry|trigger/);
    // A feed outage is the job's own input (not the chain source, though the error says ECONNREFUSED).
    assert.match(action('ingestNews'), /^fix the cause .* `npm run ops -- trigger <job>` runs it now/);
    assert.equal(body.action, "each failing job's `action` says what to do about it");
  });
});
