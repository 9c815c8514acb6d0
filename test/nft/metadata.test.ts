import assert from 'node:assert/strict';
import type { Transaction } from '../../cardano/chain/types.js';
import type { Cbor } from '../../cardano/dex/cbor.js';
import { encodeCborHex } from '../../cardano/dex/cbor.js';
import { LABEL, labelPrefix, splitLabel, withLabel } from '../../cardano/nft/cip67.js';
import {
  cip25Entries,
  cip68FromDatum,
  cip68ReferencesOf,
  collectionOf,
  nftMintsOf,
} from '../../activities/nft/metadata.js';
import { labelOf, metadatumFromJson } from '../../cardano/nft/metadatum.js';
import { realTx } from '../dex/fixtures.js';

const HANDLE = 'f0ff48bbb7bbe9d59a40f1ce90e9e9d0ff5002ec48f232b49ca0fb9a';
const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');

describe('CIP-67 labels', () => {
  it('builds the prefixes the reference lists (label, crc8)', () => {
    assert.equal(labelPrefix(LABEL.reference), '000643b0');
    assert.equal(labelPrefix(LABEL.nft), '000de140');
    assert.equal(labelPrefix(LABEL.ft), '0014df10');
    assert.equal(labelPrefix(LABEL.rft), '001bc280');
    assert.equal(labelPrefix(0), '00000000');
    assert.equal(labelPrefix(1), '00001070');
    assert.equal(labelPrefix(2), '000020e0');
  });

  it('splits a labelled name and rejects a bad checksum or an unlabelled name', () => {
    assert.deepEqual(splitLabel('000de140622d3236332d3534'), { label: 222, suffixHex: '622d3236332d3534' });
    assert.equal(splitLabel('000de150622d3236332d3534'), null);
    assert.equal(splitLabel(hex('rickdeckard')), null);
    assert.equal(withLabel(LABEL.reference, '622d3236332d3534'), '000643b0622d3236332d3534');
  });
});

describe('collectionOf', () => {
  it('keys collections by lowercase policy id and rejects anything else', () => {
    assert.equal(collectionOf(HANDLE.toUpperCase()), HANDLE);
    assert.throws(() => collectionOf('f0ff48'), /56 hex/);
  });
});

describe('CIP-68 mint on mainnet (block 11321965 tx 0, ADA Handle b-263-54)', () => {
  const tx = realTx(11321965, 0);

  it('the (100) datum describes the (222) user token; as an ADA Handle it is no NFT mint of a collection', () => {
    // Handles are their own feature (/wallet, resolve_handle): nftMintsOf leaves the handle policies out.
    assert.deepEqual(nftMintsOf(tx), []);
    const m = cip68ReferencesOf(tx)[0]!.datum.metadata;
    assert.equal(m.unit, `${HANDLE}000de140622d3236332d3534`);
    assert.equal(m.standard, 'cip68');
    assert.equal(m.name, '$b-263-54');
    assert.equal(m.image, 'ipfs://zb2rhkvhBcPDpYo8hq7CFjtAyXvmuCESEUNANVbkdxxkmEKp4');
    assert.equal(m.mediaType, 'image/jpeg');
    assert.equal(m.version, 1);
    assert.equal(m.attributes.rarity, 'basic');
    assert.equal(m.attributes.length, 8);
    assert.equal(m.attributes.handle_type, 'handle');
  });

  it('finds the reference output (index 1) and attributes it to the user token', () => {
    const refs = cip68ReferencesOf(tx);
    assert.equal(refs.length, 1);
    assert.equal(refs[0]!.outputIndex, 1);
    assert.equal(refs[0]!.referenceUnit, `${HANDLE}000643b0622d3236332d3534`);
    assert.equal(refs[0]!.userUnit, `${HANDLE}000de140622d3236332d3534`);
  });

  it('resolves the 721 key written as hex text to the minted asset', () => {
    const l721 = labelOf(tx.metadata, 721)!;
    const [e] = cip25Entries(l721, tx.mint);
    assert.equal(e?.assetNameHex, '000de140622d3236332d3534');
    assert.equal(e?.name, '$b-263-54');
    assert.equal(e?.standard, 'cip25');
  });

  it('a later tx that moves the (100) token with a new datum is a metadata update (block 11322286 tx 57)', () => {
    const later = realTx(11322286, 57);
    const refs = cip68ReferencesOf(later);
    assert.deepEqual(
      refs.map((r) => [r.outputIndex, r.userUnit, r.datum.metadata.name]),
      [[0, `${HANDLE}000de140622d3236332d3534`, '$b-263-54']],
    );
    // The same tx mints a (444) RFT with quantity 1: not an NFT.
    assert.deepEqual(nftMintsOf(later), []);
  });

  it('a quantity-1 mint without 721 metadata or a (222) label is not an NFT (block 11322286 tx 29)', () => {
    assert.deepEqual(nftMintsOf(realTx(11322286, 29)), []);
  });

  it('a failed tx mints nothing', () => {
    assert.deepEqual(nftMintsOf({ ...tx, spends: 'collaterals' }), []);
  });
});

describe('CIP-25 metadata variants', () => {
  const policy = 'd4473a78ae992ed6d95299e7177b45c8053d5db5495467a29ff0c780';

  it('v1: text keys, UTF-8 asset name, chunked image, files and nested attributes', () => {
    const chunks = [
      'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/',
      'a-very-long-path-that-did-not-fit-in-sixty-four-bytes.png',
    ];
    const json = {
      [policy]: {
        MocossiMagicPill00636: {
          name: 'Mocossi Magic Pill #636',
          image: chunks,
          mediaType: 'image/png',
          description: ['A pill ', 'for the brave'],
          files: [{ name: 'hi-res', mediaType: 'image/png', src: chunks }],
          attributes: { Background: 'Blue', Level: 3 },
          traits: ['Hat', 'Gold'],
          website: 'https://example.org',
        },
      },
      version: 1,
    };
    const [m] = cip25Entries(metadatumFromJson(json));
    assert.equal(m?.unit, `${policy}${hex('MocossiMagicPill00636')}`);
    assert.equal(m?.name, 'Mocossi Magic Pill #636');
    assert.equal(m?.image, chunks.join(''));
    assert.equal(m?.description, 'A pill for the brave');
    assert.deepEqual(m?.files, [{ name: 'hi-res', mediaType: 'image/png', src: chunks.join('') }]);
    assert.deepEqual(m?.attributes, {
      Background: 'Blue',
      Level: 3,
      traits: 'Hat, Gold',
      website: 'https://example.org',
    });
    assert.equal(m?.standard, 'cip25');
    assert.equal(m?.version, 1);
  });

  it('v2: bytes keys in CBOR (what Ogmios sends when a label has no JSON form)', () => {
    const b = (h: string): Cbor => ({ t: 'bytes', v: Uint8Array.from(Buffer.from(h, 'hex')) });
    const t = (s: string): Cbor => ({ t: 'text', v: s });
    const name = '000de140' + hex('pill');
    const label: Cbor = {
      t: 'map',
      indef: false,
      v: [
        [
          b(policy),
          {
            t: 'map',
            indef: false,
            v: [
              [
                b(name),
                {
                  t: 'map',
                  indef: false,
                  v: [
                    [t('name'), t('Pill')],
                    [t('image'), { t: 'array', indef: false, v: [t('ipfs://Qm'), t('abc')] }],
                    [t('edition'), { t: 'int', v: 7n }],
                  ],
                },
              ],
            ],
          },
        ],
        [t('version'), { t: 'int', v: 2n }],
      ],
    };
    const tx = { metadata: { hash: '', labels: { '721': { cbor: encodeCborHex(label) } } } } as Pick<
      Transaction,
      'metadata'
    >;
    const [m] = cip25Entries(labelOf(tx.metadata, 721)!);
    assert.equal(m?.assetNameHex, name);
    assert.equal(m?.image, 'ipfs://Qmabc');
    assert.equal(m?.version, 2);
    assert.deepEqual(m?.attributes, { edition: 7 });
  });

  it('a version written as text ("2.0", as many minting tools write it) is that version', () => {
    // v2 keys are the asset name's bytes; a tool writing JSON puts them as hex text. Read as v1, the same key
    // would be taken as the UTF-8 text "70696c6c" and name another asset.
    const label = (version: unknown) =>
      metadatumFromJson({ [policy]: { '70696c6c': { name: 'Pill', image: 'ipfs://Qm' } }, version });
    for (const written of ['2.0', '2', 2]) {
      const [m] = cip25Entries(label(written));
      assert.equal(m?.version, 2, `version ${JSON.stringify(written)}`);
      assert.equal(m?.assetNameHex, hex('pill'), `version ${JSON.stringify(written)}`);
    }
    const [v1] = cip25Entries(label('1.0'));
    assert.equal(v1?.version, 1);
    assert.equal(v1?.assetNameHex, hex('70696c6c'));
  });

  it('Ogmios detailed schema and OpenSea-style attribute lists', () => {
    const s = (x: string) => ({ string: x });
    const json = {
      map: [
        {
          k: s(policy),
          v: {
            map: [
              {
                k: s('Cat1'),
                v: {
                  map: [
                    { k: s('name'), v: s('Cat 1') },
                    { k: s('image'), v: s('ar://xyz') },
                    {
                      k: s('attributes'),
                      v: {
                        list: [
                          {
                            map: [
                              { k: s('trait_type'), v: s('Eyes') },
                              { k: s('value'), v: s('Green') },
                            ],
                          },
                        ],
                      },
                    },
                  ],
                },
              },
            ],
          },
        },
      ],
    };
    const [m] = cip25Entries(metadatumFromJson(json));
    assert.equal(m?.assetNameHex, hex('Cat1'));
    assert.equal(m?.image, 'ar://xyz');
    assert.deepEqual(m?.attributes, { Eyes: 'Green' });
  });

  it('a trait named __proto__ (anyone may write it) is kept as a trait, at the top level and in a list', () => {
    const s = (x: string) => ({ string: x });
    const trait = (type: string, value: string) => ({
      map: [
        { k: s('trait_type'), v: s(type) },
        { k: s('value'), v: s(value) },
      ],
    });
    const json = {
      map: [
        {
          k: s(policy),
          v: {
            map: [
              {
                k: s('Cat2'),
                v: {
                  map: [
                    { k: s('name'), v: s('Cat 2') },
                    { k: s('__proto__'), v: s('Top') },
                    { k: s('attributes'), v: { list: [trait('__proto__', 'Listed'), trait('Eyes', 'Blue')] } },
                  ],
                },
              },
            ],
          },
        },
      ],
    };
    const [m] = cip25Entries(metadatumFromJson(json));
    assert.deepEqual(Object.entries(m?.attributes ?? {}), [
      ['__proto__', 'Listed'],
      ['Eyes', 'Blue'],
    ]);
    assert.equal(Object.getPrototypeOf(m?.attributes), Object.prototype);
  });

  it('mint and burn extraction: 721-described quantity-1 mints; burns only of known NFTs', () => {
    const name = hex('Cat1');
    const tx: Transaction = {
      id: 'ab'.repeat(32),
      spends: 'inputs',
      inputs: [],
      outputs: [],
      mint: { [policy]: { [name]: 1n, [hex('Cat2')]: -1n, [hex('Coin')]: 1000n } },
      metadata: { hash: '', labels: { '721': { json: { [policy]: { Cat1: { name: 'Cat 1', image: 'ipfs://a' } } } } } },
    };
    assert.deepEqual(
      nftMintsOf(tx).map((m) => [m.unit, m.quantity, m.metadata?.name]),
      [[policy + name, 1n, 'Cat 1']],
    );
    const withBurn = nftMintsOf(tx, { isKnownNft: (u) => u === policy + hex('Cat2') });
    assert.deepEqual(
      withBurn.map((m) => [m.assetNameHex, m.quantity]),
      [
        [name, 1n],
        [hex('Cat2'), -1n],
      ],
    );
  });
});

describe('CIP-68 datum decoding', () => {
  it('reads C0[map, version, extra] with bytes keys and version-4 nested 721 maps', () => {
    const policy = 'e517b38693b633f1bc0dd3eb69cb1ad0f0c198c67188405901ae63a3';
    const enc = (s: string) => Uint8Array.from(Buffer.from(s, 'utf8'));
    const datum = {
      constr: 0,
      fields: [
        {
          map: [
            [enc('name'), enc('Car')],
            [enc('image'), enc('ipfs://car')],
            [enc('speed'), 300n],
          ] as Array<[Uint8Array, Uint8Array | bigint]>,
        },
        1n,
        { constr: 0, fields: [] },
      ],
    };
    const d = cip68FromDatum(datum, policy, withLabel(LABEL.reference, hex('Car')));
    assert.equal(d.metadata.unit, policy + withLabel(LABEL.nft, hex('Car')));
    assert.equal(d.metadata.name, 'Car');
    assert.equal(d.metadata.image, 'ipfs://car');
    assert.deepEqual(d.metadata.attributes, { speed: 300 });
    assert.throws(() => cip68FromDatum(datum, policy, withLabel(LABEL.nft, hex('Car'))), /reference/);

    const nested = {
      constr: 0,
      fields: [
        {
          map: [
            [enc('721'), { map: [[enc(policy), { map: [[enc('Car'), { map: [[enc('name'), enc('Car v4')]] }]] }]] }],
          ],
        },
        4n,
        1n,
      ],
    } as Parameters<typeof cip68FromDatum>[0];
    const v4 = cip68FromDatum(nested, policy, withLabel(LABEL.reference, hex('Car')));
    assert.equal(v4.metadata.name, 'Car v4');
    assert.equal(v4.version, 4);
    assert.equal(v4.metadata.standard, 'cip68');
  });
});
