/**
 * A block or transaction older than a store that began after origin (SYNC_START_POINT): the 404 says it is before
 * the indexed history and where that starts, instead of a plain "not found" that reads as "does not exist".
 *
 * The chain is the real mainnet block 11322286 synced alone (as a store started at the block before it). Oracle: the
 * recorded block itself. Its transactions spend outputs created by earlier transactions, which the ledger required to
 * be on chain (so they exist), and block 11322285 is its predecessor (the header's `ancestor`), a block of the chain.
 */
import assert from 'node:assert/strict';
import type { Block } from '../../cardano/chain/types.js';
import { callToolOnce } from '../mcp/call-once.js';
import type { TestApi } from './seed.js';
import { apiOverSyncedFrames, mainnetTime, recorded } from './synced-frames.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

describe('explorer: a block or transaction before the indexed history says so (a store started after origin)', function () {
  this.timeout(120_000);
  let api: TestApi;
  let block: Block;
  /** A transaction an input of the recorded block spends an output of, not in the block itself: on chain, older. */
  let olderTx: string;

  before(async () => {
    const r = recorded('block.mainnet-conway-11322286-slot144718140.koralabs.json');
    block = r.block;
    const txs = block.transactions ?? [];
    const own = new Set(txs.map((t) => t.id));
    olderTx = txs.flatMap((t) => t.inputs.map((i) => i.transaction.id)).find((id) => !own.has(id))!;
    assert.ok(olderTx, 'the block spends an output of an earlier transaction');
    api = await apiOverSyncedFrames([r.frame]);
  });
  after(() => api?.close());

  const start = () => `block ${block.height}, ${mainnetTime(block.slot!)}`;

  it('GET /explorer/tx of an older transaction names where the indexed history starts', async () => {
    const r = await api.get(`/api/v1/explorer/tx/${olderTx}`);
    assert.equal(r.status, 404);
    assert.equal(
      (r.body as Json).error,
      `transaction ${olderTx} not found (the indexed history starts at ${start()}: anything older is not indexed)`,
    );
    // The block's own transactions answer.
    assert.equal((await api.get(`/api/v1/explorer/tx/${block.transactions![0]!.id}`)).status, 200);
  });

  it('GET /explorer/blocks of the height before the first indexed block says it is before the indexed history', async () => {
    const r = await api.get(`/api/v1/explorer/blocks/${block.height - 1}`);
    assert.equal(r.status, 404);
    assert.equal(
      (r.body as Json).error,
      `block ${block.height - 1} is before the indexed history, which starts at ${start()}: older blocks are not indexed`,
    );
    // A height above the tip is plainly not found (nothing older is involved).
    assert.equal(
      ((await api.get(`/api/v1/explorer/blocks/${block.height + 1}`)).body as Json).error,
      `block ${block.height + 1} not found`,
    );
  });

  it('get_transaction of an older transaction tells the agent it predates the indexed history', async () => {
    const { message, text } = await callToolOnce(api.url, 'get_transaction', { hash: olderTx });
    const result = message.result as Json;
    assert.equal(result.isError, true, text);
    assert.match(
      result.content[0].text as string,
      new RegExp(`the indexed history starts at ${start()}: anything older is not indexed`),
    );
  });
});
