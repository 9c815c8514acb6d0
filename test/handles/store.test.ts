/**
 * The handles sync extension and the store resolver on real mainnet blocks: block 11321965 tx 0 mints the CIP-68
 * handle b-263-54 ((222) to a wallet, (100) with its datum to the Kora Labs script); block 11322313 tx 13 moves it
 * and the legacy handle rickdeckard to another wallet, after block 11322286 tx 57 re-personalised b-263-54. The blocks go through the production Ogmios client and the
 * sync like test/sync/real-blocks.test.ts.
 */
import assert from 'node:assert/strict';
import { connectOgmios } from '../../activities/chain/ogmios-client.js';
import type { Block, Transaction } from '../../cardano/chain/types.js';
import { applyHandleEvent, blockHandleEvents, createHandlesExtension } from '../../activities/handles/extension.js';
import { HANDLE_DEMI_POLICY, HANDLE_POLICY, decodeHandleDatum } from '../../cardano/handles.js';
import {
  HandleInputError,
  handlesHeldBy,
  normaliseHandle,
  resolveStoredHandle,
} from '../../mongo/collections/handles-read.js';
import { enterpriseAddress, stakeAddressOf } from '../../cardano/address.js';
import { HANDLES } from '../../mongo/collections/handles.js';
import { createSearchActivities } from '../../activities/search/index.js';
import { search } from '../../api/read/search.js';
import { startFakeOgmios } from '../chain/fake-ogmios.js';
import { realBlock, realTx } from '../dex/fixtures.js';
import { syncWith } from '../holders/sync-holders.js';
import { put } from '../../mongo/store.js';
import { tempStore } from '../sync/helpers.js';

const SYSTEM_START = Date.UTC(2017, 8, 23, 21, 44, 51);
const MAINNET_TIME = {
  'queryLedgerState/eraSummaries': () => ({
    result: [
      {
        start: { time: { seconds: 89_856_000 }, slot: 4_492_800, epoch: 208 },
        end: null,
        parameters: { epochLength: 432_000, slotLength: { milliseconds: 1000 }, safeZone: 129_600 },
      },
    ],
  }),
  'queryNetwork/startTime': () => ({ result: new Date(SYSTEM_START).toISOString() }),
};
const KORA_SCRIPT_ADDRESS = 'addr1wxktka03n943759y4pcexpmftdhzsrrv8kcd2qs8cwgtdhgg6j4ux';
const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');
const frame = (block: Block) => ({
  direction: 'forward',
  block,
  tip: { slot: block.slot, id: block.id, height: block.height },
});

/**
 * Sync the recorded blocks in order. They are not consecutive on mainnet, so each later block's header is linked to
 * the previous one (height + 1, ancestor = its id) for the sync's continuity check; transactions stay as recorded.
 */
async function syncBlocks(heights: (11321965 | 11322286 | 11322313)[]) {
  const blocks: Block[] = [];
  for (const h of heights) {
    const prev = blocks[blocks.length - 1];
    const b = realBlock(h);
    blocks.push(prev ? { ...b, height: prev.height + 1, ancestor: prev.id } : b);
  }
  const fake = await startFakeOgmios(blocks.map(frame), { queries: MAINNET_TIME });
  const client = await connectOgmios(fake.url);
  const t = await tempStore();
  await syncWith(t.store, client, [createHandlesExtension()], 10);
  await client.close();
  await fake.close();
  return t;
}

describe('handles extension on real mainnet blocks', function () {
  this.timeout(60_000);

  it('resolves $b-263-54 to the address holding its (222) token after the mint block', async () => {
    const t = await syncBlocks([11321965]);
    try {
      const mint = realTx(11321965, 0);
      const holder = mint.outputs[0]!.address;
      const h = await resolveStoredHandle(t.store, '$B-263-54');
      assert.ok(h, 'the handle is indexed');
      assert.equal(h.handle, 'b-263-54');
      assert.equal(h.kind, 'cip68');
      assert.equal(h.address, holder);
      assert.equal(h.stakeAddress, stakeAddressOf(holder));
      assert.match(h.stakeAddress!, /^stake1/);
      assert.equal(h.script, false);
      assert.equal(h.unit, `${HANDLE_POLICY}000de140${hex('b-263-54')}`);
      assert.equal(h.referenceUnit, `${HANDLE_POLICY}000643b0${hex('b-263-54')}`);
      assert.equal(h.utxo, `${mint.id}#0`);
      // From the (100) token's datum at the Kora Labs script.
      assert.equal(mint.outputs[1]!.address, KORA_SCRIPT_ADDRESS);
      assert.equal(h.image, 'ipfs://zb2rhkvhBcPDpYo8hq7CFjtAyXvmuCESEUNANVbkdxxkmEKp4');
      assert.equal(h.rarity, 'basic');
      assert.equal(h.ogNumber, 0);
      assert.equal(h.defaultHandle, false);
      assert.equal(h.mintSlot, realBlock(11321965).slot);
      const doc = await t.store.collection(HANDLES).get('b-263-54');
      assert.equal(doc?.referenceUtxo, `${mint.id}#1`);
      // Only handle tokens make documents: the block's other 13 transactions leave none.
      let n = 0;
      for await (const _ of t.store.collection(HANDLES).scan()) n++;
      assert.equal(n, 1);
      assert.deepEqual(
        (await handlesHeldBy(t.store, h.stakeAddress!)).map((x) => x.handle),
        ['b-263-54'],
      );
      assert.equal(await resolveStoredHandle(t.store, '$rickdeckard'), null, 'not in the indexed range yet');
    } finally {
      await t.cleanup();
    }
  });

  it('follows b-263-54 (CIP-68) and rickdeckard (legacy) to their next holder in block 11322313', async () => {
    const t = await syncBlocks([11321965, 11322286, 11322313]);
    try {
      const moveTx = realTx(11322313, 13);
      const holder = moveTx.outputs[0]!.address;
      const cip68 = await resolveStoredHandle(t.store, 'b-263-54');
      assert.equal(cip68?.address, holder);
      assert.notEqual(holder, realTx(11321965, 0).outputs[0]!.address, 'a different wallet than at the mint');
      assert.equal(cip68?.mintSlot, realBlock(11321965).slot, 'the mint slot is kept across moves');
      assert.equal(cip68?.updatedSlot, realBlock(11322313).slot);
      // Block 11322286 tx 57 re-personalised it: the (100) token moved with a new datum (a new image).
      const pz = realTx(11322286, 57);
      const refIndex = pz.outputs.findIndex((o) => o.address === KORA_SCRIPT_ADDRESS);
      assert.equal(cip68?.image, decodeHandleDatum(pz.outputs[refIndex]!.datum!)?.metadata.image);
      assert.equal(cip68?.image, 'ipfs://zdj7Wix1cZX3kPtjNq6xC43LUrQFERCj2nKnz7zKvPvEwHAJR');
      assert.equal((await t.store.collection(HANDLES).get('b-263-54'))?.referenceUtxo, `${pz.id}#${refIndex}`);
      const legacy = await resolveStoredHandle(t.store, 'rickdeckard');
      assert.equal(legacy?.kind, 'legacy');
      assert.equal(legacy?.address, holder);
      assert.equal(legacy?.unit, HANDLE_POLICY + hex('rickdeckard'));
      assert.equal(legacy?.mintSlot, null, 'minted before the indexed range');
      assert.equal(legacy?.referenceUnit, null);
      // The eight legacy handles block 11322286 tx 35 moves to one wallet are indexed too.
      const eventbrite = await resolveStoredHandle(t.store, '$eventbrite.ca');
      assert.equal(eventbrite?.address, realTx(11322286, 35).outputs.find((o) => o.value[HANDLE_POLICY])?.address);
    } finally {
      await t.cleanup();
    }
  });

  it('search names no handle whose holder is unknown: resolve_handle would answer "not found" for it', async () => {
    // Block 11322286 tx 57 moves b-263-54's (100) reference token (a new datum) with its (222) token. Kept alone (the
    // (222) token minted and last moved before the indexed range, as on a sync started after it), the index knows
    // the handle's datum and not who holds it. Tx 35 moves the legacy handle eventbrite.ca (holder known).
    const block = realBlock(11322286);
    const docs = blockHandleEvents(block)
      .filter(
        (e) => (e.asset.handle === 'b-263-54' && e.asset.role === 'reference') || e.asset.handle === 'eventbrite.ca',
      )
      .map((e) => applyHandleEvent(null, e, block.slot ?? 0)!);
    const t = await tempStore();
    try {
      await t.store.write(docs.map((d) => put(HANDLES, d)));
      assert.equal((await t.store.collection(HANDLES).get('b-263-54'))?.address, null);
      assert.equal(await resolveStoredHandle(t.store, '$b-263-54'), null, 'GET /handles/$b-263-54 answers 404');
      await createSearchActivities({ store: t.store }).recomputeSearchIndex();
      for (const query of ['b-263', 'b-263-54', '$b-263-54'])
        assert.deepEqual(
          (await search({ store: t.store }, { query, limit: 50 })).hits.filter((h) => h.kind === 'handle'),
          [],
          query,
        );
      // The legacy handles tx 35 moves (their holder is known) stay hits, each naming a handle that resolves.
      const hits = (await search({ store: t.store }, { query: 'eventbrite', limit: 50 })).hits;
      assert.deepEqual(
        hits.map((h) => [h.kind, h.tool, h.arguments]),
        [['handle', 'resolve_handle', { handle: '$eventbrite.ca' }]],
      );
      assert.ok(await resolveStoredHandle(t.store, '$eventbrite.ca'));
    } finally {
      await t.cleanup();
    }
  });
});

describe('handle events and documents (pure)', () => {
  const wallet = enterpriseAddress('mainnet', 'e5'.repeat(28));
  const block = (txs: Partial<Transaction>[]): Block =>
    ({ id: 'aa'.repeat(32), height: 1, slot: 100, transactions: txs }) as unknown as Block;

  it('a failed transaction moves a handle in a collateral input to its collateral return', () => {
    const name = `000de140${hex('pay@acme')}`;
    const events = blockHandleEvents(
      block([
        {
          id: 'bb'.repeat(32),
          spends: 'collaterals',
          inputs: [],
          outputs: [
            { address: KORA_SCRIPT_ADDRESS, value: { ada: { lovelace: 2n }, [HANDLE_DEMI_POLICY]: { [name]: 1n } } },
          ],
          collateralReturn: { address: wallet, value: { ada: { lovelace: 5n }, [HANDLE_DEMI_POLICY]: { [name]: 1n } } },
        },
      ]),
    );
    assert.deepEqual(
      events.map((e) => [e.kind, e.asset.handle, e.asset.kind, e.utxo, e.output?.address]),
      [['move', 'pay@acme', 'subhandle', `${'bb'.repeat(32)}#1`, wallet]],
    );
    const doc = applyHandleEvent(null, events[0]!, 100);
    assert.equal(doc?.address, wallet);
    assert.equal(doc?.stakeAddress, null);
    assert.equal(doc?.policyId, HANDLE_DEMI_POLICY);
    assert.equal(doc?.mintSlot, null);
  });

  it('burning the holder token removes the handle; burning only the reference keeps a held handle', () => {
    const user = `000de140${hex('acme')}`;
    const ref = `000643b0${hex('acme')}`;
    const mintTx = {
      id: 'cc'.repeat(32),
      spends: 'inputs' as const,
      inputs: [],
      mint: { [HANDLE_POLICY]: { [user]: 1n, [ref]: 1n } },
      outputs: [
        { address: wallet, value: { ada: { lovelace: 2n }, [HANDLE_POLICY]: { [user]: 1n } } },
        { address: KORA_SCRIPT_ADDRESS, value: { ada: { lovelace: 2n }, [HANDLE_POLICY]: { [ref]: 1n } } },
      ],
    };
    let doc = null;
    for (const e of blockHandleEvents(block([mintTx]))) doc = applyHandleEvent(doc, e, 100);
    assert.equal(doc?.referenceUtxo, `${'cc'.repeat(32)}#1`);
    assert.equal(doc?.mintSlot, 100);
    const burnRef = { id: 'dd'.repeat(32), spends: 'inputs' as const, inputs: [], outputs: [] };
    const [refBurn] = blockHandleEvents(block([{ ...burnRef, mint: { [HANDLE_POLICY]: { [ref]: -1n } } }]));
    const kept = applyHandleEvent(doc, refBurn!, 200);
    assert.equal(kept?.address, wallet);
    assert.equal(kept?.referenceUtxo, null);
    const [userBurn] = blockHandleEvents(block([{ ...burnRef, mint: { [HANDLE_POLICY]: { [user]: -1n } } }]));
    assert.equal(applyHandleEvent(kept, userBurn!, 300), null);
  });

  it('normalises $Name and rejects names that break the rule with the rule', () => {
    assert.equal(normaliseHandle('$B-263-54'), 'b-263-54');
    assert.equal(normaliseHandle('Pay@Acme'), 'pay@acme');
    for (const bad of ['$', 'a b', 'x'.repeat(29), 'a@b@c', '$émile'])
      assert.throws(() => normaliseHandle(bad), HandleInputError, bad);
  });
});
