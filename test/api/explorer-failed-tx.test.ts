/**
 * A transaction whose Plutus scripts failed (phase-2 invalid, Ogmios `spends: "collaterals"`) in the explorer. No
 * real recording holds one (../shared/fixtures/chain PROVENANCE: every real block has empty invalid_transactions), so
 * the chain is the real mainnet block 11322286 and a block built on it in the same Ogmios v6 JSON, replayed to the
 * production client and sync. The oracle is the ledger rule (cardano-ledger Babbage `collOuts`, reference chain.md
 * §3): a failed transaction takes its collaterals and creates only its collateral return, at index outputs.length;
 * the outputs its body declares are never created. Figures are computed here from the built transaction.
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

/** What the failed transaction pays the ledger: its collateral minus its collateral return (no totalCollateral). */
const PENALTY = 2_345_678n;
/** An address the failed transaction's body pays, which nothing else pays: the output is never created. */
const NEVER_PAID = 'addr1vx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzers66hrl8'; // CIP-19 test vector, type 6

describe('explorer: a transaction whose scripts failed (collateral taken, outputs not created)', function () {
  this.timeout(120_000);
  let api: TestApi;
  let failed: Transaction;
  let built: Block;
  let payer = '';
  let collateral: TxOutput;
  /** The payer's unspent outputs after the recorded block, lovelace (computed from the recorded outputs). */
  let heldBefore = 0n;

  before(async () => {
    const { block, frame } = recorded('block.mainnet-conway-11322286-slot144718140.koralabs.json');
    // An ADA-only output of the recorded block at a real base address: the collateral, resolved within the sync.
    const txs = block.transactions ?? [];
    const source = txs.find((t) =>
      t.outputs.some((o) => o.address.startsWith('addr1q') && Object.keys(o.value).length === 1),
    )!;
    const index = source.outputs.findIndex((o) => o.address.startsWith('addr1q') && Object.keys(o.value).length === 1);
    collateral = source.outputs[index]!;
    payer = collateral.address;
    const spentElsewhere = txs.some((t) => t.inputs.some((i) => i.transaction.id === source.id && i.index === index));
    assert.equal(spentElsewhere, false, 'the collateral output is unspent after the recorded block');
    const spent = new Set(txs.flatMap((t) => t.inputs.map((i) => `${i.transaction.id}#${i.index}`)));
    for (const t of txs)
      t.outputs.forEach((o, i) => {
        if (o.address === payer && !spent.has(`${t.id}#${i}`)) heldBefore += lovelaceOf(o);
      });
    failed = {
      id: id('failed script'),
      spends: 'collaterals',
      // The body's inputs and outputs: neither spent nor created, since its script failed.
      inputs: [{ transaction: { id: id('script utxo') }, index: 0 }],
      outputs: [{ address: NEVER_PAID, value: { ada: { lovelace: 40_000_000n } } }],
      collaterals: [{ transaction: { id: source.id }, index }],
      collateralReturn: { address: payer, value: { ada: { lovelace: lovelaceOf(collateral) - PENALTY } } },
      fee: { ada: { lovelace: 250_000n } },
      // A donation its body declares, never given: a failed transaction pays only its collateral.
      treasury: { donation: { ada: { lovelace: 5_000_000n } } },
    };
    built = {
      ...block,
      id: id('block with a failed script'),
      ancestor: block.id,
      height: block.height + 1,
      slot: (block.slot as number) + 20,
      transactions: [failed],
    };
    api = await apiOverSyncedFrames([frame, forwardFrame(built)]);
  });
  after(async () => {
    await api?.close();
  });

  const get = async (path: string): Promise<Json> => {
    const r = await api.get(`/api/v1/explorer/${path}`);
    assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
    return r.body as Json;
  };

  it('the transaction: invalid, fee = collateral − return, total output = the collateral return it created', async () => {
    const t = await get(`tx/${failed.id}`);
    const returned = lovelaceOf(collateral) - PENALTY;
    assert.equal(t.valid, false);
    assert.equal(t.feeLovelace, String(PENALTY), 'the collateral it lost, not the 250,000 its body declares');
    assert.equal(t.collateralReturn.index, 1, 'the return sits at index outputs.length');
    assert.equal(t.collateralReturn.lovelace, String(returned));
    // The declared output is listed as the body has it, but the ledger never created it: the transaction's output
    // total is what it did create, so that collaterals = total output + fee, as a valid one's inputs balance.
    assert.deepEqual(
      t.outputs.map((o: Json) => [o.address, o.lovelace]),
      [[NEVER_PAID, '40000000']],
    );
    assert.equal(t.totalOutputLovelace, String(returned));
    assert.equal(t.totalOutput, Number(returned) / 1e6);
    assert.equal(t.treasuryDonationLovelace, '0', 'the donation its body declares was never given');
    assert.equal(
      BigInt(t.collaterals[0].lovelace),
      BigInt(t.totalOutputLovelace) + BigInt(t.feeLovelace),
      'collateral spent = total output + fee',
    );
  });

  it('the published Transaction schema says what fee is for a failed transaction (the collateral lost)', async () => {
    // An agent reading fee (2 ADA here) beside a body declaring 0.25 ADA needs the schema to say which it is.
    const r = await api.get('/api/v1/openapi.json');
    assert.equal(r.status, 200);
    const tx = (r.body as Json).paths['/explorer/tx/{hash}'].get.responses['200'].content['application/json'].schema;
    const fee = tx.properties.fee as Json;
    assert.match(fee.description, /failed transaction \(valid false\)/);
    assert.match(fee.description, /collateral it lost/);
  });

  it('the block: its fees and total output count what the failed transaction paid and created', async () => {
    const b = await get(`blocks/${built.height}`);
    assert.equal(b.txCount, 1);
    assert.equal(b.feesLovelace, String(PENALTY));
    assert.equal(b.totalOutputLovelace, String(lovelaceOf(collateral) - PENALTY));
  });

  it('addresses: the payer holds the return instead of the collateral; the declared recipient got nothing', async () => {
    const a = await get(`address/${payer}`);
    assert.equal(a.balanceLovelace, String(heldBefore - PENALTY));
    const utxos = await api.get(`/api/v1/explorer/address/${NEVER_PAID}`);
    assert.equal(utxos.status, 404, JSON.stringify(utxos.body));
    assert.equal(a.lastActivity.txHash, failed.id, 'the failed transaction is the payer’s last activity');
  });
});
