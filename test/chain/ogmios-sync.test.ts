import assert from 'node:assert/strict';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import type { Block, Tip } from '../../cardano/chain/types.js';
import { buildChain } from '../sync/build-chain.js';
import { chainDigest, syncAll, tempStore } from '../sync/helpers.js';
import { memoryChain, TEST_TIME } from '../sync/memory-chain.js';
import { startFakeOgmios } from './fake-ogmios.js';

/** The network time of memoryChain, as Ogmios would report it. */
const TIME_QUERIES = {
  'queryLedgerState/eraSummaries': () => ({
    result: [
      {
        start: { time: { seconds: 0 }, slot: TEST_TIME.startSlot, epoch: TEST_TIME.startEpoch },
        end: null,
        parameters: {
          epochLength: TEST_TIME.epochLength,
          slotLength: { milliseconds: TEST_TIME.slotLengthMs },
          safeZone: null,
        },
      },
    ],
  }),
  'queryNetwork/startTime': () => ({ result: new Date(TEST_TIME.startTimeMs).toISOString() }),
};

describe('sync over the Ogmios client', () => {
  it('indexes a chain with rollbacks exactly as the in-memory source does, in small slices', async () => {
    const { events, canonical } = buildChain({ blocks: 50, forkEvery: 8 });
    // Replaying history, Ogmios reports the node's tip (the chain's end) with every answer, not each block as the
    // tip, so the follower knows more blocks follow.
    const last = canonical[canonical.length - 1] as Block;
    const tip: Tip = { slot: last.slot as number, id: last.id, height: last.height };
    const reference = await tempStore();
    const viaOgmios = await tempStore();
    const fake = await startFakeOgmios(
      events.map((e) => ({ ...e, tip })),
      { queries: TIME_QUERIES },
    );
    const client = await connectOgmios(fake.url, { pipeline: 10 });
    try {
      await syncAll(reference.store, memoryChain(events), 7);
      const results = await syncAll(viaOgmios.store, client, 7);
      assert.ok(
        results.some((r) => r.rollbacks > 0),
        'rollbacks came through the client',
      );
      assert.deepEqual(await chainDigest(viaOgmios.store), await chainDigest(reference.store));
      assert.ok(fake.maxInFlight > 1);
    } finally {
      await client.close();
      await fake.close();
      await reference.cleanup();
      await viaOgmios.cleanup();
    }
  });
});
