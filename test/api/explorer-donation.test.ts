/**
 * A Conway transaction that gives ADA to the treasury (body key 22, Ogmios `treasury.donation`). No real recording
 * holds one, so the chain is the real mainnet block 11322286 and a block built on it in the same Ogmios v6 JSON,
 * replayed to the production client and sync. The oracle is the ledger's value preservation (Conway): consumed
 * (inputs + withdrawals + refunds) = produced (outputs + fee + deposits + donation), with the figures computed here
 * from the built transaction.
 */
import assert from 'node:assert/strict';
import { blake2b } from '@noble/hashes/blake2.js';
import { hex } from '@scure/base';
import type { Block, Transaction, TxOutput } from '../../cardano/chain/types.js';
import type { TestApi } from './seed.js';
import { apiOverSyncedFrames, forwardFrame, recorded } from './synced-frames.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const id = (label: string) => hex.encode(blake2b(new TextEncoder().encode(label), { dkLen: 32 }));
const lovelaceOf = (o: TxOutput) => (o.value.ada as { lovelace: bigint }).lovelace;

const DONATION = 7_654_321n;
const FEE = 180_000n;

describe('explorer: a transaction that gives ADA to the treasury', function () {
  this.timeout(120_000);
  let api: TestApi;
  let donor: Transaction;
  let spent: TxOutput;

  before(async () => {
    const { block, frame } = recorded('block.mainnet-conway-11322286-slot144718140.koralabs.json');
    const txs = block.transactions ?? [];
    const adaOnly = (o: TxOutput) => o.address.startsWith('addr1q') && Object.keys(o.value).length === 1;
    const source = txs.find((t) => t.outputs.some(adaOnly))!;
    const index = source.outputs.findIndex(adaOnly);
    spent = source.outputs[index]!;
    donor = {
      id: id('treasury donation'),
      spends: 'inputs',
      inputs: [{ transaction: { id: source.id }, index }],
      outputs: [{ address: spent.address, value: { ada: { lovelace: lovelaceOf(spent) - FEE - DONATION } } }],
      fee: { ada: { lovelace: FEE } },
      treasury: { donation: { ada: { lovelace: DONATION } } },
    };
    const built: Block = {
      ...block,
      id: id('block with a donation'),
      ancestor: block.id,
      height: block.height + 1,
      slot: (block.slot as number) + 20,
      transactions: [donor],
    };
    api = await apiOverSyncedFrames([frame, forwardFrame(built)]);
  });
  after(() => api?.close());

  it('shows the donation, and inputs = outputs + fee + donation', async () => {
    const r = await api.get(`/api/v1/explorer/tx/${donor.id}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const t = r.body as Json;
    assert.equal(t.treasuryDonationLovelace, String(DONATION));
    assert.equal(t.treasuryDonation, 7.654321);
    const inputs = (t.inputs as Json[]).reduce((s, i) => s + BigInt(i.lovelace), 0n);
    assert.equal(inputs, lovelaceOf(spent));
    assert.equal(inputs, BigInt(t.totalOutputLovelace) + BigInt(t.feeLovelace) + BigInt(t.treasuryDonationLovelace));
  });

  it('a transaction of the recorded block gives nothing: 0', async () => {
    const { block } = recorded('block.mainnet-conway-11322286-slot144718140.koralabs.json');
    const r = await api.get(`/api/v1/explorer/tx/${block.transactions![0]!.id}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal((r.body as Json).treasuryDonationLovelace, '0');
    assert.equal((r.body as Json).treasuryDonation, 0);
  });
});
