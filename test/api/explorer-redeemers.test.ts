/**
 * Witness-set redeemers in the explorer: every Plutus script a transaction runs is handed a redeemer (what it
 * validates, its data, the execution units it may use), and a transaction's answer lists them (`redeemers`). The
 * chain is the three real mainnet Conway blocks recorded with each transaction's CBOR, replayed to the production
 * client and sync. The oracle is that CBOR, decoded here: the witness set's key 5, a map { [tag, index]: [data,
 * [memory, steps]] } (or, before Conway, a list of [tag, index, data, [memory, steps]]), tags 0-5 being spend, mint,
 * publish (a certificate), withdraw, vote and propose.
 */
import assert from 'node:assert/strict';
import { hex } from '@scure/base';
import { Decoder, Tag } from 'cbor-x';
import type { Block } from '../../cardano/chain/types.js';
import { callToolOnce } from '../mcp/call-once.js';
import type { TestApi } from './seed.js';
import { apiOverSyncedFrames, explorerTx, recorded } from './synced-frames.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const FILES = [
  'block.mainnet-conway-11321965-slot144711632.koralabs.json',
  'block.mainnet-conway-11322286-slot144718140.koralabs.json',
  'block.mainnet-conway-11322313-slot144718597.koralabs.json',
];
const PURPOSES = ['spend', 'mint', 'publish', 'withdraw', 'vote', 'propose'];
const dec = new Decoder({ mapsAsObjects: false, useRecords: false });
/** A CBOR value with its sets as lists, comparable by deepEqual (cbor-x reads tag 258 as a Set). */
const plain = (v: unknown): unknown =>
  v instanceof Set
    ? [...v].map(plain)
    : Array.isArray(v)
      ? v.map(plain)
      : v instanceof Tag
        ? new Tag(plain(v.value), v.tag)
        : v;

/** The redeemers of a transaction's CBOR, sorted by purpose and index, their data decoded. */
function redeemersOf(cbor: string): { purpose: string; index: number; data: unknown; memory: number; cpu: number }[] {
  const [, witnesses] = dec.decode(hex.decode(cbor)) as [unknown, Map<number, unknown>];
  const raw = witnesses.get(5);
  if (raw === undefined) return [];
  const entries: [number, number, unknown, [number, number]][] =
    raw instanceof Map
      ? [...raw].map(([[tag, index], [data, units]]) => [tag, index, data, units])
      : (raw as [number, number, unknown, [number, number]][]);
  return entries
    .map(([tag, index, data, [memory, cpu]]) => ({
      purpose: PURPOSES[tag]!,
      index,
      data: plain(data),
      memory: Number(memory),
      cpu: Number(cpu),
    }))
    .sort((a, b) => a.purpose.localeCompare(b.purpose) || a.index - b.index);
}

/** An answer's redeemers in the same form. */
const answered = (rs: Json[]) =>
  rs
    .map((r) => ({
      purpose: r.purpose as string,
      index: r.index as number,
      data: plain(dec.decode(hex.decode(r.redeemer))),
      memory: r.executionUnits.memory as number,
      cpu: r.executionUnits.cpu as number,
    }))
    .sort((a, b) => a.purpose.localeCompare(b.purpose) || a.index - b.index);

for (const file of FILES)
  describe(`explorer: redeemers of ${file.split('.')[1]}`, function () {
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

    it('every transaction lists the redeemers of its witness set, as its CBOR holds them', async () => {
      let seen = 0;
      for (const t of block.transactions ?? []) {
        const expected = redeemersOf((t as unknown as { cbor: string }).cbor);
        assert.deepEqual(answered((await explorerTx(api, t.id)).redeemers), expected, t.id);
        seen += expected.length;
      }
      assert.ok(seen > 0, 'the recorded block runs scripts');
    });

    it('the tool server shows the same redeemers', async () => {
      const t = (block.transactions ?? []).find((x) => (x.redeemers ?? []).length > 0)!;
      const { message, text } = await callToolOnce(api.url, 'get_transaction', { hash: t.id });
      assert.equal(message.result?.isError, undefined, text);
      const redeemers = message.result.structuredContent.redeemers as Json[];
      assert.equal(redeemers.length, t.redeemers!.length);
      assert.deepEqual(redeemers, (await explorerTx(api, t.id)).redeemers);
    });
  });
