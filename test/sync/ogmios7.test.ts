/**
 * Ogmios 7.0.0 omits empty `outputs` lists and empty `validityInterval` objects that 6.x sends as `[]` / `{}`. The
 * real recorded mainnet block 11322313 (../shared/fixtures, Ogmios 6 shape) is rewritten the way 7.x sends it and
 * synced through the production client: it indexes exactly like the 6.x shape.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import { parseOgmiosJson } from '../../activities/chain/json.js';
import type { Block } from '../../cardano/chain/types.js';
import { TRANSACTIONS } from '../../mongo/collections/chain.js';
import { CHAIN_COLLECTIONS } from '../../mongo/collections/index.js';
import { storeDigest } from '../../mongo/digest.js';
import { startFakeOgmios } from '../chain/fake-ogmios.js';
import { syncAll, tempStore } from './helpers.js';

const FILE = new URL(
  '../../../shared/fixtures/chain/ogmios/real/block.mainnet-conway-11322313-slot144718597.koralabs.json',
  import.meta.url,
);
const TIME = {
  'queryLedgerState/eraSummaries': () => ({
    result: [
      {
        start: { time: { seconds: 89_856_000 }, slot: 4_492_800, epoch: 208 },
        end: null,
        parameters: { epochLength: 432_000, slotLength: { milliseconds: 1000 }, safeZone: 129_600 },
      },
    ],
  }),
  'queryNetwork/startTime': () => ({ result: '2017-09-23T21:44:51Z' }),
};

async function sync(block: Block) {
  const frame = { direction: 'forward', block, tip: { slot: block.slot, id: block.id, height: block.height } };
  const fake = await startFakeOgmios([frame], { queries: TIME });
  const client = await connectOgmios(fake.url);
  const t = await tempStore();
  try {
    await syncAll(t.store, client, 10);
    const digest = await storeDigest(t.store, CHAIN_COLLECTIONS);
    const txs = await t.store.collection(TRANSACTIONS).getMany((block.transactions ?? []).map((x) => x.id));
    return { digest, txs };
  } finally {
    await client.close();
    await fake.close();
    await t.cleanup();
  }
}

describe('Ogmios 7 block shapes', function () {
  this.timeout(60_000);
  it('a block without empty validityInterval objects indexes exactly like its Ogmios 6 form', async () => {
    const v6 = parseOgmiosJson(readFileSync(FILE, 'utf8')) as Block;
    const v7 = parseOgmiosJson(readFileSync(FILE, 'utf8')) as Block;
    let dropped = 0;
    for (const tx of v7.transactions ?? [])
      if (tx.validityInterval && Object.keys(tx.validityInterval).length === 0) {
        delete tx.validityInterval;
        dropped++;
      }
    assert.ok(dropped > 0, 'the recorded block has empty validity intervals, as 6.x sends them');
    const [a, b] = [await sync(v6), await sync(v7)];
    assert.equal(b.digest.digest, a.digest.digest);
  });

  it('a transaction without an outputs field is indexed with no outputs', async () => {
    const v7 = parseOgmiosJson(readFileSync(FILE, 'utf8')) as Block;
    // The recorded block has no output-less transaction; its first one, with its outputs and everything spending
    // them removed, has the shape 7.x sends for one.
    const [first, ...rest] = v7.transactions ?? [];
    delete (first as { outputs?: unknown }).outputs;
    v7.transactions = [first!, ...rest.filter((tx) => !(tx.inputs ?? []).some((i) => i.transaction.id === first!.id))];
    const { txs } = await sync(v7);
    assert.deepEqual(txs[0]?.outputs, []);
    assert.equal(txs[0]?.totalOutput, '0');
  });
});
