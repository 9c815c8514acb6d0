/**
 * The tool server's caches (the tool-result cache of api/mcp/server.ts, the answer replay of api/mcp/router.ts and
 * the node:http fast path) key an answer by the sync checkpoint read before the tool ran. A result read while a block
 * landed carries that block's state: kept under the checkpoint before it, a fork rolling the chain back to that
 * checkpoint within the window had it replayed as the earlier block's answer.
 */
import assert from 'node:assert/strict';
import { CHECKPOINTS, type CheckpointDoc } from '../../mongo/collections/sync-state.js';
import { TRANSACTIONS } from '../../mongo/collections/chain.js';
import { put, type Collection, type CollectionSpec, type Store } from '../../mongo/store.js';
import { DEXHUNTER_TX, seedChain, startTestApi, type TestApi } from '../api/seed.js';

describe('tool server caches: a result read while a block landed', () => {
  let api: TestApi;
  let txReads = 0;
  let blockMidRead: (() => Promise<void>) | null = null;

  /** The store, its transaction reads counted; `blockMidRead` runs (once) inside the next one. */
  const counting = (s: Store): Store => ({
    ...s,
    kind: s.kind,
    collection: <D extends { _id: string }>(spec: CollectionSpec<D>): Collection<D> => {
      const c = s.collection(spec);
      if (spec.name !== TRANSACTIONS.name) return c;
      const counted =
        <A extends unknown[], R>(f: (...a: A) => Promise<R>) =>
        async (...a: A): Promise<R> => {
          txReads++;
          const land = blockMidRead;
          blockMidRead = null;
          if (land) await land();
          return f(...a);
        };
      return { ...c, get: counted(c.get.bind(c)), getMany: counted(c.getMany.bind(c)) };
    },
  });

  before(async () => {
    api = await startTestApi(seedChain, { cacheMs: 60_000, wrapStore: counting });
  });
  after(() => api.close());

  let id = 0;
  const call = async () => {
    const res = await fetch(`${api.url}/api/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'get_transaction',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++id,
        method: 'tools/call',
        params: {
          name: 'get_transaction',
          arguments: { hash: DEXHUNTER_TX },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { id: number; result: { isError?: boolean } };
    assert.equal(body.id, id);
    assert.notEqual(body.result.isError, true);
  };

  it('is not replayed after a rollback to the block before it; one read at a settled block is', async () => {
    const tip = (await api.store.collection(CHECKPOINTS).get('sync')) as CheckpointDoc;
    blockMidRead = () =>
      api.store.write([put(CHECKPOINTS, { ...tip, height: tip.height + 1, id: 'b'.repeat(64), slot: tip.slot + 20 })]);
    await call();
    assert.equal(blockMidRead, null, 'the block landed during the read');
    const read = txReads;
    assert.ok(read > 0);
    await api.store.write([put(CHECKPOINTS, tip)]); // a fork rolls the chain back to the tip before it
    await call();
    assert.ok(txReads > read, "the result read at the next block was replayed as the block before's");
    // Read at a settled checkpoint, the answer is kept and replayed as before.
    const settled = txReads;
    await call();
    assert.equal(txReads, settled, 'an answer read at a settled checkpoint is replayed');
  });
});
