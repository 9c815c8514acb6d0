/**
 * An output holding a CIP-67 (100) reference token with an inline datum the CBOR reader will not decode, through the
 * production Ogmios client and sync. Anyone can mint a token named `000643b0…` under a policy of their own and lock
 * it with any datum that is valid Plutus data; the ledger bounds a datum's nesting only by the transaction size (a
 * one-element list is one CBOR byte), while the service's CBOR reader stops at 256 levels (`nesting too deep`).
 *
 * The chain is the real mainnet block 11322313 and three blocks built on it in the same Ogmios v6 JSON: a CIP-68 NFT
 * ("Relic #1": (222) to alice, (100) with its metadata datum at a script); a block where mallory locks a (100) token
 * of her own policy under a datum nested 300 lists deep, next to a CIP-25 mint of "Cats #1" to bob; then an empty
 * block. The oracle is the chain as written here.
 */
import assert from 'node:assert/strict';
import { blake2b } from '@noble/hashes/blake2.js';
import { hex } from '@scure/base';
import { baseAddress, enterpriseAddress } from '../../cardano/address.js';
import type { Block, Transaction } from '../../cardano/chain/types.js';
import { bytes, constr, encodePlutusData } from '../../cardano/dex/plutus-data.js';
import { defaultExtensions } from '../../activities/extensions.js';
import { createNftActivities } from '../../activities/nft/stats.js';
import { NFT_ASSETS } from '../../mongo/collections/nft.js';
import type { TestApi } from '../api/seed.js';
import { apiOverSyncedFrames, forwardFrame, recorded } from '../api/synced-frames.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const id = (label: string) => hex.encode(blake2b(new TextEncoder().encode(label), { dkLen: 32 }));
const utf8 = (s: string) => hex.encode(new TextEncoder().encode(s));
const RELICS = 'a1'.repeat(28);
const CATS = 'c1'.repeat(28);
const MALLORY_POLICY = 'e1'.repeat(28);
const alice = baseAddress('mainnet', '11'.repeat(28), '21'.repeat(28));
const bob = baseAddress('mainnet', '12'.repeat(28), '22'.repeat(28));
const mallory = baseAddress('mainnet', '13'.repeat(28), '23'.repeat(28));
const store = enterpriseAddress('mainnet', '14'.repeat(28), true);
const REF = `000643b0${utf8('Relic1')}`;
const USER = `000de140${utf8('Relic1')}`;
const MALLORY_REF = `000643b0${utf8('Trap')}`;

/** C0[{name, image, element}, 1, C0[]] with bytes keys and values, as CIP-68 writes it. */
const relicDatum = encodePlutusData(
  constr(
    0,
    {
      map: [
        [bytes(utf8('name')), bytes(utf8('Relic #1'))],
        [bytes(utf8('image')), bytes(utf8('ipfs://relic1'))],
        [bytes(utf8('element')), bytes(utf8('fire'))],
      ],
    },
    1n,
    constr(0),
  ),
);
/** C0[[[[…0…]]], 1, C0[]]: valid Plutus data, a metadata field nested 300 lists deep. */
const deepDatum = `d8799f${'81'.repeat(300)}0001d87980ff`;

describe('NFT sync: a (100) reference output whose datum nests deeper than the CBOR reader goes', function () {
  this.timeout(120_000);
  let api: TestApi;

  before(async () => {
    const first = recorded('block.mainnet-conway-11322313-slot144718597.koralabs.json');
    const tx = (label: string, t: Partial<Transaction>): Transaction =>
      ({
        id: id(label),
        spends: 'inputs',
        inputs: [{ transaction: { id: id(`${label} input`) }, index: 0 }],
        outputs: [],
        fee: { ada: { lovelace: 200_000n } },
        ...t,
      }) as Transaction;
    const blocks: Block[] = [];
    const next = (label: string, transactions: Transaction[]) => {
      const prev = blocks[blocks.length - 1] ?? first.block;
      blocks.push({
        ...first.block,
        id: id(label),
        ancestor: prev.id,
        height: prev.height + 1,
        slot: (prev.slot as number) + 20,
        transactions,
      } as Block);
    };
    next('relic block', [
      tx('relic mint', {
        mint: { [RELICS]: { [REF]: 1n, [USER]: 1n } },
        outputs: [
          { address: alice, value: { ada: { lovelace: 2_000_000n }, [RELICS]: { [USER]: 1n } } },
          { address: store, value: { ada: { lovelace: 2_000_000n }, [RELICS]: { [REF]: 1n } }, datum: relicDatum },
        ],
      }),
    ]);
    next('trap block', [
      tx('trap', {
        mint: { [MALLORY_POLICY]: { [MALLORY_REF]: 1n } },
        outputs: [
          {
            address: mallory,
            value: { ada: { lovelace: 2_000_000n }, [MALLORY_POLICY]: { [MALLORY_REF]: 1n } },
            datum: deepDatum,
          },
        ],
      }),
      tx('cat mint', {
        mint: { [CATS]: { [utf8('Cat1')]: 1n } },
        outputs: [{ address: bob, value: { ada: { lovelace: 2_000_000n }, [CATS]: { [utf8('Cat1')]: 1n } } }],
        metadata: {
          hash: id('cat metadata'),
          labels: { '721': { json: { [CATS]: { Cat1: { name: 'Cats #1', image: 'ipfs://cat1' } } } } },
        },
      }),
    ]);
    next('empty block', []);
    const tip = blocks[blocks.length - 1] as Block;
    api = await apiOverSyncedFrames(
      [first.frame, ...blocks.map((b) => forwardFrame(b, tip))],
      {},
      {
        extensions: defaultExtensions(),
      },
    );
    await createNftActivities({ store: api.store }).recomputeNftStats();
  });
  after(() => api?.close());

  it('indexes every block, the trap included', async () => {
    const tip = (await api.get('/api/v1/explorer/tx/' + id('trap'))).body as Json;
    assert.equal(tip.hash ?? tip.id ?? tip.txHash, id('trap'));
    const last = await api.get(`/api/v1/explorer/blocks/${id('empty block')}`);
    assert.equal(last.status, 200, JSON.stringify(last.body));
  });

  it('the CIP-25 NFT minted beside the trap is a collection, held by bob', async () => {
    const r = await api.get(`/api/v1/nft/collections/${CATS}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const c = r.body as Json;
    assert.deepEqual([c.name, c.supply, c.owners, c.minted], ['Cats', 1, 1, 1]);
    const cat = await api.store.collection(NFT_ASSETS).get(CATS + utf8('Cat1'));
    assert.equal(cat?.address, bob);
  });

  it('the CIP-68 NFT keeps the metadata of its reference datum', async () => {
    const relic = await api.store.collection(NFT_ASSETS).get(RELICS + USER);
    assert.deepEqual([relic?.name, relic?.image, relic?.address], ['Relic #1', 'ipfs://relic1', alice]);
    assert.deepEqual(relic?.attributes, [{ name: 'element', value: 'fire' }]);
  });
});
