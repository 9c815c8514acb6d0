/**
 * Errors retrying cannot fix, and what they leave for operators (issue 18), without processes: the lag formula on
 * hand-computed figures, the shared retry policy (the real one, no shortened intervals: a non-retryable error must
 * fail at once), a store that refuses a document, the sync health a monitor reads, and /metrics.
 */
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { createApp } from '../../api/app.js';
import { createMetrics } from '../../api/metrics/index.js';
import { DERIVED_PATHS } from '../../api/sync-guard.js';
import { createSyncActivities } from '../../activities/sync/index.js';
import { RollbackTooDeepError } from '../../activities/sync/journal.js';
import {
  isStoreRefusal,
  recordContact,
  recordFailure,
  recordSyncStarted,
  recordSyncStopped,
  StoreRefusedError,
} from '../../activities/sync/health.js';
import { OgmiosConnectionError } from '../../activities/chain/ogmios-client.js';
import { isSourceDown } from '../../activities/chain/source.js';
import { StoreDiskFullError } from '../../mongo/adapters/embedded.js';
import { syncLagSeconds } from '../../cardano/sync-lag.js';
import { CHECKPOINTS, readSyncHealth, readSyncLag, syncCondition } from '../../mongo/collections/sync-state.js';
import { ADDRESSES, type AddressDoc } from '../../mongo/collections/chain.js';
import { put, type Store } from '../../mongo/store.js';
import { MongoServerSelectionError } from 'mongodb';
import { backoffMs, createRunner, isRetryable } from '../../temporal/runner.js';
import { SYNC_ACTIVITY } from '../../workflows/policies.js';
import { recomputesReadingChain, WORKFLOWS } from '../../workflows/registry.js';
import { SYNC_WORKFLOW_ID } from '../../temporal/constants.js';
import { embeddedStatus, embeddedSyncRun, OpsError, parseOpsArgs, syncStatus } from '../../temporal/ops.js';
import { buildChain } from '../sync/build-chain.js';
import { memoryChain } from '../sync/memory-chain.js';
import { tempStore } from '../sync/helpers.js';

/**
 * A temporary store and the sync of a built 10-block chain, its first `indexed` blocks synced: a sync that has
 * recorded progress, for the conditions below to read.
 */
async function syncedBuiltChain(indexed: number) {
  const t = await tempStore();
  try {
    const { events } = buildChain({ blocks: 10 });
    const sync = createSyncActivities({ store: t.store, chain: memoryChain(events), k: 2160, network: 'mainnet' });
    await sync.syncSlice({ maxBlocks: indexed, waitMs: 0 });
    return { ...t, sync };
  } catch (e) {
    await t.cleanup();
    throw e;
  }
}

describe('sync health', function () {
  this.timeout(30_000);

  it('lag = max(tip − indexed, now − time of the indexed tip block), in whole seconds', () => {
    const t = Date.UTC(2026, 10, 25, 12, 0, 0);
    // 40 slots behind the tip, the indexed block 10 s old: the slots win.
    assert.equal(syncLagSeconds({ indexedSlot: 1000, indexedTimeMs: t, tipSlot: 1040, nowMs: t + 10_000 }), 40);
    // At the tip, the source silent for 90 s (the old figure said 0): the block's age wins.
    assert.equal(syncLagSeconds({ indexedSlot: 1040, indexedTimeMs: t, tipSlot: 1040, nowMs: t + 90_400 }), 90);
    // A block stamped in the future (clock skew) is no negative lag; a chain whose slots do not follow the wall clock
    // counts slots only.
    assert.equal(syncLagSeconds({ indexedSlot: 5, indexedTimeMs: t + 5000, tipSlot: 5, nowMs: t }), 0);
    assert.equal(
      syncLagSeconds({ indexedSlot: 5, indexedTimeMs: t, tipSlot: 7, nowMs: t + 3_600_000, wallClock: false }),
      2,
    );
  });

  it('the sync policy: errors a retry cannot fix are final for both engines, outages are retried within seconds', () => {
    const p = SYNC_ACTIVITY.retry;
    for (const e of [
      new RollbackTooDeepError('rollback of 3 blocks exceeds the undo journal (1 records)'),
      new StoreRefusedError('key too large'),
    ])
      assert.equal(isRetryable(e, p), false, e.name);
    assert.equal(isRetryable(new OgmiosConnectionError('connect ECONNREFUSED 127.0.0.1:1337'), p), true);
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 50].map((a) => backoffMs(p, a)),
      [250, 500, 1000, 2000, 4000, 4000, 4000],
    );
    assert.equal(p.maximumAttempts, 0, 'an outage never fails the sync');
  });

  it('a non-retryable slice error fails the run at once (one attempt), recorded for ops', async () => {
    const { store, cleanup } = await tempStore();
    try {
      let calls = 0;
      const runner = createRunner({
        store,
        activities: {
          syncSlice: async () => {
            calls++;
            throw new RollbackTooDeepError('rollback of 3 blocks exceeds the undo journal (1 records)');
          },
        },
      });
      const { done } = await runner.start('syncChain', {
        workflowId: SYNC_WORKFLOW_ID,
        input: { slicesPerRun: 10, sliceBlocks: 10, tipWaitMs: 0 },
        requestedBy: 'start',
      });
      const run = await done;
      await runner.stop();
      assert.equal(calls, 1);
      assert.equal(run.status, 'failed');
      assert.equal(run.attempts, 1);
      assert.match(run.error ?? '', /^syncSlice: RollbackTooDeepError: rollback of 3 blocks/);
    } finally {
      await cleanup();
    }
  });

  it('a store refusing a document stalls the sync with the reason; the chain it holds is still served', async () => {
    const { store, cleanup } = await tempStore();
    try {
      const { events } = buildChain({ blocks: 30 });
      const acts = createSyncActivities({ store, chain: memoryChain(events), k: 2160, network: 'mainnet' });
      const first = (await acts.syncSlice({ maxBlocks: 10, waitMs: 0 })).height;
      assert.ok(first > 0);
      // The adapters' validation error (mongo/adapters/common.ts StoreError), as the engine would raise it.
      class StoreError extends Error {}
      let refuse = true;
      const refusing: Store = new Proxy(store, {
        get(target, prop) {
          if (prop === 'write')
            return async (ops: Parameters<Store['write']>[0]) => {
              if (refuse && ops.some((o) => o.coll === 'blocks'))
                throw new StoreError('write op #7 (transactions): put needs a non-empty string _id, got ""');
              return target.write(ops);
            };
          const v = Reflect.get(target, prop) as unknown;
          return typeof v === 'function' ? (v as () => unknown).bind(target) : v;
        },
      });
      const stuck = createSyncActivities({ store: refusing, chain: memoryChain(events), k: 2160, network: 'mainnet' });
      await assert.rejects(stuck.syncSlice({ maxBlocks: 10, waitMs: 0 }), (e: Error) => {
        assert.equal(e.constructor.name, 'StoreRefusedError');
        assert.equal(isRetryable(e, SYNC_ACTIVITY.retry), false);
        return true;
      });
      const now = Date.now();
      const c = syncCondition(await readSyncLag(store, now), now);
      assert.equal(c.status, 'stalled');
      assert.equal(
        c.reason,
        'store refused a document: write op #7 (transactions): put needs a non-empty string _id, got ""',
      );
      assert.match(c.action ?? '', /ops -- sync restart/);
      assert.equal(c.abandonedAbove, null, 'the indexed chain is still the source’s: nothing is withheld');
      // Fixed: the next slice clears the stall.
      refuse = false;
      assert.ok((await stuck.syncSlice({ maxBlocks: 10, waitMs: 0 })).height > first);
      assert.equal(syncCondition(await readSyncLag(store, Date.now()), Date.now()).status, 'ok');
    } finally {
      await cleanup();
    }
  });

  it('a damaged stored balance stalls the sync naming the document, instead of being retried forever', async () => {
    const { store, cleanup } = await tempStore();
    try {
      const { events } = buildChain({ blocks: 30 });
      const acts = createSyncActivities({ store, chain: memoryChain(events), k: 2160, network: 'mainnet' });
      const first = (await acts.syncSlice({ maxBlocks: 10, waitMs: 0 })).height;
      // Seen on the production composition: balances edited to "corrupt" in MongoDB.
      const damaged: string[] = [];
      const backup: AddressDoc[] = [];
      for await (const a of store.collection(ADDRESSES).scan()) {
        damaged.push(a._id);
        backup.push(a);
        await store.write([put(ADDRESSES, { ...a, balance: { ...a.balance, lovelace: 'corrupt' } })]);
      }
      assert.ok(damaged.length > 0);
      await assert.rejects(acts.syncSlice({ maxBlocks: 10, waitMs: 0 }), (e: Error) => {
        assert.equal(e.name, 'StoredDocumentCorruptError');
        assert.match(e.message, /^addresses addr1\S+: its balance holds a quantity that is no integer/);
        assert.ok(damaged.some((id) => e.message.includes(id)));
        assert.equal(isRetryable(e, SYNC_ACTIVITY.retry), false);
        return true;
      });
      const now = Date.now();
      const c = syncCondition(await readSyncLag(store, now), now);
      assert.equal(c.status, 'stalled');
      assert.match(c.reason ?? '', /^store holds a damaged document: addresses addr1/);
      assert.match(c.action ?? '', /ops -- resync --from origin/);
      const cp = await store.collection(CHECKPOINTS).get('sync');
      assert.equal(cp?.height, first, 'nothing of the failed slice was written');
      // Restored from the backup, the failed sync run still has to be started again (r22 operator audit: the action
      // named only the restore, and the sync stayed stopped after it): the action says how.
      assert.match(c.action ?? '', /from a backup, then `npm run ops -- sync restart`/);
      await store.write(backup.map((a) => put(ADDRESSES, a)));
      assert.ok((await acts.syncSlice({ maxBlocks: 10, waitMs: 0 })).height > first, 'the restarted sync goes on');
      assert.equal(syncCondition(await readSyncLag(store, Date.now()), Date.now()).status, 'ok');
    } finally {
      await cleanup();
    }
  });

  it('a sync that stopped while its source was down is "not running", not still "unreachable … retrying"', async () => {
    const { store, cleanup } = await syncedBuiltChain(10);
    try {
      // The last attempt before the service stopped: the devnet's connection dropped (npm start stops both at once).
      const t = Date.now();
      const down = new OgmiosConnectionError('Ogmios connection ws://127.0.0.1:1337 closed (1006)');
      await recordFailure(store, down, { k: 2160, nowIso: new Date(t).toISOString() });
      const at = async (ms: number) => syncCondition(await readSyncLag(store, t + ms), t + ms);
      // A running sync retries and records each attempt (every one ends within the source's 120 s timeout).
      const retrying = await at(120_000);
      assert.equal(retrying.status, 'unreachable');
      // What the operator does (README: npm start restarts a devnet that died by itself; OGMIOS_URL is unset then).
      assert.match(retrying.action ?? '', /OGMIOS_URL unset it is npm start’s own devnet, which npm start restarts/);
      // No attempt recorded for over 3 minutes: nothing retries; the operator starts the service, not the source.
      const stopped = await at(600_000);
      assert.equal(stopped.status, 'silent');
      assert.equal(stopped.reason, 'sync not running: no word from it for 600 s');
      assert.match(stopped.action ?? '', /start the service/);
    } finally {
      await cleanup();
    }
  });

  it('a sync whose worker stopped cleanly is "not running" at once, until its next record', async () => {
    const { store, cleanup, sync } = await syncedBuiltChain(5);
    try {
      const t = Date.now();
      const down = new OgmiosConnectionError('Ogmios connection ws://127.0.0.1:1337 closed (1006)');
      await recordFailure(store, down, { k: 2160, nowIso: new Date(t).toISOString() });
      const stoppedAt = new Date(t + 1_000).toISOString();
      await recordSyncStopped(store, stoppedAt);
      const at = async (ms: number) => syncCondition(await readSyncLag(store, t + ms), t + ms);
      // Seconds after the stop, not after 3 minutes of silence, and not "unreachable … retrying".
      const stopped = await at(2_000);
      assert.deepEqual(
        [stopped.status, stopped.reason, stopped.since],
        ['silent', `sync not running: its worker stopped at ${stoppedAt}`, stoppedAt],
      );
      assert.match(stopped.action ?? '', /start the service/);
      // Started again: its first slice records, and the stop is over.
      await sync.syncSlice({ maxBlocks: 5, waitMs: 0 });
      assert.equal((await at(3_000)).status, 'ok');
    } finally {
      await cleanup();
    }
  });

  it('a sync started again is "starting" until its first slice ends, not "not running: its worker stopped"', async () => {
    // npm start restarted over its DATA_DIR: the new worker waits on its devnet regenerating its history (tens of
    // seconds) before the first slice ends; /healthz/sync, /readyz and ops status told the operator to start the
    // service that was running.
    const { store, cleanup, sync } = await syncedBuiltChain(5);
    try {
      const t = Date.now();
      await recordSyncStopped(store, new Date(t).toISOString());
      const startedAt = new Date(t + 10_000).toISOString();
      await recordSyncStarted(store, startedAt);
      const at = async (ms: number) => syncCondition(await readSyncLag(store, t + ms), t + ms);
      const starting = await at(30_000);
      assert.deepEqual(
        [starting.status, starting.reason, starting.since],
        ['starting', `sync starting: its worker started at ${startedAt}; its first slice has not ended yet`, startedAt],
      );
      assert.doesNotMatch(starting.action ?? '', /start the service/);
      // ops status says the same.
      assert.match(
        (await syncStatus(store, t + 30_000))[0] ?? '',
        /^sync health: STARTING: sync starting: its worker started at /,
      );
      // A start that never records anything is silence, counted from the start.
      assert.equal((await at(10_000 + 181_000)).reason, 'sync not running: no word from it for 181 s');
      // Its first record ends the start: an unreachable source says so, and a slice makes it ok.
      await recordFailure(store, new OgmiosConnectionError('cannot connect to Ogmios at ws://127.0.0.1:1337'), {
        k: 2160,
        nowIso: new Date(t + 31_000).toISOString(),
      });
      assert.equal((await at(32_000)).status, 'unreachable');
      // npm start restarts its devnet when it exits, not one that runs without answering (SIGSTOP: the handshake
      // times out); the action said "which npm start restarts by itself" while a stopped devnet stayed down.
      assert.match((await at(32_000)).action ?? '', /restarts when it exits; one that runs without answering is not/);
      assert.doesNotMatch((await at(32_000)).action ?? '', /restarts by itself/);
      await recordSyncStarted(store, new Date(t + 40_000).toISOString());
      assert.equal((await at(41_000)).status, 'starting');
      await sync.syncSlice({ maxBlocks: 5, waitMs: 0 });
      assert.equal((await at(Date.now() - t)).status, 'ok');
    } finally {
      await cleanup();
    }
  });

  it('a write batch committed after a stop, a start or a failure record says the sync runs again', async () => {
    // The health record is written when a slice ends; a catch-up's slice on FerretDB commits batches for a minute
    // or more before that. Seen: a Temporal worker restarted after a kill read "not running: no word for 278 s", and
    // after FerretDB came back "unreachable … retrying", while the checkpoint moved.
    const { store, cleanup } = await syncedBuiltChain(5);
    try {
      const t = Date.now() + 1_000;
      const iso = (ms: number) => new Date(t + ms).toISOString();
      const commitAt = async (ms: number) => {
        const cp = (await store.collection(CHECKPOINTS).get('sync'))!;
        await store.write([put(CHECKPOINTS, { ...cp, updatedAt: iso(ms) })]);
      };
      const at = async (ms: number) => syncCondition(await readSyncLag(store, t + ms), t + ms);
      const down = new OgmiosConnectionError('Ogmios connection ws://127.0.0.1:1337 closed (1006)');
      await recordFailure(store, down, { k: 2160, nowIso: iso(0) });
      assert.equal((await at(1_000)).status, 'unreachable');
      await commitAt(5_000);
      assert.equal((await at(6_000)).status, 'ok');
      await recordSyncStopped(store, iso(10_000));
      assert.match((await at(11_000)).reason ?? '', /its worker stopped at/);
      await commitAt(20_000);
      assert.equal((await at(21_000)).status, 'ok');
      await recordSyncStarted(store, iso(30_000));
      assert.equal((await at(31_000)).status, 'starting');
      await commitAt(40_000);
      assert.equal((await at(41_000)).status, 'ok');
      // Silence counts from the last commit, the latest word from the sync.
      assert.equal((await at(40_000 + 180_000)).status, 'ok');
      assert.equal((await at(40_000 + 181_000)).reason, 'sync not running: no word from it for 181 s');
      // The tip a batch committed after the slice's record is the newer one (it said height 279, tip 259).
      const cp = (await store.collection(CHECKPOINTS).get('sync'))!;
      const newTip = { slot: cp.slot + 1_000, id: 'cd'.repeat(32), height: cp.height + 50 };
      await store.write([put(CHECKPOINTS, { ...cp, tip: newTip, updatedAt: iso(42_000) })]);
      assert.equal((await readSyncLag(store, t + 43_000)).tipHeight, cp.height + 50);
    } finally {
      await cleanup();
    }
  });

  it('a slice failing after its source answered (a full disk) stays failing, counted from its first failure', async () => {
    // Seen with DATA_DIR on a nearly full disk: every retry contacted the source, then its first write was refused.
    // The contact cleared the failure: /healthz/sync flapped between "ok" and "sync failing for 0 s", and ops status
    // said ok while the sync stood still.
    const { store, cleanup, sync } = await syncedBuiltChain(5);
    try {
      const t = Date.now() + 1_000;
      const iso = (ms: number) => new Date(t + ms).toISOString();
      const at = async (ms: number) => syncCondition(await readSyncLag(store, t + ms), t + ms);
      const full = new StoreDiskFullError('the disk holding the store (/data/store) has 100 MB free, under the 128 MB');
      await recordFailure(store, full, { k: 2160, nowIso: iso(0) });
      await recordContact(store, null, iso(4_000), { keepStall: true });
      const failing = await at(5_000);
      assert.equal(failing.status, 'failing');
      assert.match(failing.reason ?? '', /^sync failing for 5 s \(StoreDiskFullError: the disk holding the store/);
      // The step is the disk's (it said "see the service log and `ops runs --workflow syncChain`", which say no more).
      assert.match(failing.action ?? '', /^free space on the disk holding the store \(DATA_DIR\).*resumes by itself/);
      await recordFailure(store, full, { k: 2160, nowIso: iso(9_000) });
      assert.match((await at(10_000)).reason ?? '', /^sync failing for 10 s /);
      // The source's own outage ends when it answers, mid-slice or not.
      await recordFailure(store, new OgmiosConnectionError('Ogmios connection closed (1006)'), {
        k: 2160,
        nowIso: iso(20_000),
      });
      await recordContact(store, null, iso(21_000), { keepStall: true });
      assert.equal((await at(22_000)).status, 'ok');
      // A failure that was not the source's ends when a slice completes.
      await recordFailure(store, full, { k: 2160, nowIso: iso(30_000) });
      await sync.syncSlice({ maxBlocks: 5, waitMs: 0 });
      assert.equal((await at(Date.now() - t)).status, 'ok');
    } finally {
      await cleanup();
    }
  });

  it('a slice records the source answering at once, not when it ends: a slow healthy slice is no lost contact', async () => {
    // r18 operator audit: after the source came back, "chain source unreachable for 90 s" stayed on /healthz/sync
    // until the slice's first write batch committed (a minute or more on FerretDB), and lastContact was written only
    // when a slice ended. Here the source answers, then holds its next round of events: the slice is under way.
    const t = await tempStore();
    try {
      const { events, canonical } = buildChain({ blocks: 10 });
      const source = memoryChain(events);
      let down = true;
      let hold: (() => void) | null = null;
      let held: (() => void) | null = null;
      const heldNow = new Promise<void>((r) => (held = r));
      let calls = 0;
      const chain: typeof source = {
        ...source,
        findIntersection: async (points) => {
          if (down) throw new OgmiosConnectionError('cannot connect to Ogmios at ws://127.0.0.1:1337');
          return source.findIntersection(points);
        },
        nextEvents: async (max, waitMs) => {
          if (++calls === 2) {
            held?.();
            await new Promise<void>((r) => (hold = r));
          }
          return source.nextEvents(Math.min(max, 3), waitMs);
        },
      };
      const sync = createSyncActivities({ store: t.store, chain, k: 2160, network: 'mainnet' });
      await assert.rejects(sync.syncSlice({ maxBlocks: 10, waitMs: 0 }), /cannot connect/);
      const now = () => Date.now();
      assert.equal(syncCondition(await readSyncLag(t.store, now()), now()).status, 'unreachable');
      assert.equal((await readSyncHealth(t.store))?.failing?.sourceDown, true);
      down = false;
      const slice = sync.syncSlice({ maxBlocks: 10, waitMs: 0 });
      await heldNow; // the source answered the intersection and a first round of events; the slice goes on
      const health = await readSyncHealth(t.store);
      assert.equal(health?.failing, null, 'the failure is over once the source answers');
      assert.ok(health?.contactAt, 'the contact is recorded while the slice runs');
      assert.equal(health?.tip?.height, canonical.length, "the source's tip, as it reported it");
      (hold as unknown as () => void)();
      const r = await slice;
      assert.equal(r.height, canonical.length);
      assert.equal(syncCondition(await readSyncLag(t.store, now()), now()).status, 'ok');
    } finally {
      await t.cleanup();
    }
  });

  it('a frozen source is unreachable since it last answered, not since the keepalive gave up on it', async () => {
    // Seen on the production composition (devnet under SIGSTOP): /healthz/sync, /readyz and ops status said "chain
    // source unreachable for 1 s" 28 s after the freeze (the chain-sync keepalive drops a socket only after 20 s of
    // silence, and a slice waiting for its batch's commit on FerretDB notices even later), and `since` was that
    // moment: an operator read an outage a minute younger than it was. The oracle is when the source last sent
    // anything (its last pong: ChainSource.lastHeard), 30 s before the failure.
    const t = await tempStore();
    try {
      const { events } = buildChain({ blocks: 10 });
      const source = memoryChain(events);
      const failedAt = Date.now();
      const heardAt = failedAt - 30_000;
      let frozen = false;
      const chain: typeof source = {
        ...source,
        lastHeard: () => heardAt,
        nextEvents: async (max, waitMs) => {
          if (frozen) throw new OgmiosConnectionError('Ogmios connection ws://node:1337 silent for 20000 ms (no pong)');
          return source.nextEvents(max, waitMs);
        },
      };
      const sync = createSyncActivities({ store: t.store, chain, k: 2160, network: 'mainnet' });
      await sync.syncSlice({ maxBlocks: 5, waitMs: 0 });
      frozen = true;
      await assert.rejects(sync.syncSlice({ maxBlocks: 5, waitMs: 0 }), /silent for 20000 ms/);
      const now = failedAt + 1_000;
      const c = syncCondition(await readSyncLag(t.store, now), now);
      assert.equal(c.status, 'unreachable');
      assert.equal(c.since, new Date(heardAt).toISOString());
      assert.match(c.reason ?? '', /^chain source unreachable for 31 s \(OgmiosConnectionError: .*silent for 20000 ms/);
    } finally {
      await t.cleanup();
    }
  });

  it("a MongoDB server that does not answer is the store's outage, not the chain source's", async () => {
    // Seen with FerretDB stopped: "chain source unreachable … (MongoServerSelectionError: connect ECONNREFUSED
    // 127.0.0.1:8331)", next: check OGMIOS_URL. The driver's socket codes are the ones the source's client reports.
    const { store, cleanup } = await syncedBuiltChain(5);
    try {
      const gone = new MongoServerSelectionError(
        'connect ECONNREFUSED 127.0.0.1:27017',
        {} as ConstructorParameters<typeof MongoServerSelectionError>[1],
      );
      assert.equal(isSourceDown(gone), false);
      assert.equal(isSourceDown(new OgmiosConnectionError('connect ECONNREFUSED 127.0.0.1:1337')), true);
      const t = Date.now() + 1_000;
      await recordFailure(store, gone, { k: 2160, nowIso: new Date(t).toISOString() });
      const c = syncCondition(await readSyncLag(store, t + 20_000), t + 20_000);
      assert.equal(c.status, 'failing');
      assert.equal(
        c.reason,
        'store unreachable for 20 s (MongoServerSelectionError: connect ECONNREFUSED 127.0.0.1:27017); retrying',
      );
      assert.match(c.action ?? '', /MONGODB_URI/);
      assert.doesNotMatch(c.action ?? '', /OGMIOS_URL/);
    } finally {
      await cleanup();
    }
  });

  it('a store outage the store could not record is recorded by the next attempt, not read as "not running"', async () => {
    // Seen on the production composition: FerretDB killed mid-sync for 3.5 minutes. No attempt could record its
    // failure (the store was the failure); when FerretDB came back, /healthz/sync, /readyz and ops status said
    // "sync not running: no word from it for 265 s", action "start the service or the Temporal worker", for the
    // 50 s the running worker's next slice took to commit its first batch.
    const { store, cleanup } = await tempStore();
    try {
      let clock = Date.now();
      let down = false;
      const gone = () =>
        new MongoServerSelectionError(
          'connect ECONNREFUSED 127.0.0.1:27017',
          {} as ConstructorParameters<typeof MongoServerSelectionError>[1],
        );
      const flaky = new Proxy(store, {
        get(target, prop, receiver) {
          if (prop === 'write')
            return async (ops: Parameters<Store['write']>[0]) => {
              if (down) throw gone();
              return target.write(ops);
            };
          const v = Reflect.get(target, prop, receiver) as unknown;
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
      const { events } = buildChain({ blocks: 10 });
      const chain = memoryChain(events);
      // The next slice's source waits here, so the health is read while that slice runs (before its first commit).
      let release: (() => void) | null = null;
      const held = {
        ...chain,
        nextEvents: async (max: number, waitMs: number) => {
          if (release === null && !down) await new Promise<void>((r) => (release = r));
          return chain.nextEvents(max, waitMs);
        },
      };
      const sync = createSyncActivities({ store: flaky, chain: held, k: 2160, network: 'mainnet', now: () => clock });
      release = () => undefined; // the first slice runs through
      await sync.syncSlice({ maxBlocks: 4, waitMs: 0 });
      const at = async () => syncCondition(await readSyncLag(store, clock), clock);
      assert.equal((await at()).status, 'ok');

      down = true;
      const failedAt = clock;
      await assert.rejects(sync.syncSlice({ maxBlocks: 4, waitMs: 0 }), /ECONNREFUSED/);
      clock += 200_000; // the outage: nothing can be recorded, as the probes say (the store does not answer)
      await assert.rejects(sync.syncSlice({ maxBlocks: 4, waitMs: 0 }), /ECONNREFUSED/);
      clock += 65_000;
      down = false;
      release = null;
      const slice = sync.syncSlice({ maxBlocks: 4, waitMs: 0 });
      while (release === null) await new Promise((r) => setTimeout(r, 5));
      // The attempt first records the outage it could not record (since when it began), then, the source having
      // answered its intersection, that it runs again: before its first commit, not "not running" and no longer
      // "store unreachable … retrying" (r18: a stale failure stayed until the first commit, a minute on FerretDB).
      const during = await at();
      assert.equal(during.status, 'ok', JSON.stringify(during));
      const health = await readSyncHealth(store);
      assert.equal(health?.failing, null);
      assert.equal(health?.contactAt, new Date(clock).toISOString());
      assert.ok(Date.parse(health?.updatedAt ?? '') > failedAt);
      (release as () => void)();
      assert.equal((await slice).height, 8, 'the slice resumes from the checkpoint');
      assert.equal((await at()).status, 'ok');
    } finally {
      await cleanup();
    }
  });

  it('ops status over a DATA_DIR no embedded worker runs on: the sync is not running, not "ok"', async () => {
    // npm start killed (SIGKILL, a crash of the machine): the sync's last record said ok or retrying, and for the
    // 3 minutes before it reads as silence ops status said 'sync health: ok' under 'service: STOPPED'.
    const { store, cleanup } = await syncedBuiltChain(10);
    try {
      const t = Date.now();
      const health = async (pid: number | null) =>
        (await embeddedStatus(store, t + 5_000, { pid, dataDir: '/data' })).filter((l) =>
          /^( {2}next|sync health)/.test(l),
        );
      assert.deepEqual(await health(4242), ['sync health: ok']);
      const updatedAt = (await readSyncLag(store, t)).health?.updatedAt;
      assert.deepEqual(await health(null), [
        `sync health: NOT RUNNING: no embedded worker runs it (its last record, ${updatedAt}: ok)`,
        '  next: start the service (`npm start`)',
      ]);
      // Its last record a retried outage: that is no longer being retried either.
      await recordFailure(store, new OgmiosConnectionError('Ogmios connection ws://127.0.0.1:1337 closed (1006)'), {
        k: 2160,
        nowIso: new Date(t).toISOString(),
      });
      assert.match(
        (await health(null))[0] ?? '',
        /^sync health: NOT RUNNING: no embedded worker runs it \(its last record, .*: chain source unreachable for 5 s/,
      );
      assert.match((await health(4242))[0] ?? '', /^sync health: UNREACHABLE: /);
    } finally {
      await cleanup();
    }
  });

  it('a store never synced gets no start record (no block indexed is its own "starting")', async () => {
    const { store, cleanup } = await tempStore();
    try {
      await recordSyncStarted(store, new Date().toISOString());
      const lag = await readSyncLag(store, Date.now());
      assert.equal(lag.health, null);
      const c = syncCondition(lag, Date.now());
      assert.equal(c.reason, 'sync starting: no block indexed yet');
      // On Temporal nothing may run it yet (API up, worker or schedules:apply not): the answer says what starts it.
      assert.match(c.action ?? '', /`npm run worker` and `npm run schedules:apply`/);
    } finally {
      await cleanup();
    }
  });

  it('ops resync --from origin queues a resync of a stopped sync, and refuses while one runs', async () => {
    assert.deepEqual(parseOpsArgs(['resync', '--from', 'origin']), { cmd: 'resync', from: 'origin' });
    assert.deepEqual(parseOpsArgs(['sync', 'restart']), { cmd: 'sync-restart' });
    assert.throws(() => parseOpsArgs(['resync', '--from', '144718597']), /only origin is supported/);
    assert.throws(() => parseOpsArgs(['resync']), OpsError);
    const { store, cleanup } = await tempStore();
    try {
      const at = Date.parse('2026-11-29T09:00:00.000Z');
      const run = await embeddedSyncRun(store, { resync: true, sliceBlocks: 500 }, at);
      assert.equal(run.workflowId, SYNC_WORKFLOW_ID);
      assert.deepEqual(run.input, {
        slicesPerRun: 1000,
        sliceBlocks: 500,
        tipWaitMs: 5000,
        // The request's identity: a retry of this run does not clear the store a second time (resync-retry test).
        resync: { from: 'origin', requestedAt: '2026-11-29T09:00:00.000Z' },
      });
      await assert.rejects(embeddedSyncRun(store, { resync: false, sliceBlocks: 500 }), /has a queued run/);
    } finally {
      await cleanup();
    }
  });

  it('recognises refusals of both engines, not outages', () => {
    const mongo = Object.assign(new Error('E11000 duplicate key error'), { code: 11000 });
    Object.defineProperty(mongo, 'name', { value: 'MongoServerError' });
    assert.equal(isStoreRefusal(mongo), true);
    assert.equal(isStoreRefusal(new Error('MDB_BAD_VALSIZE: Unsupported size of key/DB name/data')), true);
    const net = new Error('connection 1 to 127.0.0.1:27017 closed');
    Object.defineProperty(net, 'name', { value: 'MongoNetworkError' });
    assert.equal(isStoreRefusal(net), false);
  });

  it('a deep rollback reruns every recompute that reads chain data (and not the news)', () => {
    const jobs = recomputesReadingChain();
    assert.deepEqual(
      [...jobs].sort(),
      Object.keys(WORKFLOWS)
        .filter((w) => w.startsWith('recompute'))
        .sort(),
    );
  });

  it('every recompute a deep rollback reruns has its answers withheld until it ran (api/sync-guard.ts)', () => {
    const guarded = new Set(DERIVED_PATHS.flatMap((d) => d.workflows));
    assert.deepEqual(
      recomputesReadingChain().filter((w) => !guarded.has(w)),
      [],
    );
  });

  it('/metrics and /healthz/sync are site probes: outside the OpenAPI document, counted per route and surface', async () => {
    const { store, cleanup } = await tempStore();
    try {
      const metrics = createMetrics({ defaultMetrics: false });
      const app = createApp({
        store,
        config: { SITE_URL: 'http://localhost', CARDANO_NETWORK: 'mainnet', TRUST_PROXY: false },
        log: pino({ level: 'silent' }),
        metrics,
        cacheMs: 60_000,
      });
      const server = app.listen(0, '127.0.0.1');
      await new Promise((r) => server.once('listening', r));
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      try {
        const spec = (await (await fetch(`${base}/api/v1/openapi.json`)).json()) as { paths: Record<string, unknown> };
        assert.ok(!Object.keys(spec.paths).some((p) => /metrics|healthz/.test(p)));
        const sync = await fetch(`${base}/healthz/sync`);
        assert.equal(sync.status, 503);
        assert.equal(((await sync.json()) as { error: string }).error, 'sync starting: no block indexed yet');
        await fetch(`${base}/api/v1/explorer/blocks/1`);
        // The second answer is the micro-cache's replay: counted under its route all the same.
        for (let i = 0; i < 2; i++) assert.equal((await fetch(`${base}/api/v1/news`)).status, 200);
        const text = await (await fetch(`${base}/metrics`)).text();
        assert.match(
          text,
          /http_request_duration_seconds_count\{surface="rest",route="\/api\/v1\/news",method="GET",status="200"\} 2/,
        );
        assert.match(
          text,
          /http_request_duration_seconds_count\{surface="rest",route="\/api\/v1\/openapi.json",method="GET",status="200"\} 1/,
        );
        assert.match(
          text,
          /http_request_duration_seconds_count\{surface="site",route="\/healthz\/sync",method="GET",status="503"\} 1/,
        );
        assert.match(text, /cardano_store_operation_duration_seconds|cardano_sync_healthy 0/);
      } finally {
        server.close();
      }
    } finally {
      await cleanup();
    }
  });
});
