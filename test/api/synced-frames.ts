/**
 * An API over a store the production sync filled from chain-sync frames replayed by a stand-in Ogmios
 * (test/chain/fake-ogmios.ts) with mainnet's time queries: recorded mainnet blocks, and blocks a test builds in the
 * same Ogmios v6 JSON to follow them.
 */
import { readFileSync } from 'node:fs';
import { safeJSON } from '@cardano-ogmios/client';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import type { ApiDeps } from '../../api/deps.js';
import type { Block } from '../../cardano/chain/types.js';
import { startFakeOgmios, type FakeFrame } from '../chain/fake-ogmios.js';
import type { SyncDeps } from '../../activities/sync/index.js';
import { syncAll } from '../sync/helpers.js';
import { startTestApi, type TestApi } from './seed.js';

const REAL = new URL('../../../shared/fixtures/chain/ogmios/real/', import.meta.url);

/** Mainnet: the Shelley era began at slot 4,492,800 = 2020-07-29T21:44:51Z (epoch 208); 1 s slots, 432,000 per epoch. */
export const SHELLEY_SLOT = 4_492_800;
const SHELLEY_MS = Date.UTC(2020, 6, 29, 21, 44, 51);
export const mainnetTime = (slot: number) => new Date(SHELLEY_MS + (slot - SHELLEY_SLOT) * 1000).toISOString();
export const mainnetEpoch = (slot: number) => 208 + Math.floor((slot - SHELLEY_SLOT) / 432_000);

/** What a mainnet Ogmios answers for the time queries the sync makes (system start 2017-09-23T21:44:51Z). */
const MAINNET_QUERIES = {
  'queryLedgerState/eraSummaries': () => ({
    result: [
      // Byron: 20 s slots, 21,600 per epoch, epochs 0–207.
      {
        start: { time: { seconds: 0 }, slot: 0, epoch: 0 },
        end: { time: { seconds: 89_856_000 }, slot: SHELLEY_SLOT, epoch: 208 },
        parameters: { epochLength: 21_600, slotLength: { milliseconds: 20_000 }, safeZone: 4_320 },
      },
      {
        start: { time: { seconds: 89_856_000 }, slot: SHELLEY_SLOT, epoch: 208 },
        end: null,
        parameters: { epochLength: 432_000, slotLength: { milliseconds: 1000 }, safeZone: 129_600 },
      },
    ],
  }),
  'queryNetwork/startTime': () => ({ result: new Date(Date.UTC(2017, 8, 23, 21, 44, 51)).toISOString() }),
};

/** A forward frame for `block` whose tip is `tip` (by default the block itself). */
export const forwardFrame = (block: Block, tip: Block = block): object => ({
  direction: 'forward',
  block,
  tip: { slot: tip.slot, id: tip.id, height: tip.height },
});

/**
 * A recorded block (../shared/fixtures/chain/ogmios/real) and the chain-sync frame replaying it. The Mary recording
 * is a whole RollForward message whose tip is the node's tip when it was recorded (millions of blocks later);
 * replayed alone, the block is the tip, so every frame names its own block as tip (a client behind the tip would
 * wait for blocks that never come).
 */
export function recorded(file: string): { block: Block; frame: object } {
  const parsed = safeJSON.parse(readFileSync(new URL(file, REAL), 'utf8')) as { result?: { block: Block } };
  const block = parsed.result ? parsed.result.block : (parsed as unknown as Block);
  return { block, frame: forwardFrame(block) };
}

/**
 * A store the sync filled from `frames` (through a stand-in Ogmios and the production client), served by the API. A
 * frame is a result object, or a whole JSON-RPC text sent as is; `sync` adds to the sync's deps (e.g. its extensions).
 */
export async function apiOverSyncedFrames(
  frames: FakeFrame[],
  deps: Partial<ApiDeps> = {},
  sync: Partial<SyncDeps> = {},
): Promise<TestApi> {
  const fake = await startFakeOgmios(frames, { queries: MAINNET_QUERIES });
  const client = await connectOgmios(fake.url);
  try {
    return await startTestApi(async (store) => {
      await syncAll(store, client, 10, 2160, sync);
    }, deps);
  } finally {
    await client.close();
    await fake.close();
  }
}

/** A JSON answer body (any shape: tests read the fields they check). */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

/** GET /explorer/tx/{hash}, expected to answer 200: its body. */
export async function explorerTx(api: TestApi, hash: string): Promise<Json> {
  const r = await api.get(`/api/v1/explorer/tx/${hash}`);
  if (r.status !== 200) throw new Error(`explorer tx ${hash}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as Json;
}
