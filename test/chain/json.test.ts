import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { safeJSON } from '@cardano-ogmios/client';
import { parseOgmiosJson, toChainEvent } from '../../activities/chain/json.js';
import type { Block } from '../../cardano/chain/types.js';

const OGMIOS = new URL('../../../shared/fixtures/chain/ogmios/', import.meta.url);
const files = [
  'real/',
  'generated-v6.14.0/chainsync/',
  'generated-v6.14.0/ledger-state/',
  'generated-v6.14.0/network/',
].flatMap((dir) => readdirSync(new URL(dir, OGMIOS)).map((f) => dir + f));
const read = (rel: string) => readFileSync(new URL(rel, OGMIOS), 'utf8');

describe('Ogmios JSON parsing', () => {
  it('gives exactly what safeJSON.parse gives on every recorded frame it can read, compact or pretty', () => {
    let compared = 0;
    for (const f of files) {
      const text = read(f);
      let expected: unknown;
      try {
        expected = safeJSON.parse(text);
      } catch {
        continue; // see the next test
      }
      assert.deepStrictEqual(parseOgmiosJson(text), expected, f);
      assert.deepStrictEqual(parseOgmiosJson(safeJSON.stringify(expected)), expected, `${f} (compact)`);
      compared++;
    }
    assert.ok(compared >= 40, `compared ${compared} frames`);
  });

  it('reads the valid frames safeJSON.parse throws on (integer-valued floats in exponent form)', () => {
    const text = read('generated-v6.14.0/chainsync/nextBlock.rollForward.conway.023.json');
    assert.throws(() => safeJSON.parse(text));
    const frame = parseOgmiosJson(text) as { result: unknown };
    const block = (toChainEvent(frame.result) as { block: Block }).block;
    const params = JSON.stringify(block, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
    assert.match(params, /"minFeeReferenceScripts":\{"base":8421946154024626000,/);
    assert.equal(typeof block.height, 'number');
  });

  it('keeps every digit of quantities beyond 2^53 and leaves look-alike digits inside strings alone', () => {
    const text = `{"result":{"value":{"ada":{"lovelace":45000000000000000},
      "f5808c2c990d86da54bfc97d89cee6efa20cd8461616359478d96b4c":{"":9223372036854775807}},
      "mint":{"aa":{"01":-9223372036854775808}},
      "note":"paid: 12345678901234567890, [ 98765432109876543210",
      "labels":{"674":{"json":{"msg":["x"],"n":18446744073709551615,"small":5}}},
      "exec":{"cpu":1234567890123456,"memory":14000000},
      "ratio":1.2345678901234567,
      "id":7}}`;
    const r = (parseOgmiosJson(text) as { result: Record<string, unknown> }).result;
    assert.deepStrictEqual(r.value, {
      ada: { lovelace: 45_000_000_000_000_000n },
      f5808c2c990d86da54bfc97d89cee6efa20cd8461616359478d96b4c: { '': 9_223_372_036_854_775_807n },
    });
    assert.deepStrictEqual(r.mint, { aa: { '01': -9_223_372_036_854_775_808n } });
    assert.equal(r.note, 'paid: 12345678901234567890, [ 98765432109876543210');
    // Metadatum integers are CBOR ints: bigint, small ones too.
    assert.deepStrictEqual(r.labels, { '674': { json: { msg: ['x'], n: 18_446_744_073_709_551_615n, small: 5n } } });
    // Other integers: bigint only when longer than 15 characters (safeJSON's rule), floats stay numbers.
    assert.deepStrictEqual(r.exec, { cpu: 1_234_567_890_123_456n, memory: 14_000_000 });
    assert.equal(r.ratio, 1.2345678901234567);
    assert.deepStrictEqual(parseOgmiosJson(text), safeJSON.parse(text));
  });

  it('keeps metadata keys safeJSON rejects or renames (anyone can write them on chain)', () => {
    const text = '{"labels":{"1":{"json":{"__proto__":{"a":1},"constructor":12345678901234567890}}}}';
    const r = parseOgmiosJson(text) as { labels: Record<string, { json: Record<string, unknown> }> };
    const json = r.labels['1']?.json as Record<string, unknown>;
    assert.deepStrictEqual(Object.keys(json), ['__proto__', 'constructor']);
    assert.deepStrictEqual(Object.getOwnPropertyDescriptor(json, '__proto__')?.value, { a: 1n });
    assert.equal(json.constructor, 12_345_678_901_234_567_890n);
    assert.equal(Object.getPrototypeOf(json), Object.prototype);
  });

  it('never mistakes a string holding the marker escapes for a number', () => {
    const text = '{"labels":{"1":{"json":"\\u0000123"}},"q":{"ada":{"lovelace":12345678901234567890}},"s":"\\u0001x"}';
    const r = parseOgmiosJson(text) as Record<string, unknown>;
    assert.deepStrictEqual(r, {
      labels: { '1': { json: '\u0000123' } },
      q: { ada: { lovelace: 12_345_678_901_234_567_890n } },
      s: '\u0001x',
    });
  });

  it('throws SyntaxError on a broken frame', () => {
    assert.throws(() => parseOgmiosJson('{"result":{"ada":{"lovelace":12345678901234567890}'), SyntaxError);
    assert.throws(() => parseOgmiosJson('{"result":'), SyntaxError);
  });
});
