import assert from 'node:assert/strict';
import {
  assetFingerprint,
  cip67Label,
  decimalText,
  decodeAssetName,
  lovelaceToAda,
  scaleBigInt,
  scaleInteger,
} from '../../cardano/units.js';

describe('API units', () => {
  const scaled: { name: string; raw: string; decimals: number; expected: number }[] = [
    { name: 'lovelace to whole ADA', raw: '8414601336', decimals: 6, expected: 8414.601336 },
    { name: 'less than one ADA', raw: '174785', decimals: 6, expected: 0.174785 },
    { name: 'one lovelace', raw: '1', decimals: 6, expected: 0.000001 },
    { name: 'zero', raw: '0', decimals: 6, expected: 0 },
    { name: 'a burn (negative)', raw: '-2500000', decimals: 6, expected: -2.5 },
    { name: 'no decimals', raw: '500000000000', decimals: 0, expected: 500000000000 },
    // A real WingRiders V2 share-token quantity: beyond 2^53, the nearest double of the exact decimal.
    { name: 'beyond 2^53', raw: '9223372036166189232', decimals: 6, expected: Number('9223372036166.189232') },
    { name: '45 billion ADA (max supply)', raw: '45000000000000000', decimals: 6, expected: 45e9 },
  ];
  for (const c of scaled) it(`scales ${c.name}`, () => assert.equal(scaleInteger(c.raw, c.decimals), c.expected));

  it('scales stored digit strings exactly as the BigInt arithmetic does (leading zeros, every length, 0-20 decimals)', () => {
    let seed = 7;
    const digit = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 10;
    const raws = ['0', '00', '000123', '1', '9', '10', '999999', '1000000', '45000000000000000', '9223372036166189232'];
    for (let len = 1; len <= 40; len++)
      for (let k = 0; k < 25; k++) raws.push(Array.from({ length: len }, digit).join(''));
    for (const raw of raws)
      for (let decimals = 0; decimals <= 20; decimals++) {
        const expected = scaleBigInt(raw, decimals);
        assert.ok(Object.is(scaleInteger(raw, decimals), expected), `${raw} with ${decimals} decimals: ${expected}`);
      }
  });

  it('writes an amount as exact decimal text, beyond 2^53 too', () => {
    assert.equal(decimalText(18446744073709551615n, 0), '18446744073709551615');
    assert.equal(decimalText(18446744073709551615n, 6), '18446744073709.551615');
    assert.equal(decimalText(45_000_000_000_000_000n, 6), '45000000000');
    assert.equal(decimalText(1n, 6), '0.000001');
    assert.equal(decimalText(-1_500_000n, 6), '-1.5');
    assert.equal(decimalText(0n, 8), '0');
  });

  it('converts lovelace without float multiplication error', () => {
    // 0.1 + 0.2-style drift would show here if the conversion multiplied floats.
    assert.equal(lovelaceToAda('300000'), 0.3);
    assert.equal(lovelaceToAda('1000000000000000'), 1e9);
  });

  const names: { name: string; nameHex: string; label: number | null; text: string | null }[] = [
    { name: 'a plain UTF-8 ticker', nameHex: '7273455247', label: null, text: 'rsERG' },
    { name: 'a CIP-68 fungible token (333)', nameHex: '0014df105553444d', label: 333, text: 'USDM' },
    { name: 'a CIP-68 reference NFT (100)', nameHex: '000643b04d794e4654', label: 100, text: 'MyNFT' },
    { name: 'a CIP-68 user NFT (222)', nameHex: '000de1404d794e4654', label: 222, text: 'MyNFT' },
    {
      name: 'a binary name (a pool identity hash)',
      nameHex: 'f5808c2c990d86da54bfc97d89cee6efa20cd8461616359478d96b4c',
      label: null,
      text: null,
    },
    { name: 'a name of control characters', nameHex: '0001020304', label: null, text: null },
    { name: 'the empty name', nameHex: '', label: null, text: null },
    { name: 'a label-like prefix with a bad checksum', nameHex: '0014df204142', label: null, text: null },
  ];
  for (const c of names)
    it(`decodes the asset name of ${c.name}`, () => {
      assert.equal(cip67Label(c.nameHex), c.label);
      assert.equal(decodeAssetName(c.nameHex), c.text);
    });

  // CIP-14's own test vectors (policy id, asset name hex, fingerprint), as the CIP lists them.
  const fingerprints: [string, string, string][] = [
    ['7eae28af2208be856f7a119668ae52a49b73725e326dc16579dcc373', '', 'asset1rjklcrnsdzqp65wjgrg55sy9723kw09mlgvlc3'],
    ['7eae28af2208be856f7a119668ae52a49b73725e326dc16579dcc37e', '', 'asset1nl0puwxmhas8fawxp8nx4e2q3wekg969n2auw3'],
    [
      '1e349c9bdea19fd6c147626a5260bc44b71635f398b67c59881df209',
      '504154415445',
      'asset1hv4p5tv2a837mzqrst04d0dcptdjmluqvdx9k3',
    ],
    [
      '1e349c9bdea19fd6c147626a5260bc44b71635f398b67c59881df209',
      '7eae28af2208be856f7a119668ae52a49b73725e326dc16579dcc373',
      'asset1aqrdypg669jgazruv5ah07nuyqe0wxjhe2el6f',
    ],
  ];
  it('gives the CIP-14 asset fingerprint of a unit (the CIP’s test vectors, any case)', () => {
    for (const [policy, name, fingerprint] of fingerprints) {
      assert.equal(assetFingerprint(policy + name), fingerprint);
      assert.equal(assetFingerprint((policy + name).toUpperCase()), fingerprint);
    }
  });
});
