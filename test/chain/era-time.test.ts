/**
 * Slot ↔ time over every era summary, checked against mainnet's real genesis (../shared/fixtures/chain/genesis) and
 * dates known from the chain: Byron's slots are 20 s long and its epochs 21,600 slots, so the last era's parameters
 * alone put a Byron block years away from its time.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import { msToSlot, slotToEpoch, slotToMs } from '../../activities/chain/source.js';
import { startFakeOgmios } from './fake-ogmios.js';

const GENESIS = new URL('../../../shared/fixtures/chain/genesis/mainnet-shelley-genesis.json', import.meta.url);
const systemStart = (JSON.parse(readFileSync(GENESIS, 'utf8')) as { systemStart: string }).systemStart;

/** Mainnet's era summaries as Ogmios answers them (Byron, Shelley, and the current era; Allegra…Babbage alike). */
const MAINNET_ERAS = [
  {
    start: { time: { seconds: 0 }, slot: 0, epoch: 0 },
    end: { time: { seconds: 89_856_000 }, slot: 4_492_800, epoch: 208 },
    parameters: { epochLength: 21_600, slotLength: { milliseconds: 20_000 }, safeZone: 4320 },
  },
  {
    start: { time: { seconds: 89_856_000 }, slot: 4_492_800, epoch: 208 },
    end: { time: { seconds: 219_024_000 }, slot: 133_660_800, epoch: 507 },
    parameters: { epochLength: 432_000, slotLength: { milliseconds: 1000 }, safeZone: 129_600 },
  },
  {
    start: { time: { seconds: 219_024_000 }, slot: 133_660_800, epoch: 507 },
    end: null,
    parameters: { epochLength: 432_000, slotLength: { milliseconds: 1000 }, safeZone: 129_600 },
  },
];

describe('slot ↔ time over every era summary', function () {
  it('dates Byron and Shelley-era slots as mainnet did (the Shelley hard fork at 2020-07-29T21:44:51Z)', async () => {
    const fake = await startFakeOgmios([], {
      queries: {
        'queryLedgerState/eraSummaries': () => ({ result: MAINNET_ERAS }),
        'queryNetwork/startTime': () => ({ result: systemStart }),
      },
    });
    const client = await connectOgmios(fake.url);
    try {
      const t = await client.networkTime();
      const iso = (slot: number) => new Date(slotToMs(t, slot)).toISOString();
      assert.equal(systemStart, '2017-09-23T21:44:51Z');
      assert.equal(iso(0), '2017-09-23T21:44:51.000Z');
      assert.equal(iso(4_492_799), '2020-07-29T21:44:31.000Z', 'the last Byron slot, 20 s before Shelley');
      assert.equal(slotToEpoch(t, 4_492_799), 207);
      assert.equal(iso(4_492_800), '2020-07-29T21:44:51.000Z');
      assert.equal(slotToEpoch(t, 4_492_800), 208);
      assert.equal(slotToEpoch(t, 21_600), 1, 'Byron epochs are 21,600 slots');
      // The real Conway block of ../shared/fixtures (koralabs, slot 144711632), and its epoch 532.
      assert.equal(
        iso(144_711_632),
        new Date(Date.parse(systemStart) + (89_856_000 + 144_711_632 - 4_492_800) * 1000).toISOString(),
      );
      assert.equal(slotToEpoch(t, 144_711_632), 532);
      for (const slot of [0, 1234, 4_492_799, 4_492_800, 26_366_727, 144_711_632])
        assert.equal(msToSlot(t, slotToMs(t, slot)), slot);
    } finally {
      await client.close();
      await fake.close();
    }
  });
});
