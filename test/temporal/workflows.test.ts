/**
 * The Temporal side of the workflow definitions, without a server: the worker's bundle compiles under the sandbox
 * rules, every registry entry is a Temporal workflow, and a committed history of the sync replays against the code
 * (a changed command sequence is caught as a determinism violation).
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import {
  DefaultLogger,
  Runtime,
  makeTelemetryFilterString,
  Worker,
  type WorkflowBundleWithSourceMap,
} from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { bundleWorkflows } from '../../temporal/bundle.js';
import { WORKFLOWS } from '../../workflows/registry.js';
import * as entry from '../../workflows/index.js';
import { toTemporalActivityOptions } from '../../workflows/temporal-options.js';
import { RECOMPUTE_ACTIVITY, SYNC_ACTIVITY } from '../../workflows/policies.js';

const HISTORIES = new URL('../fixtures/histories/', import.meta.url);
const HISTORY = new URL('sync-chain.json', HISTORIES);

interface JsonPayload {
  metadata: { encoding: string };
  data: string;
}
const decode = (p: JsonPayload): unknown => JSON.parse(Buffer.from(p.data, 'base64').toString('utf8'));
const encode = (v: unknown): JsonPayload => ({
  metadata: { encoding: Buffer.from('json/plain').toString('base64') },
  data: Buffer.from(JSON.stringify(v)).toString('base64'),
});

describe('Temporal workflow code (no server)', function () {
  let bundle: WorkflowBundleWithSourceMap;

  before(async function () {
    // Replay workers log every replayed task through the runtime logger; keep test output to failures.
    try {
      Runtime.install({
        logger: new DefaultLogger('ERROR'),
        // The negative control makes the core log its (expected) nondeterminism warning; keep only errors.
        telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'ERROR' }), forward: {} } },
      });
    } catch {
      // already installed by another suite in this process
    }
    bundle = await bundleWorkflows({ logger: new DefaultLogger('WARN') });
  });

  it('bundles workflows/index.ts with the shared options, and the bundle carries syncChain', function () {
    assert.ok(bundle.code.length > 100_000, 'bundle holds the workflow runtime');
    assert.match(bundle.code, /syncChainBody/);
    assert.match(bundle.code, /export const syncChain|syncChain = /);
  });

  it('exports one Temporal workflow per registry entry', function () {
    for (const name of Object.keys(WORKFLOWS))
      assert.equal(typeof (entry as Record<string, unknown>)[name], 'function', `workflows/index.ts exports ${name}`);
  });

  it('passes the shared retry policy to proxyActivities in Temporal units', function () {
    assert.deepEqual(toTemporalActivityOptions(SYNC_ACTIVITY), {
      startToCloseTimeout: 600_000,
      heartbeatTimeout: 60_000,
      // Short first retries, 4 s cap: a returning chain source is followed again within seconds.
      retry: {
        initialInterval: 250,
        backoffCoefficient: 2,
        maximumInterval: 4_000,
        nonRetryableErrorTypes: [
          'RollbackTooDeepError',
          'ChainDiscontinuityError',
          'IntersectionNotFoundError',
          'StoreRefusedError',
          'StoredDocumentCorruptError',
        ],
      },
    });
    assert.equal(toTemporalActivityOptions(RECOMPUTE_ACTIVITY).retry?.maximumAttempts, 3);
  });

  it('replays every committed history (sync-chain.json: two slices, the second at the tip)', async function () {
    const files = readdirSync(HISTORIES).filter((f) => f.endsWith('.json'));
    assert.ok(files.includes('sync-chain.json'));
    for (const f of files) {
      const json = JSON.parse(readFileSync(new URL(f, HISTORIES), 'utf8'));
      await Worker.runReplayHistory({ workflowBundle: bundle }, historyFromJSON(json), f.replace(/\.json$/, ''));
    }
  });

  it('rejects the history when the code would issue other commands (DeterminismViolationError)', async function () {
    // Same history, but the last slice reports "not at tip": the body now schedules a third slice where the
    // history says the workflow completed.
    const json = JSON.parse(readFileSync(HISTORY, 'utf8'));
    const completed = json.events.filter(
      (e: { eventType: string }) => e.eventType === 'EVENT_TYPE_ACTIVITY_TASK_COMPLETED',
    );
    const last = completed[completed.length - 1].activityTaskCompletedEventAttributes.result.payloads;
    last[0] = encode({ ...(decode(last[0]) as object), atTip: false });
    await assert.rejects(
      Worker.runReplayHistory({ workflowBundle: bundle }, historyFromJSON(json), 'sync-chain-replay-changed'),
      (e: unknown) => e instanceof DeterminismViolationError,
    );
  });
});
