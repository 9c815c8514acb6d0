/**
 * The test-side reader of real block CBOR (cbor-block.ts) against an independent decoder: mainnet block 12069665 as
 * cardano-serialization-lib decoded it (../shared/fixtures/chain/expected, PROVENANCE.md), every header field and
 * transaction (id, validity, fee, inputs, reference inputs, outputs with datums and assets) compared.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Transaction, TxOutput } from '../../cardano/chain/types.js';
import { ogmiosBlock } from './cbor-block.js';

const FIXTURES = new URL('../../../shared/fixtures/chain/', import.meta.url);

interface CslOutput {
  address: string;
  lovelace: string;
  assets: { policyId: string; assetName: string; quantity: string }[];
  datumHash: string | null;
  inlineDatum: string | null;
}
interface CslSummary {
  blockHash: string;
  height: number;
  slot: number;
  prevHash: string;
  issuerVkey: string;
  bodySize: number;
  protocolVersion: [number, number];
  txs: { id: string; valid: boolean; fee: string; inputs: string[]; referenceInputs: string[]; outputs: CslOutput[] }[];
}

describe('cbor-block: real block CBOR as Ogmios v6 JSON, checked against the CSL decode of mainnet 12069665', () => {
  const hex = readFileSync(new URL('cbor/mainnet/mainnet-conway-12069665.block.hex', FIXTURES), 'utf8').trim();
  const block = ogmiosBlock(Buffer.from(hex, 'hex'));
  const csl = JSON.parse(
    readFileSync(new URL('expected/mainnet-conway-12069665.csl-summary.json', FIXTURES), 'utf8'),
  ) as CslSummary;

  it('the header: hash, height, slot, previous block, issuer, body size, protocol version, era', () => {
    assert.deepEqual(
      [block.id, block.height, block.slot, block.ancestor, block.issuer?.verificationKey, block.size?.bytes],
      [csl.blockHash, csl.height, csl.slot, csl.prevHash, csl.issuerVkey, csl.bodySize],
    );
    const v = block.protocol?.version;
    assert.deepEqual([v?.major, v?.minor], csl.protocolVersion);
    assert.equal(block.era, 'conway');
  });

  it('every transaction: id, validity, fee, inputs, reference inputs and outputs', () => {
    const ref = (r: { transaction: { id: string }; index: number }) => `${r.transaction.id}#${r.index}`;
    assert.equal(block.transactions?.length, csl.txs.length);
    for (const [i, t] of csl.txs.entries()) {
      const tx: Transaction | undefined = block.transactions?.[i];
      assert.ok(tx);
      const fee: bigint | null = tx.fee && 'ada' in tx.fee ? tx.fee.ada.lovelace : null;
      assert.deepEqual(
        [tx.id, tx.spends === 'inputs', String(fee), tx.inputs.map(ref), (tx.references ?? []).map(ref)],
        [t.id, t.valid, t.fee, t.inputs, t.referenceInputs],
      );
      assert.deepEqual(
        tx.outputs.map((o: TxOutput) => ({
          address: o.address,
          lovelace: String(o.value.ada.lovelace),
          assets: Object.entries(o.value)
            .filter(([p]) => p !== 'ada')
            .flatMap(([policyId, names]) =>
              Object.entries(names as Record<string, bigint>).map(([assetName, q]) => ({
                policyId,
                assetName,
                quantity: String(q),
              })),
            ),
          datumHash: o.datumHash ?? null,
          inlineDatum: o.datum ?? null,
        })),
        t.outputs.map((o) => ({
          address: o.address,
          lovelace: o.lovelace,
          assets: o.assets,
          datumHash: o.datumHash,
          inlineDatum: o.inlineDatum,
        })),
        `tx ${t.id}`,
      );
    }
  });
});
