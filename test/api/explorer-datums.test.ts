/**
 * Witness-set datums in the explorer: an output that carries only a datum hash (a DEX order, a script payment) has
 * its full datum in the witness set of a transaction (the one creating it, or the one spending it), and a
 * transaction's answer lists them (`datums`: hash and CBOR). The chain is the real mainnet blocks 11322286 and
 * 11322313 (four witness datums between them), replayed to the production client and sync. The oracle is the
 * recorded JSON, and blake2b-256 of each datum's CBOR, which must be its hash.
 */
import assert from 'node:assert/strict';
import { blake2b } from '@noble/hashes/blake2.js';
import { hex } from '@scure/base';
import type { Block } from '../../cardano/chain/types.js';
import { callToolOnce } from '../mcp/call-once.js';
import type { TestApi } from './seed.js';
import { apiOverSyncedFrames, explorerTx, recorded } from './synced-frames.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const FILES = [
  'block.mainnet-conway-11322286-slot144718140.koralabs.json',
  'block.mainnet-conway-11322313-slot144718597.koralabs.json',
];

for (const file of FILES)
  describe(`explorer: witness datums of ${file.split('.')[1]}`, function () {
    this.timeout(120_000);
    let api: TestApi;
    let block: Block;

    before(async () => {
      const r = recorded(file);
      block = r.block;
      api = await apiOverSyncedFrames([r.frame]);
    });
    after(async () => {
      await api?.close();
    });

    const tx = (hash: string): Promise<Json> => explorerTx(api, hash);

    it('every transaction lists the datums of its witness set, by hash, as recorded', async () => {
      let seen = 0;
      for (const t of block.transactions ?? []) {
        const expected = Object.entries(t.datums ?? {})
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([hash, datum]) => ({ hash, datum }));
        assert.deepEqual((await tx(t.id)).datums, expected, t.id);
        seen += expected.length;
      }
      assert.ok(seen > 0, 'the recorded block has witness datums');
    });

    it('a datum-hash output of the block shows its datum: blake2b-256 of the listed CBOR is the output’s hash', async () => {
      const t = (block.transactions ?? []).find((x) => x.outputs.some((o) => o.datumHash && x.datums?.[o.datumHash]))!;
      const body = await tx(t.id);
      const out = body.outputs.find((o: Json) => o.datumHash !== null);
      const listed = body.datums.find((d: Json) => d.hash === out.datumHash);
      assert.ok(listed, 'the output’s datum is listed');
      assert.equal(hex.encode(blake2b(hex.decode(listed.datum), { dkLen: 32 })), out.datumHash);
      assert.equal(out.datum, null, 'datum stays the inline datum, which this output has none of');
    });

    it('the tool server shows the same datums', async () => {
      const t = (block.transactions ?? []).find((x) => Object.keys(x.datums ?? {}).length > 0)!;
      const { message, text } = await callToolOnce(api.url, 'get_transaction', { hash: t.id });
      assert.equal(message.result?.isError, undefined, text);
      const datums = message.result.structuredContent.datums as Json[];
      assert.equal(datums.length, Object.keys(t.datums!).length);
      assert.deepEqual(datums, (await tx(t.id)).datums);
    });
  });
