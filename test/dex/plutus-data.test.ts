import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { decodeCbor, encodeCborHex } from '../../cardano/dex/cbor.js';
import { decodeTxOutputCbor } from '../../cardano/dex/output-cbor.js';
import type { PlutusData } from '../../cardano/dex/plutus-data.js';
import {
  asAssetClass,
  asBool,
  asOption,
  asRational,
  assetClassData,
  bech32ToPlutusAddress,
  boolData,
  constr,
  decodePlutusData,
  encodePlutusData,
  optionData,
  plutusAddressToBech32,
  plutusDataToJson,
  rationalData,
} from '../../cardano/dex/plutus-data.js';
import { FIXTURES, block12069665, readJson, realBlock } from './fixtures.js';

interface Found {
  where: string;
  hex: string;
  decoded?: unknown;
}

/** Every Plutus datum in the DEX fixtures and the chain fixtures, with the fixture's own decoding when it has one. */
function allDatums(): Found[] {
  const out: Found[] = [];
  const walk = (where: string, x: unknown): void => {
    if (Array.isArray(x)) return x.forEach((y) => walk(where, y));
    if (!x || typeof x !== 'object') return;
    const o = x as Record<string, unknown>;
    for (const k of ['hex', 'cbor', 'datum', 'listingDatumCbor']) {
      const v = o[k];
      if (typeof v === 'string' && /^[0-9a-f]+$/.test(v) && v.length > 64 && !v.startsWith('a3') && !v.startsWith('84'))
        out.push({ where: `${where}:${k}`, hex: v, decoded: o['decoded'] ?? o['datumDecoded'] });
    }
    Object.values(o).forEach((y) => walk(where, y));
  };
  const files = [
    'splash/rust-test-vectors.json',
    'dexter/synthetic-order-datums.json',
    'sundaeswap/sdk-datum-golden-vectors.json',
    'wingriders/dex-serializer-test-vectors.json',
    ...readdirSync(path.join(FIXTURES, 'dex/iris')).map((f) => `iris/${f}`),
  ];
  for (const f of files) walk(f, readJson(`dex/${f}`));
  for (const h of [11321965, 11322286, 11322313] as const)
    for (const tx of realBlock(h).transactions ?? []) {
      tx.outputs.forEach((o, i) => o.datum && out.push({ where: `block ${h} ${tx.id}#${i}`, hex: o.datum }));
      for (const d of Object.values(tx.datums ?? {})) out.push({ where: `block ${h} ${tx.id} witness`, hex: d });
    }
  for (const tx of block12069665())
    tx.outputs.forEach((o, i) => o.datum && out.push({ where: `12069665 ${tx.id}#${i}`, hex: o.datum }));
  return out;
}

describe('Plutus data codec', () => {
  const datums = allDatums();

  it('finds the fixtures’ datums', () => {
    assert.ok(datums.length > 120, `only ${datums.length} datums found`);
  });

  it('decodes every real and synthetic fixture datum to what the fixture says it is', () => {
    for (const d of datums) {
      const data = decodePlutusData(d.hex);
      if (d.decoded) assert.deepEqual(plutusDataToJson(data), d.decoded, d.where);
    }
  });

  it('re-encodes every fixture datum to the same bytes (indefinite arrays and chunked bytestrings kept)', () => {
    const mismatches = datums.filter((d) => encodePlutusData(decodePlutusData(d.hex)) !== d.hex).map((d) => d.where);
    assert.deepEqual(mismatches, []);
  });

  it('reads chunked (indefinite-length) bytestrings, which cbor-x rejects: the Splash royalty-pool UTxO', () => {
    const v = readJson<{ items: Array<{ file: string; name: string; hex: string }> }>(
      'dex/splash/rust-test-vectors.json',
    );
    const royalty = v.items.find((i) => i.file.endsWith('royalty_pool.rs'));
    assert.ok(royalty);
    const out = decodeTxOutputCbor(royalty.hex);
    assert.ok(out.datum);
    assert.ok(out.datum.includes('5f5840'), 'the datum has a chunked bytestring');
    const data = decodePlutusData(out.datum);
    const json = JSON.stringify(plutusDataToJson(data));
    // The 64-byte chunks come back as one long bytestring…
    assert.match(json, /"bytes":"[0-9a-f]{200,}"/);
    // …and are split into 64-byte chunks again when written.
    assert.equal(encodePlutusData(data), out.datum);
  });

  it('encodes constructor tags 121–127, 1280+ and 102, and big integers as bignums', () => {
    assert.equal(encodePlutusData(constr(0)), 'd87980');
    assert.equal(encodePlutusData(constr(6, 1n)), 'd87f8101');
    assert.equal(encodePlutusData(constr(7)), 'd9050080');
    assert.equal(encodePlutusData(constr(127)), 'd9057880');
    assert.equal(encodePlutusData(constr(128)), 'd86682188080');
    assert.equal(encodePlutusData(2n ** 64n), 'c249010000000000000000');
    assert.equal(encodePlutusData(-(2n ** 64n) - 1n), 'c349010000000000000000');
    for (const hex of ['d9050080', 'd86682188080', 'c249010000000000000000', 'c349010000000000000000'])
      assert.equal(encodePlutusData(decodePlutusData(hex)), hex);
    assert.deepEqual(decodePlutusData('d86682188080'), { constr: 128, fields: [], indefinite: false });
  });

  it('writes fields with indefinite lengths when asked, as PlutusTx/Aiken do (empty stays 80)', () => {
    assert.equal(encodePlutusData(constr(0, 1n, constr(1)), { indefinite: true }), 'd8799f01d87a80ff');
  });

  it('rejects CBOR that is not Plutus data', () => {
    assert.throws(() => decodePlutusData('6161')); // text string
    assert.throws(() => decodePlutusData('f5')); // true
    assert.throws(() => decodePlutusData('d87980ff')); // trailing byte
  });

  const plutusData: fc.Arbitrary<PlutusData> = fc.letrec<{ d: PlutusData }>((tie) => ({
    d: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.bigInt({ min: -(2n ** 130n), max: 2n ** 130n }),
      fc.uint8Array({ maxLength: 150 }),
      fc.record({
        constr: fc.oneof(fc.nat(6), fc.integer({ min: 7, max: 127 }), fc.integer({ min: 128, max: 5000 })),
        fields: fc.array(tie('d'), { maxLength: 4 }),
        indefinite: fc.boolean(),
      }),
      fc.record({ list: fc.array(tie('d'), { maxLength: 4 }), indefinite: fc.boolean() }),
      fc.record({ map: fc.array(fc.tuple(tie('d'), tie('d')), { maxLength: 3 }), indefinite: fc.boolean() }),
    ),
  })).d;

  it('round-trips random Plutus data: decode(encode(x)) = x and encode(decode(h)) = h', () => {
    fc.assert(
      fc.property(plutusData, (d) => {
        const hex = encodePlutusData(d);
        const back = decodePlutusData(hex);
        assert.equal(encodePlutusData(back), hex);
        assert.deepEqual(plutusDataToJson(back), plutusDataToJson(d));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps CBOR encoding details for generic items', () => {
    for (const hex of ['9f0102ff', 'bf0102ff', '5f4101420203ff', 'c249010000000000000000'])
      assert.equal(encodeCborHex(decodeCbor(hex)), hex);
  });
});

describe('Plutus shapes', () => {
  it('maps Plutus addresses to the bech32 addresses seen on chain and back', () => {
    // Minswap V2 order datum field 3 (success receiver) of block 11322286 tx 13 and its own output address.
    const base =
      'addr1q88ll5n3w5kusgs65hz5zyujr43kn3t7aevjmyqc2axfr9sveldjag27wpsl8z4zgvyuqjx02x5fegay3pdvcp5mljcqduqa5c';
    const enterprise = 'addr1w8p79rpkcdz8x9d6tft0x0dx5mwuzac2sa4gm8cvkw5hcnqst2ctf';
    for (const a of [base, enterprise]) assert.equal(plutusAddressToBech32(bech32ToPlutusAddress(a)), a);
    const testnet = 'addr_test1wzcqcvlye6pz05z4lhnlh9hpw8v3ahvws6xm0rry9ahteec5pd48c';
    assert.equal(plutusAddressToBech32(bech32ToPlutusAddress(testnet), 'testnet'), testnet);
  });

  it('rejects credentials that are not 28 bytes (synthetic datums with 2-byte key hashes)', () => {
    const d = decodePlutusData('d8799fd8799f42ed56ffd87a80ff');
    assert.throws(() => plutusAddressToBech32(d));
  });

  it('reads and writes asset classes, Option, Bool and Rational', () => {
    const snek = '279c909f348e533da5808898f87f9a14bb2c3dfbbacccd631d927a3f534e454b';
    assert.equal(asAssetClass(assetClassData(snek)), snek);
    assert.equal(asAssetClass(assetClassData('lovelace')), 'lovelace');
    assert.equal(encodePlutusData(assetClassData('lovelace'), { indefinite: true }), 'd8799f4040ff');
    assert.equal(asBool(boolData(true)), true);
    assert.equal(encodePlutusData(boolData(false)), 'd87980');
    assert.equal(
      asOption(
        optionData(5n, (n) => n),
        (x) => x,
      ),
      5n,
    );
    assert.equal(
      asOption(
        optionData(null, (n: bigint) => n),
        (x) => x,
      ),
      null,
    );
    assert.deepEqual(asRational(rationalData({ num: 1256701n, den: 4507285n })), { num: 1256701n, den: 4507285n });
  });
});
